# Builds _ext.sparse: 2018 THC code calling cuSPARSE's legacy API, which
# thffi provides over today's (docs/porting/cuda_removed.md).
from torch.utils.ffi import create_extension

ffi = create_extension('_ext.sparse', headers=['sparse_cuda.h'], sources=['sparse_cuda.c'],
                       with_cuda=True, libraries=['cusparse'], relative_to=__file__)

if __name__ == '__main__':
    ffi.build()
