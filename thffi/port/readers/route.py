"""The build files a repository's README runs: its route.  A README (or
INSTALL) types the steps (`cd lib`, `sh make.sh`, `make`, `python
build.py`); the scripts it runs run others (`cd src/nms; sh make.sh`,
`make -C kernels`).  A repository may hold build files nobody runs (an
extension's own make.sh from before lib/make.sh did it all): where two
commands write one object, the one on the route is the one that ran."""

import os
import re
import shlex

from .command import kind

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


def _runs(args, cwd):
    """(folder after it, [build file it runs]) of one command, paths
    relative to the folder the commands start in; cwd: where it runs."""
    if not args:
        return cwd, []
    if args[0] in ('cd', 'pushd') and len(args) > 1 and not re.search(r'[$`~]', args[1]):
        return os.path.normpath(os.path.join(cwd, args[1])), []
    env = 0
    while env < len(args) and re.match(r'\w+=', args[env]):  # CUDA_PATH=... sh make.sh
        env += 1
    args = args[env:]
    if not args:
        return cwd, []
    name = args[0]
    if name in ('sh', 'bash', 'source', '.') and len(args) > 1 or _PYTHON.match(name):
        files = [a for a in args[1:] if not a.startswith('-')][:1]
        return cwd, [os.path.join(cwd, f) for f in files]
    if name in ('make', 'gmake'):
        folder = cwd
        for i, arg in enumerate(args):
            if arg == '-C' and i + 1 < len(args):
                folder = os.path.join(folder, args[i + 1])
            elif arg.startswith('-C') and len(arg) > 2:
                folder = os.path.join(folder, arg[2:])
        return cwd, [os.path.join(folder, n) for n in ('GNUmakefile', 'makefile', 'Makefile')]
    if name.endswith('.sh') or name.startswith('./'):
        return cwd, [os.path.join(cwd, name)]
    return cwd, []


def _scripts(path):
    """[(args, cwd)] of the commands a build file on the route runs that
    may run others (a shell script's; a makefile's recipes are make's)."""
    if kind(path) != 'sh':
        return []
    from .shell import runs
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        return []
    return [(c.args, c.cwd) for c in runs(path, text)]


def route(readme_files):
    """The real paths of the build files the READMEs run, directly or
    through the scripts they run."""
    found, todo = set(), []

    def add(folder, args, cwd):
        cwd, files = _runs(args, cwd)
        for name in files:
            path = os.path.realpath(os.path.join(folder, name))
            if os.path.isfile(path) and path not in found:
                found.add(path)
                todo.append((path, depth + 1))
        return cwd

    depth = 0
    for readme in readme_files:
        try:
            with open(readme, encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError:
            continue
        cwd = ''
        for args in _typed(text):
            cwd = add(os.path.dirname(readme), args, cwd)
    while todo:
        path, depth = todo.pop()
        if depth < _DEPTH:
            for args, cwd in _scripts(path):
                add(os.path.dirname(path), args, cwd)
    return found
