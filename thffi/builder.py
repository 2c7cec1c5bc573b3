"""create_extension: the legacy torch.utils.ffi builder, on today's PyTorch.

`create_extension(...)` returns a cffi FFI object (as the legacy tool did, so
setuptools' `cffi_modules` can use it) with a `build()` method that writes

    <dir of relative_to>/<name as a path>/        e.g. _ext/my_lib/
        __init__.py          wrappers taking torch tensors (generated)
        _thffi_runtime.py    their shared support (copied from thffi)
        _<last name part>.*.so   the compiled library

The library links no libtorch: tensors cross as data pointers, shapes and
strides.  A build is skipped when nothing it depends on changed (a manifest
of content hashes of every file the compiler read, from gcc -MMD).

A build has four steps, each a file importing only the ones before it:
_configure.py (the configuration create_extension's arguments make),
_compile.py (thffi's own code and the .cu sources), _linking.py (the module,
the user's C sources and the link, then the check of unresolved symbols) and
_install.py (the library, its Python package and the manifest; in package
mode setuptools links, and _package.py hands it the package and the check)."""

import os

from ._configure import INCLUDE_DIR, BuildError, as_list, include_dirs
from ._install import Installed

__all__ = ['BuildError', 'Extension', 'create_extension', 'include_dirs', 'INCLUDE_DIR']

# Keyword arguments that are lists of paths, resolved against relative_to.
_PATH_LISTS = ('include_dirs', 'library_dirs', 'extra_objects', 'runtime_library_dirs')


def create_extension(name, headers, sources, verbose=True, with_cuda=False,
                     package=False, relative_to='.', **kwargs):
    """Configures a cffi extension built from TH-style C sources.

    name: dotted module path of the result, e.g. '_ext.my_lib'.
    headers: header(s) declaring the functions to export (TH types allowed).
    sources: C sources to compile.
    relative_to: a file (use __file__) whose folder the relative paths in
        headers, sources and the path keyword arguments are resolved against.
    with_cuda: compile the .cu files among the sources with nvcc, link
        the CUDA runtime, and provide <THC/THC.h>.
    package: build as part of a pip-installable package, made by setuptools
        from `cffi_modules=["build.py:ffi"]`: True when `name` is the full
        module path (legacy: 'pkg._ext.my_lib' gives pkg._ext.my_lib._my_lib),
        or the name the folder of relative_to has as a package ('pkg' with
        name '_ext.my_lib' gives the same).  The wrappers and thffi's objects
        are prepared as soon as this returns.
    kwargs: passed to the compiler and linker as setuptools' Extension takes
        them: define_macros, include_dirs, extra_compile_args,
        extra_link_args, extra_objects, libraries, library_dirs,
        runtime_library_dirs, language ('c++' compiles the generated module
        as C++ too); and extra_nvcc_args, flags for nvcc alone.
    """
    base = os.path.abspath(os.path.dirname(relative_to))
    spec = dict(kwargs)
    for key in _PATH_LISTS:
        if key in spec:
            spec[key] = [os.path.join(base, p) for p in as_list(spec[key])]
    headers = [os.path.join(base, h) for h in as_list(headers)]
    sources = [os.path.join(base, s) for s in as_list(sources)]
    return Extension(name, headers, sources, base, verbose, with_cuda, package, spec)


class Extension(Installed):
    """A cffi FFI configured for one extension; build() compiles it."""
