"""The one reader of the commands a repository's build files run: make.sh
and other shell scripts, whatever their names (shell.py, with bashlex), Makefiles (make.py, by
asking make), Python build scripts (python.py, with Python's ast); CMake
files' commands (cmake.py, with pygments' lexer); the build files a README
runs (route.py).  The first three yield Command records.  `port` asks
which files nvcc builds; its writers (port/shell.py, make.py, cmake.py)
import the parsing they share from here, never the reverse.  The builder
asks which command was to build an object (command_building()), to
compile that command's source with its flags.

The readers import no more than the builder needs: bashlex for shell
(0.1 s), Python's own ast for Python (libcst, which port rewrites Python
with, costs 0.35 s more and is imported only to rewrite)."""

import os
import re

from .command import Command, kind  # noqa: F401 (the readers' record, named from here too)

_SKIPPED_DIRS = ('__pycache__', 'build', 'dist', 'node_modules', 'site-packages', '.git')
# Files larger than this are not build files a person wrote.
_LARGEST = 1 << 20


def commands(path, text, target=None, ask_make=True, reader=None):
    """[Command] of the nvcc commands of one build file (reader: 'sh', 'make'
    or 'py'; None: kind() decides, by its name or shebang).  A Makefile is read by make
    in its folder (target: relative to it, the target to read the commands of;
    None: the default goal's), or with ask_make=False as text: port, which
    rewrites the text and needs only what the commands write, does not run the
    $(shell ...) lookups of the makefiles it reads (make -n runs them: a Python
    that imports torch, seconds each)."""
    found = reader or kind(path)
    if found == 'sh':
        from .shell import commands as read
    elif found == 'make':
        from .make import commands as read
        return read(path, text, target, ask_make)
    elif found == 'py':
        from .python import commands as read
    else:
        return []
    return read(path, text)


def _build_files(root, recursive=True, run_as=None):
    """(path, reader) of the build files under root (kind())."""
    for folder, dirs, files in os.walk(root):
        if not recursive:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d not in _SKIPPED_DIRS
                         and not d.endswith('.egg-info')
                         and not os.path.isfile(os.path.join(folder, d, 'pyvenv.cfg')))
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                size = os.path.getsize(path)
            except OSError:  # a link to nowhere (an editor's lock file, .#x.py)
                continue
            reader = size <= _LARGEST and kind(path, run_as)
            if reader:
                yield path, reader


def commands_building(obj, root, recursive=True, run_as=None):
    """[Command] of the nvcc commands in the build files under root
    (recursive=False: in root itself; run_as: route.route()'s, the scripts
    READMEs run whatever their names) that write obj (an absolute path),
    in the order of the files; each Command's file absolute.  An output
    the file leaves partly unknown ($OUT/x.cu.o) matches by its file name,
    after the commands that name obj itself."""
    obj = os.path.realpath(obj)
    # A build file that writes it names it, or its stem (scale_kernel for
    # scale_kernel.cu.o: `$(KERNEL).cu.o`, kernel + '.o'): the others are
    # not parsed.
    stem = os.path.basename(obj).split('.')[0]
    exact, by_name = [], []
    for path, reader in _build_files(os.path.abspath(root), recursive, run_as):
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError:
            continue
        if 'nvcc' not in text.lower() or stem not in text:
            continue
        target = os.path.relpath(obj, os.path.dirname(path)) if reader == 'make' else None
        for command in commands(path, text, target, reader=reader):
            written = command.output
            if not written:
                continue
            if os.path.realpath(os.path.join(command.folder, written)) == obj:
                exact.append(command)
            elif (re.search(r'[$`{]', written + command.cwd)
                  and os.path.basename(written) == os.path.basename(obj)):
                by_name.append(command)
    return exact + by_name


def command_building(obj, root, recursive=True, run_as=None):
    """The first of commands_building(), or None."""
    found = commands_building(obj, root, recursive, run_as)
    return found[0] if found else None
