import os
import torch
import torch.utils.ffi

this_file = os.path.dirname(os.path.realpath(__file__))
print(this_file)

sources = ['src/scale_mul.c']
headers = ['src/scale_mul.h']
defines = []
with_cuda = False
extra_objects = []

if torch.cuda.is_available():
    print('Including CUDA code.')
    sources += ['src/scale_mul_cuda.c']
    headers += ['src/scale_mul_cuda.h']
    defines += [('WITH_CUDA', None)]
    with_cuda = True
    extra_objects = ['src/cuda/scale_mul_kernel.cu.o']
    extra_objects = [os.path.join(this_file, fname) for fname in extra_objects]

ffi = torch.utils.ffi.create_extension(
    '_ext.scale_mul',
    headers=headers,
    sources=sources,
    define_macros=defines,
    relative_to=__file__,
    with_cuda=with_cuda,
    extra_objects=extra_objects
)

if __name__ == '__main__':
    ffi.build()
