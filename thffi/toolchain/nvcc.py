"""nvcc's command line, then and now.

2017-2018 build files ran nvcc 8-9 with `-std=c++11`, `--expt-extended-lambda`,
`-ccbin gcc-5` and architectures from sm_20 to sm_72.  CUDA 13's nvcc targets
nothing older than sm_75 ("Unsupported gpu architecture 'compute_30'"), and
its thrust/cub/libcu++ refuse C++11 and C++14 ("Thrust requires at least
C++17").  FLAG_RULES lists the options that changed; architectures are
decided against the installed nvcc (accepted_architectures()).

The rules are regular expressions over the text of nvcc flags, so that the
same row rewrites an argument vector (modernize(): the builder's fallback
compile), a word of make.sh, a Makefile variable, a CMake argument or a
Python string (flag_edits(): port), quotes and all.  Flags nvcc still
accepts are left as they are (`--expt-relaxed-constexpr`, `-D_FORCE_INLINES`,
`-Xcompiler -fPIC`...).

`modernize(args, arch_flags)` also replaces old architecture flags: the
caller's replacement for them takes the place of the first of them (the
builder passes its -gencode flags, port its `$(python -m thffi
--arch-flags)`).  `carried_flags(args, cwd)` keeps, of a build file's nvcc
command, what compiling its source again needs."""

import collections
import os
import re
import shutil
import subprocess

from . import cuda_toolkit as cuda

# CUDA 13's oldest architecture: what is assumed without an nvcc to ask.
OLDEST_WITHOUT_NVCC = 75

# Options naming GPU architectures, each with its value as the next argument
# or after '='.
ARCH_OPTIONS = ('-gencode', '--generate-code', '-arch', '--gpu-architecture', '-code',
                '--gpu-code')
ARCH_NUMBER = re.compile(r'(?:sm|compute)_(\d+)')
# FindCUDA's CUDA_SELECT_NVCC_ARCH_FLAGS(VAR ARCH...): an ARCH is a
# compute capability ("3.0", "3.5+PTX", "5.2(5.0)": each number one) or a
# generation's name, the capabilities CMake's select_compute_arch.cmake
# gives it; Auto, Common and All are lists of CMake's release, known when
# cmake runs.
CMAKE_ARCH_CAPABILITY = re.compile(r'(\d)\.(\d)')
CMAKE_ARCH_NAMES = {'Fermi': (20, 21), 'Kepler+Tegra': (32,), 'Kepler+Tesla': (37,),
                    'Kepler': (30, 35), 'Maxwell+Tegra': (53,), 'Maxwell': (50, 52),
                    'Pascal': (60, 61), 'Volta': (70,), 'Turing': (75,), 'Ampere': (80,)}


def cmake_architectures(args):
    """The architecture numbers of CUDA_SELECT_NVCC_ARCH_FLAGS's ARCH
    arguments, or None where one is Auto, Common, All or unknown (or
    none is given: Auto)."""
    numbers = []
    for arg in args:
        arg = arg.strip('"')
        found = CMAKE_ARCH_CAPABILITY.findall(arg)
        if arg in CMAKE_ARCH_NAMES:
            numbers += CMAKE_ARCH_NAMES[arg]
        elif found:
            numbers += [int(a + b) for a, b in found]
        else:
            return None
    return numbers or None


def _missing_compiler(match):
    """Whether the host compiler a -ccbin names is not installed (a value
    still holding a variable is not judged)."""
    name = match.group('compiler').strip('"\'')
    return not re.search(r'[$`]', name) and shutil.which(name) is None


# old: a regular expression matching nvcc flags as written (an option and
# its value after '=' or blanks), where a flag starts and ends (after a
# blank, a quote, '=', ',' or '('; so also inside `-Xcompiler
# -fPIC,-std=c++11`); new: its replacement (re.sub template; '' deletes the
# flag); why: what today's nvcc does with the old form; applies: None, or a
# function of the match saying whether the row applies to it.
Rule = collections.namedtuple('Rule', 'old new why applies', defaults=(None,))
_WL_WHY = ("gcc's form (python -m thffi --libs prints -Wl,-rpath,DIR): nvcc rejects it "
           "(Unknown option '-Wl,...'); -Xlinker, one a linker argument, is nvcc's and gcc's")
FLAG_RULES = [
    Rule(r'(--?std(?:=|[ \t]+))(c|gnu)\+\+(?:98|03|0x|11|1y|14|1z)', r'\1\2++17',
         "CUDA 13's thrust, CUB and libcu++ need C++17: #error Thrust requires at least "
         "C++17, also when -Xcompiler gives the host compiler an older standard"),
    Rule(r'--?expt-extended-lambda', '--extended-lambda',
         'renamed in CUDA 11, the old name kept as an alias'),
    Rule(r'(?:-ccbin|--compiler-bindir)(?:=|[ \t]+)(?P<compiler>"[^"]*"|\'[^\']*\'|[^\s"\']+)',
         '', "names a host compiler that is not installed: nvcc fails with \"Failed to "
         "preprocess host compiler properties\", and without it nvcc uses its default one",
         _missing_compiler),
    # -Xlinker, which gcc takes too: the rows rewrite flags of variables
    # that gcc commands may share.
    Rule(r'-Wl,(?P<a>[^\s"\',]+),(?P<b>[^\s"\',]+)(?!,)', r'-Xlinker \g<a> -Xlinker \g<b>',
         _WL_WHY),
    Rule(r'-Wl,(?P<a>[^\s"\',]+)(?!,)', r'-Xlinker \g<a>', _WL_WHY),
]
_BEFORE = r'(?<![^\s"\'=,;(:])'
_AFTER = r'(?![^\s"\',;)>])'
_PATTERNS = [re.compile(_BEFORE + rule.old + _AFTER) for rule in FLAG_RULES]
# Options whose value may be the next argument.
_VALUE_OPTIONS = ('-std', '--std', '-ccbin', '--compiler-bindir')

Change = collections.namedtuple('Change', 'old new why')


def accepted_architectures(nvcc=None):
    """The compute capabilities an nvcc accepts (the given one, else the
    toolkit's), as numbers like 75 (nvcc --list-gpu-arch), or None when
    there is no nvcc to ask."""
    home = None if nvcc else cuda.find_cuda_home()
    if nvcc is None and home is None:
        return None
    try:
        out = subprocess.run([nvcc or os.path.join(home, 'bin', 'nvcc'), '--list-gpu-arch'],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    found = {int(n) for n in ARCH_NUMBER.findall(out.stdout)}
    return found if out.returncode == 0 and found else None


def rejected(numbers, accepted):
    """The architecture numbers among `numbers` that today's nvcc rejects:
    those not in `accepted` (accepted_architectures()), or, with no nvcc
    to ask (None), those older than OLDEST_WITHOUT_NVCC; sorted."""
    return sorted({n for n in numbers
                   if (n not in accepted if accepted else n < OLDEST_WITHOUT_NVCC)})


def flag_edits(text, start=0, end=None):
    """[(start, end, replacement, Change)] of FLAG_RULES in text[start:end]
    (positions in text): nvcc flags as a build file writes them, one word or
    many, in quotes or not; '' deletes a flag.  Matches do not overlap."""
    end = len(text) if end is None else end
    found = []
    for rule, pattern in zip(FLAG_RULES, _PATTERNS):
        for match in pattern.finditer(text, start, end):
            if rule.applies and not rule.applies(match):
                continue
            if any(s < match.end() and match.start() < e for s, e, _, _ in found):
                continue
            new = match.expand(rule.new)
            found.append((match.start(), match.end(), new, Change(match.group(), new, rule.why)))
    return sorted(found, key=lambda edit: edit[0])


def modern_flags(text):
    """(text, [Change]): flag_edits() applied to text; a deleted flag goes
    with the blanks before it."""
    edits = flag_edits(text)
    for start, end, new, _ in reversed(edits):
        while not new and start > 0 and text[start - 1] in ' \t':
            start -= 1
        text = text[:start] + new + text[end:]
    return text, [edit[3] for edit in edits]


def describe(changes):
    """The changes, one clause each (the same change once), for a report."""
    seen = dict.fromkeys((c.old, c.new, c.why) for c in changes)
    return '; '.join('%s %s (%s)' % (old, 'becomes ' + new if new else 'goes', why)
                     for old, new, why in seen)


def _architecture(args, i):
    """(number of arguments, [architecture numbers]) of an architecture flag
    at args[i] (`-arch=sm_30` or `-gencode arch=...`), or (0, [])."""
    name, eq, inline = args[i].partition('=')
    if name in ARCH_OPTIONS and (eq or i + 1 < len(args)):
        found = [int(n) for n in ARCH_NUMBER.findall(inline if eq else args[i + 1])]
        if found:
            return (1 if eq else 2), found
    return 0, []


def modernize(args, arch_flags, accepted=None, always=False):
    """(new args, [Change]) for an nvcc argument vector: FLAG_RULES applied,
    and, when an architecture flag names one today's nvcc rejects (see
    rejected()) or `always`, every architecture flag replaced by arch_flags
    (a list of arguments) where the first one stood (at the end when there
    was none and `always`)."""
    args = list(args)
    out, changes, arch, numbers = [], [], [], []
    i = 0
    while i < len(args):
        width, found = _architecture(args, i)
        if width:
            numbers += found
            arch.append((len(out), args[i:i + width]))
            out.append(None)  # a place holder, resolved below
            i += width
            continue
        width = 2 if args[i] in _VALUE_OPTIONS and i + 1 < len(args) else 1
        new, found = modern_flags(' '.join(args[i:i + width]))
        if new:  # '' where a row deletes the flag; one flag may become several
            out += (new.split() if not re.search(r'\s', args[i]) else [new]) if width == 1 \
                else new.split(' ', 1)
        changes += found
        i += width
    old = rejected(numbers, accepted)
    if old or always:
        if arch:
            why = ('today\'s nvcc rejects %s' % ', '.join('sm_%d' % n for n in old) if old
                   else 'the architectures this build compiles for')
            changes.append(Change(' '.join(a for _, flag in arch for a in flag),
                                  ' '.join(arch_flags), why))
        at = arch[0][0] if arch else len(out)
        out[at:at + 1 if arch else at] = list(arch_flags)
        return [a for a in out if a is not None], changes
    for index, flag in arch:
        out[index] = flag
    return [a for item in out for a in (item if isinstance(item, list) else [item])], changes


# What compiling a command's source again does not take from it: its
# inputs and output, dependency files, what only linking reads, and
# relocatable device code (an object that needs a device-link step the
# builder does not run).
_DROPPED_WITH_VALUE = ('-o', '--output-file', '-MF', '--dependency-output', '-MT', '-MQ',
                       '-odir', '--output-directory', '-L', '--library-path', '-l',
                       '--library', '-Xlinker', '--linker-options', '-Xnvlink', '--nvlink-options',
                       '-rdc', '--relocatable-device-code')
_DROPPED = ('-c', '--compile', '-M', '-MM', '-MD', '-MMD', '-MP', '--generate-dependencies',
            '-shared', '--shared', '-lib', '--lib', '-dlink', '--device-link', '-link', '--link',
            '-dc', '--device-c')
_LIBRARY = re.compile(r'-l(?!ineinfo$)\S+|-L\S+')
# Options whose value is the next argument (or after '=').
_WITH_VALUE = ('-I', '--include-path', '-isystem', '--system-include', '-D', '--define-macro',
               '-U', '--undefine-macro', '-include', '--pre-include', '-x', '--x', '-std',
               '--std', '-Xcompiler', '--compiler-options', '-Xptxas', '--ptxas-options',
               '-Xcudafe', '-ccbin', '--compiler-bindir', '-maxrregcount', '--maxrregcount',
               '--default-stream', '--machine',
               '-gencode', '--generate-code', '-arch', '--gpu-architecture', '-code',
               '--gpu-code') + _DROPPED_WITH_VALUE
_INCLUDE_OPTIONS = ('-I', '--include-path', '-isystem', '--system-include')
_INPUT = re.compile(r'[^-].*\.(?:cu|c|cc|cpp|cxx|o|a|so)$')
_UNEXPANDED = re.compile(r'[$`]')


_OPTIONS_FILE = ('--options-file', '-optf')


def read_response_files(args, cwd='.'):
    """args (a compiler's arguments, without its name) with the response
    files they name read in as the compiler reads them: gcc's `@file`,
    nvcc's `--options-file file`, `-optf file`, `--options-file=file`
    (words split as a shell splits them).  A file that cannot be read is
    left as it was, as gcc leaves it."""
    import shlex
    out, i = [], 0
    while i < len(args):
        arg, path, width = args[i], None, 1
        name, eq, value = arg.partition('=')
        if arg.startswith('@') and len(arg) > 1:
            path = arg[1:]
        elif arg in _OPTIONS_FILE and i + 1 < len(args):
            path, width = args[i + 1], 2
        elif name in _OPTIONS_FILE and eq:
            path = value
        words = None
        if path is not None:
            try:
                with open(os.path.join(cwd, path)) as f:
                    words = shlex.split(f.read(), comments=False)
            except (OSError, ValueError, UnicodeDecodeError):
                words = None
        out += args[i:i + width] if words is None else read_response_files(words, cwd)
        i += width
    return out


def input_positions(args):
    """The indices in args of the input files of an nvcc (or cc) command,
    args[0] the compiler: the words that are no option nor an option's
    value."""
    found, i = [], 1
    while i < len(args):
        arg = args[i]
        if arg in _WITH_VALUE:
            i += 2
            continue
        if _INPUT.match(arg):
            found.append(i)
        i += 1
    return found


def inputs(args):
    """The input files of an nvcc (or cc) command, args[0] the compiler."""
    return [args[i] for i in input_positions(args)]


def carried_flags(args, cwd):
    """The flags of an nvcc command (args[0] is nvcc) that compiling its
    source again takes: all but its inputs, its output, dependency, link and
    relocatable-device-code options; include folders made absolute against
    cwd, where the command ran.  A word a build file left unexpanded (holding $ or `) goes, with
    the option whose value it is."""
    flags, i = [], 1
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition('=')
        if arg in _WITH_VALUE and i + 1 < len(args):
            option, value, i = arg, args[i + 1], i + 2
        elif name in _WITH_VALUE and eq:
            option, i = name, i + 1
        else:
            option, value, i = None, arg, i + 1
        if (_UNEXPANDED.search(value) or option in _DROPPED_WITH_VALUE or arg in _DROPPED
                or _LIBRARY.fullmatch(arg) or option is None and _INPUT.match(arg)):
            continue
        if option in _INCLUDE_OPTIONS:
            value = os.path.normpath(os.path.join(cwd, value))
        if option is None:
            flags.append('-I' + os.path.normpath(os.path.join(cwd, arg[2:]))
                         if arg.startswith('-I') else arg)
        else:
            flags += ['%s=%s' % (option, value)] if eq else [option, value]
    return flags


# -- compiling as CUDA ---------------------------------------------------------

# What CUDA 13's CCCL removed that 2018 CUDA code used (thrust::binary_function,
# thrust::unary_function): thffi's include/cccl_legacy.h, included first in every
# CUDA compile of 2018 code (the builder's, `thffi run`'s, and after `port`).  It
# defines nothing where the toolkit still has them.
CCCL_LEGACY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           'include', 'cccl_legacy.h')
# nvcc hands a .cpp to the host compiler as C++; CUDA 13's thrust device headers
# (thrust/device_vector.h) need nvcc's CUDA front end: g++ stops at
# "cudaLaunchKernelEx was not declared", "__cvta_generic_to_shared".  2018's
# thrust compiled there.  Where the compiler's verdict says so (the compile fails
# as it is and succeeds with these), the source is compiled as CUDA.
AS_CUDA = ['-x', 'cu']
_CXX_INPUT = ('.cpp', '.cc', '.cxx', '.C', '.c++')


def compiles_cuda(args):
    """Whether the nvcc command args (args[0] nvcc) compiles CUDA: a .cu
    input, or `-x cu`."""
    return any(a in ('-x', '--x') and b == 'cu' for a, b in zip(args, args[1:])) or \
        any(a in ('-xcu', '--x=cu') for a in args) or \
        any(source.endswith('.cu') for source in inputs(args))


def as_cuda_candidates(args):
    """The C++ sources of an nvcc command (args[0] nvcc) that `-x cu` could
    compile as CUDA instead: a compile only (-c), no -x, every input a C++
    source; else []."""
    if not any(a in ('-c', '--compile') for a in args) or any(
            a in ('-x', '--x') or a.startswith(('-x', '--x=')) for a in args):
        return []
    sources = inputs(args)
    return sources if sources and all(s.endswith(_CXX_INPUT) for s in sources) else []


def as_cuda_line(sources):
    """What a build says, once, of sources compiled as CUDA by verdict."""
    return ("%s: compiled by nvcc as CUDA (-x cu): g++ cannot compile it, nvcc can (CUDA "
            "headers, such as thrust's device ones, that need nvcc)" % sources)
