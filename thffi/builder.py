"""create_extension: the legacy torch.utils.ffi builder, on today's PyTorch.

`create_extension(...)` returns a cffi FFI object (as the legacy tool did, so
setuptools' `cffi_modules` can use it) with a `build()` method that writes

    <dir of relative_to>/<name as a path>/        e.g. _ext/my_lib/
        __init__.py          wrappers taking torch tensors (generated)
        _thffi_runtime.py    their shared support (copied from thffi)
        _<last name part>.*.so   the compiled library

The library links no libtorch: tensors cross as data pointers, shapes and
strides.  A build is skipped when nothing it depends on changed (a manifest
of content hashes of every file the compiler read, from gcc -MMD)."""

import glob
import hashlib
import json
import os
import shutil
import sysconfig
import tempfile
import time

import cffi

from . import _codegen
from ._parse import parse_header

_HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE_DIR = os.path.join(_HERE, 'include')
_CSRC = os.path.join(_HERE, 'csrc')
_TH_SOURCES = [os.path.join(_CSRC, 'THGeneral.c'), os.path.join(_CSRC, 'THTensor.c')]
_MANIFEST = '.thffi-build.json'
# Keyword arguments that are lists of paths, resolved against relative_to.
_PATH_LISTS = ('include_dirs', 'library_dirs', 'extra_objects', 'runtime_library_dirs')


class BuildError(RuntimeError):
    """The extension could not be built; the message says why."""


def _as_list(value):
    return [value] if isinstance(value, str) else list(value or [])


def create_extension(name, headers, sources, verbose=True, with_cuda=False,
                     package=False, relative_to='.', **kwargs):
    """Configures a cffi extension built from TH-style C sources.

    name: dotted module path of the result, e.g. '_ext.my_lib'.
    headers: header(s) declaring the functions to export (TH types allowed).
    sources: C sources to compile.
    relative_to: a file (use __file__) whose folder the relative paths in
        headers, sources and the path keyword arguments are resolved against.
    kwargs: passed to the compiler and linker as setuptools' Extension takes
        them: define_macros, include_dirs, extra_compile_args,
        extra_link_args, extra_objects, libraries, library_dirs.
    """
    if with_cuda:
        raise BuildError('create_extension(with_cuda=True): the CUDA path is not '
                         'available in this version of thffi')
    if package:
        raise BuildError('create_extension(package=True): package mode is not '
                         'available in this version of thffi')
    base = os.path.abspath(os.path.dirname(relative_to))
    spec = dict(kwargs)
    for key in _PATH_LISTS:
        if key in spec:
            spec[key] = [os.path.join(base, p) for p in _as_list(spec[key])]
    headers = [os.path.join(base, h) for h in _as_list(headers)]
    sources = [os.path.join(base, s) for s in _as_list(sources)]
    return Extension(name, headers, sources, base, verbose, spec)


class Extension(cffi.FFI):
    """A cffi FFI configured for one extension; build() compiles it."""

    def __init__(self, name, headers, sources, base, verbose, kwargs):
        super().__init__()
        parts = name.split('.')
        self.name = name
        self.base = base
        self.target_dir = os.path.join(base, *parts)
        self.module_name = '_' + parts[-1]
        self.verbose = verbose
        self.headers = headers
        self.functions = []
        for header in headers:
            try:
                with open(header) as f:
                    text = f.read()
            except OSError as exc:
                raise BuildError('create_extension(%r): cannot read header %s: %s'
                                 % (name, header, exc.strerror)) from None
            self.functions += parse_header(header, text)
        for src in sources:
            if not os.path.isfile(src):
                raise BuildError('create_extension(%r): source file %s does not exist'
                                 % (name, src))
        self.cdef(_codegen.cdef(self.functions))
        # The user's headers name TH types; the legacy tool included TH first.
        user_includes = '#include <TH/TH.h>\n' + ''.join(
            '#include "%s"\n' % h for h in headers)
        self.kwargs = dict(kwargs)
        self.kwargs['include_dirs'] = [INCLUDE_DIR, _CSRC] + self.kwargs.get('include_dirs', [])
        # C99 as the legacy tool; -MMD makes gcc list each source's
        # dependencies for the up-to-date check; hidden visibility keeps the
        # TH symbols of two extensions in one process apart.
        self.kwargs['extra_compile_args'] = (
            ['-std=c99', '-O3', '-MMD', '-fvisibility=hidden']
            + _as_list(self.kwargs.get('extra_compile_args')))
        self.set_source(self.module_name,
                        user_includes + _codegen.trampolines(self.functions),
                        sources=sources + _TH_SOURCES, **self.kwargs)

    # -- the up-to-date check ------------------------------------------------

    def _config_key(self):
        """Hash of everything but file contents that decides the output."""
        own = sorted(glob.glob(os.path.join(_HERE, '*.py')))
        blob = json.dumps({
            'name': self.name,
            'functions': [repr(f) for f in self.functions],
            'kwargs': {k: self.kwargs[k] for k in sorted(self.kwargs)},
            'python': sysconfig.get_config_var('EXT_SUFFIX'),
            'cffi': cffi.__version__,
            'env': [os.environ.get(v) for v in ('CC', 'CFLAGS', 'LDFLAGS', 'CPPFLAGS')],
            'thffi': [_digest(p) for p in own],
        }, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def _library_path(self):
        path = os.path.join(self.target_dir,
                            self.module_name + sysconfig.get_config_var('EXT_SUFFIX'))
        return path if os.path.isfile(path) else None

    def is_up_to_date(self):
        try:
            with open(os.path.join(self.target_dir, _MANIFEST)) as f:
                manifest = json.load(f)
        except (OSError, ValueError):
            return False
        if manifest.get('config') != self._config_key() or not self._library_path():
            return False
        if not os.path.isfile(os.path.join(self.target_dir, '__init__.py')):
            return False
        return all(_digest(p) == h for p, h in manifest['deps'].items())

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
        tmpdir = tempfile.mkdtemp(prefix='.thffi-build-', dir=self.target_dir)
        try:
            try:
                built = self.compile(tmpdir=tmpdir, verbose=self.verbose,
                                     target=self.module_name + sysconfig.get_config_var('EXT_SUFFIX'))
            except (cffi.VerificationError, OSError) as exc:
                raise BuildError('building %s failed (compiler output above): %s'
                                 % (self.name, exc)) from None
            deps = _read_deps(tmpdir)
            final = os.path.join(self.target_dir, os.path.basename(built))
            os.replace(built, final)
            _write_atomic(os.path.join(self.target_dir, '__init__.py'),
                          _codegen.python_module(self.module_name[1:], self.functions))
            with open(os.path.join(_HERE, 'runtime.py')) as f:
                _write_atomic(os.path.join(self.target_dir, '_thffi_runtime.py'), f.read())
            _write_atomic(os.path.join(self.target_dir, _MANIFEST), json.dumps({
                'config': self._config_key(),
                'deps': {p: _digest(p) for p in sorted(deps)},
            }, indent=1))
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)
        if self.verbose:
            print('thffi: built %s in %.2f s -> %s'
                  % (self.name, time.perf_counter() - start, final))
        return True


def _make_package_dirs(root, name):
    """Creates the folders of a dotted name below root, each a package."""
    path = root
    for part in name.split('.'):
        path = os.path.join(path, part)
        os.makedirs(path, exist_ok=True)
        init = os.path.join(path, '__init__.py')
        if not os.path.exists(init):
            open(init, 'a').close()


def _digest(path):
    try:
        with open(path, 'rb') as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _read_deps(tmpdir):
    """Every file the compiler read, from the .d files of gcc -MMD, except
    the Python headers (they change only with the interpreter, which is part
    of the config key)."""
    skip = tuple(filter(None, {sysconfig.get_paths()['include'],
                               sysconfig.get_paths()['platinclude']}))
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


def _write_atomic(path, text):
    tmp = '%s.tmp%d' % (path, os.getpid())
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)
