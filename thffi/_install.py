"""Step 4 of a build: installing the library, the Python package that
loads it, and the manifest that makes the next build a no-op when nothing
changed.

`build()` runs the steps under a lock, in a build folder; the previous
library stays in place until the new one is complete (files are written
aside, then renamed)."""

import contextlib
import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import sys
import sysconfig
import time

import cffi

from . import _codegen, _package
from ._compile import digest, write_atomic
from ._configure import HERE, compile_by_language
from ._linking import Linked

_MANIFEST = '.thffi-build.json'


class Installed(Linked):
    """An extension that builds and installs itself (build())."""

    def __init__(self, *args):
        super().__init__(*args)
        # Said in every road to a build (build(), setuptools' cffi_modules
        # and distutils_extension(), which never call build()), and again
        # by the built package when it is imported (pip hides build output).
        if not self.functions:
            sys.stderr.write('thffi: warning: %s has no functions: %s\n'
                             % (self.name, self.empty_reason()))
        if self.package:
            # setuptools compiles and links from build.py's ffi later: what
            # it links and the package's Python files must exist by then.
            compile_by_language()
            _make_package_dirs(self.base, self.name)
            shutil.rmtree(self.build_dir, ignore_errors=True)
            os.makedirs(self.build_dir)
            self._compile_objects()
            self.kwargs = self._link_kwargs()
            self._write_python_files(self.module_name.split('.')[-1])
            _package.adopt(self)
        # setuptools wants sources relative to setup.py's folder (an absolute
        # one is an error there); build() compiles from absolute paths.  The
        # module uses CPython's full API (_configure.py): setuptools must not
        # name it .abi3.so, a file every Python 3 would load.
        self.set_source(self.module_name, self.source_text,
                        source_extension=self.source_extension,
                        sources=([os.path.relpath(s, self.base) for s in self.sources]
                                 if self.package else self.sources),
                        **dict(self.kwargs, py_limited_api=False) if self.package
                        else self.kwargs)

    def _config_key(self):
        """Hash of everything but file contents that decides the output."""
        own = sorted(glob.glob(os.path.join(HERE, '*.py')))
        blob = json.dumps({
            'name': self.name,
            'functions': [repr(f) for f in self.functions],
            'kwargs': {k: self.kwargs[k] for k in sorted(self.kwargs)},
            'python': sysconfig.get_config_var('EXT_SUFFIX'),
            'cffi': cffi.__version__,
            'env': [os.environ.get(v) for v in ('CC', 'CFLAGS', 'LDFLAGS', 'CPPFLAGS')],
            'jobs': [job[2] for job in self.jobs],
            'thffi': [digest(p) for p in own],
        }, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def _manifest(self):
        try:
            with open(os.path.join(self.target_dir, _MANIFEST)) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def library_path(self):
        """The built library's file, or None before the first build."""
        name = self._manifest().get('library')
        path = name and os.path.join(self.target_dir, name)
        return path if path and os.path.isfile(path) else None

    def is_up_to_date(self):
        """Whether build() would compile nothing: the library was built with
        this configuration (arguments, compilers, flags, CUDA architectures)
        from the files it read, unchanged since."""
        manifest = self._manifest()
        if manifest.get('config') != self._config_key() or not self.library_path():
            return False
        if not os.path.isfile(os.path.join(self.target_dir, '__init__.py')):
            return False
        return all(digest(p) == h for p, h in manifest['deps'].items())

    # -- building ------------------------------------------------------------

    def build(self):
        """Compiles the extension unless it is up to date.  Returns True when
        it compiled.  The previous library stays in place until the new one
        is complete (files are written aside, then renamed)."""
        if self.is_up_to_date():
            if self.verbose:
                print('thffi: %s is up to date' % self.name)
            return False
        start = time.perf_counter()
        _make_package_dirs(self.base, self.name)
        try:
            with _locked(os.path.join(self.target_dir, '.thffi-lock')):
                if self.is_up_to_date():  # another process built it meanwhile
                    return False
                shutil.rmtree(self.build_dir, ignore_errors=True)
                os.makedirs(self.build_dir)
                try:
                    final = self._compile_and_install()
                finally:
                    shutil.rmtree(self.build_dir, ignore_errors=True)
        except BaseException:
            # A failed first build leaves nothing to import (a folder without
            # __init__.py would import as an empty namespace package).
            if os.listdir(self.target_dir) == ['.thffi-lock']:
                shutil.rmtree(self.target_dir, ignore_errors=True)
            raise
        if self.verbose:
            print('thffi: built %s in %.2f s -> %s'
                  % (self.name, time.perf_counter() - start, final))
        return True

    def empty_reason(self):
        """Why the extension has no functions (when it has none)."""
        gated = ('were they added behind a condition false on this machine, such as `if '
                 'torch.cuda.is_available():`?')
        if not self.headers:
            return 'create_extension got no header (%s)' % gated
        # thffi reads the headers it is given, as cffi's cdef did, not those
        # they include.
        included = []
        for header in self.headers:
            with open(header) as f:
                names = re.findall(r'^\s*#\s*include\s*"([^"]+)"', f.read(), re.M)
            included += [n for n in names
                         if os.path.isfile(os.path.join(os.path.dirname(header), n))]
        if included:
            return ('its headers declare none, and #include %s, which thffi does not read (list '
                    'them in headers; %s)' % (', '.join(included), gated))
        return 'its headers declare none (%s)' % gated

    def _write_python_files(self, module):
        """Writes the runtime, then __init__.py, which loads the cffi module
        `module`: the last write is the switch to a new build."""
        with open(os.path.join(HERE, 'runtime.py')) as f:
            write_atomic(os.path.join(self.target_dir, '_thffi_runtime.py'), f.read())
        write_atomic(os.path.join(self.target_dir, '__init__.py'),
                      _codegen.python_module(self.name.split('.')[-1], module,
                                             self.functions, self.with_cuda, self.sanitize,
                                             self.constants,
                                             None if self.functions else self.empty_reason()))

    def _compile_and_install(self):
        self._compile_objects()
        last = self.name.split('.')[-1]
        previous = self._manifest().get('library')
        # Outside package mode every build is a module of its own name, and
        # __init__.py, written last, names the one to load: a process that
        # imports meanwhile gets the old library or the new, never a mix.
        module = self.module_name if self.package else '_%s_%x' % (last, time.time_ns())
        built = self._link_module(module)
        # The prebuilt objects are dependencies too: a make.sh run that
        # rebuilt one means a relink.
        deps = _read_deps(self.build_dir, getattr(self, 'cuda_home', None)) | set(
            self.user_objects)
        final = os.path.join(self.target_dir, os.path.basename(built))
        os.replace(built, final)
        self._write_python_files(module.split('.')[-1])
        write_atomic(os.path.join(self.target_dir, _MANIFEST), json.dumps({
            'config': self._config_key(),
            'library': os.path.basename(final),
            'deps': {p: digest(p) for p in sorted(deps)},
        }, indent=1))
        # Libraries older than the previous build: no import can still want
        # them (one that started before the last switch loads the previous).
        for old in glob.glob(os.path.join(self.target_dir, '_%s*.so' % last)):
            if os.path.basename(old) not in (os.path.basename(final), previous):
                os.remove(old)
        return final


@contextlib.contextmanager
def _locked(path):
    with open(path, 'a') as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _make_package_dirs(root, name):
    """Creates the folders of a dotted name below root, each a package but
    the last, whose __init__.py is the build's (_write_python_files)."""
    path = root
    parts = name.split('.')
    for i, part in enumerate(parts):
        path = os.path.join(path, part)
        os.makedirs(path, exist_ok=True)
        init = os.path.join(path, '__init__.py')
        if i < len(parts) - 1 and not os.path.exists(init):
            open(init, 'a').close()


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
