"""A module changed as it is imported, for what `python -m thffi run`
changes in flight: removed_names.py (the names given back), behaviours.py
(PyTorch 0.x's results) and cuda_gate.py (a build's
torch.cuda.is_available()).  Each has a finder on sys.meta_path that
decides which modules and what to change; patched() gives it the module's
spec as the other finders give it, with a loader that hands the module to
a function once the module's own code ran.

Loaded by path by run's sitecustomize, as its users are (nothing of thffi
or torch is imported at start), and handed to their install()."""

import importlib.abc
import sys


class PatchingLoader(importlib.abc.Loader):
    """A module's own loader, then patch(module)."""

    def __init__(self, loader, patch):
        self.loader = loader
        self.patch = patch

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = self.loader
        self.loader.exec_module(module)
        self.patch(module)

    def __getattr__(self, name):  # get_resource_reader, is_package...
        return getattr(self.loader, name)


_ASKING = set()  # (finder, module name) while that finder asks the others


def patched(finder, fullname, path, target, patch=None):
    """The spec the finders on sys.meta_path other than `finder` give the
    module fullname, its loader a PatchingLoader calling patch(module)
    (none where patch is None), or None where none finds it.  A finder
    that asks the others is not asked back meanwhile: two such finders
    (removed_names.py's and behaviours.py's both for torch) each wrap the
    spec the other returns."""
    key = (id(finder), fullname)
    if key in _ASKING:
        return None
    _ASKING.add(key)
    try:
        for other in list(sys.meta_path):
            find = getattr(other, 'find_spec', None) if other is not finder else None
            spec = find(fullname, path, target) if find else None
            if spec is not None:
                if patch is not None and spec.loader is not None:
                    spec.loader = PatchingLoader(spec.loader, patch)
                return spec
        return None
    finally:
        _ASKING.discard(key)
