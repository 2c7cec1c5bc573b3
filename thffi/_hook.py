"""torch.utils.ffi, provided by thffi: an import hook for that one name.

`import torch.utils.ffi` and `from torch.utils.ffi import create_extension`
give a module holding thffi's public names (create_extension,
cuda_enabled, ...), when PyTorch has no torch.utils.ffi of its own (it
removed it in 1.0; the hook is consulted last, so a PyTorch that has one
keeps it).  No other import is affected.

Installed with the thffi distribution, this file is also the top-level
module _thffi_hook, which thffi-torch-utils-ffi.pth imports at every
interpreter start (as setuptools provides `distutils`), so that processes a
make.sh starts see the name too.  That costs one small import and no more:
thffi itself (and torch) are imported only when torch.utils.ffi is.
THFFI_TORCH_UTILS_FFI=0 in the environment turns it off.  `python -m thffi
build.py` installs the same hook in its own process."""

import os
import sys

NAME = 'torch.utils.ffi'
ENV_SWITCH = 'THFFI_TORCH_UTILS_FFI'


class TorchUtilsFfiFinder:
    """A meta path finder that knows only torch.utils.ffi."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != NAME:
            return None
        from importlib.machinery import ModuleSpec
        return ModuleSpec(NAME, self, origin='thffi')

    def create_module(self, spec):
        return None  # a plain module

    def exec_module(self, module):
        import thffi
        module.__doc__ = ('torch.utils.ffi, provided by thffi %s (%s): create_extension '
                          'builds TH-style C for today\'s PyTorch.'
                          % (thffi.__version__, os.path.dirname(thffi.__file__)))
        module.__all__ = list(thffi.__all__)
        for name in thffi.__all__:
            setattr(module, name, getattr(thffi, name))
        # _wrap_function: private, but imported by generated and
        # hand-written package __init__.py files of that era.
        module.__getattr__ = thffi.__getattr__


def install():
    """Adds the finder at the end of sys.meta_path, once (also when the
    other copy of this file installed it: compared by class name)."""
    if not any(type(f).__name__ == 'TorchUtilsFfiFinder' for f in sys.meta_path):
        sys.meta_path.append(TorchUtilsFfiFinder())


def install_unless_disabled():
    """What the .pth file runs: install(), unless THFFI_TORCH_UTILS_FFI is
    0 (or false, no, off)."""
    if os.environ.get(ENV_SWITCH, '').strip().lower() not in ('0', 'false', 'no', 'off'):
        install()
