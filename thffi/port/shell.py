"""The shell side of `python -m thffi port`: make.sh/build.sh files, parsed
by bashlex into commands and their words (readers/shell.py), rewritten word
by word.

- nvcc architecture flags (-arch, -code, -gencode and their long forms,
  `-gencode X` or `-gencode=X`, quoted or not) of a command that names an
  architecture the installed nvcc rejects (nvcc 13 has nothing older than
  sm_75) become `$(python -m thffi --arch-flags)`: the architectures thffi
  builds for, from TORCH_CUDA_ARCH_LIST when the script runs.
- `-I $TORCH/lib/include`, `"-I$TORCH/lib/include/TH"`, `.../include/THC`
  (any variable, quoted or not) become `$(python -m thffi --includes)`:
  those folders are gone from PyTorch; thffi's headers take their place.
- `-lcurand`, `-lcusparse`, `-lcublas`... (CUDA's libraries) become
  `$(python -m thffi --cuda-libs curand ...)`: the library found in the
  toolkit or in pip's wheels, with its rpath (toolchain/libraries.py); in
  such a script, a compile (`-c`) without thffi's include flags gets
  `$(python -m thffi --cuda-includes)`, for the libraries' headers.

`python` in these is the interpreter the script itself runs (`python3
build.py`, `$PYTHON setup.py`): where no `python` is on PATH, a bare one
would fail the step.  The first flag's word(s) become the command substitution, unquoted, so that
the shell splits it into one argument per flag; the other flags' words go
with the blanks before them (no empty argument is left).  Flags inside one
quoted word with blanks (`FLAGS="-gencode ... -I$TORCH/lib/include"`, used
later as $FLAGS) are rewritten inside the quotes, where $(...) still runs;
in single quotes, where it would not, they are reported.  A script bashlex
cannot parse is read command by command; a command it cannot parse that
holds such flags is reported.

- nvcc flags today's nvcc rejects or renamed (toolchain/nvcc.py's
  FLAG_RULES: `-std=c++11` and `-std c++14` become C++17, also inside
  `-Xcompiler` values; `--expt-extended-lambda` becomes `--extended-lambda`;
  `-ccbin gcc-5` naming a compiler that is not installed goes) in nvcc
  commands and in the variables they use, inside quotes too.

- a compiler named by a path of 2018's machine that is no file here
  (toolchain/compilers.py: /usr/local/cuda-9.0/bin/nvcc, /usr/bin/g++-4.9)
  becomes today's: `$(python -m thffi --cuda-home)/bin/nvcc`, gcc, g++.

- g++ and c++ compiling C++ with no -std, where today's default refuses a
  source and a 2018 default accepts it (dialect.py, by the compiler's own
  verdict): that standard, `-std=gnu++98` after the compiler.

- nvcc as `thffi run` runs it (make_run.py's rules): `-x cu` where nvcc
  refuses a .cpp as it is and compiles it as CUDA (thrust's device
  headers), and `$(python -m thffi --cccl-legacy)` (thffi's cccl_legacy.h,
  for thrust::binary_function and unary_function) for a compile of CUDA.

A script without `set -e` is reported: it carries on after a failed command.

The parse is readers/shell.py's, which also reads the nvcc commands a
script runs for the builder and for port."""

import re

from ..toolchain import compilers as _compilers
from ..toolchain import libraries as _libraries
from ..toolchain import nvcc as _nvcc_rules
from ..toolchain.nvcc import ARCH_NUMBER as _ARCH_NUMBER, ARCH_OPTIONS as _ARCH_NAMES, \
    OLDEST_WITHOUT_NVCC, describe, flag_edits, rejected as _rejected
from ..toolchain.includes import PATH_SUFFIX
from . import dialect
from .edits import apply_edits, replace_flags
from .readers.shell import VARIABLE as _VARIABLE, command_words as _command, \
    interpreter as _interpreter, is_nvcc as _is_nvcc, parts as _parts, \
    simple_commands as _simple_commands
from .report import Finding

# The interpreter: the one the script runs (readers/shell.py's
# interpreter()), else python.
ARCH_FLAGS = '$(%s -m thffi --arch-flags)'
INCLUDES = '$(%s -m thffi --includes)'
CUDA_HOME = '$(%s -m thffi --cuda-home)'
CCCL_LEGACY = '$(%s -m thffi --cccl-legacy)'
# Inside a word with blanks: a flag and its value.
_ARCH_FLAG = re.compile(r'(?<![\w-])(?:%s)(?:=|[ \t]+|\\\n[ \t]*)([^\s"\']+)'
                        % '|'.join(_ARCH_NAMES))
_TORCH_PATH = r'\$\{?\w+\}?' + PATH_SUFFIX
_TORCH_INCLUDE_WORD = re.compile(r'-I(?:%s)$' % _TORCH_PATH)
_TORCH_PATH_WORD = re.compile(_TORCH_PATH + '$')
_TORCH_INCLUDE = re.compile(r'(?<![\w-])-I[ \t]*(?:%s)(?=[\s;"\']|$)' % _TORCH_PATH)
_SET_E = re.compile(r'^\s*set\s+-\w*e|^#!.*\s-\w*e\b|set\s+-o\s+errexit', re.M)
_RUNS_BUILD = re.compile(r'\bnvcc\b|(?:\bpython[\d.]*|\$\{?PYTHON\}?)\s+\S*build\w*\.py\b'
                         r'|\bsetup\.py\b')


def _used_by_nvcc(commands):
    """The names of the variables nvcc commands use."""
    return {a or b for words in commands if _is_nvcc(words) for w in words
            for a, b in _VARIABLE.findall(w[2])}


def _flag_edits(text, words, nvcc_variables, path, line_of, findings):
    """(start, end, replacement) edits of FLAG_RULES in an nvcc command and
    in the assignments of variables nvcc commands use."""
    found = []
    command = _command(words)
    if _is_nvcc(words):
        found += flag_edits(text, command[0][0], command[-1][1])
    for start, end, value, kind in words:
        name = value.split('=', 1)[0]
        if kind == 'assignment' and name in nvcc_variables:
            found += flag_edits(text, start + len(name) + 1, end)
    if found:
        findings.append(Finding(path, line_of(found[0][0]), 'nvcc flags: %s'
                                % describe([edit[3] for edit in found]), True))
    return [edit[:3] for edit in found]


def _edits(text, words, accepted, path, line_of, findings, python, links_cuda=False):
    """(start, end, replacement) edits of one command's words.  python: the
    interpreter the commands written run thffi with.  links_cuda: the
    script links CUDA's libraries, whose headers its compiles may
    include."""
    arch_flags, includes_flags = ARCH_FLAGS % python, INCLUDES % python
    cuda_includes = _libraries.CUDA_INCLUDES.replace('$(python ', '$(%s ' % python)
    arch, includes, numbers, libs, names = [], [], [], [], []
    i = 0
    while i < len(words):
        start, end, value, kind = words[i]
        following = words[i + 1] if i + 1 < len(words) else None
        name, _, inline = value.partition('=')
        if kind == 'assignment' or ' ' in value or '\t' in value or '\n' in value:
            # Flags inside one quoted word, or a variable's value: rewritten
            # inside the quotes.
            source = text[start:end]
            found = [(m.start(), m.end(), _ARCH_NUMBER.findall(m.group(1)))
                     for m in _ARCH_FLAG.finditer(source)]
            found = [(s, e, [int(n) for n in ns]) for s, e, ns in found if ns]
            inside = [(m.start(), m.end()) for m in _TORCH_INCLUDE.finditer(source)]
            if (found or inside) and "'" in source and '"' not in source:
                findings.append(Finding(path, line_of(start), 'nvcc flags in single quotes '
                                        'not changed: write %s and %s in double quotes or '
                                        'none' % (arch_flags, includes_flags), False))
            else:
                arch += [[(start + s, start + e)] for s, e, _ in found]
                numbers += [n for *_, ns in found for n in ns]
                includes += [[(start + s, start + e)] for s, e in inside]
                for s, e, name in _libraries.link_flags_in(source):
                    libs.append([(start + s, start + e)])
                    names.append(name)
        elif _libraries.link_flag(value):
            libs.append([(start, end)])
            names.append(_libraries.link_flag(value))
        elif _TORCH_INCLUDE_WORD.match(value):
            includes.append([(start, end)])
        elif value == '-I' and following and _TORCH_PATH_WORD.match(following[2]):
            includes.append([(start, end), following[:2]])
            i += 1
        elif name in _ARCH_NAMES and (inline or following):
            found = [int(n) for n in _ARCH_NUMBER.findall(inline or following[2])]
            if found:
                numbers += found
                arch.append([(start, end)] if inline else [(start, end), following[:2]])
                i += 0 if inline else 1
        i += 1
    rejected = _rejected(numbers, accepted)
    edits = []
    for start, end, value, kind in words:
        for s, e, row in _compilers.in_text(text[start:end]):
            now = _compilers.written(row, CUDA_HOME % python)
            edits.append((start + s, start + e, now))
            findings.append(Finding(path, line_of(start), _compilers.message(
                text[start + s:start + e], row, 'now ' + now), True))
    if rejected:
        findings.append(Finding(path, line_of(arch[0][0][0]), 'nvcc architecture flags: %s %s; '
                                'now %s (TORCH_CUDA_ARCH_LIST when set)' % (
                                    ', '.join('sm_%d' % n for n in rejected),
                                    'rejected by the installed nvcc' if accepted else
                                    'older than sm_%d (no nvcc found to ask)'
                                    % OLDEST_WITHOUT_NVCC, arch_flags), True))
        edits += replace_flags(arch, arch_flags)
    if includes:
        findings.append(Finding(path, line_of(includes[0][0][0]), '-I $TORCH/lib/include/TH(C): '
                                'gone from PyTorch; now %s' % includes_flags, True))
        edits += replace_flags(includes, includes_flags)
    if libs:
        command = _libraries.cuda_libs_command(names).replace('$(python ', '$(%s ' % python)
        findings.append(Finding(path, line_of(libs[0][0][0]), '%s: CUDA\'s libraries, which '
                                'pip\'s wheels ship as lib<name>.so.<N> in their own folder; '
                                'now %s (the toolkit\'s or the wheels\', with the rpath)'
                                % (' '.join('-l' + n for n in dict.fromkeys(names)), command),
                                True))
        edits += replace_flags(libs, command)
    values = [w[2] for w in words if w[3] == 'word']
    if (links_cuda and not includes and _libraries.compiles(values)
            and not any('thffi --includes' in v or 'thffi --cuda-includes' in v
                        for v in values)):
        findings.append(Finding(path, line_of(words[0][0]), 'a compile in a script that links '
                                'CUDA\'s libraries: their headers (curand.h, cusparse.h...) may '
                                'lie in pip\'s wheels, not in the toolkit; now with %s'
                                % cuda_includes, True))
        edits.append((words[-1][1], words[-1][1], ' ' + cuda_includes))
    return edits


def _dialect_edits(words, folder, path, line_of, findings):
    """The edit giving a g++ command the C++ standard of 2018's g++ where
    the compiler's verdict asks for one (dialect.py), or none."""
    command = _command(words)
    found = folder and command and dialect.standard_for([w[2] for w in command], folder)
    if not found:
        return []
    findings.append(Finding(path, line_of(command[0][0]), dialect.finding_text(*found), True))
    return [(command[0][1], command[0][1], ' -std=' + found[0])]


def _nvcc_edits(words, folder, nvcc, python, path, line_of, findings):
    """The edits giving an nvcc command what `thffi run` gives its compile
    (make_run.py's rules, for a script): `-x cu` where nvcc refuses a .cpp
    as it is and compiles it as CUDA (dialect.as_cuda(): its verdict), and
    thffi's cccl_legacy.h for a compile of CUDA.  nvcc: a dialect.NvccOnce."""
    command = _command(words)
    if not command or not _is_nvcc(words):
        return []
    args = ['nvcc'] + [w[2] for w in command[1:]]
    edits, after = [], command[0][1]
    program, arch = nvcc.nvcc()
    sources = folder and program and '-x' not in args and dialect.as_cuda(
        args, folder, program, arch, nvcc.accepted)
    if sources:
        findings.append(Finding(path, line_of(command[0][0]), '%s; now -x cu'
                                % _nvcc_rules.as_cuda_line(', '.join(sources)), True))
        edits.append((after, after, ' -x cu'))
    if (sources or _nvcc_rules.compiles_cuda(args)) and not any('cccl' in a for a in args):
        written = CCCL_LEGACY % python
        findings.append(Finding(path, line_of(command[0][0]), '%s; now %s'
                                % (dialect.CCCL_WHY, written), True))
        edits.append((after, after, ' ' + written))
    return edits


def rewrite_shell(text, path, accepted, folder=None):
    """(new text, [Finding]) for one shell script.  accepted: the compute
    capabilities of the installed nvcc (toolchain.nvcc.accepted_architectures()), or None.
    folder: where the script lies, for the compiler's verdicts on its
    sources (none asked without)."""
    findings, out, done = [], [], 0
    parts = [(start, end, nodes, _simple_commands(nodes) if nodes else None)
             for start, end, nodes in _parts(text)]
    nvcc_variables = _used_by_nvcc([w for *_, commands in parts for w in commands or ()])
    python = _interpreter(text) or 'python'
    links_cuda = bool(_libraries.link_flags_in(text)) or 'thffi --cuda-libs' in text
    nvcc = dialect.NvccOnce(accepted)
    for start, end, nodes, commands in parts:
        chunk = text[start:end]

        def line_of(offset, start=start):
            return text.count('\n', 0, start + offset) + 1

        if nodes is None:
            if _ARCH_FLAG.search(chunk) or _TORCH_INCLUDE.search(chunk):
                findings.append(Finding(path, line_of(0), 'not changed: bashlex cannot parse '
                                        'this command; write %s for its nvcc architecture '
                                        'flags and %s for -I $TORCH/lib/include...'
                                        % (ARCH_FLAGS % python, INCLUDES % python), False))
            continue
        edits = []
        for words in commands:
            edits += _edits(chunk, words, accepted, path, line_of, findings, python, links_cuda)
            edits += _flag_edits(chunk, words, nvcc_variables, path, line_of, findings)
            edits += _dialect_edits(words, folder, path, line_of, findings)
            edits += _nvcc_edits(words, folder, nvcc, python, path, line_of, findings)
        out.append(text[done:start])
        out.append(apply_edits(chunk, edits))
        done = end
    new = ''.join(out) + text[done:]
    if _RUNS_BUILD.search(text) and not _SET_E.search(text):
        findings.append(Finding(path, 0, 'no `set -e`: the script carries on after a command '
                                'fails (a failed nvcc, say) and later steps fail for it',
                                False))
    return new, findings
