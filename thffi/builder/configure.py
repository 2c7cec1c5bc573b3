"""Step 1 of a build: the plan create_extension's arguments make.

`configure` reads the headers, checks the sources, and decides the compiler
and linker arguments, the CUDA toolkit and architectures, the C source of
the cffi module and the compile jobs: a Plan (plan.py).  Nothing is
compiled here."""

import dataclasses
import functools
import glob
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time

from . import codegen, jobs, binaries, command_log, last_build
from ..toolchain import cuda_toolkit as cuda
from .jobs import CSRC, THFFI_DIR, INCLUDE_DIR
from .headers import read_headers
from .plan import Plan, display
from ..toolchain import cc, cuda_api, nvcc as toolchain_nvcc, std_headers, \
    warnings as toolchain_warnings

# thffi's own C code, compiled apart from the user's (with its own flags, in
# parallel, and cached: see compile.py): (file, gcc optimisation).
# The floating-point loops get -O3; bookkeeping code compiles faster at -O1,
# and so do the 49 conversions between types (legacy code converts index
# tensors and results; at size a conversion waits on memory, not on code).
# Longest first: the jobs run on a pool as wide as the machine.
TH_SOURCES = [('THTensorOps.c', '-O3 -fopenmp'), ('THTensorCopy.c', '-O1 -fopenmp'),
              ('THTensorMeta.c', '-O1'), ('THTensorOpsInt.c', '-O2 -fopenmp'),
              ('THPython.c', '-O2'), ('THGeneral.c', '-O1 -fopenmp'), ('THTensor.c', '-O1'),
              ('THCrash.c', '-O1'), ('THThreads.c', '-O1'), ('THMathGen.c', '-O1'),
              ('THMath.c', '-O2'),
              ('THVector.c', '-O2'), ('THRandom.c', '-O1'), ('THLogAdd.c', '-O2'),
              ('THHalf.c', '-O2'), ('THStorageFunctions.c', '-O1'), ('THBlas.c', '-O2'),
              ('THLapack.c', '-O1'), ('THSize.c', '-O1'), ('THAtomic.c', '-O1')]
# THC's (jobs.py: they alone compile with CUDA's headers).
THC_SOURCES = jobs.THC_SOURCES
# cuSPARSE's legacy routines over today's API (include/cusparse_legacy.h),
# for an extension built with_cuda that links cuSPARSE: it calls cuSPARSE,
# so it is compiled into that extension alone (never into thffi's shared
# library, which would then need cuSPARSE everywhere), its routines
# exported for the libraries built apart that the extension links.
CUSPARSE_LEGACY = (jobs.CUSPARSE_LEGACY_SOURCE, '-O2')
# Extensions with C++ code: catches C++ exceptions leaving a wrapped function.
CXX_GUARD = [('THCxx.cpp', '-O2')]
# Functions the extension's own objects call through thffi (-Wl,--wrap):
# exit(), abort() and a failed assert() end the wrapped call instead of the
# process (csrc/THGeneral.c); threads started by pthread_create, by OpenMP's
# parallel constructs (csrc/THThreads.c: one __wrap_ function for each) and
# by std::thread (libstdc++'s std::thread::_M_start_thread, csrc/THCxx.cpp)
# belong to the call that starts them.
WRAPPED = ['exit', 'abort', '__assert_fail', 'pthread_create',
           '_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE',
           'GOMP_parallel', 'GOMP_parallel_sections', 'GOMP_parallel_reductions',
           'GOMP_parallel_loop_static', 'GOMP_parallel_loop_dynamic', 'GOMP_parallel_loop_guided',
           'GOMP_parallel_loop_nonmonotonic_dynamic', 'GOMP_parallel_loop_nonmonotonic_guided',
           'GOMP_parallel_loop_runtime', 'GOMP_parallel_loop_nonmonotonic_runtime',
           'GOMP_parallel_loop_maybe_nonmonotonic_runtime']
WRAP_FLAGS = ['-Wl,' + ','.join('--wrap=' + name for name in WRAPPED)]
# THFFI_SANITIZE=address: every C and C++ file compiled by gcc (the user's,
# the generated module, thffi's) gets AddressSanitizer and
# UndefinedBehaviorSanitizer (compiled and linked with this flag), with
# debug information for file:line in reports, a light optimisation that
# keeps lines exact, and its assert()s back on.  THFFI_SANITIZE=thread:
# ThreadSanitizer, for data races between the threads the C starts.
_SANITIZERS = {'address': '-fsanitize=address,undefined', 'thread': '-fsanitize=thread'}
_SANITIZE_DEBUG_FLAGS = ['-fno-omit-frame-pointer', '-g', '-O1', '-UNDEBUG']
_CXX_SUFFIXES = ('.cpp', '.cc', '.cxx', '.C')


def include_dirs():
    """The folders thffi puts on the include path of the user's code, in the
    layout torch.utils.ffi had (lib/include, lib/include/TH,
    lib/include/THC): <TH/TH.h> and <THC/THC.h>, and also "TH.h", <THC.h>,
    "THCGeneral.h"...  The CUDA toolkit's headers come on top with CUDA."""
    return [INCLUDE_DIR, os.path.join(INCLUDE_DIR, 'TH'), os.path.join(INCLUDE_DIR, 'THC')]


def include_flags():
    """The -I flags of include_dirs(), and of the CUDA toolkit's headers
    where there is one (gcc compiling a .c that includes <THC/THC.h> needs
    them; nvcc has them anyway): what `python -m thffi --includes` prints,
    and what `thffi run`'s compilers put where a command names PyTorch
    0.4's include folders."""
    return ['-I' + d for d in include_dirs() + cuda.header_dirs(cuda.find_cuda_home())]


class BuildError(RuntimeError):
    """The extension could not be built; the message says why."""


BuildError.__module__ = 'thffi.builder'  # where users import it from (and thffi)


def as_list(value):
    return [value] if isinstance(value, str) else list(value or [])


def c_compiler():
    """The command line setuptools compiles C with: CC's words, or Python's."""
    return shlex.split(os.environ.get('CC') or sysconfig.get_config_var('CC') or 'cc')


class LanguageArgs(list):
    """extra_compile_args that setuptools hands to every source, C or C++,
    of which each compile passes on the flags of its source's language
    (toolchain/cc.py's for_language; setuptools' compiler class is taught
    to ask, by compile_by_language).  as_cuda: None, or, in a build with
    CUDA, a function of (source, object) giving the nvcc command that
    compiles a C++ source as CUDA (_by_verdict).  store: None, or the
    folder of the last build's objects, reused where nothing they were
    compiled from changed (last_build.py)."""

    as_cuda = None
    store = None

    def for_compile(self, compiler, source, cc_args):
        """(arguments, language) for `source` compiled by `compiler` (a
        setuptools CCompiler): C++ when the source is (by its suffix) or
        the compiler compiling it is (CC=g++ python build.py compiled C as
        C++)."""
        command = compiler.compiler_so + list(cc_args)
        cxx = (compiler.detect_language(source) == 'c++'
               or os.path.basename(command[0]).endswith('++')
               or any(a == '-x' and b.startswith('c++') for a, b in zip(command, command[1:])))
        language = 'c++' if cxx else 'c'
        return cc.for_language(self, language)[0], language


def compile_by_language():
    """Teaches the C compiler class setuptools uses (the one cffi compiles
    with) to pass LanguageArgs per source, and to compile a C++ source
    that names no standard as 2018's g++ did where today's refuses it,
    and one g++ cannot compile with nvcc where it can (_by_verdict).
    Other argument lists pass unchanged, so other builds in the process
    are not affected; done once, before the first compile (importing
    setuptools takes 0.3 s: not for a build that is up to date)."""
    import setuptools  # noqa: F401 (makes `distutils` setuptools' own, as cffi does)
    from distutils import ccompiler
    compiler_class = type(ccompiler.new_compiler())
    original = compiler_class._compile
    if getattr(original, 'thffi_by_language', False):
        return

    def _compile(self, obj, src, ext, cc_args, extra_postargs, pp_opts):
        if not isinstance(extra_postargs, LanguageArgs):
            return original(self, obj, src, ext, cc_args, extra_postargs, pp_opts)
        args, language = extra_postargs.for_compile(self, src, cc_args)
        standards = [] if language == 'c' or cc.names_a_standard(
            self.compiler_so + list(cc_args) + args) else cc.OLD_CXX_DEFAULTS
        as_cuda = extra_postargs.as_cuda if language == 'c++' else None
        nvcc = as_cuda and as_cuda(src, obj)
        # What decides the object: the command, and the fallback's.
        commands = [self.compiler_so + list(cc_args) + [src] + args] + ([nvcc] if nvcc else [])
        if extra_postargs.store and last_build.reuse(extra_postargs.store, commands, obj):
            return None
        start = time.perf_counter()
        if language == 'c':
            original(self, obj, src, ext, cc_args, args, pp_opts)
        else:
            _by_verdict(src, lambda more: original(self, obj, src, ext, cc_args, args + more,
                                                   pp_opts), standards, nvcc)
        last_build.record(obj, src, commands, time.perf_counter() - start)
        return None

    _compile.thffi_by_language = True
    compiler_class._compile = _compile


def _by_verdict(source, compile_with, standards, nvcc):
    """Compiles a C++ source as the compilers' verdicts say: compile_with([])
    as it is; where the compiler refuses that, with the standard headers
    it says the code forgot included first (toolchain/std_headers.py: a
    round for each it names), and compile_with(['-std=X']) for the first
    of `standards` (2018's defaults, cc.OLD_CXX_DEFAULTS, for a source that
    names none) it accepts; else the nvcc command `nvcc` (or None), for a
    .cpp that g++ cannot compile and nvcc can, as CUDA (one that includes
    thrust's device headers).  Each fallback that served says so in one
    line.  The messages shown are those of the compile that succeeded,
    else of the first, whose error is raised."""
    first, shown = _quietly(compile_with, [])
    if first is None:
        return _replay(shown)
    found, error, output = std_headers.retried(
        shown, lambda flags: _quietly(compile_with, flags))
    if not error:
        _replay(output)
        sys.stderr.write('thffi: %s\n' % std_headers.line(source, found))
        return None
    included = std_headers.include_flags(h for h, _ in found)
    for standard, why in standards:
        error, output = _quietly(compile_with, ['-std=' + standard] + included)
        if error is None:
            _replay(output)
            if found:
                sys.stderr.write('thffi: %s\n' % std_headers.line(source, found))
            sys.stderr.write('thffi: %s\n' % cc.old_default_line(source, standard, why))
            return None
    if nvcc:
        done = subprocess.run(nvcc, capture_output=True)
        if done.returncode == 0:
            _replay(done.stdout + done.stderr)
            sys.stderr.write('thffi: %s\n' % toolchain_nvcc.as_cuda_line(source))
            return None
    _replay(shown)
    raise first


def _cxx_as_cuda(plan, source, obj):
    """The nvcc command compiling a C++ source of the plan as CUDA, with the
    user's include folders and macros, as the .cu sources compile."""
    command = jobs.nvcc_command(plan, source, obj, False)
    return command[:1] + ['-x', 'cu'] + command[1:]


def _replay(output):
    """Writes a compiler's captured messages where they were to go."""
    while output:
        output = output[os.write(2, output):]


def _quietly(compile_with, more):
    """(the CompileError of compile_with(more) or None, what the compiler
    wrote to file descriptor 2 meanwhile)."""
    from distutils.errors import CompileError
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            compile_with(more)
            error = None
        except CompileError as exc:
            error = exc
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return error, caught.read()


# What configure() said in this process, with the folder it was said of: a
# build.py that calls create_extension twice (or a setup() that runs it
# again) hears each note once.
_SAID = set()


def _once(text, base=None):
    """Writes a note of configure's to stderr, unless this process heard it
    of the same folder (base: the build script's, where the text names
    paths relative to it)."""
    if (text, base) not in _SAID:
        _SAID.add((text, base))
        sys.stderr.write(text)


def sanitize_mode():
    """THFFI_SANITIZE's mode ('address' or 'thread'), or None when unset or
    empty."""
    mode = os.environ.get('THFFI_SANITIZE') or None
    if mode is not None and mode not in _SANITIZERS:
        raise BuildError('THFFI_SANITIZE=%s: the modes are THFFI_SANITIZE=address '
                         '(AddressSanitizer and UndefinedBehaviorSanitizer) and '
                         'THFFI_SANITIZE=thread (ThreadSanitizer); unset it for a normal build'
                         % mode)
    return mode


def shared_library_name():
    from .._version import __version__
    return 'libthffi-%s.so' % __version__


def _shared_library_version(name):
    """The thffi version a NEEDED entry of thffi's shared library names, or None."""
    match = re.match(r'^libthffi-(.+)\.so$', name)
    return match and match.group(1)


def _added(folders, more):
    """The list of folders with those of `more` it lacks appended."""
    folders = as_list(folders)
    return folders + [f for f in more if f not in folders]


def _linker_finds(filename):
    """Whether the C compiler's linker finds `filename` on its own search
    path (cc -print-file-name answers the bare name when it does not)."""
    cc = shlex.split(os.environ.get('CC') or sysconfig.get_config_var('CC') or 'cc')
    try:
        out = subprocess.run(cc + ['-print-file-name=' + filename], capture_output=True,
                             text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return False
    return os.path.isabs(out) and os.path.isfile(out)


def _object_source(obj, meant=None):
    """The .cu file an object of extra_objects is compiled from: the one
    meant, the build files' command that writes it (meant_command()),
    compiles, when it exists; else, by names, when it lies beside it: x.cu
    for x.cu.o or x.o, else the one x_*.cu there (make.sh files wrote
    roi_pooling.cu.o from roi_pooling_kernel.cu); else the one there that
    defines the C functions the object defines; or None."""
    if meant:
        _, command, folder = meant
        found = [os.path.join(folder, s) for s in command.sources if s.endswith('.cu')]
        if len(found) == 1 and os.path.isfile(found[0]):
            return os.path.normpath(found[0])
    for suffix in ('.cu.o', '.o'):
        if obj.endswith(suffix):
            stem = obj[:-len(suffix)]
            found = [stem + '.cu'] if os.path.isfile(stem + '.cu') else glob.glob(
                glob.escape(stem) + '_*.cu')
            return found[0] if len(found) == 1 else _source_by_symbols(obj)
    return None


def _source_by_symbols(obj):
    """The .cu beside obj that defines the most of the C functions the
    object defines (its symbol table, nm; the toolkit's inline helpers it
    also holds, min and max, are in no .cu), when no build file and no name
    says which (a committed interpolate_cuda_kernel.o beside
    interpolation_cuda_kernel.cu, no make.sh); None when none defines one,
    or two define as many."""
    if not os.path.isfile(obj):
        return None
    _, defined = binaries.symbols([obj])
    names = [n for n in defined if re.fullmatch(r'[A-Za-z]\w*', n)]
    if not names:
        return None
    counts = {}
    for source in glob.glob(os.path.join(glob.escape(os.path.dirname(obj) or '.'), '*.cu')):
        try:
            with open(source, errors='replace') as f:
                text = f.read()
        except OSError:  # a link to nowhere, an unreadable file: no source of obj
            continue
        counts[source] = sum(1 for n in names
                             if re.search(r'\b%s\s*\([^;{]*\)\s*\{' % re.escape(n), text))
    best = max(counts.values(), default=0)
    found = [source for source, count in counts.items() if count == best]
    return found[0] if best and len(found) == 1 else None


def _read_headers(name, headers):
    """(functions, enum constants, type declarations for the cdef) the
    headers declare, read as one text in their order (headers.py)."""
    texts = []
    for header in headers:
        try:
            with open(header) as f:
                texts.append((header, f.read()))
        except OSError as exc:
            raise BuildError('create_extension(%r): cannot read header %s: %s'
                             % (name, header, exc.strerror)) from None
    return read_headers(texts)


def _static_cuda_runtime(name, obj):
    """Whether obj, in extra_objects, is the static CUDA runtime that the
    shared one replaces (saying so): linked in, it gives the extension a
    CUDA runtime of its own, not PyTorch's.  (Builds of 2018 globbed the
    toolkit's lib64/*.a into extra_objects.)  The shared runtime is then
    linked for the objects that need it (link.py)."""
    if not os.path.basename(obj).startswith('libcudart_static'):
        return False
    shared = os.path.isfile(os.path.join(os.path.dirname(obj), 'libcudart.so'))
    _once('thffi: warning: create_extension(%r): extra_objects holds %s, the static '
          'CUDA runtime, which would give the extension a CUDA runtime of its own, '
          'not PyTorch\'s (its own current device, streams and errors): %s\n'
          % (name, obj, 'linking the shared runtime, libcudart.so, instead' if shared
             else 'linking it, as no libcudart.so lies beside it'))
    return shared


def _stale(obj, home):
    """Why an object nvcc built cannot serve with the CUDA toolkit at
    `home`, or None: binaries.removed_calls(), or old_device_code()."""
    return (binaries.removed_calls(obj, cuda_api.toolkit_version(home))
            or old_device_code(obj))


def old_device_code(obj):
    """'it holds GPU code only for sm_52 ...' when the object's GPU code is
    machine code for architectures the installed nvcc cannot target and no
    PTX (which the driver would compile for today's GPUs); else None."""
    code = binaries.device_code(obj)
    if not code or any(kind == 'compute' for kind, _ in code):
        return None
    archs = {arch for _, arch in code}
    old = toolchain_nvcc.rejected(archs, toolchain_nvcc.accepted_architectures())
    if len(old) < len(archs):
        return None
    return ('it holds GPU code only for %s (no PTX), which the nvcc here cannot target'
            % ', '.join('sm_%d' % n for n in old))


def meant_command(obj, base):
    """(build file, Command, folder it ran in) of the nvcc command of the
    build files (make.sh, Makefiles as make expands them, build.py:
    port/readers/, imported only for an object that is missing or stale)
    that writes `obj`, an extra object, or None: under base and in each of
    the three folders above it (make.sh files often sit above the build.py
    that links), and the scripts a README there runs whatever their names
    (`bash install.bash`).  Of several, one that a README there runs,
    directly or through the scripts it runs (readers/route.py), as
    lib/make.sh beside an extension's own make.sh that the README never
    runs; then the one nearest base."""
    from ..port.readers import commands_building
    from ..port.readers.route import readmes, route
    obj, base = os.path.realpath(obj), os.path.abspath(base)
    folders = [base]
    while len(folders) < 4 and os.path.dirname(folders[-1]) != folders[-1]:
        folders.append(os.path.dirname(folders[-1]))
    runs = route(readmes(folders))
    found = commands_building(obj, base, run_as=runs) + [
        c for folder in folders[1:]
        for c in commands_building(obj, folder, recursive=False, run_as=runs)]
    if not found:
        return None
    # On the route first; of equals, min keeps the first (the nearest).
    command = min(found, key=lambda c: os.path.realpath(c.file) not in runs)
    return command.file, command, command.folder


def show_step(meant, base):
    """How a message names a build step (meant_command()): `make.sh:5 (nvcc
    ... -arch=sm_52; today's nvcc rejects sm_52)`, with why today's nvcc
    refuses the command, when the toolchain's rules know, and why a
    Makefile's command was read from its text where make could not say."""
    path, command, _ = meant
    _, changes = toolchain_nvcc.modernize(command.args, ['<arch flags>'])
    why = ''.join('; %s' % c.why for c in changes if 'rejects' in c.why)
    if command.read_as_text:  # make could not say: its text, as far as it says
        why += '; read from its text (%s)' % command.read_as_text
    return '%s:%d (`%s`%s)' % (os.path.relpath(path, base), command.line,
                               shlex.join(command.args), why)


def configure(name, headers, sources, base, verbose, with_cuda, package, kwargs, serving=None):
    """The Plan of one extension from create_extension's arguments (paths
    already absolute; kwargs: setuptools Extension's, plus extra_nvcc_args;
    verbose: True, False, or None for one short line a command; serving:
    shared_library.serving, for the libraries it links, or None where none
    can call into thffi: thffi's own shared library).
    Raises BuildError for arguments that cannot build."""
    parts = name.split('.')
    target_dir = os.path.join(base, *parts)
    full = '%s.%s' % (package, name) if isinstance(package, str) else name
    functions, constants, declarations = _read_headers(name, headers)
    for src in sources:
        if not os.path.isfile(src):
            raise BuildError('create_extension(%r): source file %s does not exist' % (name, src))
    with_cuda = bool(with_cuda)
    kw = dict(kwargs)
    nvcc_args = as_list(kw.pop('extra_nvcc_args', None))
    for key in ('extra_compile_args', 'extra_link_args'):
        if isinstance(kw.get(key), dict):
            kw[key], nvcc = _by_compiler(name, key, kw[key])
            nvcc_args += nvcc
    user_words = command_log.user_words(kw, nvcc_args)
    # thffi's folders first, as torch.utils.ffi put torch's.
    kw['include_dirs'] = include_dirs() + kw.get('include_dirs', [])
    # The generated entry points use CPython's full API (vectorcall), not
    # the limited API cffi selects by default: the module is built for this
    # Python version anyway.
    kw['define_macros'] = as_list(kw.get('define_macros')) + [('_CFFI_NO_LIMITED_API', None)]
    # thffi's element-wise ops use OpenMP: PyTorch's runtime, by soname.
    # TH's headers brought <math.h>, so legacy code calls libm (expf,
    # sqrt...) without -lm: the process had it loaded.
    kw['libraries'] = as_list(kw.get('libraries')) + ['gomp', 'm']
    kw.update(_cuda_libraries(name, kw))
    cuda_sources = [s for s in sources if s.endswith('.cu')]
    sources = [s for s in sources if not s.endswith('.cu')]
    if cuda_sources and not with_cuda:
        raise BuildError('create_extension(%r): %s is CUDA code; pass with_cuda=True'
                         % (name, cuda_sources[0]))
    sanitize = sanitize_mode()
    sanitize_link = [_SANITIZERS[sanitize]] if sanitize else []
    sanitize_flags = sanitize_link + (_SANITIZE_DEBUG_FLAGS if sanitize else [])
    # CC=g++ compiles the user's C as C++ (and the module: _module_source).
    cc_is_cxx = os.path.basename(
        (shlex.split(os.environ.get('CC', '')) or ['cc'])[0]).endswith('++')
    cxx = (kw.get('language') == 'c++' or cc_is_cxx
           or any(s.endswith(_CXX_SUFFIXES) for s in sources))
    user_objects, rescued, rescue_reasons, meant, missing_steps = _sort_extra_objects(
        name, base, with_cuda, as_list(kw.get('extra_objects')))
    # The objects compile() makes join them at the link (link_kwargs).
    kw['extra_objects'] = user_objects
    if rescued and not functions:
        # Work only for what is linked: nothing calls into an extension
        # without functions.
        for source, obj in rescued.items():
            _once('thffi: %s (extra_objects) %s: not compiled again, as %s has no '
                  'functions\n' % (display(base, obj), rescue_reasons[source], name), base)
        rescued, rescue_reasons, meant = {}, {}, {}
    cuda_sources += list(rescued)
    shared_library, linked_libraries, linking = _shared_library(name, base, with_cuda,
                                                                user_objects, kw, serving)
    kw.update(linking)
    # Code that can throw C++ exceptions: C++ sources, nvcc's host code,
    # C++ objects (make.sh's .cu.o, g++'s .o: read when this runs, after
    # make.sh, as legacy build.py files did).  What they and the shared
    # libraries the link names call (cuSPARSE, below) is read alike,
    # however the link names them (extra_objects, libraries).
    needs = binaries.runtime_needs([o for o in user_objects if os.path.isfile(o)] + [
        p for p in linked_libraries if p not in user_objects])
    cxx_code = cxx or bool(cuda_sources) or binaries.CXX_RUNTIME in needs
    # thffi's own C, (path, gcc optimisation or None for nvcc), and the
    # user's .cu files: compiled before cffi links (compile.py).
    own = [] if shared_library else TH_SOURCES + (CXX_GUARD if cxx_code else [])
    toolkit, nvcc = (_toolkit(name) if with_cuda or rescued else
                     (None, {'nvcc': None, 'arch_spec': None, 'arch_source': None,
                             'arch_flags': []}))
    # cuSPARSE: named in `libraries` (by -l name or file), or called by
    # prebuilt objects.
    linked = {re.sub(r'^:lib|\.so[\d.]*$', '', n) for n in kw['libraries']}
    cusparse_legacy = with_cuda and ('cusparse' in linked or 'cusparse' in needs)
    if with_cuda:
        kw.update(_cuda_runtime(name, toolkit.home, kw))
        own = (([] if shared_library else THC_SOURCES) + own
               + ([CUSPARSE_LEGACY] if cusparse_legacy else []))
    if toolkit:
        # What the toolkit's headers deprecate that 2018 code used, which
        # is not the user's to fix (toolchain/warnings.py).
        kw['define_macros'] = kw['define_macros'] + toolchain_warnings.QUIET_DEPRECATIONS
    for fn in functions:
        if codegen.uses_cuda(fn) and not with_cuda:
            raise BuildError('create_extension(%r): %s takes CUDA tensors; pass '
                             'with_cuda=True (a build script that sets it behind `if '
                             'torch.cuda.is_available():` leaves it False on a machine '
                             'without a GPU: `python -m thffi port` makes it depend on the '
                             'CUDA toolkit instead)' % (name, fn.name))
    kw.update(_compile_args(kw, cxx_code, sanitize_link, sanitize_flags))
    if package:
        # pip installs the library: its debug information names the
        # project's files relative to the project, not by this machine's path.
        kw['extra_compile_args'].append('-fdebug-prefix-map=%s=.' % base)
    plan = Plan(
        name=name, base=base, package=bool(package),
        module_name=('%s._%s' % (full, parts[-1])) if package else '_' + parts[-1],
        target_dir=target_dir,
        # Compiler work happens here, under a lock (one build at a time).  In
        # package mode setuptools links later, so the objects must stay.
        build_dir=(os.path.join(base, 'build', 'thffi', name) if package
                   else os.path.join(target_dir, '.thffi-build')),
        verbose=command_log.shown(verbose), full_commands=command_log.full(verbose),
        user_words=user_words, headers=headers, functions=functions, constants=constants,
        sources=sources, cuda_sources=cuda_sources, user_objects=user_objects,
        rescued=rescued, rescue_reasons=rescue_reasons, meant=meant,
        missing_steps=missing_steps,
        # Work only for what is linked: an extension built without CUDA
        # (its CUDA C left behind build.py's GPU gate) compiles what make.sh
        # was to build (25 s of nvcc) only when its C calls something
        # nothing else defines (link()).
        deferred=[] if package or with_cuda else list(rescued),
        linked_libraries=linked_libraries, with_cuda=with_cuda, cxx_code=cxx_code,
        cusparse_legacy=cusparse_legacy,
        sanitize=sanitize, sanitize_flags=sanitize_flags, shared_library=shared_library,
        kwargs=kw, nvcc_args=nvcc_args, cuda_toolkit=toolkit,
        cuda_home=toolkit and toolkit.home, **nvcc,
        cdef_text=codegen.cdef(with_cuda, declarations),
        # Errors in thffi's C name its files under THFFI_DIR; in a package
        # pip installs, under `thffi` (no path of the machine that built it).
        source_text=_module_source(headers, functions, constants, with_cuda, cxx_code,
                                   shared_library, cc_is_cxx,
                                   'thffi' if package else THFFI_DIR),
        source_extension='.cpp' if kw.get('language') == 'c++' else '.c')
    if with_cuda:
        kw['extra_compile_args'].as_cuda = functools.partial(_cxx_as_cuda, plan)
    if not package:  # setuptools compiles a package: build() alone keeps objects
        kw['extra_compile_args'].store = last_build.store(target_dir)
    return dataclasses.replace(plan, jobs=jobs.jobs(
        plan, [(os.path.join(CSRC, f), o) for f, o in own]))


def _by_compiler(name, key, args):
    """(host flags, nvcc flags) of extra_compile_args or extra_link_args
    given in torch.utils.cpp_extension's form, {'cxx': [...], 'nvcc':
    [...]}, which 2018 projects passed with BuildExtension: its
    unix_wrap_compile gave the 'cxx' list to C and C++ sources and the
    'nvcc' list to .cu sources.  A link is the host compiler's alone."""
    known = ('cxx', 'nvcc') if key == 'extra_compile_args' else ('cxx',)
    unknown = [k for k in args if k not in known]
    if unknown:
        raise BuildError('create_extension(%r): %s: a dict takes the keys %s (torch.utils.'
                         'cpp_extension\'s form), got %s' % (
                             name, key, ' and '.join(repr(k) for k in known),
                             ', '.join(repr(k) for k in unknown)))
    return as_list(args.get('cxx')), as_list(args.get('nvcc'))


def _sort_extra_objects(name, base, with_cuda, extra_objects):
    """(user_objects, rescued, rescue_reasons, meant, missing_steps):
    extra_objects, but for objects nvcc is to build again here (rescued) and
    the static CUDA runtime.

    Objects a make.sh step was to compile from a .cu (the one the build
    files' command that writes them compiles, else one beside them by
    name: x.cu.o or x.o from x.cu) and did not: 2018 make.sh files name GPU
    architectures nvcc 12 rejects, and most go on to build.py after a
    failed step.  Objects that are there but stale: committed in 2018,
    or left by an old toolkit, they call runtime functions the installed
    toolkit's release removed (CUDA 10.0's launch sequence:
    toolchain/cuda_api.py) or hold GPU code for no architecture it can
    target.  Where there is a CUDA toolkit both are compiled here as the
    extension's .cu sources are, also without with_cuda (build.py files
    gated their CUDA sources, not the kernel object, on
    torch.cuda.is_available()): rescued is {source: the object make.sh was
    to write}; rescue_reasons says why, for each source, and meant which
    command of the build files was to write it (meant_command()).  Without a
    toolkit a missing object is left out, saying so (the symbol check
    names what used it).  missing_steps: {a user object missing now: how a
    message names the build files' step that was to write it (show_step),
    or None}, for link, which reads no build file, should it be missing
    still."""
    user_objects, rescued, rescue_reasons, meant, missing_steps = [], {}, {}, {}, {}
    home = cuda.find_cuda_home()
    for obj in extra_objects:
        missing = not os.path.exists(obj)
        compiled = obj.endswith('.o')  # not an archive (libcudart_static.a)
        stale = compiled and not missing and home and _stale(obj, home)
        command = compiled and (missing or stale) and meant_command(obj, base)
        source = compiled and (missing or stale) and _object_source(obj, command)
        if source:
            step = command and show_step(command, base)
            if missing:
                why = 'does not exist' + (': %s was to build it' % step if step else
                                          ', as a make.sh step that failed would leave it')
            else:
                why = ('was built by an old CUDA toolkit: %s' % stale
                       + ('; %s was to build it again' % step if step else ''))
            if home or with_cuda:  # with_cuda without a toolkit stops in configure()
                rescued[source] = obj
                rescue_reasons[source] = why
                meant[source] = command
            else:
                _once('thffi: warning: %s (extra_objects) %s, and there is no CUDA '
                      'toolkit to compile %s: leaving it out\n'
                      % (display(base, obj), why, display(base, source)), base)
        elif not _static_cuda_runtime(name, obj):
            user_objects.append(obj)
            if missing:
                if command is False:  # not an object: its build step was not looked for
                    command = meant_command(obj, base)
                missing_steps[obj] = command and show_step(command, base)
            old = not missing and home and old_device_code(obj)
            if old:
                _once('thffi: warning: %s (extra_objects) was built by an old CUDA '
                      'toolkit: %s, and no .cu lies beside it to compile again: '
                      'its kernels will not run on today\'s GPUs\n'
                      % (display(base, obj), old), base)
    return user_objects, rescued, rescue_reasons, meant, missing_steps


def _compile_args(kw, cxx_code, sanitize_link, sanitize_flags):
    """The compiler and linker arguments of the module and the user's C
    sources: {libraries, extra_compile_args, extra_link_args}."""
    # C is compiled as torch.utils.ffi compiled it, C99 with gcc 5's
    # tolerance (toolchain/cc.py: what gcc 14 made errors stays a
    # warning).  -MMD makes gcc list each source's dependencies for the
    # up-to-date check; hidden visibility keeps the TH symbols of two
    # extensions in one process apart.  Each source gets the flags of
    # its language only (LanguageArgs): -std=c99 reaches no C++ source,
    # the user's -std=c++11 no C one.
    flags = (['-std=c99', '-O3', '-MMD', '-fvisibility=hidden']
             + cc.tolerated_errors(tuple(c_compiler())))
    libraries = kw['libraries']
    if cxx_code:
        # THCxx.cpp needs the C++ runtime; C frames between a throw and
        # THFFI_cxxCall (the generated module's, C sources') pass the
        # exception on.
        if 'stdc++' not in libraries:
            libraries = libraries + ['stdc++']
        flags.append('-fexceptions')
    return {'libraries': libraries,
            'extra_compile_args': LanguageArgs(flags + as_list(kw.get('extra_compile_args'))
                                               + sanitize_flags),
            'extra_link_args': as_list(kw.get('extra_link_args')) + WRAP_FLAGS + sanitize_link}


def _module_source(headers, functions, constants, with_cuda, cxx_code, shared_library,
                   cc_is_cxx, home):
    """The C source of the cffi module: the user's headers, then the
    generated entry points (home: the folder its errors name thffi's
    files under)."""
    # The user's headers name TH types; the legacy tool included TH first.
    # They declare C functions, also when the module is compiled as C++
    # (language='c++'), but for CC=g++: it compiled the user's C sources
    # and the module as C++ alike, so their functions have C++ linkage.
    includes = ''.join('#include "%s"\n' % h for h in headers)
    if not cc_is_cxx:
        includes = ('#ifdef __cplusplus\nextern "C" {\n#endif\n' + includes
                    + '#ifdef __cplusplus\n}\n#endif\n')
    return ('#include <TH/TH.h>\n' + ('#include <THC/THC.h>\n' if with_cuda else '')
            + includes + codegen.module_source(functions, home, cxx_code,
                                                bool(shared_library), constants))


def _toolkit(name):
    """(the CUDA toolkit, {nvcc, arch_spec, arch_source, arch_flags}): nvcc
    and the architectures .cu files compile for; a warning when PyTorch was
    built with another CUDA major."""
    toolkit = cuda.find_toolkit()
    if toolkit is None:
        raise BuildError(cuda.missing_toolkit_message(
            'create_extension(%r, with_cuda=True)' % name))
    arch_spec, arch_source = cuda.arch_list()
    try:
        arch_flags = cuda.arch_flags(arch_spec)
    except ValueError as exc:
        raise BuildError('%s (from %s)' % (exc, arch_source)) from None
    mismatch = cuda.torch_mismatch(toolkit.home)
    if mismatch:
        _once('thffi: warning: create_extension(%r): building with %s, but %s\n'
              % (name, cuda.describe(toolkit), mismatch))
    return toolkit, {'nvcc': os.path.join(toolkit.home, 'bin', 'nvcc'), 'arch_spec': arch_spec,
                     'arch_source': arch_source, 'arch_flags': arch_flags}


def _cuda_runtime(name, home, kw):
    """with_cuda: THC's headers and the shared CUDA runtime:
    {include_dirs, libraries, library_dirs, runtime_library_dirs}."""
    # The toolkit's headers, then those of pip's wheels it lacks
    # (cusparse.h, curand.h).
    # The shared CUDA runtime, found by its soname: in a process where
    # PyTorch already loaded libcudart.so.<major>, that one is used (one
    # runtime, one current device); the rpath is the fallback for
    # processes without it (a CPU-only torch).  It names pip's wheels'
    # folders too, for the libraries thffi loads at run time (cuBLAS,
    # cuSPARSE: THCBlas.c, THCSparse.c).
    # nvcc's host code is C++: it needs the C++ runtime, as torch does.
    runtime = cuda.find_library('cudart', home)
    if runtime is None:
        raise BuildError('create_extension(%r, with_cuda=True): %s'
                         % (name, cuda.missing_library_message('cudart', home)))
    return {'include_dirs': kw['include_dirs'] + cuda.header_dirs(home),
            'libraries': as_list(kw.get('libraries')) + [runtime.link, 'stdc++'],
            'library_dirs': _added(kw.get('library_dirs'), [runtime.folder]),
            'runtime_library_dirs': _added(kw.get('runtime_library_dirs'),
                                           cuda.library_dirs(home) + [runtime.folder])}


def _cuda_libraries(name, kw):
    """The CUDA libraries `libraries` names (cusparse, curand, cublas...),
    as 2018 builds linked them from the toolkit's lib64: found in the
    toolkit or in pip's wheels (cuda.find_library), their folder on the
    link line and the rpath, a versioned file (pip's libcusparse.so.12)
    by its whole name: {libraries, library_dirs, runtime_library_dirs}, or
    {} when it names none.  A folder of library_dirs holding lib<name>.so,
    or the linker's own search path, is left to decide."""
    if not any(library in cuda.LIBRARIES for library in kw['libraries']):
        return {}
    home = cuda.find_cuda_home()
    libraries = []
    library_dirs, runtime_dirs = kw.get('library_dirs'), kw.get('runtime_library_dirs')
    for library in kw['libraries']:
        if library not in cuda.LIBRARIES or any(
                os.path.isfile(os.path.join(d, 'lib%s.so' % library))
                for d in as_list(library_dirs)):
            libraries.append(library)
            continue
        found = cuda.find_library(library, home)
        if found is None and _linker_finds('lib%s.so' % library):
            libraries.append(library)
            continue
        if found is None:
            raise BuildError('create_extension(%r): libraries names %r, but %s'
                             % (name, library, cuda.missing_library_message(library, home)))
        libraries.append(found.link)
        library_dirs = _added(library_dirs, [found.folder])
        runtime_dirs = _added(runtime_dirs, [found.folder])
    linking = {'libraries': libraries}
    if library_dirs is not None:
        linking['library_dirs'] = library_dirs
    if runtime_dirs is not None:
        linking['runtime_library_dirs'] = runtime_dirs
    return linking


def _named_libraries(user_objects, kw):
    """The shared libraries a link names: by path in extra_objects or
    among the linker's arguments (build.py files passed libfoo.so in
    extra_link_args, as FindPyTorch-style builds passed libATen.so), and
    those `libraries`, or -l in extra_link_args, name in library_dirs or
    the -L folders of extra_link_args (`foo`: libfoo.so; `:libfoo.so.1`:
    that file), as the linker finds them: `python -m thffi --libs`'
    flags are such -L and -l:.  Not CUDA's libraries."""
    args = as_list(kw.get('extra_link_args'))
    linked = [o for o in user_objects + args
              if re.search(r'\.so(\.|$)', o) and os.path.isfile(o)]
    # -Lfolder and -l name, joined or as two words.
    flags = {'-L': [], '-l': []}
    for i, arg in enumerate(args):
        flag, value = arg[:2], arg[2:] or (args[i + 1] if i + 1 < len(args) else '')
        if flag in flags and value:
            flags[flag].append(value)
    folders = as_list(kw.get('library_dirs')) + flags['-L']
    for name in as_list(kw.get('libraries')) + flags['-l']:
        if re.sub(r'^:lib|\.so[\d.]*$', '', name) in cuda.LIBRARIES:
            continue  # CUDA's (':libcusparse.so.12'), not built apart
        filename = name[1:] if name.startswith(':') else 'lib%s.so' % name
        found = [os.path.join(d, filename) for d in folders
                 if os.path.isfile(os.path.join(d, filename))]
        if found and found[0] not in linked:
            linked.append(found[0])
    return linked


def _checked_shared_library(name, base, with_cuda, path, shared):
    """thffi's shared library `shared`, which the link's library at `path`
    is (or links): BuildError for another thffi's, or for one with THC
    where the extension is built without CUDA, or without THC where it is
    built with it."""
    ours = shared_library_name()
    found = os.path.basename(shared)
    how = ('names' if os.path.samefile(path, shared) else 'was linked against')
    if found != ours:
        raise BuildError('create_extension(%r): %s %s %s, thffi %s\'s TH library; this is %s: '
                         '%s with the flags of `python -m thffi --libs`'
                         % (name, display(base, path), how, found,
                            _shared_library_version(found), ours,
                            'link it' if how == 'names' else 'relink it'))
    has_thc = any('libcudart' in n for n in binaries.dynamic_section(shared)[0])
    if has_thc and not with_cuda:
        raise BuildError('create_extension(%r): %s %s thffi\'s TH/THC library; build the '
                         'extension with with_cuda=True (or link that library against the '
                         'TH-only one: THFFI_WITH_CUDA=0 python -m thffi --libs)'
                         % (name, display(base, path), how))
    if with_cuda and not has_thc:
        raise BuildError('create_extension(%r, with_cuda=True): %s %s thffi\'s TH-only '
                         'library, without THC; link the TH/THC one (the flags of `python -m '
                         'thffi --libs` where a CUDA toolkit is found)'
                         % (name, display(base, path), how))
    return shared


def _shared_library(name, base, with_cuda, user_objects, kw, serving):
    """(shared library, linked libraries, {kwargs it changes}): thffi's
    shared library (libthffi-<version>.so) when the link names it
    (_named_libraries: by path, in `libraries`, by --libs' flags), when
    a library the extension links was linked against it (python -m thffi
    --libs), or when one calls thffi's names unlinked (serving:
    shared_library.serving), or None.  The extension then links it too,
    instead of holding thffi's code: one copy of its state serves both,
    and the callbacks it calls (_thffi_stream_cb, _thffi_cuda_memory_cb:
    the module's) are the module's exported names.  The linked libraries:
    the shared libraries the link names, thffi's not counted."""
    named = _named_libraries(user_objects, kw)
    own = [p for p in named if _shared_library_version(os.path.basename(p))]
    linked = [p for p in named if p not in own]
    checked = [_checked_shared_library(name, base, with_cuda, path, path) for path in own]
    shared = checked[0] if checked else None
    for path in linked:
        needed, runpath = binaries.dynamic_section(path)
        for needs in needed:
            if _shared_library_version(needs) is None:
                continue
            # Where the link names that library itself, the loader finds it
            # there (the extension's NEEDED, loaded first); else in the
            # library's RUNPATH.
            named_too = shared and os.path.basename(shared) == needs
            search = [os.path.dirname(shared)] if named_too else runpath
            found = [d for d in search if os.path.isfile(os.path.join(d, needs))]
            if not found:
                raise BuildError('create_extension(%r): %s needs %s but names no folder '
                                 'holding it (its RUNPATH): link it with all the flags of '
                                 '`python -m thffi --libs`' % (name, display(base, path), needs))
            shared = _checked_shared_library(name, base, with_cuda, path,
                                             os.path.join(found[0], needs))
    # Built apart as against PyTorch 0.4's libraries, which the process had
    # loaded: their names are left for the loader, which finds them in the
    # shared library the extension links (shared_library.serving decides).
    shared = shared or (serving(linked, with_cuda) if linked and serving else None)
    if shared:
        return shared, linked, _linking_shared(kw, shared)
    return None, linked, {}


def _linking_shared(kw, shared):
    """{kwargs it changes} of an extension linking thffi's shared library."""
    folder = os.path.dirname(shared)
    return {'library_dirs': as_list(kw.get('library_dirs')) + [folder],
            'runtime_library_dirs': as_list(kw.get('runtime_library_dirs')) + [folder],
            'libraries': as_list(kw.get('libraries')) + [':' + os.path.basename(shared)]}
