import os

from thffi import create_extension, cuda_enabled

this_file = os.path.dirname(__file__)

sources = ['src/my_lib.c']
headers = ['src/my_lib.h']
defines = []
# CUDA code is built when a CUDA toolkit is found (no GPU needed);
# THFFI_WITH_CUDA=0 or 1 decides instead.
with_cuda = cuda_enabled()

if with_cuda:
    print('Including CUDA code.')
    sources += ['src/my_lib_cuda.c', 'src/my_lib_kernel.cu']
    headers += ['src/my_lib_cuda.h']
    defines += [('WITH_CUDA', None)]

ffi = create_extension(
    '_ext.my_lib',
    headers=headers,
    sources=sources,
    define_macros=defines,
    relative_to=__file__,
    with_cuda=with_cuda,
    # `pip install .` (setup.py) builds for the package this folder becomes.
    package=os.environ.get('THFFI_PACKAGE', False),
)

if __name__ == '__main__':
    ffi.build()
