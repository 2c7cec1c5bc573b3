"""The shell side of `python -m thffi port`: make.sh/build.sh files, parsed
by bashlex into commands and their words (quoting kept: a word's span in
the text includes its quotes), rewritten word by word.

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

The first flag's word(s) become the command substitution, unquoted, so that
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

A script without `set -e` is reported: it carries on after a failed command.

nvcc_commands() reads the nvcc commands of a script, with the folder each
ran in (following `cd`) and the script's own variables expanded: the
builder rebuilds a missing object with the flags of the command that was to
write it (commands.py)."""

import os
import re

import bashlex

from ..toolchain import libraries as _libraries
from ..toolchain.nvcc import ARCH_NUMBER as _ARCH_NUMBER, ARCH_OPTIONS as _ARCH_NAMES, \
    OLDEST_WITHOUT_NVCC, describe, flag_edits, rejected as _rejected
from .commands import NvccCommand
from .edits import apply_edits, replace_flags
from .report import Finding

ARCH_FLAGS = '$(python -m thffi --arch-flags)'
INCLUDES = '$(python -m thffi --includes)'
# Inside a word with blanks: a flag and its value.
_ARCH_FLAG = re.compile(r'(?<![\w-])(?:%s)(?:=|[ \t]+|\\\n[ \t]*)([^\s"\']+)'
                        % '|'.join(_ARCH_NAMES))
_TORCH_PATH = r'\$\{?\w+\}?(?:/lib/include(?:/THC?)?|/include/THC?)/?'
_TORCH_INCLUDE_WORD = re.compile(r'-I(?:%s)$' % _TORCH_PATH)
_TORCH_PATH_WORD = re.compile(_TORCH_PATH + '$')
_TORCH_INCLUDE = re.compile(r'(?<![\w-])-I[ \t]*(?:%s)(?=[\s;"\']|$)' % _TORCH_PATH)
_SET_E = re.compile(r'^\s*set\s+-\w*e|^#!.*\s-\w*e\b|set\s+-o\s+errexit', re.M)
_RUNS_BUILD = re.compile(r'\bnvcc\b|\bpython[\d.]*\s+\S*build\w*\.py\b|\bsetup\.py\b')
# A command's first word running nvcc: nvcc, /usr/local/cuda/bin/nvcc,
# $NVCC, ${CUDA_PATH}/bin/nvcc, $(which nvcc).
_NVCC = re.compile(r'nvcc\}?\)?$', re.I)
_VARIABLE = re.compile(r'\$(?:\{(\w+)\}|(\w+))')


def _commands(lines):
    """Groups line indexes into commands: a line ending in an unescaped
    backslash continues on the next."""
    group = []
    for i, line in enumerate(lines):
        group.append(i)
        body = line.rstrip('\n')
        if (len(body) - len(body.rstrip('\\'))) % 2 == 0:
            yield group
            group = []
    if group:
        yield group


def _parts(text):
    """(start, end, bashlex nodes) of the parts of text bashlex parses: the
    whole text, or where it cannot (bashlex has no arithmetic expansion, for
    one) each command; (start, end, None) for a command it cannot parse."""
    try:
        return [(0, len(text), bashlex.parse(text))]
    except Exception:  # bashlex raises several types (its own, NotImplementedError)
        pass
    parts, offset = [], 0
    lines = text.splitlines(keepends=True)
    for group in _commands(lines):
        chunk = ''.join(lines[i] for i in group)
        try:
            nodes = bashlex.parse(chunk) if chunk.strip() else []
        except Exception:
            nodes = None
        if nodes is None or nodes:
            parts.append((offset, offset + len(chunk), nodes))
        offset += len(chunk)
    return parts


class _Words(bashlex.ast.nodevisitor):
    """The words of every simple command, command by command: lists of
    (start, end, value) with start and end in the parsed text."""

    def __init__(self):
        self.commands = []

    def visitcommand(self, node, parts):
        self.commands.append([(p.pos[0], p.pos[1], p.word, p.kind) for p in parts
                              if p.kind in ('word', 'assignment')])


def _command(words):
    """The words of a command after its leading assignments (A=1 nvcc ...)."""
    return [w for w in words if w[3] == 'word']


def _is_nvcc(words):
    command = _command(words)
    return bool(command) and bool(_NVCC.search(command[0][2]))


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


def _edits(text, words, accepted, path, line_of, findings, links_cuda=False):
    """(start, end, replacement) edits of one command's words.  links_cuda:
    the script links CUDA's libraries, whose headers its compiles may
    include."""
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
                                        'none' % (ARCH_FLAGS, INCLUDES), False))
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
    if rejected:
        findings.append(Finding(path, line_of(arch[0][0][0]), 'nvcc architecture flags: %s %s; '
                                'now %s (TORCH_CUDA_ARCH_LIST when set)' % (
                                    ', '.join('sm_%d' % n for n in rejected),
                                    'rejected by the installed nvcc' if accepted else
                                    'older than sm_%d (no nvcc found to ask)'
                                    % OLDEST_WITHOUT_NVCC, ARCH_FLAGS), True))
        edits += replace_flags(arch, ARCH_FLAGS)
    if includes:
        findings.append(Finding(path, line_of(includes[0][0][0]), '-I $TORCH/lib/include/TH(C): '
                                'gone from PyTorch; now %s' % INCLUDES, True))
        edits += replace_flags(includes, INCLUDES)
    if libs:
        command = _libraries.cuda_libs_command(names)
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
                                % _libraries.CUDA_INCLUDES, True))
        edits.append((words[-1][1], words[-1][1], ' ' + _libraries.CUDA_INCLUDES))
    return edits


def _simple_commands(nodes):
    """The word lists of the simple commands under bashlex nodes, in order."""
    commands = []
    for node in nodes:
        visitor = _Words()
        visitor.visit(node)
        commands += visitor.commands
    return commands


def rewrite_shell(text, path, accepted):
    """(new text, [Finding]) for one shell script.  accepted: the compute
    capabilities of the installed nvcc (toolchain.nvcc.accepted_architectures()), or None."""
    findings, out, done = [], [], 0
    parts = [(start, end, nodes, _simple_commands(nodes) if nodes else None)
             for start, end, nodes in _parts(text)]
    nvcc_variables = _used_by_nvcc([w for *_, commands in parts for w in commands or ()])
    links_cuda = bool(_libraries.link_flags_in(text)) or 'thffi --cuda-libs' in text
    for start, end, nodes, commands in parts:
        chunk = text[start:end]

        def line_of(offset, start=start):
            return text.count('\n', 0, start + offset) + 1

        if nodes is None:
            if _ARCH_FLAG.search(chunk) or _TORCH_INCLUDE.search(chunk):
                findings.append(Finding(path, line_of(0), 'not changed: bashlex cannot parse '
                                        'this command; write %s for its nvcc architecture '
                                        'flags and %s for -I $TORCH/lib/include...'
                                        % (ARCH_FLAGS, INCLUDES), False))
            continue
        edits = []
        for words in commands:
            edits += _edits(chunk, words, accepted, path, line_of, findings, links_cuda)
            edits += _flag_edits(chunk, words, nvcc_variables, path, line_of, findings)
        out.append(text[done:start])
        out.append(apply_edits(chunk, edits))
        done = end
    new = ''.join(out) + text[done:]
    if _RUNS_BUILD.search(text) and not _SET_E.search(text):
        findings.append(Finding(path, 0, 'no `set -e`: the script carries on after a command '
                                'fails (a failed nvcc, say) and later steps fail for it',
                                False))
    return new, findings


def _expand(raw, value, variables):
    """The arguments a word gives: $NAME/${NAME} of the script's own
    variables expanded (others kept as written); an unquoted word splits
    where its expansion has blanks."""
    expanded = _VARIABLE.sub(lambda m: variables.get(m.group(1) or m.group(2), m.group()),
                             value)
    return expanded.split() if expanded != value and not re.search('["\']', raw) else [expanded]


def _cd(cwd, target):
    """The folder after `cd target` from cwd ('' is the script's folder)."""
    if re.search(r'dirname\s+"?\$\{?0', target):
        return ''
    if target == '-' or not target or re.search(r'[$`~]', target):
        return cwd
    return os.path.normpath(os.path.join(cwd, target))


def nvcc_commands(text):
    """[NvccCommand] of a shell script, in order: each nvcc command's
    arguments, the folder it ran in (relative to the script's, following
    cd/pushd/popd), its line."""
    found, cwd, stack, variables = [], '', [], {}
    for start, end, nodes in _parts(text):
        for words in _simple_commands(nodes or ()):
            raw = [text[start + s:start + e] for s, e, _, _ in words]
            args = [a for r, w in zip(raw, words) if w[3] == 'word'
                    for a in _expand(r, w[2], variables)]
            if not args:
                for r, w in zip(raw, words):
                    name, _, value = w[2].partition('=')
                    variables[name] = ' '.join(_expand(r, value, variables))
            elif args[0] in ('cd', 'pushd'):
                if args[0] == 'pushd':
                    stack.append(cwd)
                cwd = _cd(cwd, args[1] if len(args) > 1 else '~')
            elif args[0] == 'popd' and stack:
                cwd = stack.pop()
            elif _is_nvcc(words):
                line = text.count('\n', 0, start + words[0][0]) + 1
                found.append(NvccCommand(['nvcc'] + args[1:], cwd, line))
    return found

