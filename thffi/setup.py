# `pip install <this folder>` installs thffi on its own (pyproject.toml
# beside this file holds the metadata), plus the hook that makes
# `torch.utils.ffi` resolve to thffi in every process: the top-level module
# _thffi_hook (a copy of _hook.py) and thffi-torch-utils-ffi.pth, which
# imports it at interpreter start, the way setuptools provides `distutils`.
# It also compiles thffi's own C and CUDA code into the package's prebuilt/
# folder (builder/prebuilt.py), which the user's builds then take instead of
# compiling it; THFFI_PREBUILT=0 leaves it out.
import importlib.util
import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

here = os.path.dirname(os.path.abspath(__file__))
PTH = 'thffi-torch-utils-ffi.pth'
PTH_LINE = 'import _thffi_hook; _thffi_hook.install_unless_disabled()\n'


def this_thffi():
    """This folder imported as the package thffi, whatever the folder's name
    (pip may build from a copy); it imports neither torch nor setuptools."""
    spec = importlib.util.spec_from_file_location(
        'thffi', os.path.join(here, '__init__.py'), submodule_search_locations=[here])
    module = importlib.util.module_from_spec(spec)
    sys.modules['thffi'] = module
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):
    """Leaves this script out of the package, puts the hook beside it and
    the prebuilt objects in it."""

    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir)
                if not (package == 'thffi' and m[1] == 'setup')]

    def run(self):
        super().run()
        # An editable install (pip install -e) links the package to this
        # folder and takes nothing from build_lib; files it should install
        # go where `install` puts them, the unpacked wheel, and the
        # prebuilt objects into this folder.
        target = (self.get_finalized_command('install').install_lib if self.editable_mode
                  else self.build_lib)
        self.copy_file(os.path.join(here, '_hook.py'), os.path.join(target, '_thffi_hook.py'))
        with open(os.path.join(target, PTH), 'w') as f:
            f.write(PTH_LINE)
        this_thffi()
        from thffi.builder import own_objects, prebuilt
        if own_objects.prebuilt_enabled():
            # pip shows this with -v only; README says it for the others.
            sys.stderr.write('thffi: compiling thffi\'s own C (and CUDA, where nvcc is found) '
                             'once, about a minute on 2 cores; THFFI_PREBUILT=0 skips it\n')
            prebuilt.build(self._prebuilt_dir())

    def _prebuilt_dir(self):
        return os.path.join(here if self.editable_mode else os.path.join(self.build_lib, 'thffi'),
                            'prebuilt')

    def get_outputs(self, include_bytecode=True):
        folder = self._prebuilt_dir()
        prebuilt = [] if self.editable_mode else [
            os.path.join(root, name) for root, _, names in os.walk(folder) for name in names]
        return super().get_outputs(include_bytecode) + prebuilt + [
            os.path.join(self.build_lib, name) for name in ('_thffi_hook.py', PTH)]


class CompiledDistribution(Distribution):
    """The wheel holds objects compiled for this platform and Python
    (THPython.c): tagged as such, not as pure Python."""

    def has_ext_modules(self):
        return True


setup(cmdclass={'build_py': BuildPy}, distclass=CompiledDistribution)
