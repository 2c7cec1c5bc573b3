# An installable package with a TH-style C extension, as torch.utils.ffi's
# package/ example had it: setuptools builds the extension from build.py's
# `ffi` (cffi_modules).  thffi must be importable when this runs (copy the
# thffi/ folder beside build.py, or put its parent on PYTHONPATH).
import os

from setuptools import find_packages, setup

this_file = os.path.dirname(os.path.abspath(__file__))

setup(
    name="my_package",
    version="0.1",
    description="An example project using thffi (the torch.utils.ffi way)",
    install_requires=["cffi>=1.0.0"],
    setup_requires=["cffi>=1.0.0"],
    # Exclude the build files.  (my_package._ext.my_lib is written when
    # setuptools loads build.py, after find_packages() looked: thffi adds it.)
    packages=find_packages(exclude=["build"]),
    ext_package="",
    cffi_modules=[os.path.join(this_file, "build.py:ffi")],
)
