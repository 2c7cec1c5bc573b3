"""The GNU make side of `python -m thffi port`: Makefile, makefile,
GNUmakefile and *.mk files, read line by line into variable assignments,
rules and recipe lines, and those into words (readers/make.py), rewritten
word by word as make.sh is (shell.py):

- nvcc architecture flags (`-arch=sm_61`, `-gencode=arch=compute_30,code=sm_30`,
  `-gencode arch=... `, `-code=...`) naming one the installed nvcc rejects
  become `$(shell python -m thffi --arch-flags)`, in place of the first of
  them on the line; a later `X += ...` of a variable that got them outside
  any ifeq/ifdef loses its flags instead, so that they are given once.
- nvcc flags today's nvcc rejects or renamed (toolchain/nvcc.py's
  FLAG_RULES: `-std=c++11` becomes `-std=c++17`...) in recipe lines
  running nvcc (nvcc, $(NVCC), .../bin/nvcc) and in the variables they use,
  through the variables those use.
- torch's include folders asked of Python, `$(shell python -c 'import
  torch.utils.ffi as ffi; print("-I" + " -I".join(ffi._setup_wrapper(True)[1]))')`
  (any `$(shell python... -c ...)` naming torch and _setup_wrapper or
  include), become `$(shell python -m thffi --includes)`; written without
  "-I", the folders: `$(patsubst -I%,%,$(shell python -m thffi --includes))`.
- `-I$(TORCH)/lib/include`, `-I ${TORCH}/lib/include/TH`, `.../THC` (any
  variable) become `$(shell python -m thffi --includes)`, bare folders the
  patsubst form; `-lATen`, `-lTH`, `-lTHC`, `$(TORCH)/lib/libTH.so`...
  become `$(shell python -m thffi --libs)`: thffi's TH/THC as a shared library.
- a compiler named by a path of 2018's machine that is no file here
  (toolchain/compilers.py: /usr/local/cuda-8.0/bin/nvcc, /usr/bin/gcc-5)
  becomes today's: $(shell python -m thffi --cuda-home)/bin/nvcc, gcc, g++.
- what `thffi run` does to the compilers the commands start, for the
  commands make itself runs (make -n: `$(CXX)`, `$(Q)nvcc`, make's
  implicit rules; make_run.py): a C++ standard of 2018's g++ where the
  compiler's verdict asks for one (dialect.py), cccl_legacy.h included
  first in CUDA compiles, `-x cu` for a .cpp nvcc compiles only as CUDA.
  Where make cannot answer, a g++ or c++ recipe written out gets the
  standard by the verdict on its words.
- `-lcurand`, `-lcublas`... (toolchain/libraries.py's LIBRARIES) become
  `$(shell python -m thffi --cuda-libs curand ...)`, which links them
  where pip's wheels hold them too (lib<name>.so.<N> alone), with the
  rpath; in a makefile linking them, each nvcc or C/C++ compile (-c) gets
  `$(shell python -m thffi --cuda-includes)` after its flags: their headers
  (curand.h, cublas_v2.h) may lie in pip's wheels, as make.sh gets them
  (shell.py).

`python` in these is the interpreter the makefile itself runs (its torch
lookups', else its recipes': `python3 build.py`, `$(PYTHON) setup.py`)."""

import re

from ..toolchain.nvcc import ARCH_NUMBER, ARCH_OPTIONS, OLDEST_WITHOUT_NVCC, describe, \
    flag_edits, rejected
from ..toolchain import compilers
from ..toolchain import libraries as _libraries
from ..toolchain.includes import PATH_SUFFIX
from . import dialect, make_run
from .edits import apply_edits, replace_flags
from .readers import make as _read
from .report import Finding

PYTHON = 'python'
ARCH_FLAGS = '$(shell %s -m thffi --arch-flags)'
INCLUDES = '$(shell %s -m thffi --includes)'
INCLUDE_DIRS = '$(patsubst -I%%,%%,$(shell %s -m thffi --includes))'
LIBS = '$(shell %s -m thffi --libs)'
CUDA_HOME = '$(shell %s -m thffi --cuda-home)'
CUDA_LIBS = '$(shell %s -m thffi --cuda-libs %s)'
CUDA_INCLUDES = '$(shell %s -m thffi --cuda-includes)'

_TORCH_PATH = r'(?:\$[({][\w.-]+[)}]|[^\s"\'$]*/torch)' + PATH_SUFFIX
_TORCH_INCLUDE = re.compile(r'-I(?:%s)' % _TORCH_PATH)
_TORCH_DIR = re.compile(_TORCH_PATH)
_TORCH_LIB = re.compile(r'-l(?:ATen|THC?|THC?NN|THCUNN)|(?:\S*/)?lib(?:ATen|THC?|THC?NN)'
                        r'\.(?:so|a|dylib)(?:\.[\d.]+)?')
_RUNS_PYTHON = re.compile(r'^\t[ \t@+-]*(\S*python[\d.]*|\$[({]\w*PYTHON\w*[)}])[ \t]', re.M)
_LOOKUP = re.compile(r'\$\(shell[ \t]+(\S*python[\d.]*|\$[({]\w+[)}])[ \t]+(?:-\w+[ \t]+)*-c\b')


def _python(text):
    """The interpreter the makefile runs: its own torch lookups' (python3,
    $(PYTHON)...), else its recipes' (`\tpython3 build.py`), else python."""
    found = _LOOKUP.search(text) or _RUNS_PYTHON.search(text)
    return found.group(1) if found else PYTHON


def _lookups(text, start, end):
    """[(start, end, prints -I flags)] of `$(shell python -c ...)` calls in
    text[start:end] asking torch for its include folders."""
    found = []
    for match in _LOOKUP.finditer(text, start, end):
        close = _read.closing(text, match.start())
        code = text[match.end():close]
        if 'torch' in code and ('_setup_wrapper' in code or 'include' in code):
            found.append((match.start(), close, '-I' in code))
    return found


def _arch_flags(text, words, variables):
    """([[word spans] of each flag], [architecture numbers]) of the nvcc
    architecture flags among words, their values as make expands them
    with variables (`-arch=$(ARCH)`, ARCH = sm_61)."""
    flags, numbers, i = [], [], 0
    while i < len(words):
        value = _read.unquoted(text[words[i][0]:words[i][1]])
        name, eq, inline = value.partition('=')
        inline = _read.expanded(inline, variables)
        if name in ARCH_OPTIONS and (eq or i + 1 < len(words)):
            following = None if eq else _read.expanded(
                _read.unquoted(text[words[i + 1][0]:words[i + 1][1]]), variables)
            found = [int(n) for n in ARCH_NUMBER.findall(inline if eq else following)]
            if found:
                numbers += found
                flags.append(words[i:i + (1 if eq else 2)])
                i += 1 if eq else 2
                continue
        i += 1
    return flags, numbers


def _together(path, text, makefiles):
    """The text of the makefile with those of makefiles ({path: text}, paths
    as port names them) that include it or that it includes, directly or
    not: what make reads as one."""
    edges = {p: set(_read.includes(p, t)) & set(makefiles) for p, t in makefiles.items()}
    edges[path] = set(_read.includes(path, text)) & set(makefiles)
    group, todo = {path}, [path]
    while todo:
        current = todo.pop()
        near = edges.get(current, set()) | {p for p, e in edges.items() if current in e}
        todo += near - group
        group |= near
    return '\n'.join([text] + [makefiles[p] for p in sorted(group - {path})])


def rewrite_make(text, path, accepted, makefiles=None, folder=None):
    """(new text, [Finding]) for one makefile.  accepted: the compute
    capabilities of the installed nvcc (toolchain.nvcc.accepted_architectures()),
    or None.  makefiles: {path: text} of the repository's makefiles, for
    the variables nvcc commands use across `include`s.  folder: where the
    makefile lies, for the compiler's verdicts on a g++ recipe's sources
    (dialect.py; none asked without)."""
    lines = _read.parse_lines(text)
    together = _together(path, text, makefiles or {})
    together_lines = _read.parse_lines(together)
    nvcc_names, nvcc_variables = _read.nvcc_variables(together, together_lines)
    variables = _read.assigned(together, together_lines)
    python = _python(text)
    findings, edits, arch_done = [], [], set()
    links_cuda = bool(_libraries.link_flags_in(together))
    answered, tail = False, ''
    if folder:
        (edits, tail), findings, answered = make_run.run_rules(text, path, folder, accepted,
                                                                python)

    def line_of(offset):
        return text.count('\n', 0, offset) + 1

    for line in lines:
        if line.value_start is None or line.kind == 'other':
            continue
        start = line.value_start
        lookups = _lookups(text, start, line.end)
        if lookups:
            edits += [(s, e, (INCLUDES if flags else INCLUDE_DIRS) % python)
                      for s, e, flags in lookups]
            findings.append(Finding(path, line_of(start), 'torch\'s include folders asked of '
                                    'Python (torch.utils.ffi is gone, and TH/THC with it); now '
                                    '%s' % (INCLUDES % python), True))
        words = [w for w in _read.words(text, start, line.end, comments=line.kind != 'recipe')
                 if not any(s <= w[0] < e for s, e, _ in lookups)]
        for s, e in words:
            for ps, pe, row in compilers.in_text(text[s:e]):
                now = compilers.written(row, CUDA_HOME % python)
                edits.append((s + ps, s + pe, now))
                findings.append(Finding(path, line_of(s), compilers.message(
                    text[s + ps:s + pe], row, 'now ' + now), True))
        if line.kind == 'recipe' and folder and words and not answered:
            values = [_read.unquoted(text[s:e]) for s, e in words]
            values[0] = values[0].lstrip('@-+')
            found = dialect.standard_for(values, folder)
            if found:
                edits.append((words[0][1], words[0][1], ' -std=' + found[0]))
                findings.append(Finding(path, line_of(words[0][0]), dialect.finding_text(*found),
                                        True))
        arch, numbers = _arch_flags(text, words, variables)
        old = rejected(numbers, accepted)
        if old:
            if line.kind == 'assign' and line.op == '+=' and line.name in arch_done:
                if len(words) == sum(len(flag) for flag in arch):  # nothing else: the line goes
                    edits += [(s, e, '') for s, e in _read.logical_lines(text[line.start:line.end])
                              for s, e in [(line.start + s, line.start + e)]]
                else:
                    edits += [(s, e, '') for flag in arch for s, e in flag]
            else:
                edits += replace_flags(arch, ARCH_FLAGS % python)
            if line.kind == 'assign' and line.depth == 0:
                arch_done.add(line.name)
            findings.append(Finding(path, line_of(arch[0][0][0]), 'nvcc architecture flags: %s '
                                    '%s; now %s (TORCH_CUDA_ARCH_LIST when set)' % (
                                        ', '.join('sm_%d' % n for n in old),
                                        'rejected by the installed nvcc' if accepted else
                                        'older than sm_%d (no nvcc found to ask)'
                                        % OLDEST_WITHOUT_NVCC, ARCH_FLAGS % python), True))
        for pattern, replacement, what in (
                (_TORCH_INCLUDE, INCLUDES, '-I $(TORCH)/lib/include/TH(C): gone from PyTorch'),
                (_TORCH_DIR, INCLUDE_DIRS, '$(TORCH)/lib/include/TH(C): gone from PyTorch'),
                (_TORCH_LIB, LIBS, 'libATen/libTH/libTHC: gone from PyTorch')):
            spans, i = [], 0
            while i < len(words):
                value = _read.unquoted(text[words[i][0]:words[i][1]])
                if pattern is _TORCH_INCLUDE and value == '-I' and i + 1 < len(words) and \
                        _TORCH_DIR.fullmatch(_read.unquoted(text[words[i + 1][0]:words[i + 1][1]])):
                    spans.append(words[i:i + 2])
                    i += 1
                elif pattern.fullmatch(value) and not any(words[i] in f for f in spans):
                    spans.append([words[i]])
                i += 1
            taken = {w for flags in spans for w in flags}
            words = [w for w in words if w not in taken]
            if spans:
                edits += replace_flags(spans, replacement % python)
                findings.append(Finding(path, line_of(spans[0][0][0]), '%s; now %s'
                                        % (what, replacement % python), True))
        edits += _cuda_library_edits(text, line, words, python, links_cuda, line_of(start),
                                     nvcc_names, variables, path, findings)
        nvcc_start = _read.nvcc_start(text, line, nvcc_names, variables)
        if nvcc_start is not None or line.kind == 'assign' and line.name in nvcc_variables:
            flags = flag_edits(text, start if nvcc_start is None else nvcc_start, line.end)
            flags = [f for f in flags if not any(s <= f[0] < e for s, e, _ in lookups)]
            if flags:
                edits += [f[:3] for f in flags]
                findings.append(Finding(path, line_of(flags[0][0]), 'nvcc flags: %s'
                                        % describe([f[3] for f in flags]), True))
    return apply_edits(text, edits) + tail, sorted(findings, key=lambda f: f.line)




def _cuda_library_edits(text, line, words, python, links_cuda, number, nvcc_names, variables,
                        path, findings):
    """The edits of one line for CUDA's libraries (the module's docstring):
    its -l flags of them become --cuda-libs; a compile recipe of a makefile
    linking them gets --cuda-includes."""
    values = [_read.unquoted(text[s:e]) for s, e in words]
    flags = [[w] for w, v in zip(words, values) if _libraries.link_flag(v)]
    edits = []
    if flags:
        names = ' '.join(dict.fromkeys(_libraries.link_flag(v) for v in values
                                       if _libraries.link_flag(v)))
        edits += replace_flags(flags, CUDA_LIBS % (python, names))
        findings.append(Finding(path, number, '%s: CUDA\'s libraries, which pip\'s wheels ship '
                                'as lib<name>.so.<N> in their own folder; now %s (the toolkit\'s '
                                'or the wheels\', with the rpath)' % (
                                    ' '.join('-l' + n for n in names.split()),
                                    CUDA_LIBS % (python, names)), True))
    compiles = line.kind == 'recipe' and '-c' in values and (
        _read.nvcc_start(text, line, nvcc_names, variables) is not None
        or _libraries.compiles([values[0].lstrip('@-+')] + values[1:]))
    if links_cuda and compiles and 'thffi --cuda-includes' not in text[line.start:line.end]:
        edits.append((words[-1][1], words[-1][1], ' ' + CUDA_INCLUDES % python))
        findings.append(Finding(path, number, 'a compile in a makefile that links CUDA\'s '
                                'libraries: their headers (curand.h, cublas_v2.h...) may lie in '
                                'pip\'s wheels, not in the toolkit; now with %s'
                                % (CUDA_INCLUDES % python), True))
    return edits
