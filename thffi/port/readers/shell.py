"""The commands of a shell script (make.sh, build.sh), parsed by bashlex
into simple commands and their words (quoting kept: a word's span in the
text includes its quotes).  port/shell.py rewrites scripts word by word
from this parse; commands() follows a script as it runs (its variables,
cd/pushd/popd) to the nvcc commands it runs."""

import os
import re

import bashlex

from .command import Command

# A command's first word running nvcc: nvcc, /usr/local/cuda/bin/nvcc,
# $NVCC, ${CUDA_PATH}/bin/nvcc, $(which nvcc).
NVCC = re.compile(r'nvcc\}?\)?$', re.I)
# A command's first word running Python: python3, /usr/bin/python2.7,
# $PYTHON, ${PYTHON_BIN}, ${PYTHON:-python3}.
PYTHON = re.compile(r'(?:\S*/)?python[\d.]*$|\$\{?\w*PYTHON\w*(?::-[^}\s]*)?\}?$', re.I)
VARIABLE = re.compile(r'\$(?:\{(\w+)\}|(\w+))')


def _lines_of_commands(lines):
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


def parts(text):
    """(start, end, bashlex nodes) of the parts of text bashlex parses: the
    whole text, or where it cannot (bashlex has no arithmetic expansion, for
    one) each command; (start, end, None) for a command it cannot parse."""
    try:
        return [(0, len(text), bashlex.parse(text))]
    except Exception:  # bashlex raises several types (its own, NotImplementedError)
        pass
    found, offset = [], 0
    lines = text.splitlines(keepends=True)
    for group in _lines_of_commands(lines):
        chunk = ''.join(lines[i] for i in group)
        try:
            nodes = bashlex.parse(chunk) if chunk.strip() else []
        except Exception:
            nodes = None
        if nodes is None or nodes:
            found.append((offset, offset + len(chunk), nodes))
        offset += len(chunk)
    return found


class _Words(bashlex.ast.nodevisitor):
    """The words of every simple command, command by command: lists of
    (start, end, value, kind) with start and end in the parsed text."""

    def __init__(self):
        self.commands = []

    def visitcommand(self, node, parts):
        self.commands.append([(p.pos[0], p.pos[1], p.word, p.kind) for p in parts
                              if p.kind in ('word', 'assignment')])


class _Spans(bashlex.ast.nodevisitor):
    """(start, end) of every simple command, nested ones ($(...)) included."""

    def __init__(self):
        self.spans = []

    def visitcommand(self, node, parts):
        self.spans.append(tuple(node.pos))


# Where a command line goes on to the next command: ; && || | & and a newline.
_SEPARATOR = re.compile(r'&&|\|\||[;|&\n]')


def _scanned(text):
    """(start, end) of the commands of text split at the separators outside
    quotes, for text bashlex cannot parse (a piece of a command a Python
    script joins to others: an unclosed quote)."""
    spans, start, quote, i = [], 0, None, 0
    while i < len(text):
        c = text[i]
        if c == '\\':
            i += 2
            continue
        if quote:
            quote = None if c == quote else quote
        elif c in '"\'':
            quote = c
        else:
            separator = _SEPARATOR.match(text, i)
            if separator:
                spans.append((start, i))
                start = i = separator.end()
                continue
        i += 1
    spans.append((start, len(text)))
    return spans


def command_spans(text):
    """[(start, end)] of the commands a command line (a string the shell
    runs: `sh -c`, os.system's) runs one after the other, split where the
    shell splits it (; && || pipes &, newlines: bashlex; where bashlex
    cannot parse it, at those outside quotes), blanks around them left
    out; a command inside another ($(...)) is its."""
    try:
        nodes = bashlex.parse(text) if text.strip() else []
    except Exception:  # bashlex raises several types (its own, NotImplementedError)
        found = _scanned(text)
    else:
        visitor = _Spans()
        for node in nodes:
            visitor.visit(node)
        found = [(s, e) for s, e in visitor.spans
                 if not any(o != (s, e) and o[0] <= s and e <= o[1] for o in visitor.spans)]
    spans = []
    for start, end in sorted(found):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            spans.append((start, end))
    return spans


def simple_commands(nodes):
    """The word lists of the simple commands under bashlex nodes, in order."""
    found = []
    for node in nodes:
        visitor = _Words()
        visitor.visit(node)
        found += visitor.commands
    return found


def command_words(words):
    """The words of a command after its leading assignments (A=1 nvcc ...)."""
    return [w for w in words if w[3] == 'word']


def is_nvcc(words):
    command = command_words(words)
    return bool(command) and bool(NVCC.search(command[0][2]))


def interpreter(text):
    """The Python a script runs (its first command's word as written:
    python3, $PYTHON, ${PYTHON:-python3}), or None."""
    for _, _, nodes in parts(text):
        for words in simple_commands(nodes or ()):
            command = command_words(words)
            if command and PYTHON.match(command[0][2]):
                return command[0][2]
    return None


def _expand(raw, value, variables):
    """The arguments a word gives: $NAME/${NAME} of the script's own
    variables expanded (others kept as written); an unquoted word splits
    where its expansion has blanks."""
    expanded = VARIABLE.sub(lambda m: variables.get(m.group(1) or m.group(2), m.group()),
                            value)
    return expanded.split() if expanded != value and not re.search('["\']', raw) else [expanded]


def _cd(cwd, target):
    """The folder after `cd target` from cwd ('' is the script's folder)."""
    if re.search(r'dirname\s+"?\$\{?0', target):
        return ''
    if target == '-' or not target or re.search(r'[$`~]', target):
        return cwd
    return os.path.normpath(os.path.join(cwd, target))


def runs(path, text):
    """[Command] of every command a shell script runs, in order (its
    arguments, the folder it ran in, relative to the script's, following
    cd/pushd/popd; its line), its own variables expanded."""
    found, cwd, stack, variables = [], '', [], {}
    for start, end, nodes in parts(text):
        for words in simple_commands(nodes or ()):
            raw = [text[start + s:start + e] for s, e, _, _ in words]
            args = [a for r, w in zip(raw, words) if w[3] == 'word'
                    for a in _expand(r, w[2], variables)]
            if not args:
                for r, w in zip(raw, words):
                    name, _, value = w[2].partition('=')
                    variables[name] = ' '.join(_expand(r, value, variables))
                continue
            if args[0] in ('cd', 'pushd'):
                if args[0] == 'pushd':
                    stack.append(cwd)
                cwd = _cd(cwd, args[1] if len(args) > 1 else '~')
            elif args[0] == 'popd' and stack:
                cwd = stack.pop()
            if is_nvcc(words):  # nvcc, $NVCC, /usr/local/cuda/bin/nvcc: one name
                args = ['nvcc'] + args[1:]
            found.append(Command(path, text.count('\n', 0, start + words[0][0]) + 1, args, cwd))
    return found


def commands(path, text):
    """[Command] of the nvcc commands of a shell script, in order (runs())."""
    return [c for c in runs(path, text) if c.args[0] == 'nvcc']
