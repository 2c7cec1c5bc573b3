"""The build files a repository's README runs: its route.  A README (or INSTALL)
types the steps (`cd lib`, `sh make.sh`, `make`, `python build.py`, `bash
install.bash`); the scripts it runs run others (`cd src/nms; sh make.sh`, `make
-C kernels`, a recipe's `./compile`, a build.py's `os.system('sh
build_kernels')`), each read as what runs it runs it: a file `bash` runs is a
shell script, whatever its name.  A repository may hold build files nobody runs
(an extension's own make.sh from before lib/make.sh did it all): where two
commands write one object, the one on the route is the one that ran."""

import os
import re
import shlex

from .command import by_name, by_shebang

_README = re.compile(r'(?:README|INSTALL)[\w-]*(?:\.md|\.markdown|\.rst|\.txt)?$', re.I)
_PROMPT = re.compile(r'^\s*(?:[$>%#]\s+)?')
_INLINE = re.compile(r'`([^`\n]+)`')
_PYTHON = re.compile(r'(?:\S*/)?python[\d.]*$|\$\{?PYTHON\}?$')
# How deep scripts running scripts are followed.
_DEPTH = 4


def readmes(folders):
    """The README and INSTALL files in the folders, in order."""
    found = []
    for folder in folders:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        found += [os.path.join(folder, n) for n in names
                  if _README.match(n) and os.path.isfile(os.path.join(folder, n))]
    return found


def typed(text):
    """(line number, command) of what a README types, in order: each line
    (a `$ ` or `> ` prompt taken off, backslash continuations joined), then
    each `inline code` span in it."""
    lines, i = text.splitlines(), 0
    while i < len(lines):
        number, line = i + 1, lines[i]
        i += 1
        body = _PROMPT.sub('', line, count=1)
        while body.endswith('\\') and i < len(lines):
            body = body[:-1].rstrip() + ' ' + _PROMPT.sub('', lines[i], count=1).strip()
            i += 1
        yield number, body.strip()
        for inline in _INLINE.finditer(body):
            yield number, inline.group(1).strip()


def _typed(text):
    """The commands a README types (typed()), split at ; && ||, as word
    lists."""
    for _, span in typed(text):
        try:
            words = shlex.split(span, comments=True)
        except ValueError:
            words = span.split()
        command = []
        for word in words + [';']:
            if word in (';', '&&', '||'):
                if command:
                    yield command
                command = []
            else:
                command.append(word)


_SHELLS = ('sh', 'bash', 'dash', 'ksh', 'zsh')
# Words before the program a command runs: `sudo sh make.sh`, `env X=1 make`.
_PREFIXES = ('sudo', 'env', 'time', 'nohup', 'exec', 'command')
# A Python script that runs others calls one of these (readers/python.py).
_RUNS_COMMANDS = re.compile(r'\b(?:system|popen|call|check_call|run|Popen|check_output|'
                            r'getoutput|getstatusoutput|spawn\w*)\s*\(')


def _runs(args, cwd):
    """(folder after it, [(build file it runs, the reader it is read with:
    as what runs it runs it; None: the file says)]) of one command, paths
    relative to the folder the commands start in; cwd: where it runs."""
    if not args:
        return cwd, []
    if args[0] in ('cd', 'pushd') and len(args) > 1 and not re.search(r'[$`~]', args[1]):
        return os.path.normpath(os.path.join(cwd, args[1])), []
    while args and (re.match(r'\w+=', args[0]) or args[0] in _PREFIXES):
        args = args[1:]  # CUDA_PATH=... sh make.sh
    if not args:
        return cwd, []
    name = os.path.basename(args[0])
    if name in _SHELLS or name in ('source', '.'):
        if '-c' in args[1:-1]:  # bash -c 'cd lib && sh make.sh'
            from .shell import runs
            found, inner = [], cwd
            for command in runs('', args[args.index('-c') + 1]):
                inner, files = _runs(command.args, inner)
                found += files
            return cwd, found
        files = [a for a in args[1:] if not a.startswith('-')][:1]
        return cwd, [(os.path.join(cwd, f), 'sh') for f in files]
    if _PYTHON.match(args[0]):
        files = [a for a in args[1:] if not a.startswith('-')][:1]
        return cwd, [(os.path.join(cwd, f), 'py') for f in files if '-m' not in args[1:2]]
    if name in ('make', 'gmake'):
        folder, names = cwd, ('GNUmakefile', 'makefile', 'Makefile')
        for i, arg in enumerate(args):
            if arg == '-C' and i + 1 < len(args):
                folder = os.path.join(folder, args[i + 1])
            elif arg.startswith('-C') and len(arg) > 2:
                folder = os.path.join(folder, arg[2:])
            elif arg == '-f' and i + 1 < len(args):
                names = (args[i + 1],)
        return cwd, [(os.path.join(folder, n), 'make') for n in names]
    if name.endswith('.sh') or '/' in args[0]:  # ./install.bash: its shebang says, else sh
        return cwd, [(os.path.join(cwd, args[0]), None)]
    return cwd, []


def _text(path):
    """Whether a file is text (a script), not a program (./a.out)."""
    try:
        with open(path, 'rb') as f:
            head = f.read(1024)
    except OSError:
        return False
    return not head.startswith(b'\x7fELF') and b'\0' not in head


def _scripts(path, kind):
    """[(args, cwd)] of the commands a build file on the route runs, any
    of which may run others: a shell script's, a makefile's recipes (as
    the text says), a Python script's os.system and subprocess calls."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        return []
    if kind == 'sh':
        from .shell import runs
    elif kind == 'make':
        from .make import recipe_runs as runs
    elif kind == 'py' and _RUNS_COMMANDS.search(text):
        from .python import runs
    else:
        return []
    return [(c.args, c.cwd) for c in runs(path, text)]


def route(readme_files, build_files=()):
    """{real path: reader ('sh', 'make', 'py')} of the build files the
    READMEs run, and build_files ([(path, reader)]: read, not counted as
    run), directly or through the scripts they run, each read as what runs
    it runs it (`bash install.bash`: a shell script, whatever its name;
    `./install`: by its shebang, else as sh runs it)."""
    found, todo, read = {}, [], set()

    def add(folder, args, cwd, depth):
        cwd, files = _runs(args, cwd)
        for name, runner in files:
            path = os.path.realpath(os.path.join(folder, name))
            if not os.path.isfile(path) or path in found:
                continue
            reader = runner or by_name(path) or by_shebang(path) or (
                'sh' if _text(path) else None)
            if reader:
                found[path] = reader
                todo.append((path, reader, depth + 1))
        return cwd

    for readme in readme_files:
        try:
            with open(readme, encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError:
            continue
        cwd = ''
        for args in _typed(text):
            cwd = add(os.path.dirname(readme), args, cwd, 0)
    todo += [(os.path.realpath(path), reader, 0) for path, reader in build_files]
    while todo:
        path, reader, depth = todo.pop()
        if depth < _DEPTH and (path, reader) not in read:
            read.add((path, reader))
            for args, cwd in _scripts(path, reader):
                add(os.path.dirname(path), args, cwd, depth)
    return found
