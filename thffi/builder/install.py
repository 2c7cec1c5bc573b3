"""Step 4 of a build: install(plan, library) puts the library, the Python
package that loads it and the manifest that makes the next build a no-op
when nothing changed into the package folder, and keeps the objects of the
user's sources for the next build to reuse (last_build.py).

The previous library stays in place until the new one is complete (files
are written aside, then renamed); builder.py runs the steps under a lock
(locked())."""

import contextlib
import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import sysconfig

import cffi

from ..toolchain.manifest import MANIFEST as _MANIFEST
from . import codegen, last_build
from .own_objects import digest, write_atomic
from .jobs import THFFI_DIR


def config_key(plan):
    """Hash of everything but file contents that decides the output."""
    own = sorted(p for part in ('', 'builder', 'runtime')
                 for p in glob.glob(os.path.join(THFFI_DIR, part, '*.py')))
    blob = json.dumps({
        'name': plan.name,
        'functions': [repr(f) for f in plan.functions],
        'kwargs': {k: plan.kwargs[k] for k in sorted(plan.kwargs)},
        'python': sysconfig.get_config_var('EXT_SUFFIX'),
        'cffi': cffi.__version__,
        'env': [os.environ.get(v) for v in ('CC', 'CFLAGS', 'LDFLAGS', 'CPPFLAGS')],
        'jobs': [job.command for job in plan.jobs],
        'thffi': [digest(p) for p in own],
    }, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _manifest(plan):
    try:
        with open(os.path.join(plan.target_dir, _MANIFEST)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def library_path(plan):
    """The built library's file, or None before the first build."""
    name = _manifest(plan).get('library')
    path = name and os.path.join(plan.target_dir, name)
    return path if path and os.path.isfile(path) else None


def is_up_to_date(plan):
    """Whether a build would compile nothing: the library was built with
    this plan (arguments, compilers, flags, CUDA architectures) from the
    files it read, unchanged since."""
    manifest = _manifest(plan)
    if manifest.get('config') != config_key(plan) or not library_path(plan):
        return False
    if not os.path.isfile(os.path.join(plan.target_dir, legacy_library(plan))):
        return False
    # What `import` loads, as this build wrote it: the loader, its runtime
    # and the library the loader names (a `setup.py build_ext --inplace`,
    # an older thffi's `pip install .` or a hand edit may have replaced them).
    written = manifest.get('written')
    if not written or not all(digest(os.path.join(plan.target_dir, f)) == h
                              for f, h in written.items()):
        return False
    return all(digest(p) == h for p, h in manifest['deps'].items())


def empty_reason(plan):
    """Why the extension has no functions (when it has none)."""
    gated = ('were they added behind a condition false on this machine, such as `if '
             'torch.cuda.is_available():`? `python -m thffi port` rewrites that gate to '
             'depend on the CUDA toolkit')
    if not plan.headers:
        return 'create_extension got no header (%s)' % gated
    # thffi reads the headers it is given, as cffi's cdef did, not those
    # they include.
    included = []
    for header in plan.headers:
        with open(header) as f:
            names = re.findall(r'^\s*#\s*include\s*"([^"]+)"', f.read(), re.M)
        included += [n for n in names
                     if os.path.isfile(os.path.join(os.path.dirname(header), n))]
    if included:
        return ('its headers declare none, and #include %s, which thffi does not read (list '
                'them in headers; %s)' % (', '.join(included), gated))
    return 'its headers declare none (%s)' % gated


def legacy_library(plan):
    """The library's file name where torch.utils.ffi put it: _<name>.so,
    without a Python tag."""
    return '_%s.so' % plan.name.split('.')[-1]


def write_python_files(plan, module, library=None, absolute=False, folder=None):
    """Writes the runtime, then __init__.py, which loads the cffi module
    `module` (from the file `library` beside it, or _<name>.so; by its
    name when None, beside it, or top-level where absolute), into `folder`
    (the package folder, plan.target_dir, by default): the last write is
    the switch to a new build.  The runtime beside it serves a package
    copied where no thffi is installed; a package installed without it
    (package_data naming only the two files 0.4 wrote) takes the installed
    thffi's (codegen.python_module)."""
    folder = folder or plan.target_dir
    with open(os.path.join(THFFI_DIR, 'runtime', 'extension_runtime.py')) as f:
        write_atomic(os.path.join(folder, '_thffi_runtime.py'), f.read())
    # The headers relative to the project: no path of this machine goes
    # into the package (pip installs it elsewhere, wheels carry it away).
    headers = sorted({os.path.relpath(fn.header, plan.base) for fn in plan.functions})
    write_atomic(os.path.join(folder, '__init__.py'),
                 codegen.python_module(plan.name.split('.')[-1], module,
                                        plan.functions, headers, plan.with_cuda, plan.sanitize,
                                        plan.constants,
                                        None if plan.functions else empty_reason(plan),
                                        library, absolute))


def install(plan, library):
    """Puts `library` (link()'s, in the build folder, named after its
    module) into the package folder as _<name>.so, where torch.utils.ffi
    put it (2018 scripts move or copy that file after the build, name it
    as a Makefile target and in package_data), and under its own name,
    the same file; then the Python files that load it and the manifest.
    Removes libraries no import can still want.  Returns the library by
    its own name."""
    last = plan.name.split('.')[-1]
    previous = _manifest(plan).get('library')
    # The prebuilt objects are dependencies too: a make.sh run that
    # rebuilt one means a relink.
    deps = _read_deps(plan.build_dir, plan.cuda_home) | set(plan.user_objects)
    final = os.path.join(plan.target_dir, os.path.basename(library))
    legacy = os.path.join(plan.target_dir, legacy_library(plan))
    os.replace(library, final)
    partial = '%s.tmp%d' % (legacy, os.getpid())
    try:
        os.link(final, partial)
    except OSError:  # a file system without hard links
        shutil.copyfile(final, partial)
    os.replace(partial, legacy)
    write_python_files(plan, os.path.basename(final).split('.')[0], os.path.basename(final))
    write_atomic(os.path.join(plan.target_dir, _MANIFEST), json.dumps({
        'config': config_key(plan),
        'library': os.path.basename(final),
        'written': {f: digest(os.path.join(plan.target_dir, f))
                    for f in ('__init__.py', '_thffi_runtime.py', os.path.basename(final))},
        'deps': {p: digest(p) for p in sorted(deps)},
    }, indent=1))
    last_build.keep(plan)
    # Libraries older than the previous build: no import can still want
    # them (one that started before the last switch loads the previous).
    for old in glob.glob(os.path.join(plan.target_dir, '_%s*.so' % last)):
        if os.path.basename(old) not in (os.path.basename(final), previous,
                                         legacy_library(plan)):
            os.remove(old)
    return final


@contextlib.contextmanager
def locked(path):
    with open(path, 'a') as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def make_package_dirs(root, name):
    """Creates the folders of a dotted name below root, each a package but
    the last, whose __init__.py is the build's (write_python_files).
    Returns the parent packages' folders whose __init__.py it created,
    outermost first (remove_new_packages' argument)."""
    path = root
    parts = name.split('.')
    created = []
    for i, part in enumerate(parts):
        path = os.path.join(path, part)
        os.makedirs(path, exist_ok=True)
        init = os.path.join(path, '__init__.py')
        if i < len(parts) - 1 and not os.path.exists(init):
            open(init, 'a').close()
            created.append(path)
    return created


def remove_new_packages(created):
    """Undoes make_package_dirs after a failed first build: each parent
    package it created (innermost first) goes where it holds nothing but
    the empty __init__.py made then, so that `from _ext import my_lib`
    says there is no _ext rather than that _ext has no my_lib.  A folder
    holding anything else (another extension, the user's files) stays."""
    for path in reversed(created):
        init = os.path.join(path, '__init__.py')
        left = set(os.listdir(path)) - {'__init__.py', '__pycache__'}
        if left or not os.path.isfile(init) or os.path.getsize(init):
            return
        shutil.rmtree(path, ignore_errors=True)


def _read_deps(tmpdir, cuda_home):
    """Every file the compilers read, from the .d files of gcc -MMD and nvcc
    -MD, except system, Python and CUDA headers (they change only with the
    tools, which are part of the config key)."""
    skip = tuple(filter(None, {sysconfig.get_paths()['include'],
                               sysconfig.get_paths()['platinclude'], cuda_home,
                               cuda_home and os.path.realpath(cuda_home),
                               '/usr/include/', '/usr/lib/'}))
    deps = set()
    for root, _, files in os.walk(tmpdir):
        for name in files:
            if not name.endswith('.d'):
                continue
            with open(os.path.join(root, name)) as f:
                text = f.read().replace('\\\n', ' ')
            for dep in text.split(':', 1)[1].split():
                dep = os.path.abspath(os.path.join(tmpdir, dep))
                if not dep.startswith(tmpdir) and not dep.startswith(skip):
                    deps.add(dep)
    return deps


def stale_legacy_package(importer):
    """The message for an importer (a module's globals) that is the
    __init__.py torch.utils.ffi generated for an extension package and a
    repository committed, with no thffi build of it beside it; else None."""
    path = importer.get('__file__') or ''
    folder = os.path.dirname(path)
    if os.path.basename(path) != '__init__.py' or os.path.isfile(
            os.path.join(folder, _MANIFEST)):
        return None
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    last = os.path.basename(folder)
    if 'from ._%s import lib as _lib, ffi as _ffi' % last not in text:
        return None
    return ('%s: not built by thffi: run build.py. This __init__.py was generated by '
            'torch.utils.ffi for PyTorch 0.x (with _%s, its compiled library); thffi\'s build '
            'replaces both' % (importer.get('__name__', folder), last))
