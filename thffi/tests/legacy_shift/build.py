import os
import torch
from torch.utils.ffi import create_extension

sources = ['src/shift.c']
headers = ['src/shift.h']
defines = []
with_cuda = False
if torch.cuda.is_available():
    print('Including CUDA code.')
    sources += ['src/shift_cuda.c']
    headers += ['src/shift_cuda.h']
    defines += [('WITH_CUDA', None)]
    with_cuda = True

this_file = os.path.dirname(os.path.realpath(__file__))
extra_objects = [os.path.join(this_file, 'src/cuda/shift_kernel.cu.o')]
ffi = create_extension(
    '_ext.shift',
    headers=headers,
    sources=sources,
    define_macros=defines,
    relative_to=__file__,
    with_cuda=with_cuda,
    extra_objects=extra_objects)

if __name__ == '__main__':
    ffi.build()
