"""The record every reader yields, Command (a command a build file runs, as the
file's own tool expands it), and kind(), which reader a build file is for (by
its name, what runs it, its shebang).  A module of its own so that the readers
(shell.py, make.py, python.py, route.py) and the package that dispatches to
them import it without importing each other."""

import dataclasses
import os
import re

from ...toolchain import nvcc as _nvcc


@dataclasses.dataclass
class Command:
    """A command a build file runs.  file: the build file (as the reader was
    given it); line: where the command is in it (1-based); args: its words
    as the file's own tool expands them (args[0] the tool: 'nvcc'); cwd:
    the folder it runs in, relative to the build file's folder (or
    absolute); read_as_text: None when the tool itself expanded the command
    (make -n; a shell script's and a Python script's own variables, which
    their readers follow as they run), else why it could not and the text
    was read instead (what that leaves unknown keeps its $)."""
    file: str
    line: int
    args: list
    cwd: str = ''
    read_as_text: str = None

    @property
    def tool(self):
        return os.path.basename(self.args[0]) if self.args else None

    @property
    def folder(self):
        """The folder the command runs in."""
        return os.path.normpath(os.path.join(os.path.dirname(self.file), self.cwd))

    @property
    def output(self):
        """The file the command writes (-o X, -o=X, --output-file X), or None."""
        args = self.args
        for i, arg in enumerate(args):
            if arg in ('-o', '--output-file') and i + 1 < len(args):
                return args[i + 1]
            if arg.startswith(('-o=', '--output-file=')):
                return arg.split('=', 1)[1]
        return None

    @property
    def sources(self):
        """The files it compiles (its inputs: no option nor an option's value)."""
        return _nvcc.inputs(self.args)

    @property
    def flags(self):
        """The flags compiling its source again takes (toolchain/nvcc.py's
        carried_flags: not its inputs, output, dependency or link options;
        include folders made absolute against where it ran)."""
        return _nvcc.carried_flags(self.args, self.folder)


# The interpreters of a shebang line, by the reader of what they run.
_INTERPRETERS = {'sh': 'sh', 'bash': 'sh', 'dash': 'sh', 'ksh': 'sh', 'zsh': 'sh',
                 'make': 'make', 'gmake': 'make'}
_PYTHON = re.compile(r'python[\d.]*$')


def by_name(path):
    """'sh', 'make', 'py' for a file whose name says it is a build file
    (*.sh, Makefile, *.mk, *.py), else None."""
    name = os.path.basename(path)
    if name.endswith('.sh'):
        return 'sh'
    if name in ('Makefile', 'makefile', 'GNUmakefile') or name.endswith('.mk'):
        return 'make'
    if name.endswith('.py'):
        return 'py'
    return None


def by_shebang(path):
    """The reader of a script by its first line (`#!/bin/bash`,
    `#!/usr/bin/env python3`, `#!/usr/bin/make -f`), or None."""
    try:
        with open(path, 'rb') as f:
            first = f.readline(256)
    except OSError:
        return None
    if not first.startswith(b'#!'):
        return None
    words = first[2:].decode('utf-8', 'replace').split()
    if words and os.path.basename(words[0]) == 'env':  # #!/usr/bin/env -S bash -e
        words = [w for w in words[1:] if not w.startswith('-') and '=' not in w]
    name = os.path.basename(words[0]) if words else ''
    return 'py' if _PYTHON.match(name) else _INTERPRETERS.get(name)


def kind(path, run_as=None):
    """'sh', 'make', 'py': the reader of a build file that may run nvcc, or
    None.  By its name, else by what runs it (run_as: {real path: kind} of
    the files the READMEs and build files run, route.route(): `bash
    install.bash`, `source env`), else by its shebang."""
    found = by_name(path)
    if found is None and run_as:
        found = run_as.get(os.path.realpath(path))
    return found or by_shebang(path)
