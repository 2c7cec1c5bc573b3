# `pip install <this folder>` installs thffi on its own (pyproject.toml
# beside this file holds the metadata), plus the hook that makes
# `torch.utils.ffi` resolve to thffi in every process: the top-level module
# _thffi_hook (a copy of _hook.py) and thffi-torch-utils-ffi.pth, which
# imports it at interpreter start, the way setuptools provides `distutils`.
import os

from setuptools import setup
from setuptools.command.build_py import build_py

here = os.path.dirname(os.path.abspath(__file__))
PTH = 'thffi-torch-utils-ffi.pth'
PTH_LINE = 'import _thffi_hook; _thffi_hook.install_unless_disabled()\n'


class BuildPy(build_py):
    """Leaves this script out of the package and puts the hook beside it."""

    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir)
                if not (package == 'thffi' and m[1] == 'setup')]

    def run(self):
        super().run()
        # An editable install (pip install -e) links the package to this
        # folder and takes nothing from build_lib; files it should install
        # go where `install` puts them, the unpacked wheel.
        target = (self.get_finalized_command('install').install_lib if self.editable_mode
                  else self.build_lib)
        self.copy_file(os.path.join(here, '_hook.py'), os.path.join(target, '_thffi_hook.py'))
        with open(os.path.join(target, PTH), 'w') as f:
            f.write(PTH_LINE)

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + [
            os.path.join(self.build_lib, name) for name in ('_thffi_hook.py', PTH)]


setup(cmdclass={'build_py': BuildPy})
