"""thffi: build TH-style C extensions for today's PyTorch, the way the legacy
torch.utils.ffi did.  See create_extension; thffi.ops holds what an op over
the built functions needs (c_function, adapts_inputs, register_function,
register_op), imported on first use so that building does not import torch.
The builder's names, too, are imported on first use: `python -m thffi run`
and its compilers, which import thffi, pay no build machinery at start."""

import functools
import sys

from ._version import __version__  # noqa: F401 (thffi.__version__)

_BUILDER = ('BuildError', 'Extension', 'create_extension', 'INCLUDE_DIR')
_TOOLKIT = ('cuda_enabled', 'find_cuda_home', 'nvcc_arch_flags')
_OPS = ('adapts_inputs', 'c_function', 'register_function', 'register_op')

__all__ = ['BuildError', 'Extension', 'create_extension', 'cuda_enabled', 'find_cuda_home',
           'nvcc_arch_flags', 'INCLUDE_DIR', *_OPS]


def __getattr__(name):
    if name == '_wrap_function':
        # The importer: a package __init__.py that torch.utils.ffi generated
        # and a repository committed, which would load its PyTorch 0.x
        # library next, says so instead.
        from .builder.install import stale_legacy_package
        message = stale_legacy_package(sys._getframe(1).f_globals)
        if message:
            raise ImportError(message)
        return _legacy_wrap_function
    if name in _BUILDER:
        from . import builder
        return getattr(builder, name)
    if name in _TOOLKIT:
        from .toolchain import cuda_toolkit
        return getattr(cuda_toolkit, name)
    if name in _OPS:
        from . import ops
        return getattr(ops, name)
    raise AttributeError('module %r has no attribute %r' % (__name__, name))


def _legacy_wrap_function(function, ffi):
    """torch.utils.ffi's _wrap_function, for package __init__.py files of
    that era that wrap each function of a built extension's `lib` (`from
    ._name import lib as _lib, ffi as _ffi`) themselves.  thffi's functions
    take torch tensors and raise RuntimeError on THError already, which is
    what the legacy wrapper added to cffi's: this one calls through."""
    @functools.wraps(function)
    def safe_call(*args, **kwargs):
        return function(*args, **kwargs)
    return safe_call
