"""Which modules the repository's scripts import as top-level modules, for
`python -m thffi port`: Python 3 puts a script's own folder first on
sys.path (the current folder for `python -m`), so a module beside it that
it imports (`import datasets` in main.py) is a top-level module, whose
`import utils.frame_utils` finds utils/ beside it as it is, while `from
.utils import frame_utils` fails there ("attempted relative import with no
known parent package").  py2.py keeps the imports of these modules.

A run folder is the repository's top folder, the folder of a script (a
Python file with an `if __name__ == '__main__':` block or a `#!` line, and
any file in the top folder), and the folder a README, INSTALL, shell
script or Makefile runs Python in: `python src/main.py`, `cd src && python
main.py`, `cd src; python -m train`.  A module of a run folder is
imported as a top-level module when a file of that folder other than its
`__init__.py` (which runs only as its package's) imports it by its name:
`import datasets`, `from datasets import x`.  Imports are read from each
line's `import`/`from` statement, in Python 2's files too: one counted too
many only keeps an import as it is (reported)."""

import os
import re

_IMPORT = re.compile(r'^[ \t]*(?:import[ \t]+([\w., \t]+)|from[ \t]+(\w+)[\w.]*[ \t]+import\b)',
                     re.M)
_MAIN = re.compile(r'^if\s+__name__\s*==\s*[\'"]__main__[\'"]\s*:', re.M)
# `[cd DIR &&|;] python[3][.x] [options] FILE.py` or `... -m MODULE`.
_COMMAND = re.compile(r'(?:\bcd\s+(?P<cd>[\w./-]+)\s*(?:&&|;)\s*)?'
                      r'\bpython[\d.]*\s+(?:-[A-Za-ln-z]\w*\s+)*'
                      r'(?:(?P<file>[\w./-]+\.py)\b|-m\s+[\w.]+)')


def top_level_modules(entries, base):
    """The absolute paths of the Python files that run as top-level modules
    (scripts, and the modules of run folders their folder's files import;
    see the module's docstring), among entries ((path, relative path, kind,
    text) of the files port reads, kinds as port/__init__.py's: 'py', 'sh',
    'make', 'doc'...) under the folder base."""
    folders, modules = _run_folders(entries, base)
    imported = {}
    for path, _, kind, text in entries:
        if kind != 'py':
            continue
        path = os.path.abspath(path)
        folder, name = os.path.split(path)
        if text.startswith('#!') or _MAIN.search(text) or folder == os.path.abspath(base):
            modules.add(path)
        if folder in folders and name != '__init__.py':
            for names, module in _IMPORT.findall(text):
                imported.setdefault(folder, set()).update(
                    [module] if module else [n.split()[0].split('.')[0]
                                             for n in names.split(',') if n.strip()])
    modules |= {os.path.abspath(path) for path, _, kind, _ in entries if kind == 'py'
                and os.path.basename(path)[:-len('.py')] in imported.get(
                    os.path.dirname(os.path.abspath(path)), ())}
    return frozenset(modules)


def _run_folders(entries, base):
    """(the absolute paths of the folders scripts run from, those of the
    scripts the commands name)."""
    base = os.path.abspath(base)
    folders, scripts = {base}, set()
    python = [rel for _, rel, kind, _ in entries if kind == 'py']
    for path, rel, kind, text in entries:
        if kind == 'py' and (text.startswith('#!') or _MAIN.search(text)):
            folders.add(os.path.dirname(os.path.abspath(path)))
        elif kind in ('sh', 'make', 'doc'):
            for match in _COMMAND.finditer(text):
                cd = os.path.normpath(match.group('cd') or '.')
                if match.group('file') is None:
                    folders.add(os.path.normpath(os.path.join(base, cd)))
                    continue
                named = os.path.normpath(os.path.join(cd, match.group('file')))
                found = [r for r in python if r == named] or [
                    r for r in python if os.path.basename(r) == os.path.basename(named)]
                scripts |= {os.path.join(base, r) for r in found}
    return frozenset(folders | {os.path.dirname(s) for s in scripts}), scripts
