# `pip install .` installs the demo as the package `extension_ffi` (this
# folder), with thffi as its subpackage; setuptools builds the C library
# from build.py's `ffi` (cffi_modules), the legacy package/ way.  thffi
# adds the library's package, extension_ffi._ext.my_lib, staged in
# build/thffi/package/: this folder's _ext/ stays `python build.py`'s.
import os
import sys

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)  # build.py imports thffi from here
# Tells build.py to build for the package: extension_ffi._ext.my_lib._my_lib.
os.environ['THFFI_PACKAGE'] = 'extension_ffi'


class BuildPy(build_py):
    """Leaves out the scripts that sit beside the package's modules (thffi's
    setup.py installs thffi on its own)."""

    SCRIPTS = {'extension_ffi': ('setup', 'build', 'test'), 'extension_ffi.thffi': ('setup',)}

    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir)
                if m[1] not in self.SCRIPTS.get(package, ())]


setup(
    # thffi's parts, whatever folders it has (its tests stay out).
    packages=['extension_ffi', 'extension_ffi.functions', 'extension_ffi.modules',
              'extension_ffi.thffi']
    + ['extension_ffi.thffi.' + p for p in find_packages(
        os.path.join(here, 'thffi'), exclude=('tests', 'tests.*'))],
    package_dir={'extension_ffi': '.'},
    cmdclass={'build_py': BuildPy},
    ext_package='',
    cffi_modules=[os.path.join(here, 'build.py:ffi')],
)
