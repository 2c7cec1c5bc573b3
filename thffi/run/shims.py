"""The compilers of `python -m thffi run`.  A compiler its command starts,
by whatever path or name, comes here one of two ways:
- the library the run preloads into every program (intercept.c) starts
  the run folder's `thffi-compiler` in its place: intercepted(), with the
  kind of compiler, the real program's path, and the argument vector as
  it was given;
- `nvcc` by name, through the run folder's `nvcc`, first on PATH (the
  toolkit may be off PATH: pip's wheels, /usr/local/cuda): main('nvcc',
  args); the real nvcc is the next on PATH, else the toolkit's thffi
  builds with.
Each applies thffi/toolchain/'s rules to the arguments, says in one line
on stderr what it changed (nothing when it changed nothing), and execs the
real program.  THFFI_RUN_PASS, set in the environment first, lets that
program, what it starts (cc1, as, ld, nvcc's host gcc, which get the flags
already changed) and the probes here run as they are: no loop.

- nvcc: toolchain/nvcc.py's modernize(), the architectures today's nvcc
  rejects replaced by thffi's --arch-flags (cuda.nvcc_arch_flags()).
- cc (gcc, cc, x86_64-linux-gnu-gcc-12...) compiling C: toolchain/cc.py's
  DIALECT_RULES that the compiler's release makes errors, as gcc 5 took
  them: each gcc 14 error a warning again (`-Wno-error=...`, first, so that
  the command's own flags win), and gcc 15's C23 default back to gcc 5's
  gnu11 where the command names no -std.  g++ and c++ compile C++ (a .c
  too): no dialect rule is theirs.
- every compile (nvcc, cc, c++): the include folders of PyTorch 0.4 and 1.x
  (toolchain/includes.py) become thffi's include flags; for nvcc, an
  include folder holding a copy of CUB or thrust (toolchain/vendored.py)
  is set aside where the toolkit's serves the code, as port sets it aside.
- g++ and c++ compiling C++ with no -std: as 2018's g++ did where today's
  refuses it (toolchain/cc.py's OLD_CXX_DEFAULTS), run and judged here.
- g++, c++ and nvcc compiling C++ or CUDA that names a std name whose
  header it does not include (std::numeric_limits, std::string), which
  2018's standard headers included for it: where the compiler says so,
  compiled again with that header included first (toolchain/
  std_headers.py).
- every compile and link (nvcc, cc, c++), where pip's CUDA wheels hold
  headers or libraries the toolkit lacks: their include folders after the
  toolkit's (`python -m thffi --cuda-includes`; nvcc -I after the
  command's own, cc and c++ -idirafter, after the system's), and each -l of
  a CUDA library (toolchain/libraries.py) that only a wheel holds (its
  libcurand.so.10, no libcurand.so) linked as `--cuda-libs` links it, with
  its rpath; a CUDA library's header or library that nothing installed
  holds is named with the wheel that brings it (`curand.h comes with pip
  install nvidia-curand (or thffi[cuda])`), for a compile where the
  compiler says so.
- nvcc compiling CUDA (a .cu, `-x cu`): include/cccl_legacy.h included
  first (what CUDA 13's CCCL removed that 2018 code used), as the builder
  includes it.
- nvcc compiling a .cpp that its host g++ refuses and nvcc's CUDA front
  end accepts (thrust's device headers, which CUDA 13's g++ side cannot
  compile): compiled again as CUDA (`-x cu`, cccl_legacy.h first), by the
  compiler's own verdict, saying so (toolchain/nvcc.py's AS_CUDA).
- a link naming PyTorch 0.4's libraries (-lATen, -lTH, $(TORCH)/lib/
  libTHC.so.1: toolchain/torch_folder.py), gone: thffi's shared TH
  library's link flags (`python -m thffi --libs`) in their place.
- a shared library linked (-shared, nvcc --shared) from objects or sources
  that call TH/THC (a library built apart, as 2018's were against PyTorch
  0.4's libTH): linked with the extension's --wrap flags, so that its
  exit(), abort() and failed assert() end the wrapped call as the
  extension's own do, and its threads belong to the call (the __wrap_
  functions are thffi's shared library's, which the extension linking it
  loads: builder/shared_library.py).

What a run asks of the machine once (the architectures, the compiler's
release and defaults, thffi's include flags, the toolkit's CUB) is kept as
JSON in the run's own folder (THFFI_RUN_STATE), removed with the run:
TORCH_CUDA_ARCH_LIST or the toolkit may differ at the next.

The shims start Python without site (-S) and run this file; it imports
thffi's toolchain rules (thffi's face imports nothing more at start) and
site-packages only for what needs them (finding the CUDA toolkit, thffi's
include flags): a compile costs a bare Python start (0.06 s on an idle
machine) more than it did."""

import os
import sys

# A file in each folder `thffi run` makes: the shims look for the real
# programs on PATH less the folders holding it (also a nested run's).
MARKER = '.thffi-run'
# The environment variable naming the folder of one run's probes (run.py).
STATE = 'THFFI_RUN_STATE'
# Set for every program the shims start: intercept.c starts it as it is.
PASS = 'THFFI_RUN_PASS'
# The folder the step runs in (run's main(); run/python2.py's ROOT).
ROOT = 'THFFI_RUN_ROOT'


def _site():
    """site-packages (where thffi's own imports are), which the shim's -S
    left out."""
    if sys.flags.no_site:
        import site
        site.main()


def real_program(name, path=None):
    """The program `name` on PATH (or `path`) less the folders `thffi run`
    made, or None."""
    for folder in (os.environ.get('PATH', '') if path is None else path).split(os.pathsep):
        program = os.path.join(folder or '.', name)
        if (not os.path.exists(os.path.join(folder or '.', MARKER)) and
                os.path.isfile(program) and os.access(program, os.X_OK)):
            return program
    return None


def _cached(key, compute):
    """compute()'s value, computed once a run: kept as JSON in the run's
    folder (written whole, then renamed, for compilers `make -j` runs at
    once); computed each time outside a run (a compiler a build recorded
    under `thffi run`, called by a later `make`)."""
    import json
    import re
    folder = os.environ.get(STATE)
    if not folder or not os.path.isdir(folder):
        return compute()
    path = os.path.join(folder, 'cache-%s.json' % re.sub(r'\W', '_', key))
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    value = compute()
    partial = '%s.%d' % (path, os.getpid())
    with open(partial, 'w') as f:
        json.dump(value, f)
    os.replace(partial, path)
    return value


def _say(name, clauses):
    """One line on stderr, once a run (FindCUDA runs nvcc twice a source,
    for its dependencies and to compile it; make -j runs many at once: the
    first to make the line's file in the run's folder says it)."""
    if not clauses:
        return
    line = 'thffi run: %s: %s\n' % (name, '; '.join(clauses))
    folder = os.environ.get(STATE)
    if folder and os.path.isdir(folder):
        import hashlib
        try:
            os.close(os.open(os.path.join(folder, 'said-' + hashlib.sha256(
                line.encode()).hexdigest()[:32]), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        except OSError:
            pass
    sys.stderr.write(line)


def _exec(program, argv0, args):
    sys.stderr.flush()
    os.execv(program, [argv0] + list(args))


def _cxx_sources(kind, args):
    """The C++ sources a g++ or c++ command compiles (it compiles a .c as
    C++ too), or the .cu sources an nvcc command does; [] for other
    commands, and where `-x` says what the inputs are."""
    from thffi.toolchain import cc as cc_rules
    from thffi.toolchain import nvcc as nvcc_rules
    if kind not in ('c++', 'nvcc') or '-x' in args:
        return []
    suffixes = ('.cu',) if kind == 'nvcc' else cc_rules.CXX_SUFFIXES + ('.c',)
    return [source for source in nvcc_rules.inputs([kind] + list(args))
            if source.endswith(suffixes)]


def _as_2018(name, program, argv0, args, sources, standards, clauses, as_cuda=None):
    """Runs a C++ or CUDA compile as 2018's compilers took it: as it is;
    where the compiler refuses it, with the standard headers the
    compiler says the code forgot included first (toolchain/
    std_headers.py, a round for each it names), and with the first of
    2018's default standards it accepts (`standards`: toolchain/cc.py's
    OLD_CXX_DEFAULTS for a g++ command naming none); else, for nvcc
    compiling C++ (as_cuda: the flags, toolchain/nvcc.py's AS_CUDA and
    cccl_legacy.h), as CUDA, where nvcc accepts it so; saying so.  Its exit
    status; the messages shown are those of the compile that succeeded,
    else of the command as it was."""
    import subprocess
    from thffi.toolchain import cc as cc_rules
    from thffi.toolchain import std_headers

    def attempt(more):
        done = subprocess.run([argv0] + more + list(args), executable=program,
                              stderr=subprocess.PIPE)
        return done.returncode, done.stderr

    status, shown = first = attempt([])
    found = []
    if status != 0:
        found, error, output = std_headers.retried(shown, attempt)
        if not error:
            status, shown = 0, output
            clauses = clauses + [std_headers.line(', '.join(sources), found)]
    for standard, why in ([] if status == 0 else standards):
        older, output = attempt(['-std=' + standard] + std_headers.include_flags(
            h for h, _ in found))
        if older == 0:
            status, shown = 0, output
            clauses = clauses + ([std_headers.line(', '.join(sources), found)] if found
                                 else []) + [cc_rules.old_default_line(', '.join(sources),
                                                                       standard, why)]
            break
    if status != 0 and as_cuda:
        cuda_status, output = attempt(as_cuda)
        if cuda_status == 0:
            from thffi.toolchain import nvcc as nvcc_rules
            status, shown = 0, output
            clauses = clauses + [nvcc_rules.as_cuda_line(', '.join(sources))]
    sys.stderr.buffer.write(shown if status == 0 else first[1])
    if status != 0 and b'No such file or directory' in first[1]:
        clauses = clauses + _missing_headers(first[1], _cached('cuda wheels',
                                                                 _cuda_wheels)['major'])
    _say(name, clauses)
    return status


def _nvcc_rules(program, args):
    """(args, [clause]) of toolchain/nvcc.py's rules, or (None, message)
    where TORCH_CUDA_ARCH_LIST names no architecture."""
    from thffi.toolchain import cuda_toolkit as cuda
    from thffi.toolchain import nvcc as nvcc_rules
    try:
        found = _cached('nvcc ' + program, lambda: {
            'arch_flags': cuda.nvcc_arch_flags(),
            'accepted': sorted(nvcc_rules.accepted_architectures(program) or [])})
    except ValueError as exc:
        return None, str(exc)
    new, changes = nvcc_rules.modernize(args, found['arch_flags'], found['accepted'] or None)
    return new, [nvcc_rules.describe(changes)] if changes else []


def _compiles_c(args):
    """Whether the command compiles (or preprocesses) a C source: an input
    ending in .c, or one after `-x c`."""
    language, i = None, 0
    while i < len(args):
        arg = args[i]
        if arg == '-x' and i + 1 < len(args):
            language, i = args[i + 1], i + 2
            continue
        if arg.startswith('-x') and len(arg) > 2:
            language = arg[2:]
        elif not arg.startswith('-') and (language == 'c' or language in (None, 'none') and
                                          arg.endswith('.c')):
            return True
        elif arg in ('-o', '-MF', '-MT', '-MQ', '-include', '-I', '-D', '-U', '-L', '-l'):
            i += 1  # its value is the next argument, not an input
        i += 1
    return False


def _probe(program, cc_rules):
    """What the C compiler `program` is: {'flags': [[flag, why]...] the
    -Wno-error= flags of the DIALECT_RULES its release made errors (those
    it knows), 'c23': whether it compiles C as C23 (or later) by default}."""
    import re
    import subprocess
    out = subprocess.run([program, '-dM', '-E', '-x', 'c', '-'], input='', capture_output=True,
                         text=True, timeout=60)
    macros = dict(re.findall(r'#define (\w+) (.*)', out.stdout))
    clang = '__clang__' in macros
    major = int(macros.get('__GNUC__', '0'))
    known = set(cc_rules.tolerated_errors((program,)))
    flags = []
    for rule in cc_rules.DIALECT_RULES:
        flag = '-Wno-error=%s' % rule.warning
        # clang's releases are not gcc's: every flag it knows is given.
        if rule.warning and flag in known and (clang or major >= int(rule.release.split()[1])):
            flags.append([flag, rule.why])
    version = re.match(r'\d+', macros.get('__STDC_VERSION__', '0'))
    return {'flags': flags, 'c23': int(version.group()) > 201710}


def _dialect_rules(program, args):
    """(args, [clause]) of toolchain/cc.py's DIALECT_RULES for a C compile."""
    import re
    from thffi.toolchain import cc as cc_rules
    found = _cached('cc ' + program, lambda: _probe(program, cc_rules))
    added = [(flag, why) for flag, why in found['flags'] if flag not in args]
    if found['c23'] and not any(re.match(r'--?std=', a) for a in args):
        c23 = next(rule for rule in cc_rules.DIALECT_RULES if rule.release == 'gcc 15')
        added.append(('-std=gnu11', "gcc 5's default, where " + c23.why))
    return ([flag for flag, _ in added] + list(args),
            ['adds %s (%s)' % (flag, why) for flag, why in added])


def _include_flags():
    """thffi's include flags, and its include folder (where THCUNN's are)."""
    _site()
    from thffi import builder
    return {'flags': builder.include_flags(), 'dir': builder.include_dirs()[0]}


def _set_aside(kind, args):
    """{folder: why} of the include folders of an nvcc command that hold a
    copy of a library the toolkit ships, where the toolkit's serves the
    command's sources: every `cub::Name` they use is in it (nvcc is asked,
    once a run, as port asks it)."""
    if kind != 'nvcc':
        return {}
    from thffi.toolchain import includes, vendored
    copies = {folder: library for folder in includes.folders(args)
              for library in vendored.LIBRARIES
              if library.toolkit and os.path.isfile(os.path.join(folder, library.marker))}
    if not copies:
        return {}
    _site()
    from thffi.toolchain import cuda_toolkit as cuda
    from thffi.toolchain import nvcc as nvcc_rules
    home = cuda.find_cuda_home()
    texts = [_read(source) for source in nvcc_rules.inputs(['nvcc'] + list(args))]
    found = {}
    for folder, library in copies.items():
        toolkit = vendored.toolkit_folder(library, home)
        if not toolkit or os.path.realpath(folder).startswith(os.path.realpath(home) + os.sep):
            continue  # no toolkit's to use instead, or the toolkit's own
        if _toolkit_serves(library, texts, home):
            version = library.version and vendored.version_from_text(
                library, _read(os.path.join(folder, library.version[0])))
            found[folder] = 'a copy of %s%s: %s; <%s/...> now finds the toolkit\'s' % (
                library.name, ' ' + version if version else '', library.why, library.folder)
    return found


def _toolkit_serves(library, texts, home):
    """Whether the toolkit's copy of library has the headers the sources
    include of it and the names they use (vendored.missing_names())."""
    import re
    prefix = re.escape(library.folder)
    headers = sorted({h for text in texts for h in re.findall(
        r'#\s*include\s*[<"](%s/[^>"]+)[>"]' % prefix, text)}) or [library.marker]
    names = sorted({n for text in texts for n in re.findall(r'\b%s::(\w+)' % prefix, text)})

    def ask():
        from thffi.toolchain import vendored
        missing, error = vendored.missing_names(library, headers, names, home)
        return not error and not missing
    return _cached('serves %s %s %s' % (library.folder, ' '.join(headers), ' '.join(names)), ask)


def _read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def _include_rules(kind, args):
    """(args, [clause]) of toolchain/includes.py's rules."""
    from thffi.toolchain import includes
    from thffi.toolchain.nvcc import describe
    old = any(includes.old_folder(folder) for folder in includes.folders(args))
    set_aside = _set_aside(kind, args)
    if not old and not set_aside:
        return args, []
    found = _cached('includes', _include_flags) if old else {'flags': [], 'dir': None}
    new, changes = includes.modernize(args, found['flags'], set_aside, found['dir'])
    return new, [describe(changes)]


def _cuda_wheels():
    """Where pip's CUDA wheels serve a build with the toolkit thffi finds:
    {'toolkit': the toolkit's include folders, 'wheels': the folders
    --cuda-includes adds after them, 'major': the toolkit's CUDA major}."""
    _site()
    from thffi.toolchain import cuda_toolkit as cuda
    home = cuda.find_cuda_home()
    own, version = cuda.toolkit_include_dirs(home), home and cuda.toolkit_version(home)
    return {'toolkit': own, 'wheels': cuda.header_dirs(home)[len(own):],
            'major': version[0] if version else None}


_SOURCE = ('.c', '.cc', '.cpp', '.cxx', '.C', '.cu')


def _library_headers(args):
    """The CUDA library headers (toolchain/libraries.py's HEADERS) the
    command's sources include themselves."""
    import re
    from thffi.toolchain import libraries
    from thffi.toolchain import nvcc as nvcc_rules
    found = set()
    for source in nvcc_rules.inputs(['cc'] + list(args)):
        if source.endswith(_SOURCE):
            found |= set(re.findall(r'^[ \t]*#[ \t]*include[ \t]*[<"]([\w.]+)[>"]',
                                    _read(source), re.M))
    return sorted(found & set(libraries.HEADERS))


def _cuda_library_rules(kind, args):
    """(args, [clause]) of pip's CUDA wheels for a command (the module's
    docstring): a compile gets their include folders after the toolkit's,
    where a wheel holds headers the toolkit lacks (the headers the sources
    include themselves from there are named); each -l of a CUDA library
    that only a wheel holds is replaced by `--cuda-libs`' flags, one that
    nothing holds is named with its wheel."""
    from thffi.toolchain import includes, libraries
    from thffi.toolchain import nvcc as nvcc_rules
    wanted = [(i, libraries.link_flag(a) or (a == '-l' and i + 1 < len(args) and
                                               libraries.link_flag('-l' + args[i + 1])))
              for i, a in enumerate(args)]
    wanted = [(i, name) for i, name in wanted if name]
    compiles = any(s.endswith(_SOURCE) for s in nvcc_rules.inputs(['cc'] + list(args)))
    if not wanted and not compiles:
        return args, []
    found = _cached('cuda wheels', _cuda_wheels)
    clauses, out = [], list(args)
    if compiles and found['wheels']:
        flag = '-I' if kind == 'nvcc' else '-idirafter'
        out += [f for d in found['toolkit'] + found['wheels'] for f in (flag, d)]
        served = [h for h in _library_headers(args) if not any(
            os.path.isfile(os.path.join(d, h)) for d in found['toolkit'] + includes.folders(args))
                  and any(os.path.isfile(os.path.join(d, h)) for d in found['wheels'])]
        if served:
            clauses.append('%s from pip\'s CUDA wheels (%s), searched after the toolkit\'s'
                           % (', '.join(served), ', '.join(found['wheels'])))
    if not wanted:
        return out, clauses
    given = [value for option, value in zip(args, args[1:]) if option == '-L'] + \
        [a[2:] for a in args if a.startswith('-L') and len(a) > 2]
    _site()
    from thffi.toolchain import cuda_toolkit as cuda
    home = cuda.find_cuda_home()
    for i, name in reversed(wanted):
        if any(os.path.isfile(os.path.join(folder, 'lib%s%s' % (name, suffix)))
               for folder in given for suffix in ('.so', '.a')):
            continue  # the command's own -L folder holds it, as the linker finds it
        library = cuda.find_library(name, home)
        if library is None:
            clauses.append('-l%s: %s' % (name, cuda.missing_library_message(name, home)))
        elif library.link != name:
            out[i:i + (2 if args[i] == '-l' else 1)] = cuda.link_flags([library])
            clauses.append('-l%s: %s from pip\'s CUDA wheels (%s), with its rpath, as python -m '
                           'thffi --cuda-libs %s links it' % (name, os.path.basename(
                               library.file), library.folder, name))
    return out, clauses


def _missing_headers(output, major):
    """The lines naming the wheel of each CUDA library header a compiler's
    output says it did not find."""
    import re
    from thffi.toolchain import libraries
    text = output.decode('utf-8', 'replace') if isinstance(output, bytes) else output
    names = dict.fromkeys(re.findall(r'fatal error: ([\w./+-]+): No such file or directory',
                                     text))
    return [line for line in (libraries.header_message(h, major) for h in names) if line]


def _legacy_cuda_headers(args):
    """args, with thffi's cccl_legacy.h included first where the command
    compiles CUDA, a .cu file or after `-x cu` (toolchain/nvcc.py's
    CCCL_LEGACY, as the builder's own nvcc compiles include it).  It
    defines nothing where the toolkit still has them: nothing to say."""
    from thffi.toolchain import nvcc as nvcc_rules
    if not nvcc_rules.compiles_cuda(['nvcc'] + list(args)):
        return args
    return ['-include', nvcc_rules.CCCL_LEGACY] + list(args)


def _calls_th(path):
    """Whether a source includes TH's or THC's headers, or an object or
    archive leaves a TH name or `state` for the loader (nm itself: the
    builder's binaries.py needs site-packages, which a shim starts
    without)."""
    if os.path.splitext(path)[1] in ('.o', '.a', '.so'):
        import subprocess
        try:
            listed = subprocess.run(['nm', '-P', '-u', path], capture_output=True, text=True,
                                    errors='replace').stdout.splitlines()
        except OSError:  # no binutils: the link would fail first
            return False
        return any(f[1] == 'U' and (f[0].startswith('TH') or f[0] == 'state')
                   for f in (line.split() for line in listed) if len(f) >= 2)
    import re
    return re.search(r'^\s*#\s*include\s*[<"](?:THC?/|THC?\.h)', _read(path), re.M) is not None


def _thffi_link_flags():
    """The link flags of thffi's shared TH library (`python -m thffi
    --libs`; linked first where the cache lacks it)."""
    _site()
    from thffi.builder import shared_library
    from thffi.toolchain import cuda_toolkit as cuda
    return shared_library.link_flags(shared_library.library(cuda.cuda_enabled()))


def _library_rules(args):
    """(args, [clause]) of toolchain/torch_folder.py's rule for a link
    naming PyTorch 0.4's libraries (-lATen, $(TORCH)/lib/libTH.so.1)."""
    if '-c' in args or '-E' in args or '-S' in args:
        return args, []
    from thffi.toolchain import torch_folder
    if not torch_folder.link_modernize(args, [])[1]:
        return args, []
    new, old = torch_folder.link_modernize(args, _cached('libs', _thffi_link_flags))
    return new, ['%s becomes `python -m thffi --libs` (%s)' % (' '.join(old),
                                                               torch_folder.WHY)]


def _wrap_rules(kind, args):
    """A shared library's link whose inputs call TH/THC gets thffi's --wrap
    flags (the module docstring): (args, [what was done])."""
    if not any(a in ('-shared', '--shared') for a in args) or '-c' in args or any(
            '--wrap=exit' in a for a in args):
        return args, []
    outputs = {b for a, b in zip(args, args[1:]) if a in ('-o', '--output-file')}
    if not any(_calls_th(a) for a in args if a not in outputs and not a.startswith('-')
               and os.path.isfile(a)):
        return args, []
    _site()
    from thffi.builder.configure import WRAPPED
    wraps = ','.join('--wrap=' + name for name in WRAPPED)
    flags = ['-Xlinker', wraps] if kind == 'nvcc' else ['-Wl,' + wraps]
    return args + flags, ['its exit(), abort() and assert() end the wrapped call, as the '
                          "extension's own (linked with thffi's --wrap flags)"]


def _source_rules(program, args):
    """(args, [clause]) of port's rules for the text of the repository's
    CUDA sources the command compiles (run/cuda_sources.py: the maskless
    warp intrinsics), compiled from rewritten copies kept in thffi's cache
    (the run's folder where that cannot be written)."""
    root = os.environ.get(ROOT)
    if not root:
        return args, []
    from thffi._cache import cache_root
    from thffi.run import cuda_sources
    toolkit = os.path.dirname(os.path.dirname(os.path.realpath(program)))
    for cache in (cache_root(), os.environ.get(STATE)):
        if cache:
            try:
                return cuda_sources.modernize(args, os.getcwd(), root, cache, toolkit)
            except OSError:
                continue
    return args, []


def main(kind, args, program=None, argv0=None):
    """The compiler of `kind` (nvcc, cc or c++) at `program` (the real one;
    None: the next of that name on PATH, for nvcc else the toolkit's), with
    args; argv0: its name as the command gave it."""
    os.environ[PASS] = '1'
    args = list(args)
    name = os.path.basename(argv0 or kind)
    clauses = []
    if program is None:
        program = real_program(name)
    elif not os.path.lexists(program):
        # A compiler of 2018's machine (toolchain/compilers.py), gone
        # from this one (intercept.c starts no other missing path here):
        # today's of its kind, started by its own path (a driver finds its
        # parts from it).
        from thffi.toolchain import compilers
        gone = compilers.gone(program)
        name = gone.today
        clauses.append(compilers.message(program, gone,
                                         'today\'s %s in its place' % gone.today))
        program = argv0 = real_program(gone.today)
    if kind == 'nvcc' and program is None:
        _site()
        from thffi.toolchain import cuda_toolkit as cuda
        home = cuda.find_cuda_home()
        program = home and os.path.join(home, 'bin', 'nvcc')
        argv0 = argv0 and program
        if not program:
            sys.stderr.write('thffi run: %s\n' % cuda.missing_toolkit_message(
                'nvcc', 'run the step without nvcc'))
            return 127
    if program is None:
        sys.stderr.write('thffi run: %s: not found on PATH\n' % name)
        return 127
    kind = {'gcc': 'cc'}.get(kind, kind)  # the `gcc` of a folder an older thffi made
    if any(a.startswith('@') or a.partition('=')[0] in ('--options-file', '-optf')
           for a in args):
        from thffi.toolchain import nvcc as nvcc_rules
        args = nvcc_rules.read_response_files(args)  # the rules see what the compiler would
    if kind == 'nvcc':
        _site()
        args, rules = _nvcc_rules(program, args)
        if args is None:
            sys.stderr.write('thffi run: nvcc: %s\n' % rules)
            return 2
        clauses += rules
    elif kind == 'cc' and _compiles_c(args):
        args, rules = _dialect_rules(program, args)
        clauses += rules
    args, more = _include_rules(kind, args)
    if kind == 'nvcc':
        args, sources = _source_rules(program, args)
        args = _legacy_cuda_headers(args)
        more += sources
    args, linked = _library_rules(args)
    more += linked
    args, wheels = _cuda_library_rules(kind, args)
    more += wheels
    args, wrapped = _wrap_rules(kind, args)
    more += wrapped
    # A C compile including a CUDA library's header runs as a C++ one does,
    # so that the header a compiler misses is named with its wheel.
    cxx_sources = _cxx_sources(kind, args) or (kind == 'cc' and _library_headers(args) and [
        s for s in _cxx_sources('c++', args) if s.endswith('.c')])
    if kind == 'nvcc' and not cxx_sources:
        from thffi.toolchain import nvcc as nvcc_rules
        as_cuda = nvcc_rules.as_cuda_candidates(['nvcc'] + list(args))
        if as_cuda:
            return _as_2018(name, program, argv0 or program, args, as_cuda, [], clauses + more,
                            nvcc_rules.AS_CUDA + ['-include', nvcc_rules.CCCL_LEGACY])
    if cxx_sources:
        from thffi.toolchain import cc as cc_rules
        standards = [] if kind in ('nvcc', 'cc') or cc_rules.names_a_standard(args) else \
            cc_rules.OLD_CXX_DEFAULTS
        return _as_2018(name, program, argv0 or program, args, cxx_sources, standards,
                        clauses + more)
    _say(name, clauses + more)
    _exec(program, argv0 or program, args)


def cmake(args):
    """cmake by name (the run folder's `cmake`, first on PATH): the next on
    PATH, with the folder shaped as PyTorch 0.4's torch folder
    (torch_folder.py; made where the run folder is, its library linked the
    first time) first in the search of its find_path and find_library.
    The compilers it and the build it writes start are caught as any."""
    program = real_program('cmake')
    if program is None:
        sys.stderr.write('thffi run: cmake: not found on PATH\n')
        return 127
    _site()
    from thffi.run import torch_folder
    try:
        torch = torch_folder.make(os.path.dirname(os.path.abspath(sys.argv[0])))
    except Exception as exc:  # thffi's library cannot be linked here: BuildError, OSError
        _say('cmake', ["no folder shaped as PyTorch 0.4's torch folder for find_path(TH/TH.h) "
                       'and find_library(ATen): %s' % exc])
    else:
        torch_folder.environment(os.environ, torch)
    _exec(program, program, args)  # by its path: CMake finds its modules from argv[0]


def intercepted(argv):
    """A compiler intercept.c caught: argv is KIND PROGRAM ARGV0 ARGS..."""
    return main(argv[0], argv[3:], argv[1], argv[2])
