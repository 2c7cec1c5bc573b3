"""The commands of a Makefile (Makefile, makefile, GNUmakefile, *.mk).

The text is read line by line (a backslash continues a line) into variable
assignments, rules and recipe lines, and those into words (a $(...) or
${...} reference, nested ones included, and a quoted string are one word
each): port/make.py rewrites makefiles word by word from this.

commands() reads the nvcc commands of the rules, variables and automatic
variables ($@, $<, $^, $*) expanded, pattern rules instantiated for a
given target: the builder rebuilds a missing object with the flags of the
rule that was to make it."""

import os
import re
import subprocess


_ASSIGNMENT = re.compile(r'[ \t]*(?:(?:override|export|private)[ \t]+)*([^\s:#=$]+)[ \t]*'
                         r'(:::=|::=|:=|\?=|\+=|!=|=)')
_DIRECTIVE = re.compile(r'[ \t]*(?:ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|'
                        r'sinclude|vpath|unexport|export|undefine|override)\b')
_DIRECTIVES = ('ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif', 'include', '-include',
               'sinclude', 'vpath', 'unexport', 'undefine', 'define', 'export', 'override')
_OPENS = re.compile(r'[ \t]*(?:ifeq|ifneq|ifdef|ifndef)\b')
_CLOSES = re.compile(r'[ \t]*endif\b')
_REFERENCE = re.compile(r'\$(?:\(([\w.-]+)\)|\{([\w.-]+)\}|([A-Za-z_]))')
_INCLUDE = re.compile(r'[ \t]*(?:-include|sinclude|include)[ \t]+([^#]*)')
_NVCC_WORD = re.compile(r'(?:^|/)nvcc(?:\.exe)?$')
# $(NVCC), ${CUDA_NVCC}: nvcc from the environment.
_NVCC_VARIABLE = re.compile(r'\$[({](?:\w*_)?NVCC[)}]')


def logical_lines(text):
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


def closing(text, i):
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


def words(text, start, end, comments=True):
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
            i = min(closing(text, i), end)
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


def unquoted(word):
    return word[1:-1] if len(word) > 1 and word[0] == word[-1] and word[0] in '"\'' else word


class Line:
    """A logical line: kind 'assign' (name, op; value from value_start),
    'rule' (its recipe, after ';', from value_start, or None), 'recipe'
    (from value_start, its @-+ prefix skipped), or 'other'; depth: how many
    ifeq/ifdef blocks hold it."""

    def __init__(self, kind, start, end, value_start=None, name=None, op=None, depth=0):
        self.kind, self.start, self.end = kind, start, end
        self.value_start, self.name, self.op, self.depth = value_start, name, op, depth


def rule_colon(text, start, end):
    """The index of a rule line's ':' (not in a reference), or None."""
    i = start
    while i < end:
        if text[i] == '$' and text[i + 1:i + 2] in ('(', '{'):
            i = closing(text, i)
            continue
        if text[i] == ':' and text[i + 1:i + 2] != '=':
            return i
        i += 1
    return None


def parse_lines(text):
    """[Line] of a makefile.  A line starting with a tab is a recipe line
    after a rule (blank lines, comments and conditionals between); elsewhere
    it is read as any other line."""
    out, depth, in_define, in_rule = [], 0, False, False
    for start, end in logical_lines(text):
        body = text[start:end]
        stripped = body.strip()
        if in_define:
            in_define = not stripped.startswith('endef')
            out.append(Line('other', start, end, depth=depth))
            continue
        if re.match(r'(?:(?:override|export)\s+)*define\b', stripped):
            in_define = True
            out.append(Line('other', start, end, depth=depth))
            continue
        if body.startswith('\t') and in_rule:
            skip = len(body) - len(body[1:].lstrip('@-+ \t'))
            out.append(Line('recipe', start, end, start + skip, depth=depth))
            continue
        if _CLOSES.match(body):
            depth = max(depth - 1, 0)
        assignment = _ASSIGNMENT.match(body)
        if assignment and assignment.group(1) not in _DIRECTIVES:
            in_rule = False
            out.append(Line('assign', start, end, start + assignment.end(), assignment.group(1),
                             assignment.group(2), depth))
        elif _DIRECTIVE.match(body) or not stripped or stripped.startswith('#'):
            out.append(Line('other', start, end, depth=depth))
        else:
            colon = rule_colon(text, start, end)
            in_rule = in_rule or colon is not None
            semicolon = text.find(';', colon, end) if colon is not None else -1
            out.append(Line('rule' if colon is not None else 'other', start, end,
                             semicolon + 1 if semicolon >= 0 else None, depth=depth))
        if _OPENS.match(body):
            depth += 1
    return out


def references(value):
    return {a or b or c for a, b, c in _REFERENCE.findall(value)}


def is_nvcc_word(word, nvcc_names, variables=None):
    """Whether a word of a command runs nvcc: by name or path, as a variable
    holding it, or as make expands it with `variables` (the makefile's):
    `$(Q)nvcc` with Q = @ is make's quiet `@nvcc`."""
    word = unquoted(word)
    if _NVCC_WORD.search(word) or _NVCC_VARIABLE.fullmatch(word) or any(
            word in ('$(%s)' % n, '${%s}' % n) for n in nvcc_names):
        return True
    return bool(variables and '$' in word
                and _NVCC_WORD.search(_expand(word, variables, {}).lstrip('@+-')))


def nvcc_start(text, line, nvcc_names, variables=None):
    """Where an nvcc command starts in a recipe (or a rule's inline recipe),
    or in the value of a variable holding it with its flags (`NVCC = nvcc
    -std=c++11`), or None.  variables: the makefile's, to expand its words
    as make does."""
    if line.value_start is None or line.kind not in ('recipe', 'rule') and not (
            line.kind == 'assign' and line.name in nvcc_names):
        return None
    for start, end in words(text, line.value_start, line.end, comments=False):
        if is_nvcc_word(text[start:end], nvcc_names, variables):
            return start
    return None


def assigned(text, lines):
    """The variables a makefile's own text assigns, as make makes them."""
    return _variables('', text, lines, {'CURDIR': '.'}, read=False)


def expanded(word, variables):
    """A word as make expands it with variables, as far as they say."""
    return _expand(word, variables, {})


def nvcc_variables(text, lines):
    """(names of variables holding nvcc, names of variables nvcc commands
    use, through the variables those use)."""
    nvcc_names = {line.name for line in lines if line.kind == 'assign' and any(
        _NVCC_WORD.search(unquoted(text[s:e])) for s, e in words(text, line.value_start,
                                                                    line.end))}
    variables = assigned(text, lines)
    used = set()
    for line in lines:
        start = nvcc_start(text, line, nvcc_names, variables)
        if start is not None:
            used |= references(text[start:line.end])
    values = {}
    for line in lines:
        if line.kind == 'assign':
            values.setdefault(line.name, []).append(text[line.value_start:line.end])
    todo = list(used)
    while todo:
        for value in values.get(todo.pop(), ()):
            new = references(value) - used
            used |= new
            todo += new
    return nvcc_names, used - nvcc_names


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
        close = closing(value, i)
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


def _targets(text, lines, variables):
    """[(targets, target pattern or None, prerequisites, [recipe lines])] of
    the rules, expanded."""
    rules, current = [], None
    for line in lines:
        if line.kind == 'rule':
            colon = rule_colon(text, line.start, line.end)
            end = line.value_start - 1 if line.value_start else line.end
            rest = text[colon + 1:end].lstrip(':')
            pattern = None
            second = rule_colon(rest, 0, len(rest))
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


def _value(text, line):
    """An assignment's value as make keeps it: from an unescaped # on a
    comment (`ARCH = -arch=sm_61  # GTX 1080`), a backslash-newline a blank."""
    value = re.sub(r'(?<!\\)#.*', '', text[line.value_start:line.end], flags=re.S)
    return value.replace('\\\n', ' ').replace('\\#', '#').strip()


def _variables(path, text, lines, variables, depth=0, included=None, read=True, folder=None):
    """variables with the makefile's assignments made, in order, and those
    of the makefiles it includes (found from the top makefile's folder,
    folder, where make runs; their paths appended to included; read=False:
    not read)."""
    folder = os.path.dirname(path) if folder is None else folder
    for line in lines:
        if line.kind == 'other' and depth < 10:
            directive = _INCLUDE.match(text, line.start, line.end)
            for name in _expand(directive.group(1), variables, {}).split() if directive else ():
                name = os.path.normpath(os.path.join(folder, name))
                if included is not None:
                    included.append(name)
                if not read:
                    continue
                try:
                    with open(name, encoding='utf-8', errors='replace') as f:
                        more = f.read()
                except OSError:
                    continue
                _variables(name, more, parse_lines(more), variables, depth + 1, included, read,
                           folder)
        if line.kind != 'assign':
            continue
        value = _value(text, line)
        if line.op == '+=' and line.name in variables:
            value = variables[line.name] + ' ' + value
        elif line.op == '?=' and line.name in variables:
            continue
        elif line.op in (':=', '::=', ':::='):
            value = _expand(value, variables, {})
        elif line.op == '!=':  # the output of a shell command: not known here
            value = '$(shell %s)' % value
        variables[line.name] = value
    return variables


def includes(path, text):
    """The paths of the makefiles a makefile's text includes (its folder
    joined to each name, the name's variables expanded as far as the text
    says)."""
    found = []
    _variables(path, text, parse_lines(text), {'CURDIR': '.'}, included=found, read=False)
    return found


def _stem(pattern, name):
    head, _, tail = pattern.partition('%')
    if name.startswith(head) and name.endswith(tail) and len(name) >= len(head) + len(tail):
        return name[len(head):len(name) - len(tail)]
    return None


def _text_commands(path, text, target=None):
    """[Command] of a makefile: the nvcc commands of its rules, for each
    target they make (pattern rules: for target, a path relative to the
    makefile's folder, or else for each file named in the makefile that
    the pattern matches).  cwd: '' (make runs recipes in the makefile's
    folder), or the folder a `cd` before nvcc on the line went to."""
    lines = parse_lines(text)
    variables = _variables(path, text, lines, {'CURDIR': '.'})
    nvcc_names = {n for n, v in variables.items() if _NVCC_WORD.search(v.split()[0] if
                                                                         v.split() else '')}
    rules = _targets(text, lines, variables)
    named = {w for targets, _, prerequisites, _ in rules for w in targets + prerequisites}
    named |= {w for v in variables.values() for w in _expand(v, variables, {}).split()}
    explicit, patterns = [], []
    for targets, static, prerequisites, recipe in rules:
        runs = [line for line in recipe
                if nvcc_start(text, line, nvcc_names, variables) is not None]
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
                        _recipe_commands(path, text, line, variables, automatic))
    # make builds a target by its explicit rule when it has one.
    return explicit if target and explicit else explicit + patterns


def _recipe_commands(path, text, line, variables, automatic):
    """[Command] of one recipe line, expanded as far as the text says."""
    shell = _expand(text[line.value_start:line.end], variables, automatic)
    return _shell_commands(path, text.count('\n', 0, line.start) + 1, shell.replace('$$', '$'))


def _shell_commands(path, line, shell, cwd=''):
    """[Command] of the nvcc commands of a recipe line's shell text, read
    as the shell reads it (readers/shell.py: quotes, backticks, cd); cwd:
    the folder make ran it in, relative to the makefile's."""
    from .shell import commands
    found = commands(path, shell)
    for command in found:
        folder = os.path.normpath(os.path.join(cwd, command.cwd))
        command.line, command.cwd = line, '' if folder == '.' else folder
    return found


def recipe_runs(path, text):
    """[Command] of every command of every recipe line (a rule's `;` part
    too), read from the text (its variables expanded as far as the text
    says; make's automatic ones are not), as the shell reads each line:
    the scripts a makefile runs (route.py)."""
    from .shell import runs
    lines = parse_lines(text)
    variables = _variables(path, text, lines, {'CURDIR': '.'}, read=False)
    found = []
    for line in lines:
        if line.kind in ('recipe', 'rule') and line.value_start:
            shell = _expand(text[line.value_start:line.end], variables, {}).replace('$$', '$')
            number = text.count('\n', 0, line.start) + 1
            for command in runs(path, shell):
                command.line = number
                found.append(command)
    return found


# make's --trace line before a target's recipe: `Makefile:7: update target
# 'x.o' due to: x.cu` (make 4.3), `Makefile:7: target 'x.o' does not exist`.
_TRACE = re.compile(r"(.+?):(\d+): (?:update )?target '(.*)' ")
_DIRECTORY = re.compile(r"\S*make(?:\[\d+\])?: (Entering|Leaving) directory '(.*)'")
# What make inherits from a make that runs the build (its jobserver...).
_MAKE_ENVIRONMENT = ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEFILES', 'GNUMAKEFLAGS')


def _asked(path, target, text=None):
    """(make's output, None) of `make -n -B --trace -f NAME TARGET` run in
    the makefile's folder: each recipe line of target and of what it
    needs, expanded, after the makefile and line of its rule; or (None, why
    make could not answer).  target None: the default goal.  text: the
    makefile's text to read instead of its file's (`-f -`, its rules then
    traced as `-:LINE`).  make -n still runs what make runs to read a
    makefile ($(shell ...)), and recipe lines that run $(MAKE) (with -n)
    or start with +."""
    folder, name = os.path.split(os.path.abspath(path))
    env = {k: v for k, v in os.environ.items() if k not in _MAKE_ENVIRONMENT}
    env['LC_ALL'] = 'C'
    try:
        out = subprocess.run(['make', '-n', '-B', '--trace', '-f', name if text is None else '-']
                             + ([target] if target else []), cwd=folder, input=text, env=env,
                             capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        return None, 'make is not installed'
    except subprocess.TimeoutExpired:
        return None, 'make -n took over 60 s'
    if out.returncode:
        why = [line for line in out.stderr.splitlines() if line.strip()]
        return None, 'make -n failed%s' % (': ' + why[-1].strip() if why else '')
    return out.stdout, None


def _recipe_starts(text):
    """The numbers of the recipe lines of a makefile's text."""
    return [text.count('\n', 0, l.start) + 1 for l in parse_lines(text)
            if l.kind == 'recipe' or l.kind == 'rule' and l.value_start]


def _recipe_line(path, line, index, texts):
    """The line of the index-th recipe line of the rule make traced at
    path:line (the recipe's first line)."""
    if path not in texts:
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                texts[path] = _recipe_starts(f.read())
        except OSError:
            texts[path] = None
    starts = texts[path] or []
    first = starts.index(line) if line in starts else None
    return starts[first + index] if first is not None and first + index < len(starts) else line


def _recipe_runs(path, output, text=None):
    """(rule, target, body, cwd) of each recipe line make's output
    (_asked()) runs: rule (the makefile, absolute, or '<builtin>' for make's
    implicit rules; the number of the recipe line, 0 for those), the
    target it makes (as make names it, from the folder make ran in), the
    line as make expanded it, and the folder make ran in, relative to the
    rule's makefile's.  text: the makefile's text make read (`-f -`)."""
    folders, texts = [os.path.dirname(os.path.abspath(path))], {}
    if text is not None:
        texts[os.path.abspath(path)] = _recipe_starts(text)
    rule, index = None, 0
    lines = output.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        body = lines[i]
        i += 1
        while body.rstrip('\n').endswith('\\') and i < len(lines):  # a recipe line goes on
            body += lines[i]
            i += 1
        directory = _DIRECTORY.match(body)
        trace = _TRACE.match(body)
        if directory:
            if directory.group(1) == 'Entering':
                folders.append(directory.group(2))
            elif len(folders) > 1:
                folders.pop()
        elif trace:
            file = os.path.abspath(path) if trace.group(1) == '-' else \
                os.path.join(folders[-1], trace.group(1))
            rule, index = (file, int(trace.group(2))), 0
            made = os.path.relpath(os.path.join(folders[-1], trace.group(3)), folders[0])
        elif body.startswith('<builtin>: '):
            rule, index = ('<builtin>', 0), 0
            made = os.path.relpath(os.path.join(folders[-1], body.split("'")[1]), folders[0])
        elif rule:
            line = rule[1] and _recipe_line(rule[0], rule[1], index, texts)
            index += 1
            where = folders[0] if rule[0] == '<builtin>' else os.path.dirname(rule[0])
            yield (rule[0], line), made, body, os.path.relpath(folders[-1], where)


def traced(path, text=None):
    """([(rule, target, Command)] of every command make runs to make the
    makefile's default goal, everything remade (`make -n -B --trace`;
    _recipe_runs()), None) or (None, why make could not answer).  text:
    the makefile's text to read in path's place (`make -f -`)."""
    from .shell import runs
    output, why = _asked(path, None, text) if text is not None or os.path.isfile(path) else \
        (None, 'no such file to run make on')
    if output is None:
        return None, why
    found = []
    for rule, target, body, cwd in _recipe_runs(path, output, text):
        for command in runs(path, body):
            command.line = rule[1]
            command.cwd = os.path.normpath(os.path.join(cwd, command.cwd))
            found.append((rule, target, command))
    return found, None


def _made(path, output, target):
    """[Command] of the nvcc commands make's output (_asked()) runs for
    target.  (-B remakes what target needs too, even its sources through
    make's built-in chains: x.cu from x.cu.o by `%: %.o`.)"""
    found = []
    for rule, made, body, cwd in _recipe_runs(path, output):
        if rule[0] == '<builtin>' or os.path.normpath(made) != os.path.normpath(target):
            continue
        file = path if rule[0] == os.path.abspath(path) else rule[0]
        found += _shell_commands(file, rule[1], body, cwd)
    return found


def commands(path, text, target=None, ask_make=True):
    """[Command] of the nvcc commands of a makefile that make target (a
    path relative to the makefile's folder), asked of make itself (`make
    -n -B`, _asked()): variables, functions, $(shell ...) and included
    makefiles expanded as make does, comments gone.  Where make cannot
    answer (no make, a prerequisite missing, an included makefile read
    alone), and without a target (every rule's: port's question) or with
    ask_make=False, the text is read instead, each Command saying why
    (read_as_text): the rules' commands for each target they make (pattern
    rules: for target, or else for each file named in the makefile that
    the pattern matches).  cwd: '' (make runs recipes in the makefile's
    folder), or the folder a `cd` before nvcc on the line went to."""
    output, why = (None, 'not asked') if not ask_make or target is None else \
        _asked(path, target) if os.path.isfile(path) else (None, 'no such file to run make on')
    if output is not None:
        return _made(path, output, target)
    found = _text_commands(path, text, target)
    for command in found:
        command.read_as_text = why
    return found
