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

A script without `set -e` is reported: it carries on after a failed command."""

import os
import re

import bashlex

from ..toolchain import libraries as _libraries
from ..toolchain.nvcc import ARCH_NUMBER as _ARCH_NUMBER, ARCH_OPTIONS as _ARCH_NAMES, \
    OLDEST_WITHOUT_NVCC, rejected as _rejected
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
        edits += _replace(arch, ARCH_FLAGS)
    if includes:
        findings.append(Finding(path, line_of(includes[0][0][0]), '-I $TORCH/lib/include/TH(C): '
                                'gone from PyTorch; now %s' % INCLUDES, True))
        edits += _replace(includes, INCLUDES)
    if libs:
        command = _libraries.cuda_libs_command(names)
        findings.append(Finding(path, line_of(libs[0][0][0]), '%s: CUDA\'s libraries, which '
                                'pip\'s wheels ship as lib<name>.so.<N> in their own folder; '
                                'now %s (the toolkit\'s or the wheels\', with the rpath)'
                                % (' '.join('-l' + n for n in dict.fromkeys(names)), command),
                                True))
        edits += _replace(libs, command)
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


def _replace(flags, replacement):
    """Edits putting replacement over the first flag's words and deleting
    the others' (flags: a list of lists of word spans)."""
    spans = sorted(span for flag in flags for span in flag)
    return [(s, e, replacement if (s, e) == spans[0] else '') for s, e in spans]


def _apply(text, edits):
    """text with the edits made: a deleted word goes with the blanks before
    it (after it, when it starts its line); a line an edit leaves holding
    nothing (or only a continuation) goes, and the line before it stops
    continuing when it ended the command."""
    if not edits:
        return text
    lines_before = text.splitlines(keepends=True)
    for start, end, replacement in sorted(edits, reverse=True):
        line_start = text.rfind('\n', 0, start) + 1
        if not replacement and text[line_start:start].strip():
            while text[start - 1] in ' \t':
                start -= 1
        elif not replacement:  # the first word of its line: the indent stays
            while end < len(text) and text[end] in ' \t':
                end += 1
        text = text[:start] + replacement + text[end:]
    lines = text.splitlines(keepends=True)
    out = []
    for before, line in zip(lines_before, lines):
        if line.strip() in ('', '\\') and before.strip() not in ('', '\\'):
            if not line.rstrip('\n').rstrip().endswith('\\') and out:
                body = out[-1].rstrip('\n').rstrip()
                if body.endswith('\\'):
                    out[-1] = body[:-1].rstrip() + '\n'
            continue
        out.append(line)
    return ''.join(out)


def nvcc_outputs(text):
    """The file names (without folders) nvcc writes in a shell script:
    the word after -o of each nvcc command."""
    names = set()
    for _, _, nodes in _parts(text):
        for node in nodes or ():
            visitor = _Words()
            visitor.visit(node)
            for words in visitor.commands:
                values = [w[2] for w in words if w[3] == 'word']
                if not values or not re.search(r'\bnvcc\)?$', values[0]):  # $(which nvcc)
                    continue
                names |= {os.path.basename(after) for flag, after in zip(values, values[1:])
                          if flag in ('-o', '--output-file')}
                names |= {os.path.basename(v.split('=', 1)[1]) for v in values
                          if v.startswith(('-o=', '--output-file='))}
    return names


def rewrite_shell(text, path, accepted):
    """(new text, [Finding]) for one shell script.  accepted: the compute
    capabilities of the installed nvcc (toolchain.nvcc.accepted_architectures()), or None."""
    findings, out, done = [], [], 0
    links_cuda = bool(_libraries.link_flags_in(text)) or 'thffi --cuda-libs' in text
    for start, end, nodes in _parts(text):
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
        for node in nodes:
            visitor = _Words()
            visitor.visit(node)
            for words in visitor.commands:
                edits += _edits(chunk, words, accepted, path, line_of, findings, links_cuda)
        out.append(text[done:start])
        out.append(_apply(chunk, edits))
        done = end
    new = ''.join(out) + text[done:]
    if _RUNS_BUILD.search(text) and not _SET_E.search(text):
        findings.append(Finding(path, 0, 'no `set -e`: the script carries on after a command '
                                'fails (a failed nvcc, say) and later steps fail for it',
                                False))
    return new, findings
