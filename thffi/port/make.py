"""The GNU make side of `python -m thffi port`: Makefile, makefile,
GNUmakefile and *.mk files, read line by line (a backslash continues a
line) into variable assignments, rules and recipe lines, and those into
words (a $(...) or ${...} reference, nested ones included, and a quoted
string are one word each), rewritten word by word as make.sh is (shell.py):

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

nvcc_commands() reads the nvcc commands of the rules, variables and
automatic variables ($@, $<, $^, $*) expanded, pattern rules instantiated
for a given target: the builder rebuilds a missing object with the flags of
the rule that was to make it (commands.py)."""

import os
import re

from ..toolchain.nvcc import ARCH_NUMBER, ARCH_OPTIONS, OLDEST_WITHOUT_NVCC, describe, \
    flag_edits, rejected
from .commands import NvccCommand
from .edits import apply_edits, replace_flags
from .report import Finding

PYTHON = 'python'
ARCH_FLAGS = '$(shell %s -m thffi --arch-flags)'
INCLUDES = '$(shell %s -m thffi --includes)'
INCLUDE_DIRS = '$(patsubst -I%%,%%,$(shell %s -m thffi --includes))'
LIBS = '$(shell %s -m thffi --libs)'

_ASSIGNMENT = re.compile(r'[ \t]*(?:(?:override|export|private)[ \t]+)*([^\s:#=$]+)[ \t]*'
                         r'(:::=|::=|:=|\?=|\+=|!=|=)')
_DIRECTIVE = re.compile(r'[ \t]*(?:ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|'
                        r'sinclude|vpath|unexport|export|undefine|override)\b')
_DIRECTIVES = ('ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif', 'include', '-include',
               'sinclude', 'vpath', 'unexport', 'undefine', 'define', 'export', 'override')
_OPENS = re.compile(r'[ \t]*(?:ifeq|ifneq|ifdef|ifndef)\b')
_CLOSES = re.compile(r'[ \t]*endif\b')
_REFERENCE = re.compile(r'\$(?:\(([\w.-]+)\)|\{([\w.-]+)\}|([A-Za-z_]))')
_TORCH_PATH = r'(?:\$[({][\w.-]+[)}]|[^\s"\'$]*/torch)(?:/lib/include(?:/THC?)?|/include/THC?)/?'
_TORCH_INCLUDE = re.compile(r'-I(?:%s)' % _TORCH_PATH)
_TORCH_DIR = re.compile(_TORCH_PATH)
_TORCH_LIB = re.compile(r'-l(?:ATen|THC?|THC?NN|THCUNN)|(?:\S*/)?lib(?:ATen|THC?|THC?NN)'
                        r'\.(?:so|a|dylib)(?:\.[\d.]+)?')
_LOOKUP = re.compile(r'\$\(shell[ \t]+(\S*python[\d.]*|\$[({]\w+[)}])[ \t]+(?:-\w+[ \t]+)*-c\b')
_NVCC_WORD = re.compile(r'(?:^|/)nvcc(?:\.exe)?$')
# $(NVCC), ${CUDA_NVCC}: nvcc from the environment.
_NVCC_VARIABLE = re.compile(r'\$[({](?:\w*_)?NVCC[)}]')
_SEPARATORS = (';', '&&', '||', '|')


def _logical_lines(text):
    """[(start, end)] of the logical lines of a makefile (a line ending in a
    backslash goes on), end before the newline."""
    lines, start, i = [], 0, 0
    while i <= len(text):
        end = text.find('\n', i)
        end = len(text) if end < 0 else end
        body = text[start:end]
        if (len(body) - len(body.rstrip('\\'))) % 2 and end < len(text):
            i = end + 1
            continue
        lines.append((start, end))
        start = i = end + 1
    return lines


def _closing(text, i):
    """The index after the ')' or '}' closing the reference opened at
    text[i:i+2] ('$(' or '${'), counting nested parentheses as make does;
    len(text) when unclosed."""
    opening, closing = text[i + 1], ')' if text[i + 1] == '(' else '}'
    depth, i = 0, i + 1
    while i < len(text):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _words(text, start, end, comments=True):
    """[(start, end)] of the words of text[start:end]: blanks and
    backslash-newlines separate them; a $(...)/${...} reference and a
    quoted string stay whole; a word starting with # ends the line."""
    words, i, begin, quote = [], start, None, None
    while i < end:
        c = text[i]
        if quote is None and (c in ' \t\n' or c == '\\' and text[i + 1:i + 2] == '\n'):
            if begin is not None:
                words.append((begin, i))
                begin = None
            i += 2 if c == '\\' else 1
            continue
        if begin is None:
            if c == '#' and comments:
                break
            begin = i
        if c == '$' and text[i + 1:i + 2] in ('(', '{'):
            i = min(_closing(text, i), end)
            continue
        if c == '$':
            i += 2
            continue
        if c in '"\'' and quote is None:
            quote = c
        elif c == quote:
            quote = None
        elif c == '\\':
            i += 1
        i += 1
    if begin is not None:
        words.append((begin, end))
    return words


def _unquoted(word):
    return word[1:-1] if len(word) > 1 and word[0] == word[-1] and word[0] in '"\'' else word


class _Line:
    """A logical line: kind 'assign' (name, op; value from value_start),
    'rule' (its recipe, after ';', from value_start, or None), 'recipe'
    (from value_start, its @-+ prefix skipped), or 'other'; depth: how many
    ifeq/ifdef blocks hold it."""

    def __init__(self, kind, start, end, value_start=None, name=None, op=None, depth=0):
        self.kind, self.start, self.end = kind, start, end
        self.value_start, self.name, self.op, self.depth = value_start, name, op, depth


def _rule_colon(text, start, end):
    """The index of a rule line's ':' (not in a reference), or None."""
    i = start
    while i < end:
        if text[i] == '$' and text[i + 1:i + 2] in ('(', '{'):
            i = _closing(text, i)
            continue
        if text[i] == ':' and text[i + 1:i + 2] != '=':
            return i
        i += 1
    return None


def _lines(text):
    """[_Line] of a makefile.  A line starting with a tab is a recipe line
    after a rule (blank lines, comments and conditionals between); elsewhere
    it is read as any other line."""
    out, depth, in_define, in_rule = [], 0, False, False
    for start, end in _logical_lines(text):
        body = text[start:end]
        stripped = body.strip()
        if in_define:
            in_define = not stripped.startswith('endef')
            out.append(_Line('other', start, end, depth=depth))
            continue
        if re.match(r'(?:(?:override|export)\s+)*define\b', stripped):
            in_define = True
            out.append(_Line('other', start, end, depth=depth))
            continue
        if body.startswith('\t') and in_rule:
            skip = len(body) - len(body[1:].lstrip('@-+ \t'))
            out.append(_Line('recipe', start, end, start + skip, depth=depth))
            continue
        if _CLOSES.match(body):
            depth = max(depth - 1, 0)
        assignment = _ASSIGNMENT.match(body)
        if assignment and assignment.group(1) not in _DIRECTIVES:
            in_rule = False
            out.append(_Line('assign', start, end, start + assignment.end(), assignment.group(1),
                             assignment.group(2), depth))
        elif _DIRECTIVE.match(body) or not stripped or stripped.startswith('#'):
            out.append(_Line('other', start, end, depth=depth))
        else:
            colon = _rule_colon(text, start, end)
            in_rule = in_rule or colon is not None
            semicolon = text.find(';', colon, end) if colon is not None else -1
            out.append(_Line('rule' if colon is not None else 'other', start, end,
                             semicolon + 1 if semicolon >= 0 else None, depth=depth))
        if _OPENS.match(body):
            depth += 1
    return out


def _references(value):
    return {a or b or c for a, b, c in _REFERENCE.findall(value)}


def _is_nvcc_word(word, nvcc_names):
    word = _unquoted(word)
    return bool(_NVCC_WORD.search(word) or _NVCC_VARIABLE.fullmatch(word)) or any(
        word in ('$(%s)' % n, '${%s}' % n) for n in nvcc_names)


def _nvcc_start(text, line, nvcc_names):
    """Where an nvcc command starts in a recipe (or a rule's inline recipe),
    or None."""
    if line.value_start is None or line.kind not in ('recipe', 'rule'):
        return None
    for start, end in _words(text, line.value_start, line.end, comments=False):
        if _is_nvcc_word(text[start:end], nvcc_names):
            return start
    return None


def _nvcc_variables(text, lines):
    """(names of variables holding nvcc, names of variables nvcc commands
    use, through the variables those use)."""
    nvcc_names = {line.name for line in lines if line.kind == 'assign' and any(
        _NVCC_WORD.search(_unquoted(text[s:e])) for s, e in _words(text, line.value_start,
                                                                    line.end))}
    used = set()
    for line in lines:
        start = _nvcc_start(text, line, nvcc_names)
        if start is not None:
            used |= _references(text[start:line.end])
    values = {}
    for line in lines:
        if line.kind == 'assign':
            values.setdefault(line.name, []).append(text[line.value_start:line.end])
    todo = list(used)
    while todo:
        for value in values.get(todo.pop(), ()):
            new = _references(value) - used
            used |= new
            todo += new
    return nvcc_names, used - nvcc_names


def _python(text):
    """The interpreter the makefile's own torch lookups run (python3,
    $(PYTHON)...), else python."""
    found = _LOOKUP.search(text)
    return found.group(1) if found else PYTHON


def _lookups(text, start, end):
    """[(start, end, prints -I flags)] of `$(shell python -c ...)` calls in
    text[start:end] asking torch for its include folders."""
    found = []
    for match in _LOOKUP.finditer(text, start, end):
        close = _closing(text, match.start())
        code = text[match.end():close]
        if 'torch' in code and ('_setup_wrapper' in code or 'include' in code):
            found.append((match.start(), close, '-I' in code))
    return found


def _arch_flags(text, words):
    """([[word spans] of each flag], [architecture numbers]) of the nvcc
    architecture flags among words."""
    flags, numbers, i = [], [], 0
    while i < len(words):
        value = _unquoted(text[words[i][0]:words[i][1]])
        name, eq, inline = value.partition('=')
        if name in ARCH_OPTIONS and (eq or i + 1 < len(words)):
            following = None if eq else _unquoted(text[words[i + 1][0]:words[i + 1][1]])
            found = [int(n) for n in ARCH_NUMBER.findall(inline if eq else following)]
            if found:
                numbers += found
                flags.append(words[i:i + (1 if eq else 2)])
                i += 1 if eq else 2
                continue
        i += 1
    return flags, numbers


def rewrite_make(text, path, accepted):
    """(new text, [Finding]) for one makefile.  accepted: the compute
    capabilities of the installed nvcc (toolchain.nvcc.accepted_architectures()),
    or None."""
    lines = _lines(text)
    nvcc_names, nvcc_variables = _nvcc_variables(text, lines)
    python = _python(text)
    findings, edits, arch_done = [], [], set()

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
        words = [w for w in _words(text, start, line.end, comments=line.kind != 'recipe')
                 if not any(s <= w[0] < e for s, e, _ in lookups)]
        arch, numbers = _arch_flags(text, words)
        old = rejected(numbers, accepted)
        if old:
            if line.kind == 'assign' and line.op == '+=' and line.name in arch_done:
                if len(words) == sum(len(flag) for flag in arch):  # nothing else: the line goes
                    edits += [(s, e, '') for s, e in _logical_lines(text[line.start:line.end])
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
                value = _unquoted(text[words[i][0]:words[i][1]])
                if pattern is _TORCH_INCLUDE and value == '-I' and i + 1 < len(words) and \
                        _TORCH_DIR.fullmatch(_unquoted(text[words[i + 1][0]:words[i + 1][1]])):
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
        nvcc_start = _nvcc_start(text, line, nvcc_names)
        if nvcc_start is not None or line.kind == 'assign' and line.name in nvcc_variables:
            flags = flag_edits(text, start if nvcc_start is None else nvcc_start, line.end)
            flags = [f for f in flags if not any(s <= f[0] < e for s, e, _ in lookups)]
            if flags:
                edits += [f[:3] for f in flags]
                findings.append(Finding(path, line_of(flags[0][0]), 'nvcc flags: %s'
                                        % describe([f[3] for f in flags]), True))
    return apply_edits(text, edits), sorted(findings, key=lambda f: f.line)


# -- reading the nvcc commands ---------------------------------------------

_FUNCTIONS = {
    'patsubst': lambda a: ' '.join(_patsubst(a[0], a[1], w) for w in a[2].split()),
    'subst': lambda a: a[2].replace(a[0], a[1]),
    'addprefix': lambda a: ' '.join(a[0] + w for w in a[1].split()),
    'addsuffix': lambda a: ' '.join(w + a[0] for w in a[1].split()),
    'notdir': lambda a: ' '.join(os.path.basename(w) for w in a[0].split()),
    'strip': lambda a: ' '.join(a[0].split()),
}


def _patsubst(pattern, replacement, word):
    if '%' not in pattern:
        return replacement if word == pattern else word
    head, tail = pattern.split('%', 1)
    if word.startswith(head) and word.endswith(tail) and len(word) >= len(head) + len(tail):
        return replacement.replace('%', word[len(head):len(word) - len(tail)], 1)
    return word


def _split_arguments(text):
    """A function call's arguments: split at the commas outside references."""
    args, depth, current = [], 0, ''
    for c in text:
        if c in '({':
            depth += 1
        elif c in ')}':
            depth -= 1
        if c == ',' and depth == 0:
            args.append(current)
            current = ''
        else:
            current += c
    return args + [current]


def _expand(value, variables, automatic, depth=0):
    """value with the makefile's variables, the automatic ones and the
    functions above expanded; what it cannot ($(shell ...), unknown
    variables) kept as written."""
    if depth > 20:
        return value
    out, i = '', 0
    while i < len(value):
        c = value[i]
        if c != '$' or i + 1 >= len(value):
            out += c
            i += 1
            continue
        if value[i + 1] == '$':
            out += '$$'
            i += 2
            continue
        if value[i + 1] not in '({':
            name = value[i + 1]
            out += automatic.get(name, variables.get(name, value[i:i + 2]))
            i += 2
            continue
        close = _closing(value, i)
        inner = value[i + 2:close - 1]
        raw = value[i:close]
        i = close
        function = re.match(r'([a-z]+)[ \t]+(.*)$', inner, re.S)
        reference = re.fullmatch(r'([\w.@<^*+?-]+)(?::([^=]*)=(.*))?', inner, re.S)
        if reference:
            name = reference.group(1)
            known = automatic.get(name) if name in automatic else variables.get(name)
            if known is None:
                out += raw
                continue
            expanded = _expand(known, variables, automatic, depth + 1)
            if reference.group(2) is not None:
                expanded = ' '.join(_patsubst('%' + reference.group(2), '%' + reference.group(3), w)
                                    for w in expanded.split())
            out += expanded
        elif function and function.group(1) in _FUNCTIONS:
            args = [_expand(a, variables, automatic, depth + 1)
                    for a in _split_arguments(function.group(2))]
            out += raw if any('$' in a for a in args) else _FUNCTIONS[function.group(1)](args)
        else:
            out += raw
    return out


def _shell_commands(text):
    """The commands of a recipe line's shell text: lists of words (quotes
    taken off), split at ; && || |."""
    commands, current = [], []
    for start, end in _words(text, 0, len(text), comments=False):
        word = text[start:end]
        if word in _SEPARATORS:
            commands.append(current)
            current = []
        else:
            current.append(_unquoted(word))
    return commands + [current]


def _targets(text, lines, variables):
    """[(targets, target pattern or None, prerequisites, [recipe lines])] of
    the rules, expanded."""
    rules, current = [], None
    for line in lines:
        if line.kind == 'rule':
            colon = _rule_colon(text, line.start, line.end)
            end = line.value_start - 1 if line.value_start else line.end
            rest = text[colon + 1:end].lstrip(':')
            pattern = None
            second = _rule_colon(rest, 0, len(rest))
            if second is not None:  # a static pattern rule: targets: pattern: prerequisites
                pattern, rest = rest[:second].strip(), rest[second + 1:]
            current = (_expand(text[line.start:colon], variables, {}).split(), pattern,
                       _expand(rest, variables, {}).split(), [])
            rules.append(current)
            if line.value_start:
                current[3].append(line)
        elif line.kind == 'recipe' and current is not None:
            current[3].append(line)
        elif line.kind == 'assign':
            current = None
    return rules


def _stem(pattern, name):
    head, _, tail = pattern.partition('%')
    if name.startswith(head) and name.endswith(tail) and len(name) >= len(head) + len(tail):
        return name[len(head):len(name) - len(tail)]
    return None


def nvcc_commands(text, target=None):
    """[NvccCommand] of a makefile: the nvcc commands of its rules, for each
    target they make (pattern rules: for target, a path relative to the
    makefile's folder, or else for each file named in the makefile that
    the pattern matches).  cwd: '' (make runs recipes in the makefile's
    folder), or the folder a `cd` before nvcc on the line went to."""
    lines = _lines(text)
    variables = {'CURDIR': '.'}
    for line in lines:
        if line.kind != 'assign':
            continue
        value = text[line.value_start:line.end].replace('\\\n', ' ').strip()
        if line.op == '+=' and line.name in variables:
            value = variables[line.name] + ' ' + value
        elif line.op == '?=' and line.name in variables:
            continue
        elif line.op in (':=', '::=', ':::='):
            value = _expand(value, variables, {})
        elif line.op == '!=':  # the output of a shell command: not known here
            value = '$(shell %s)' % value
        variables[line.name] = value
    nvcc_names = {n for n, v in variables.items() if _NVCC_WORD.search(v.split()[0] if
                                                                         v.split() else '')}
    rules = _targets(text, lines, variables)
    named = {w for targets, _, prerequisites, _ in rules for w in targets + prerequisites}
    named |= {w for v in variables.values() for w in _expand(v, variables, {}).split()}
    explicit, patterns = [], []
    for targets, static, prerequisites, recipe in rules:
        runs = [line for line in recipe if _nvcc_start(text, line, nvcc_names) is not None]
        for written in targets if runs else ():
            pattern = static or (written if '%' in written else None)
            if pattern:
                candidates = [target] if target else sorted(n for n in named if '%' not in n)
                made = [(name, _stem(pattern, name)) for name in candidates
                        if _stem(pattern, name) is not None and (not static or name in targets)]
            elif target is None or os.path.normpath(written) == os.path.normpath(target):
                made = [(written, None)]
            else:
                made = []
            for name, stem in made:
                inputs = [p.replace('%', stem) if stem is not None else p for p in prerequisites]
                automatic = {'@': name, '<': inputs[0] if inputs else '', '^': ' '.join(inputs),
                             '+': ' '.join(inputs), '*': stem or ''}
                for line in runs:
                    (patterns if pattern else explicit).extend(
                        _recipe_commands(text, line, variables, automatic, nvcc_names))
    # make builds a target by its explicit rule when it has one.
    return explicit if target and explicit else explicit + patterns


def _recipe_commands(text, line, variables, automatic, nvcc_names):
    """[NvccCommand] of one recipe line, expanded."""
    shell = _expand(text[line.value_start:line.end].replace('\\\n', ' '), variables, automatic)
    cwd, found = '', []
    for words in _shell_commands(shell.replace('$$', '$')):
        if words[:1] == ['cd'] and len(words) > 1 and '$' not in words[1]:
            cwd = os.path.normpath(os.path.join(cwd, words[1]))
        elif words and _is_nvcc_word(words[0], nvcc_names):
            found.append(NvccCommand(['nvcc'] + words[1:], cwd,
                                     text.count('\n', 0, line.start) + 1))
    return found

