"""The nvcc commands a repository's build files run, read from each kind of
build file by the module that rewrites it (shell.py: make.sh, make.py:
Makefiles, pynvcc.py: nvcc run from build.py/setup.py).  `port` asks which
files nvcc builds; the builder asks which command was to build an object
that is missing (command_building()), to compile its source with that
command's flags.

This module and the readers import no more than the builder needs for it:
bashlex for shell (0.1 s), Python's own ast for Python (libcst, which port
rewrites Python with, costs 0.35 s more and is imported only to rewrite)."""

import collections
import os
import re

# args: the command's words, expanded as far as the file itself says
# (variables it sets; what it leaves unknown keeps its $); cwd: the folder
# it ran in, relative to the build file's folder (or absolute); line: where
# it is in the file (1-based).
NvccCommand = collections.namedtuple('NvccCommand', 'args cwd line')

_SHELL = ('.sh',)
_SKIPPED_DIRS = ('__pycache__', 'build', 'dist', 'node_modules', 'site-packages', '.git')
# Files larger than this are not build files a person wrote.
_LARGEST = 1 << 20


def kind(path):
    """'sh', 'make', 'py' for a build file that may run nvcc, else None."""
    name = os.path.basename(path)
    if name.endswith(_SHELL):
        return 'sh'
    if name in ('Makefile', 'makefile', 'GNUmakefile') or name.endswith('.mk'):
        return 'make'
    if name.endswith('.py'):
        return 'py'
    return None


def nvcc_commands(path, text):
    """[NvccCommand] of one build file's text (path: its name decides the kind)."""
    found = kind(path)
    if found == 'sh':
        from .shell import nvcc_commands as read
    elif found == 'make':
        from .make import nvcc_commands as read
    elif found == 'py':
        from .pyscript import nvcc_commands as read
    else:
        return []
    return read(text)


def output(command):
    """The file an nvcc command writes (-o X, -o=X, --output-file X), or None."""
    args = command.args
    for i, arg in enumerate(args):
        if arg in ('-o', '--output-file') and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(('-o=', '--output-file=')):
            return arg.split('=', 1)[1]
    return None


def _build_files(root, recursive=True):
    for folder, dirs, files in os.walk(root):
        if not recursive:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d not in _SKIPPED_DIRS
                         and not d.endswith('.egg-info')
                         and not os.path.isfile(os.path.join(folder, d, 'pyvenv.cfg')))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if kind(path) and os.path.getsize(path) <= _LARGEST:
                yield path


def command_building(obj, root, recursive=True):
    """(build file, NvccCommand, folder it ran in) of the nvcc command in
    the build files under root (recursive=False: in root itself) whose
    output is obj (an absolute path), or None.  An output the file leaves partly unknown ($OUT/x.cu.o) matches by
    its file name when no command names obj itself."""
    obj = os.path.realpath(obj)
    # A build file that writes it names it, or its stem (scale_kernel for
    # scale_kernel.cu.o: `$(KERNEL).cu.o`, kernel + '.o'): the others are
    # not parsed.
    stem = os.path.basename(obj).split('.')[0]
    by_name = None
    for path in _build_files(root, recursive):
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError:
            continue
        if 'nvcc' not in text.lower() or stem not in text:
            continue
        for command in nvcc_commands(path, text):
            written = output(command)
            if not written:
                continue
            cwd = os.path.normpath(os.path.join(os.path.dirname(path), command.cwd))
            if os.path.realpath(os.path.join(cwd, written)) == obj:
                return path, command, cwd
            if (by_name is None and re.search(r'[$`{]', written + command.cwd)
                    and os.path.basename(written) == os.path.basename(obj)):
                by_name = path, command, cwd
    return by_name
