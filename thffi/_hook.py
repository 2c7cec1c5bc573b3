"""torch.utils.ffi, provided by thffi: an import hook for that one name.

`import torch.utils.ffi` and `from torch.utils.ffi import create_extension`
give the package thffi/_torch_utils_ffi (thffi's public names and the
legacy module's private ones), when PyTorch has no torch.utils.ffi of its
own (it removed it in 1.0; the hook is consulted last, so a PyTorch that
has one keeps it).  No other import is affected.

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
    """A meta path finder that knows only torch.utils.ffi: the package
    thffi/_torch_utils_ffi/__init__.py, loaded under that name, so that the
    module has a file, a loader and a __path__ as PyTorch 0.4's had."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != NAME:
            return None
        import importlib.util
        # Where thffi is, without importing it (this runs in every process
        # that imports torch.utils.ffi, also where thffi is the one on
        # PYTHONPATH); none: the name stays missing, as without the hook.
        thffi = importlib.util.find_spec('thffi')
        if thffi is None or thffi.origin is None:
            return None
        folder = os.path.join(os.path.dirname(thffi.origin), '_torch_utils_ffi')
        return importlib.util.spec_from_file_location(
            NAME, os.path.join(folder, '__init__.py'), submodule_search_locations=[folder])


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
