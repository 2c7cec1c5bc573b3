"""The folder shaped as PyTorch 0.4's torch folder that `thffi run` gives
the cmake its command starts by name (shims.py's cmake();
toolchain/torch_folder.py: what 2018 build files looked up there), so that
CMake's find_path(... TH/TH.h) and find_library(... NAMES ATen TH) find
thffi's headers and its shared TH library:

    <run folder>/torch-0.4[-cuda]/lib/include -> thffi's include folder
    <run folder>/torch-0.4[-cuda]/lib/libthffi-<version>.so -> the library
    <run folder>/torch-0.4[-cuda]/lib/libATen.so, libTH.so.1... -> libthffi-<version>.so

    <run folder>/torch-0.4[-cuda]/lib/libcufft.so, libcufft.so.12... -> CUDA's
        libraries (toolchain/libraries.py's LIBRARIES) where the toolkit or
        pip's wheels hold them (cuda_toolkit.find_library(), as --cuda-libs)

A library CMake links by that path records libthffi-<version>.so (its
soname) and the folder as its rpath, where the link finds it again.  CUDA's
libraries are there for FindCUDA-era lookups by a 2018 path
(`find_library(CUFFT_LIBRARY cufft HINTS /usr/local/cuda-9.1/lib64)`), which
CMake searches after this folder: pip's wheels hold only the versioned file
(libcufft.so.12), which no find_library of `cufft` finds; the folder holds
it by both names, so that a link records the soname and finds it again at
run time by the same rpath.
The folder is kept with the run folder (a CMake cache records the paths
it found, for a later `make`), one for builds with CUDA and one without
(THFFI_WITH_CUDA, or whether a toolkit is found, when cmake starts); its
library is linked by the first cmake that needs it, and linked again when
the file it names is gone (`python -m thffi cache --clear`)."""

import os

from ..toolchain import cuda_toolkit as cuda
from ..toolchain.torch_folder import ENVIRONMENT, HEADERS, LIBRARIES

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _link(target, path):
    """path, a symbolic link to target, made whole, then renamed."""
    try:
        if os.readlink(path) == target:
            return
    except OSError:
        pass
    partial = '%s.%d' % (path, os.getpid())
    os.symlink(target, partial)
    os.replace(partial, path)


def make(folder):
    """The folder's path under the run folder `folder`, made (or kept)."""
    with_cuda = cuda.cuda_enabled()
    torch = os.path.join(folder, 'torch-0.4-cuda' if with_cuda else 'torch-0.4')
    lib = os.path.join(torch, 'lib')
    os.makedirs(lib, exist_ok=True)
    _link(os.path.join(_PACKAGE, 'include'), os.path.join(torch, HEADERS))
    from .._version import __version__
    name = 'libthffi-%s.so' % __version__  # builder.configure's shared_library_name(), unimported
    if not os.path.isfile(os.path.join(lib, name)):
        from ..builder import shared_library
        _link(shared_library.library(with_cuda), os.path.join(lib, name))
    for library in LIBRARIES:
        _link(name, os.path.join(lib, library))
    if with_cuda:
        _cuda_libraries(lib)
    return torch


def _cuda_libraries(lib):
    """CUDA's libraries that the toolkit or pip's wheels hold, linked into
    lib by their plain name and by their file's name."""
    from ..toolchain.libraries import LIBRARIES as CUDA_LIBRARIES
    home = cuda.find_cuda_home()
    for name in CUDA_LIBRARIES:
        found = cuda.find_library(name, home)
        if found is None:
            continue
        target = os.path.realpath(found.file)
        for alias in {'lib%s.so' % name, os.path.basename(found.file)}:
            _link(target, os.path.join(lib, alias))


def environment(env, torch):
    """env, with the folder's headers and libraries first in CMake's
    search (toolchain/torch_folder.py's ENVIRONMENT)."""
    for var, relative in ENVIRONMENT:
        env[var] = os.pathsep.join([os.path.join(torch, relative)] +
                                   ([env[var]] if env.get(var) else []))
    return env
