"""How each Python file of a repository runs, for `python -m thffi port`:
whether it is a package's module (its implicit relative imports, `import
helper` for a sibling, are made explicit by py2.py) or runs as a top-level
module or script, whose imports stay as they are, because Python 3 puts a
script's own folder first on sys.path (the current folder for `python
-m`): there `import utils.frame_utils` finds utils/ beside it as it is,
while `from .utils import frame_utils` fails ("attempted relative import
with no known parent package").

What the repository says decides, never a file's name or look:
- a script: a Python file with an `if __name__ == '__main__':` block, or a
  `#!` line where no file imports it with its package, any file of the top folder, and a
  file a README, INSTALL, shell script or Makefile runs (`python
  test.py`, `cd src && python main.py`); never an `__init__.py`, which
  runs only as its package's, whatever its first line;
- a top-level module: one of a run folder (the top folder, a script's
  folder, the folder a README, shell script or Makefile runs Python in:
  `cd src; python -m train`) that another file of that folder, not its
  `__init__.py`, imports by its name (`import datasets`, `from datasets
  import x`);
- a package's module: an `__init__.py`; a module imported with its
  package's name (`import baseline.lstm`, `from baseline import lstm`,
  `from models.net import x` wherever models/ is), or relatively (`from .
  import lstm`, `from .lstm import x`); and a sibling that a package's
  module imports by its name, in code or in a string it execs (`exec('from
  convsp import *')`, also `exec('from %s import *' % name)` in a `for name
  in ['convsp', ...]:` loop), as Python 2 found it beside the importer;
- neither: a module of a package that no file of the repository imports
  (nor any in the ways above): how it runs is not known, so its imports
  stay and the report says what either way needs.  A test.py that a README
  runs as `python test.py` is a script; one that nothing names is not
  known, and never taken for a package's module.

Imports are read with Python's parser where the file parses as Python 3,
and from each line's `import`/`from` statement in Python 2's files."""

import ast
import os
import re

# How a file whose imports stay runs (top_level_modules' values; py2.py
# says why in the report).
SCRIPT, TOP_LEVEL, UNKNOWN = 'script', 'top-level module', 'not known'

_IMPORT = re.compile(r'^[ \t]*(?:import[ \t]+(?P<names>[\w., \t]+)|from[ \t]+(?P<dots>\.*)[ \t]*'
                     r'(?P<module>[\w.]*)[ \t]+import[ \t]+(?P<what>\([^)]*\)|[\w., \t*]+))',
                     re.M)
# exec('from x import *') and Python 2's `exec "from x import *"`, a literal.
_EXEC_LITERAL = re.compile(r'\bexec\b[ \t(]*[rRuU]?([\'"])[ \t]*((?:from|import)[ \t][^\'"\n]*)\1')
# for NAME in ['a', 'b']: ... exec('from %s import *' % NAME)
_EXEC_LOOP = re.compile(r'^([ \t]*)for[ \t]+(\w+)[ \t]+in[ \t]*[\[(]([^\])]*)[\])][ \t]*:'
                        r'(?P<body>(?:[^\n]*\n?(?:\1[ \t]+[^\n]*\n?)*))', re.M)
_MAIN = re.compile(r'^if\s+__name__\s*==\s*[\'"]__main__[\'"]\s*:', re.M)
# `[cd DIR &&|;] python[3][.x] [options] FILE.py` or `... -m MODULE`.
_COMMAND = re.compile(r'(?:\bcd\s+(?P<cd>[\w./-]+)\s*(?:&&|;)\s*)?'
                      r'\bpython[\d.]*\s+(?:-[A-Za-ln-z]\w*\s+)*'
                      r'(?:(?P<file>[\w./-]+\.py)\b|-m\s+[\w.]+)')


def top_level_modules(entries, base):
    """{absolute path: SCRIPT, TOP_LEVEL or UNKNOWN} for the Python files
    whose implicit relative imports stay (see the module's docstring),
    among entries ((path, relative path, kind, text) of the files port
    reads, kinds as port/__init__.py's: 'py', 'sh', 'make', 'doc'...) under
    the folder base.  A file missing here is a package's module, or in no
    package (where no import is relative)."""
    base = os.path.abspath(base)
    files = {os.path.abspath(path): text for path, _, kind, text in entries if kind == 'py'}
    siblings, packaged = {}, {p for p in files if os.path.basename(p) == '__init__.py'}
    for path, text in files.items():  # siblings: path -> the files it imports by their name
        siblings[path], of_package = _imported(path, text, files)
        packaged |= of_package
    packaged = _with_package(packaged, siblings)
    # A `#!` line alone does not make a module a script where the repository imports it
    # with its package (a habit of some 2018 code: every module of a package starts so).
    folders, named = _run_folders(entries, base, packaged)
    found = {path: SCRIPT for path, text in files.items()
             if os.path.basename(path) != '__init__.py' and (
                 _MAIN.search(text) or path in named or (
                     text.startswith('#!') and path not in packaged))}
    for path in files:
        if os.path.dirname(path) in folders and os.path.basename(path) != '__init__.py':
            for target in siblings[path]:
                found.setdefault(target, TOP_LEVEL)
    found.update({path: SCRIPT for path in files
                  if os.path.dirname(path) == base and path not in found})
    for path in files:
        if path not in found and path not in packaged and os.path.isfile(
                os.path.join(os.path.dirname(path), '__init__.py')):
            found[path] = UNKNOWN
    return found


def _with_package(packaged, siblings):
    """packaged (files run as their package's modules) with the siblings
    those import by their name, and theirs, as Python 2 found them."""
    packaged = set(packaged)
    learned = True
    while learned:
        learned = False
        for path in sorted(packaged):
            new = siblings.get(path, set()) - packaged
            packaged |= new
            learned |= bool(new)
    return packaged


def _imported(path, text, files):
    """(the files the file at path imports by their name beside it, those
    it imports as modules of a package) among files."""
    folder = os.path.dirname(path)
    beside, of_package = set(), set()

    def module(parts, at):
        """The file of the module parts (a list of names) under folder at."""
        base = os.path.join(at, *parts)
        return next((p for p in (base + '.py', os.path.join(base, '__init__.py')) if p in files),
                    None)

    for level, name, what in _statements(text):
        parts = name.split('.') if name else []
        if level:
            at = folder
            for _ in range(level - 1):
                at = os.path.dirname(at)
        elif parts and module(parts[:1], folder):
            at = folder  # beside the importer: as Python 2 found it, or on sys.path
            if os.path.isfile(os.path.join(folder, '__init__.py')):
                beside.add(module(parts[:1], folder))
        else:
            at = _package_root(parts + what[:1], files)
        if at is None:
            continue
        targets = [module(parts[:i], at) for i in range(max(2 - bool(level), 1), len(parts) + 1)]
        targets += [module(parts + [n], at) for n in what]
        of_package |= {t for t in targets if t is not None}
    return beside, of_package


def _package_root(parts, files):
    """The folder under which the dotted name parts (two or more) is a
    package's module of the repository, where only one folder is."""
    if len(parts) < 2:
        return None
    tail = os.sep + os.path.join(*parts)
    roots = {p[:-len(end)] for p in files for end in (tail + '.py', tail + os.sep + '__init__.py')
             if p.endswith(end)}
    return roots.pop() if len(roots) == 1 else None


def _statements(text):
    """[(level, module, [names imported from it])] of a file's imports, in
    code and in strings it execs: by Python's parser where the file parses
    as Python 3, else line by line."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return _lines(text)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(0, a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or '', [a.name for a in node.names]))
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(
                node.iter, (ast.List, ast.Tuple)):
            values = [e.value for e in node.iter.elts if isinstance(e, ast.Constant)]
            for call in ast.walk(node):
                template = _exec_template(call, node.target.id)
                if template and len(values) == len(node.iter.elts) and all(
                        isinstance(v, str) for v in values):
                    found += [s for v in values for s in _lines(_format(template, v))]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == 'exec' and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            found += _lines(node.args[0].value)
    return found


def _exec_template(node, name):
    """The string of `exec('...' % name)` when node is that call."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == 'exec' and node.args and isinstance(node.args[0], ast.BinOp) and \
            isinstance(node.args[0].op, ast.Mod) and isinstance(node.args[0].left, ast.Constant) \
            and isinstance(node.args[0].right, ast.Name) and node.args[0].right.id == name:
        return node.args[0].left.value if isinstance(node.args[0].left.value, str) else None
    return None


def _format(template, value):
    try:
        return template % value
    except (TypeError, ValueError):
        return ''


def _lines(text):
    """_statements() of a text Python 3 cannot parse: each line's import
    statement, exec'd literal, and exec'd template in a loop over literals."""
    found = []
    for match in _IMPORT.finditer(text):
        if match.group('names'):
            found += [(0, n.split()[0], []) for n in match.group('names').split(',')
                      if n.split()]
        else:
            what = match.group('what').strip('()')
            found.append((len(match.group('dots')), match.group('module'),
                          [n.split()[0] for n in what.replace('\\', ' ').split(',')
                           if n.split() and n.split()[0] != '*']))
    for match in _EXEC_LITERAL.finditer(text):
        found += _lines(match.group(2))
    for loop in _EXEC_LOOP.finditer(text):
        values = re.findall(r'[rRuU]?([\'"])(\w+)\1', loop.group(3))
        inner = re.search(r'\bexec\b[ \t(]*[rRuU]?([\'"])((?:from|import)[ \t][^\'"\n]*)\1'
                          r'[ \t]*%%[ \t]*%s\b' % re.escape(loop.group(2)), loop.group('body'))
        if inner and values:
            found += [s for _, v in values for s in _lines(_format(inner.group(2), v))]
    return found


def _run_folders(entries, base, packaged):
    """(the absolute paths of the folders scripts run from, those of the
    scripts the commands name); packaged: the files run as their package's
    modules, whose `#!` line does not make them scripts."""
    base = os.path.abspath(base)
    folders, scripts = {base}, set()
    python = [rel for _, rel, kind, _ in entries if kind == 'py']
    for path, rel, kind, text in entries:
        if kind == 'py' and (_MAIN.search(text) or text.startswith('#!') and
                             os.path.abspath(path) not in packaged):
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
