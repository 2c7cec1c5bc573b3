"""thffi: build TH-style C extensions for today's PyTorch, the way the legacy
torch.utils.ffi did.  See create_extension."""

__version__ = '0.1.0'

from .builder import BuildError, Extension, create_extension, INCLUDE_DIR
from .cuda import cuda_enabled, find_cuda_home

__all__ = ['BuildError', 'Extension', 'create_extension', 'cuda_enabled', 'find_cuda_home',
           'INCLUDE_DIR']
