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

import contextlib
import fcntl
import glob
import hashlib
import json
import logging
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor

import cffi

from . import _codegen, _link, cuda
from ._parse import parse_header

_HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE_DIR = os.path.join(_HERE, 'include')
_CSRC = os.path.join(_HERE, 'csrc')
# thffi's own C code, compiled apart from the user's (with its own flags, in
# parallel, and cached: see _compile_objects): (file, gcc optimisation).
# The floating-point loops get -O3; bookkeeping code compiles faster at -O1,
# and so do the 49 conversions between types (legacy code converts index
# tensors and results; at size a conversion waits on memory, not on code).
# Longest first: the jobs run on a pool as wide as the machine.
_TH_SOURCES = [('THTensorOps.c', '-O3 -fopenmp'), ('THTensorCopy.c', '-O1 -fopenmp'),
               ('THTensorMeta.c', '-O1'), ('THTensorOpsInt.c', '-O2 -fopenmp'),
               ('THPython.c', '-O2'), ('THGeneral.c', '-O1 -fopenmp'), ('THTensor.c', '-O1'),
               ('THCrash.c', '-O1'), ('THMathGen.c', '-O1'), ('THMath.c', '-O2'),
               ('THVector.c', '-O2'), ('THRandom.c', '-O1'), ('THLogAdd.c', '-O2'),
               ('THHalf.c', '-O2'), ('THStorageFunctions.c', '-O1')]
_THC_SOURCES = [('THCTensor.cu', None), ('THCHalf.cu', None), ('THCTensorCopy.cu', None),
                ('THC.c', '-O2'), ('THCBlas.c', '-O2'), ('THCTensorCopy.c', '-O2'),
                ('THCMathGen.c', '-O1'), ('THCSparse.c', '-O2')]
# thffi's own objects are cached and shared by every copy of thffi: their
# __FILE__ is relative to csrc/, and their messages name the file in the
# thffi that built the extension (csrc/thffi_private.h).
_OWN_FILE_NAMES = '-fmacro-prefix-map=%s/=' % _CSRC
# Extensions with C++ code: catches C++ exceptions leaving a wrapped function.
_CXX_GUARD = [('THCxx.cpp', '-O2')]
# exit(), abort() and a failed assert() in the extension's own objects end
# the wrapped call instead of the process (csrc/THGeneral.c).
_WRAP_FLAGS = ['-Wl,--wrap=exit,--wrap=abort,--wrap=__assert_fail']
# THFFI_SANITIZE=address: every C and C++ file compiled by gcc (the user's,
# the generated module, thffi's) gets AddressSanitizer and
# UndefinedBehaviorSanitizer (compiled and linked with this flag), with
# debug information for file:line in reports, a light optimisation that
# keeps lines exact, and its assert()s back on.
_SANITIZERS = {'address': '-fsanitize=address,undefined'}
_SANITIZE_DEBUG_FLAGS = ['-fno-omit-frame-pointer', '-g', '-O1', '-UNDEBUG']
_MANIFEST = '.thffi-build.json'
_CXX_SUFFIXES = ('.cpp', '.cc', '.cxx', '.C')
# Keyword arguments that are lists of paths, resolved against relative_to.
_PATH_LISTS = ('include_dirs', 'library_dirs', 'extra_objects', 'runtime_library_dirs')


def include_dirs():
    """The folders thffi puts on the include path of the user's code, in the
    layout torch.utils.ffi had (lib/include, lib/include/TH,
    lib/include/THC): <TH/TH.h> and <THC/THC.h>, and also "TH.h", <THC.h>,
    "THCGeneral.h"...  The CUDA toolkit's headers come on top with CUDA."""
    return [INCLUDE_DIR, os.path.join(INCLUDE_DIR, 'TH'), os.path.join(INCLUDE_DIR, 'THC')]


def _python_includes():
    """Where Python.h is, for thffi's THPython.c."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths['include'], paths['platinclude']]))


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
            spec[key] = [os.path.join(base, p) for p in _as_list(spec[key])]
    headers = [os.path.join(base, h) for h in _as_list(headers)]
    sources = [os.path.join(base, s) for s in _as_list(sources)]
    return Extension(name, headers, sources, base, verbose, with_cuda, package, spec)


class Extension(cffi.FFI):
    """A cffi FFI configured for one extension; build() compiles it."""

    def __init__(self, name, headers, sources, base, verbose, with_cuda, package, kwargs):
        super().__init__()
        parts = name.split('.')
        self.name = name
        self.base = base
        self.package = bool(package)
        self.target_dir = os.path.join(base, *parts)
        # Compiler work happens here, under a lock (one build at a time).  In
        # package mode setuptools links later, so the objects must stay.
        self.build_dir = (os.path.join(base, 'build', 'thffi', name) if package
                          else os.path.join(self.target_dir, '.thffi-build'))
        full = '%s.%s' % (package, name) if isinstance(package, str) else name
        self.module_name = ('%s._%s' % (full, parts[-1])) if self.package else '_' + parts[-1]
        self.verbose = verbose
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
        self.with_cuda = bool(with_cuda)
        self.kwargs = dict(kwargs)
        self.nvcc_args = _as_list(self.kwargs.pop('extra_nvcc_args', None))
        # thffi's folders first, as torch.utils.ffi put torch's.
        self.kwargs['include_dirs'] = include_dirs() + self.kwargs.get('include_dirs', [])
        # The generated entry points use CPython's full API (vectorcall),
        # not the limited API cffi selects by default: the module is built
        # for this Python version anyway.
        self.kwargs['define_macros'] = (_as_list(self.kwargs.get('define_macros'))
                                        + [('_CFFI_NO_LIMITED_API', None)])
        # thffi's element-wise ops use OpenMP: PyTorch's runtime, by soname.
        # TH's headers brought <math.h>, so legacy code calls libm (expf,
        # sqrt...) without -lm: the process had it loaded.
        self.kwargs['libraries'] = _as_list(self.kwargs.get('libraries')) + ['gomp', 'm']
        cuda_sources = [s for s in sources if s.endswith('.cu')]
        sources = [s for s in sources if not s.endswith('.cu')]
        if cuda_sources and not self.with_cuda:
            raise BuildError('create_extension(%r): %s is CUDA code; pass with_cuda=True'
                             % (name, cuda_sources[0]))
        self.sanitize = _sanitize_mode()
        sanitize_link = [_SANITIZERS[self.sanitize]] if self.sanitize else []
        sanitize_flags = sanitize_link + (_SANITIZE_DEBUG_FLAGS if self.sanitize else [])
        cc = os.path.basename((shlex.split(os.environ.get('CC', '')) or ['cc'])[0])
        cxx = (self.kwargs.get('language') == 'c++' or cc.endswith('++')
               or any(s.endswith(_CXX_SUFFIXES) for s in sources))
        # Code that can throw C++ exceptions: C++ sources, nvcc's host code,
        # C++ objects (make.sh's .cu.o, g++'s .o: read when this runs, after
        # make.sh, as legacy build.py files did).
        self.cxx_code = (cxx or bool(cuda_sources) or _link.CXX_RUNTIME in _link.runtime_needs(
            [o for o in _as_list(self.kwargs.get('extra_objects')) if os.path.isfile(o)]))
        own = _TH_SOURCES + (_CXX_GUARD if self.cxx_code else [])
        if self.with_cuda:
            self._configure_cuda()
            own = own + _THC_SOURCES
        # (source, object, command, cacheable): compiled before cffi links.
        self.jobs = []
        for i, (src, opt) in enumerate([(os.path.join(_CSRC, f), o) for f, o in own]
                                       + [(s, None) for s in cuda_sources]):
            obj = os.path.join(self.build_dir, 'obj%d_%s.o' % (
                i, os.path.splitext(os.path.basename(src))[0]))
            command = (self._nvcc_command(src, obj, src.startswith(_CSRC))
                       if src.endswith('.cu') else
                       self._cc_command(src, obj, opt.split() + sanitize_flags))
            self.jobs.append((src, obj, command, src.startswith(_CSRC)))
        self.user_objects = _as_list(self.kwargs.get('extra_objects'))
        self.kwargs['extra_objects'] = self.user_objects + [job[1] for job in self.jobs]
        for fn in self.functions:
            if _codegen.uses_cuda(fn) and not self.with_cuda:
                raise BuildError('create_extension(%r): %s takes CUDA tensors; pass '
                                 'with_cuda=True' % (name, fn.name))
        self.cdef_text = _codegen.cdef(self.with_cuda)
        self.cdef(self.cdef_text)
        # The user's headers name TH types; the legacy tool included TH first.
        # They declare C functions, also when the module is compiled as C++.
        user_includes = '#include <TH/TH.h>\n' + (
            '#include <THC/THC.h>\n' if self.with_cuda else '') + (
            '#ifdef __cplusplus\nextern "C" {\n#endif\n') + ''.join(
            '#include "%s"\n' % h for h in headers) + '#ifdef __cplusplus\n}\n#endif\n'
        # -MMD makes gcc list each source's dependencies for the up-to-date
        # check; hidden visibility keeps the TH symbols of two extensions in
        # one process apart.
        # Legacy C puns tensor types and leans on implicit declarations,
        # which GCC 14 makes errors: keep them warnings.  (g++ takes these
        # C-only switches silently, so C sources beside C++ ones get them.)
        flags = ['-O3', '-MMD', '-fvisibility=hidden', '-Wno-error=incompatible-pointer-types',
                 '-Wno-error=implicit-function-declaration', '-Wno-error=int-conversion']
        if not cxx:
            flags = ['-std=c99'] + flags  # as the legacy tool
        if self.cxx_code:
            # THCxx.cpp needs the C++ runtime; C frames between a throw and
            # THFFI_cxxCall (the generated module's, C sources') pass the
            # exception on.
            if 'stdc++' not in self.kwargs['libraries']:
                self.kwargs['libraries'] = self.kwargs['libraries'] + ['stdc++']
            flags.append('-fexceptions')
        self.kwargs['extra_compile_args'] = flags + _as_list(
            self.kwargs.get('extra_compile_args')) + sanitize_flags
        self.kwargs['extra_link_args'] = (_as_list(self.kwargs.get('extra_link_args'))
                                          + _WRAP_FLAGS + sanitize_link)
        self.source_text = user_includes + _codegen.module_source(self.functions, _HERE,
                                                                  self.cxx_code)
        self.source_extension = '.cpp' if self.kwargs.get('language') == 'c++' else '.c'
        self.sources = sources
        if self.package:
            # setuptools links from build.py's ffi later: what it links and
            # the package's Python files must exist by then.
            _make_package_dirs(self.base, self.name)
            shutil.rmtree(self.build_dir, ignore_errors=True)
            os.makedirs(self.build_dir)
            self._compile_objects()
            self.kwargs = self._link_kwargs()
            self._write_python_files(self.module_name.split('.')[-1])
        # setuptools wants sources relative to setup.py's folder (an absolute
        # one is an error there); build() compiles from absolute paths.
        self.set_source(self.module_name, self.source_text,
                        source_extension=self.source_extension,
                        sources=[os.path.relpath(s, base) for s in sources] if self.package
                        else sources, **self.kwargs)

    def _configure_cuda(self):
        home = cuda.find_cuda_home()
        if home is None:
            raise BuildError(cuda.missing_toolkit_message(
                'create_extension(%r, with_cuda=True)' % self.name))
        self.cuda_home = home
        self.nvcc = os.path.join(home, 'bin', 'nvcc')
        arch_spec, self.arch_source = cuda.arch_list()
        try:
            self.arch_flags = cuda.arch_flags(arch_spec)
        except ValueError as exc:
            raise BuildError('%s (from %s)' % (exc, self.arch_source)) from None
        libdir = cuda.library_dir(home)
        kw = self.kwargs
        kw['include_dirs'] = kw['include_dirs'] + [os.path.join(home, 'include')]
        # The shared CUDA runtime, found by its soname: in a process where
        # PyTorch already loaded libcudart.so.<major>, that one is used (one
        # runtime, one current device); the rpath is the fallback for
        # processes without it (a CPU-only torch).
        # nvcc's host code is C++: it needs the C++ runtime, as torch does.
        kw['libraries'] = _as_list(kw.get('libraries')) + ['cudart', 'stdc++']
        kw['library_dirs'] = _as_list(kw.get('library_dirs')) + [libdir]
        kw['runtime_library_dirs'] = _as_list(kw.get('runtime_library_dirs')) + [libdir]

    def _nvcc_command(self, source, obj, own):
        """nvcc command for a .cu file: the user's include folders and macros,
        or for thffi's own code (cached for every extension) its own
        headers and none of the user's."""
        host, defines = '-fPIC,-fvisibility=hidden', []
        if own:
            includes = [INCLUDE_DIR, _CSRC, os.path.join(self.cuda_home, 'include')]
            host += ',' + _OWN_FILE_NAMES
        else:
            includes = self.kwargs['include_dirs']
            for macro in self.kwargs.get('define_macros', []):
                name, value = (macro, None) if isinstance(macro, str) else macro
                defines.append('-D%s' % name if value is None else '-D%s=%s' % (name, value))
        return ([self.nvcc, '-c', source, '-o', obj, '-MD', '-MF', obj[:-2] + '.d',
                 '-O3', '-std=c++17', '-Xcompiler', host,
                 # compile the architectures in parallel
                 '--threads', '0']
                + ['-I' + d for d in includes] + defines
                + self.arch_flags + self.nvcc_args)

    def _cc_command(self, source, obj, flags):
        """gcc (g++ for .cpp) command for one of thffi's own files."""
        cxx = source.endswith('.cpp')
        cc = shlex.split(os.environ.get('CXX' if cxx else 'CC')
                         or sysconfig.get_config_var('CXX' if cxx else 'CC')
                         or ('c++' if cxx else 'cc'))
        includes = [INCLUDE_DIR, _CSRC] + _python_includes() + (
            [os.path.join(self.cuda_home, 'include')] if self.with_cuda else [])
        return (cc + ['-c', source, '-o', obj, '-MMD', '-MF', obj[:-2] + '.d'] + flags
                + ['-std=c++11' if cxx else '-std=c99', '-fPIC', '-fvisibility=hidden', '-Wall',
                   _OWN_FILE_NAMES]
                + ['-I' + d for d in includes])

    def _compile_objects(self):
        """Compiles thffi's own code and the .cu sources, in parallel.  thffi's
        objects come from the cache when it has them."""
        if self.verbose and self.with_cuda:
            print('thffi: nvcc for %s (architectures from %s)'
                  % (' '.join(self.arch_flags), self.arch_source))

        def run(job):
            """(the compiler's result, the cache entry it came from or None)"""
            src, obj, command, cacheable = job
            try:
                cached = _cached_object(command, obj) if cacheable else None
                if cached and cached.fetch():
                    return subprocess.CompletedProcess(command, 0, '', ''), cached.folder
                result = subprocess.run(command, capture_output=True, text=True)
            except FileNotFoundError:
                raise BuildError(_missing_compiler(command[0])) from None
            if cached and result.returncode == 0:
                cached.store()
            return result, None

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(run, self.jobs))
        for (src, _, command, _), (result, cache_entry) in zip(self.jobs, results):
            if self.verbose:
                print('thffi: %s%s' % (shlex.join(command), '\n  (object from the cache: %s)'
                                       % cache_entry if cache_entry else ''))
            sys.stderr.write(result.stderr if result.returncode else '')
            if self.verbose:
                sys.stdout.write(result.stdout)
            if result.returncode != 0:
                raise BuildError('building %s failed: %s could not compile %s (its output '
                                 'is above)' % (self.name, os.path.basename(command[0]), src))

    # -- linking -------------------------------------------------------------

    def _link_kwargs(self):
        """self.kwargs plus the runtimes the user's objects need (after
        _compile_objects): the prebuilt extra_objects and the compiled .cu
        sources.  Legacy make.sh objects were loaded where torch had loaded
        the C++ and CUDA runtimes; now the library links them itself, the
        CUDA ones by soname (PyTorch's copy where it loaded one; the rpath is
        the fallback), with or without with_cuda."""
        for obj in self.user_objects:
            if not os.path.isfile(obj):
                raise BuildError('create_extension(%r): extra_objects: %s does not exist '
                                 '(a make.sh step builds it?)' % (self.name, obj))
        user = self.user_objects + [obj for _, obj, _, own in self.jobs if not own]
        kw = dict(self.kwargs)
        for key in ('libraries', 'library_dirs', 'runtime_library_dirs'):
            kw[key] = _as_list(kw.get(key))
        for library, (what, symbols) in _link.runtime_needs(user).items():
            if library in kw['libraries']:
                continue
            if library != _link.CXX_RUNTIME:
                libdir = self._cuda_library_dir(library, what, symbols)
                for key in ('library_dirs', 'runtime_library_dirs'):
                    kw[key] = kw[key] + ([libdir] if libdir not in kw[key] else [])
            kw['libraries'] = kw['libraries'] + [library]
        return kw

    def _cuda_library_dir(self, library, what, symbols):
        """The toolkit folder holding lib<library>.so, for objects using
        `symbols` ({symbol: [object]}) of it; BuildError when there is none."""
        names = sorted(symbols, key=lambda n: (n.startswith('_'), n))
        users = sorted({self._display(o) for u in symbols.values() for o in u})
        needs = 'create_extension(%r): %s uses %s (%s%s)' % (
            self.name, ', '.join(users), what, ', '.join(names[:3]),
            ', ...' if len(names) > 3 else '')
        home = getattr(self, 'cuda_home', None) or cuda.find_cuda_home()
        if home is None:
            raise BuildError(cuda.missing_toolkit_message(
                needs, 'leave that object out of extra_objects'))
        libdir = cuda.library_dir(home)
        if not os.path.isfile(os.path.join(libdir, 'lib%s.so' % library)):
            raise BuildError('%s, which the CUDA toolkit in %s lacks (no lib%s.so in %s): '
                             'install the toolkit\'s %s libraries, or set CUDA_HOME to a '
                             'toolkit that has them' % (needs, home, library, libdir, what))
        return libdir

    def _display(self, path):
        """How messages name a file: relative to the project when inside it."""
        rel = os.path.relpath(path, self.base)
        return path if rel.startswith('..') else rel

    def _check_symbols(self, library, kwargs):
        """Fails the build, before the new library is installed, when the
        loader cannot resolve symbols of `library`: a call to a function
        nothing defines, e.g. a TH function thffi lacks, which C compiles
        with an implicit-declaration warning."""
        names, missing = _link.unresolved(library, kwargs.get('library_dirs', []))
        if not names:
            return
        # Which file uses each name: the source of each object (thffi's
        # jobs; cffi's objects, which sit in the build folder under their
        # source's absolute path), or the extra object itself.  The module
        # cffi generates uses the exported functions: their header says it.
        source_of = {obj: src for src, obj, _, _ in self.jobs}
        source_of.update((os.path.join(self.build_dir, os.path.splitext(src)[0].lstrip(os.sep))
                          + '.o', src) for src in self.sources)
        objects = [os.path.join(root, f) for root, _, files in os.walk(self.build_dir)
                   for f in files if f.endswith('.o')]
        users, defined = _link.symbols(objects + self.user_objects)
        # C++ functions by their unqualified name, for a C name defined with
        # C++ linkage (a .cpp without extern "C").
        cxx = {}
        for symbol, spelled in _link.demangled(defined).items():
            cxx.setdefault(spelled.split('(')[0], set()).update(
                source_of.get(o, o) for o in defined[symbol])
        spelled = _link.demangled(names)
        declared = {fn.name: fn.header for fn in self.functions}
        lines = []
        for name in names:
            files = {source_of.get(o, o) for o in users.get(name, [])
                     if o in source_of or o not in objects}
            used = ('declared in %s' % self._display(declared[name]) if name in declared
                    else 'used in %s' % (', '.join(sorted(map(self._display, files)))
                                         or 'a library the build links'))
            if name in cxx:
                reason = ('%s defines it with C++ linkage: declare it extern "C"'
                          % ', '.join(sorted(map(self._display, cxx[name]))))
            else:
                reason = self._unresolved_reason(name, declared)
            shown = '%s (%s)' % (spelled[name], name) if name in spelled else name
            lines.append('  %s, %s: %s' % (shown, used, reason))
        if missing:
            lines.append('  (the loader found no %s, which the library needs: put its folder '
                         'in runtime_library_dirs)' % ', '.join(missing))
        raise BuildError('building %s failed: nothing defines %s the code uses, so importing '
                         'the library would fail with "undefined symbol":\n%s\nThe previous '
                         'build, if any, is left in place.'
                         % (self.name, 'this name' if len(names) == 1
                            else 'these %d names' % len(names), '\n'.join(lines)))

    def _unresolved_reason(self, name, declared):
        if re.match(r'TH[A-Z]', name):
            return ('thffi does not provide this TH/THC function (docs/PORTING.md, '
                    '"Not supported", says what to do instead)')
        runtime = _link.runtime_of(name)
        if runtime and runtime[1] == 'cudart' and not self.with_cuda:
            return 'a CUDA runtime function: build with with_cuda=True'
        if runtime and runtime[1] != _link.CXX_RUNTIME:
            return "part of %s: add '%s' to libraries" % runtime
        if name in declared:
            return 'no source or extra object defines it'
        return 'no source, extra object or library of the build defines it'

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
            'jobs': [job[2] for job in self.jobs],
            'thffi': [_digest(p) for p in own],
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
        with _locked(os.path.join(self.target_dir, '.thffi-lock')):
            if self.is_up_to_date():  # another process built it meanwhile
                return False
            shutil.rmtree(self.build_dir, ignore_errors=True)
            os.makedirs(self.build_dir)
            try:
                final = self._compile_and_install()
            finally:
                shutil.rmtree(self.build_dir, ignore_errors=True)
        if self.verbose:
            print('thffi: built %s in %.2f s -> %s'
                  % (self.name, time.perf_counter() - start, final))
        return True

    def _write_python_files(self, module):
        """Writes the runtime, then __init__.py, which loads the cffi module
        `module`: the last write is the switch to a new build."""
        with open(os.path.join(_HERE, 'runtime.py')) as f:
            _write_atomic(os.path.join(self.target_dir, '_thffi_runtime.py'), f.read())
        _write_atomic(os.path.join(self.target_dir, '__init__.py'),
                      _codegen.python_module(self.name.split('.')[-1], module,
                                             self.functions, self.with_cuda, self.sanitize))

    def _compile_and_install(self):
        self._compile_objects()
        last = self.name.split('.')[-1]
        previous = self._manifest().get('library')
        # Outside package mode every build is a module of its own name, and
        # __init__.py, written last, names the one to load: a process that
        # imports meanwhile gets the old library or the new, never a mix.
        module = self.module_name if self.package else '_%s_%x' % (last, time.time_ns())
        kwargs = self._link_kwargs()
        try:
            ffi = cffi.FFI()
            ffi.cdef(self.cdef_text)
            ffi.set_source(module, self.source_text, source_extension=self.source_extension,
                           sources=self.sources, **kwargs)
            with _printing_compiler_commands(self.verbose):
                built = ffi.compile(tmpdir=self.build_dir, verbose=self.verbose,
                                    target='%s%s' % (module.split('.')[-1],
                                                     sysconfig.get_config_var('EXT_SUFFIX')))
        except cffi.VerificationError:
            # The compiler printed its file:line messages already; the
            # exception's own text is only its long command line.
            raise BuildError('building %s failed: the C compiler reported the errors above'
                             % self.name) from None
        except OSError as exc:
            raise BuildError('building %s failed: %s' % (self.name, exc)) from None
        self._check_symbols(built, kwargs)
        # The prebuilt objects are dependencies too: a make.sh run that
        # rebuilt one means a relink.
        deps = _read_deps(self.build_dir, getattr(self, 'cuda_home', None)) | set(
            self.user_objects)
        final = os.path.join(self.target_dir, os.path.basename(built))
        os.replace(built, final)
        self._write_python_files(module.split('.')[-1])
        _write_atomic(os.path.join(self.target_dir, _MANIFEST), json.dumps({
            'config': self._config_key(),
            'library': os.path.basename(final),
            'deps': {p: _digest(p) for p in sorted(deps)},
        }, indent=1))
        # Libraries older than the previous build: no import can still want
        # them (one that started before the last switch loads the previous).
        for old in glob.glob(os.path.join(self.target_dir, '_%s*.so' % last)):
            if os.path.basename(old) not in (os.path.basename(final), previous):
                os.remove(old)
        return final


class _CachedObject:
    """An object file of thffi's own code in the user's cache, with its .d
    file.  It changes only with thffi, the compiler and the flags, and its
    CUDA kernels take seconds per architecture to compile."""

    def __init__(self, folder, obj):
        self.folder, self.obj = folder, obj

    def _pairs(self):
        return [(self.obj, os.path.join(self.folder, 'object.o')),
                (self.obj[:-2] + '.d', os.path.join(self.folder, 'object.d'))]

    def fetch(self):
        (obj, cached_obj), (deps, cached_deps) = self._pairs()
        if not (os.path.isfile(cached_obj) and os.path.isfile(cached_deps)):
            return False
        shutil.copyfile(cached_obj, obj)
        with open(cached_deps) as f:  # the .d names thffi's files where this copy is
            _write_atomic(deps, f.read().replace('<thffi>', _HERE))
        return True

    def store(self):
        (obj, cached_obj), (deps, cached_deps) = self._pairs()
        try:
            os.makedirs(self.folder, exist_ok=True)
            tmp = '%s.tmp%d' % (cached_obj, os.getpid())
            shutil.copyfile(obj, tmp)
            os.replace(tmp, cached_obj)
            with open(deps) as f:
                _write_atomic(cached_deps, f.read().replace(_HERE, '<thffi>'))
        except OSError:
            pass  # an unwritable cache only costs time


def _cache_root():
    root = os.environ.get('THFFI_CACHE_DIR')
    if root:
        return root
    return os.path.join(os.environ.get('XDG_CACHE_HOME') or
                        os.path.join(os.path.expanduser('~'), '.cache'), 'thffi')


def _cached_object(command, obj):
    """The cache entry for a compiler command, keyed by the command (less its
    output paths), the compiler binary, and every file of thffi's C code."""
    compiler = os.path.realpath(shutil.which(command[0]) or command[0])
    stat = os.stat(compiler)
    own = sorted(glob.glob(os.path.join(_HERE, 'include', '**', '*'), recursive=True)
                 + glob.glob(os.path.join(_CSRC, '**', '*'), recursive=True))
    # Where thffi lies does not matter: a copy elsewhere shares the entry.
    key = json.dumps({
        'command': [a.replace(_HERE, '<thffi>') for a in command[1:]
                    if a not in (obj, obj[:-2] + '.d')],
        'compiler': [compiler, stat.st_size, stat.st_mtime_ns],
        'thffi': [(os.path.relpath(p, _HERE), _digest(p)) for p in own if os.path.isfile(p)],
    }, sort_keys=True)
    return _CachedObject(os.path.join(_cache_root(), 'objects',
                                      hashlib.sha256(key.encode()).hexdigest()[:32]), obj)


def _sanitize_mode():
    """THFFI_SANITIZE's mode ('address'), or None when unset or empty."""
    mode = os.environ.get('THFFI_SANITIZE') or None
    if mode is not None and mode not in _SANITIZERS:
        raise BuildError('THFFI_SANITIZE=%s: the only mode is THFFI_SANITIZE=address '
                         '(AddressSanitizer and UndefinedBehaviorSanitizer); unset it for a '
                         'normal build' % mode)
    return mode


def _missing_compiler(name):
    if 'nvcc' in os.path.basename(name):
        return ('nvcc (%s) was not found: install the CUDA toolkit, or build without CUDA '
                '(THFFI_WITH_CUDA=0)' % name)
    return ('no C compiler: %r was not found. Install one (Debian/Ubuntu: apt-get install '
            'gcc; Fedora: dnf install gcc) or point the CC environment variable at it' % name)


@contextlib.contextmanager
def _printing_compiler_commands(enabled):
    """Prints the compile and link commands cffi runs, as the legacy
    verbose=True did.  cffi runs them through setuptools' distutils, which
    logs each at INFO on the root logger (cffi lowers the threshold when
    verbose); without a handler there, as in a build script, nothing shows."""
    if not enabled:
        yield
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter('%(message)s'))
    handler.setLevel(logging.INFO)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


@contextlib.contextmanager
def _locked(path):
    with open(path, 'a') as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


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


def _write_atomic(path, text):
    tmp = '%s.tmp%d' % (path, os.getpid())
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)
