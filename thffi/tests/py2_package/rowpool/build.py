import os
import torch
from torch.utils.ffi import create_extension

this_dir = os.path.dirname(os.path.realpath(__file__))
print 'Building rowpool in', this_dir
sources = [os.path.join('src', name + '.c') for name in ['rowpool']]
headers = [os.path.join('src', name + '.h') for name in ['rowpool']]
ffi = create_extension(
    '_ext.rowpool',
    headers=headers,
    sources=sources,
    relative_to=__file__,
    with_cuda=False,
    extra_compile_args=['-std=c99']
)

if __name__ == '__main__':
    ffi.build()
