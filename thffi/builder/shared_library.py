"""thffi's TH/THC layer as a shared library, libthffi-<version>.so: what
PyTorch's libTH/libTHC/libATen were to libraries built apart (by CMake or
make) that call TH or THC functions and that an ffi extension links.

`python -m thffi --libs` prints the flags that link such a library against
it; an extension linking such a library then shares it (configure.py)
instead of holding thffi's code itself, so that one copy of thffi's state
serves both: a THError in the library built apart ends the extension's
wrapped call with a RuntimeError, as in the extension's own code.  A
library built as against PyTorch 0.4's, its TH/THC names and `state` left
for the loader, is served the same way (serving()): the extension links
the shared library, where the loader finds them.  The
file's name carries thffi's version: libraries of two thffi versions in one
process do not mix.  It is linked once per thffi, Python, C compiler and
CUDA configuration, in the user's cache, from the cached objects of thffi's
code compiled with their symbols visible; the cache keeps it under the
digest of those objects' bytes."""

import dataclasses
import hashlib
import json
import os
import subprocess
import sysconfig
import tempfile

from ..toolchain import cuda_toolkit as cuda
from . import binaries
from .compile import cache_root, compile
from .own_objects import digest, write_atomic
from .configure import (CXX_GUARD, TH_SOURCES, THC_SOURCES, WRAP_FLAGS, BuildError, configure,
                         shared_library_name)
from .jobs import CSRC, THFFI_DIR, cc_command, nvcc_command
from .plan import Job


def serving(linked, with_cuda):
    """The shared library, for an extension linking the shared libraries
    `linked` (built apart), when one of them calls what it defines, built
    as against PyTorch 0.4's libraries: their names left for the loader,
    which finds them in the libraries the extension links.  Its symbol
    table says, not the names' look (TH* and `state` only say when to
    ask); else None."""
    undefined = binaries.symbols(linked)[0]
    if not any(n.startswith('TH') or n == 'state' for n in undefined):
        return None
    shared = library(with_cuda)
    return shared if set(undefined) & set(binaries.symbols([shared])[1]) else None


def link_flags(path):
    """The linker flags for the library at `path`, for make and CMake: its
    folder and name, and the extension's --wrap flags, so that a library
    built apart ends the wrapped call on exit(), abort() or a failed
    assert() as the extension's own objects do (the __wrap_ functions are
    the library's)."""
    folder = os.path.dirname(path)
    return ['-L' + folder, '-l:' + os.path.basename(path), '-Wl,-rpath,' + folder] + WRAP_FLAGS


def _plan(folder, with_cuda, verbose):
    """The plan of the shared library: thffi's own code, every file of it,
    with visible symbols."""
    plan = configure('_thffi_shared', [], [], folder, verbose, with_cuda, False, {})
    own = (THC_SOURCES if with_cuda else []) + TH_SOURCES + CXX_GUARD  # longest first
    jobs = []
    for i, (name, opt) in enumerate(own):
        src = os.path.join(CSRC, name)
        obj = os.path.join(plan.build_dir, 'obj%d_%s.o' % (i, os.path.splitext(name)[0]))
        command = (nvcc_command(plan, src, obj, True, hidden=False) if opt is None else
                   cc_command(plan, src, obj, opt.split(), hidden=False))
        jobs.append(Job(src, obj, command, True))
    return dataclasses.replace(plan, jobs=jobs)


def _link_command(plan, output):
    libraries = ['-lgomp', '-lm', '-lstdc++']
    if plan.with_cuda:
        runtime = cuda.find_library('cudart', plan.cuda_home)
        if runtime is None:
            raise BuildError(cuda.missing_library_message('cudart', plan.cuda_home))
        libraries += ['-L' + runtime.folder, '-l' + runtime.link] + [
            '-Wl,-rpath,' + d for d in cuda.library_dirs(plan.cuda_home)]
    cc = (os.environ.get('CC') or sysconfig.get_config_var('CC') or 'cc').split()
    return (cc + ['-shared', '-o', output] + [job.object for job in plan.jobs]
            + [os.path.join(plan.build_dir, 'home.c'),
               '-Wl,-soname,' + shared_library_name()] + WRAP_FLAGS + libraries)


def library(with_cuda, verbose=False):
    """The path of libthffi-<version>.so for this configuration (CUDA code
    or not), linked first when the cache does not hold it."""
    with tempfile.TemporaryDirectory(prefix='thffi-shared-') as tmp:
        plan = _plan(tmp, with_cuda, verbose)
        os.makedirs(plan.build_dir)
        # Its objects, from the cache or the prebuilt ones, else compiled.
        compile(plan)
        # Errors raised in thffi's code name its files in this thffi.
        write_atomic(os.path.join(plan.build_dir, 'home.c'),
                     'const char THFFI_home[] = %s;\n' % json.dumps(THFFI_DIR))
        # What the library is made of: the objects' bytes (not their cache
        # keys: a library linked from other objects under the same keys,
        # as a thffi that took the wrong ones did, is never taken for
        # this one), the link, the Python ABI (THPython.c) and this
        # thffi's folder (THFFI_home).
        key = json.dumps({'objects': [digest(job.object) for job in plan.jobs],
                          'link': _link_command(plan, '<out>'),
                          'python': sysconfig.get_config_var('EXT_SUFFIX'), 'home': THFFI_DIR},
                         sort_keys=True).replace(tmp, '<tmp>')
        folder = os.path.join(cache_root(), 'lib',
                              hashlib.sha256(key.encode()).hexdigest()[:32])
        path = os.path.join(folder, shared_library_name())
        if os.path.isfile(path):
            return path
        os.makedirs(folder, exist_ok=True)
        partial = '%s.tmp%d' % (path, os.getpid())
        result = subprocess.run(_link_command(plan, partial), capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError('linking %s failed:\n%s' % (shared_library_name(), result.stderr))
        os.replace(partial, path)
        return path
