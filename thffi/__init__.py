"""thffi: build TH-style C extensions for today's PyTorch, the way the legacy
torch.utils.ffi did.  See create_extension."""

from .builder import BuildError, Extension, create_extension, INCLUDE_DIR

__all__ = ['BuildError', 'Extension', 'create_extension', 'INCLUDE_DIR']
