"""Python 2 code run as it is, for `python -m thffi run`: the
repository's modules (the .py files under the folder the step runs in,
THFFI_RUN_ROOT) and the script named on the command line are converted
as they are imported or run, by port's own rules for one file
(port/pyversion.py decides, port/py2.py converts, as `python -m thffi
port` converts files), in memory: the repository's files stay byte for
byte.  Each file converted is said once a run on stderr.

- A file is converted when pyversion.py finds it Python 2 (it does not
  compile as Python 3, or uses what only Python 2 had), and a package's
  module of Python 3 whose import names a module beside it (or that execs
  or __import__s one by a name known as it runs), where Python 2's implicit
  relative imports apply: a folder of Python 2 code, or a package not
  written for Python 3's imports (no module of its top-level package's tree
  imports relatively or asks for absolute_import: _python3_package), and
  the module does not ask for absolute_import itself, as port converts
  them.  In a module imported as part of its package
  (`rowpool.layers`, or rowpool's `__init__.py`) an import of a module
  beside it (`import helper`, `from layers import *`, `exec('from convsp
  import *')`) becomes explicit: Python 2 found the package's own module
  first, and port writes it so (`from . import helper`).  How the module
  runs is known here, as it is imported: a top-level module, or the
  script, keeps its imports (its folder is on sys.path), wherever port
  would have to guess.  A string a package's module execs whose text is
  known only when it runs (`exec('from %s import *' % name)`) has its
  imports of the package's own modules made explicit then
  (py2.explicit_imports: __thffi_imports__, a global of the module).
- In a Python 2 module (without `from __future__ import division`) each
  `/` is Python 2's, decided by the operands as it runs: floor division of
  two integers, else true division (thffi/runtime/python2.py's old_div, a builtin
  the run installs).
- What the conversion gives is cached by content hash (the file's bytes,
  its path, its folder's names, how it is imported, port's rules, this
  Python) in thffi's cache (builder/compile.py's cache_root(), `python2/`),
  the compiled code of a converted file and a mark for one that runs as it
  is: a module of Python 3 costs reading it and one small file more, and
  port's modules (fissix) are imported only for a file not seen before.
- The script named on the command line (`python train.py`, `python
  setup.py build`), when converted, runs in the same process started
  again (exec) with Python's own options, as Python runs a script: the
  converted code as __main__, its folder first on sys.path.

A module gets this loader through a path hook for the folders under the
root (not thffi's own, not site-packages): every other module loads as
before.  This file is loaded by path by the sitecustomize run/__init__.py
writes (not as part of thffi) and imports only the standard library at
start."""

import importlib.machinery
import importlib.util
import os
import re
import sys

# The environment variable naming the folder the step runs in (run's main()).
ROOT = 'THFFI_RUN_ROOT'
# The global a converted package's module calls on a string it execs.
IMPORTS = '__thffi_imports__'
# The builtin a converted Python 2 module's `/` calls (thffi/runtime/python2.py's old_div).
OLD_DIV = '__thffi_old_div__'
# What a new process runs for a converted script: run_main() below.
_RUN_MAIN = "import sys; sys.modules['_thffi_run_python2'].run_main()"
# The files of port's rules: the cache's key holds their state.
_RULES = (('port', 'pyversion.py'), ('port', 'py2.py'), ('port', 'running.py'),
          ('toolchain', 'pyremoved.py'), ('run', 'python2.py'))
_NAMED = re.compile(r'\b(?:from|import)\s+(\w+)')
# An import whose module is known only as it runs (_wrap_exec).
_DYNAMIC = re.compile(r'\bexec\b|\b__import__\s*\(')
_STATE = {}  # root, cache, package, state (the run's folder), stamp


class Converted:
    """A file converted: code (compiled from the converted text, with the
    file's own path), wraps (whether it calls IMPORTS), said (the line on
    stderr)."""

    def __init__(self, code, wraps, said):
        self.code, self.wraps, self.said = code, wraps, said


def install(root, cache, package, state=None):
    """Converts the Python 2 code under root as it is imported (the path
    hook) and, when the command line names a script that needs it, runs it
    converted (exec: this function does not return then).  cache: the
    folder of the conversions; package: thffi's own folder (never
    converted); state: the run's folder (where what was said once is
    marked), or None."""
    import builtins
    root = os.path.abspath(root)
    _STATE.update(root=root, cache=cache, package=os.path.abspath(package), state=state)
    division = importlib.util.spec_from_file_location('_thffi_python2_division', os.path.join(
        package, 'runtime', 'python2.py'))
    module = importlib.util.module_from_spec(division)
    division.loader.exec_module(module)
    setattr(builtins, OLD_DIV, module.old_div)
    sys.path_hooks.insert(0, _path_hook)
    for path in list(sys.path_importer_cache):  # finders made before the hook
        if _ours(path):
            del sys.path_importer_cache[path]
    script = _script()
    if script is not None and converted(script, False) is not None:
        argv = sys.orig_argv[:len(sys.orig_argv) - len(sys.argv)] + ['-c', _RUN_MAIN] + sys.argv
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, argv)


def _script():
    """The absolute path of the script the command line names (`python
    [options] train.py args`), or None (-c, -m, stdin, a folder)."""
    if not sys.argv or not sys.argv[0] or not hasattr(sys, 'orig_argv'):
        return None
    start = len(sys.orig_argv) - len(sys.argv)
    if start < 1 or sys.orig_argv[start] != sys.argv[0] or not os.path.isfile(sys.argv[0]):
        return None
    return os.path.abspath(sys.argv[0])


def run_main():
    """What the process install() starts runs (`python -c _RUN_MAIN
    script args`): the script, converted, as Python runs a script."""
    del sys.argv[0]
    script = os.path.abspath(sys.argv[0])
    found = converted(script, False)
    if sys.path and sys.path[0] == '':  # -c's; none where -P (safe_path) was given
        sys.path[0] = os.path.dirname(os.path.realpath(script))
    main = sys.modules['__main__']
    main.__file__, main.__cached__ = script, None
    main.__loader__ = importlib.machinery.SourceFileLoader('__main__', script)
    gate = sys.modules.get('_thffi_run_cuda_gate')  # the build's question, asked of it
    if gate is not None:
        gate.watch_script(script)
    if found is None:  # changed since the first process converted it: as it is now
        with open(script, 'rb') as f:
            found = Converted(compile(f.read(), script, 'exec', dont_inherit=True), False, '')
    exec(found.code, main.__dict__)


def _ours(path):
    """Whether the folder path (a sys.path entry) holds modules of the
    repository: under the root, not thffi's own, not installed packages."""
    folder = os.path.abspath(path or '.')
    if not os.path.isdir(folder) or os.path.commonpath([folder, _STATE['root']]) != \
            _STATE['root'] or os.path.commonpath([folder, _STATE['package']]) == \
            _STATE['package']:
        return False
    parts = folder.split(os.sep)
    return 'site-packages' not in parts and 'dist-packages' not in parts


def _path_hook(path):
    if not _ours(path):
        raise ImportError('not a folder of the repository')
    return importlib.machinery.FileFinder(
        path, (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
        (Loader, importlib.machinery.SOURCE_SUFFIXES),
        (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES))


class Loader(importlib.machinery.SourceFileLoader):
    """A module of the repository: converted where port's rules convert it
    (see the module's docstring), else as Python 3 loads it (its
    __pycache__ too)."""

    def _converted(self, fullname):
        return converted(self.get_filename(fullname),
                         self.is_package(fullname) or '.' in fullname)

    def get_code(self, fullname):
        found = self._converted(fullname)
        return super().get_code(fullname) if found is None else found.code

    def exec_module(self, module):
        found = self._converted(module.__name__)
        if found is None:
            code = super().get_code(module.__name__)
        else:
            code = found.code
            if found.wraps:
                module.__dict__[IMPORTS] = _Imports(self.get_filename(module.__name__))
        exec(code, module.__dict__)


def converted(path, package):
    """The Converted of the file at path (imported as part of its package:
    package), from the cache or converted now; None where it runs as it
    is.  Says once what was converted.  What was found for the file is
    also noted in its folder's index, by its size and time as Python's
    __pycache__ notes them: a file seen before as it is now is not read."""
    import hashlib
    folder, name = os.path.split(path)
    stat = os.stat(path)
    # Python 2's implicit relative imports: a package's module of a folder
    # of Python 2 code, or of a package not written for Python 3's imports.
    implicit = bool(package) and (_python2_folder(folder) or not _python3_package(folder))
    seen = (stat.st_size, stat.st_mtime_ns, bool(package),
            _listing(folder) if package else '', implicit)
    index = _index(folder)
    record = index.get(name)
    found = _MISSING
    if record is not None and tuple(record[:-1]) == seen:
        digest = record[-1]
        found = _entry(digest) if digest else None
    if found is _MISSING:
        with open(path, 'rb') as f:
            data = f.read()
        key = '\0'.join((_stamp(), path, seen[3], str(implicit)))
        digest = hashlib.sha256(key.encode('utf-8', 'surrogateescape') + b'\0' +
                                data).hexdigest()
        found = _entry(digest)
        if found is _MISSING:
            found = _convert(path, data, package, implicit)
            _store(_entry_path(digest), b'=' if found is None else _dumps(found))
        index[name] = seen + (digest if found is not None else '',)
        _store(_index_path(folder), _dumps(index))
    if found is not None:
        _say_once(digest, found.said)
    return found


_MISSING = object()


def _dumps(value):
    import marshal
    if isinstance(value, Converted):
        value = (value.code, value.wraps, value.said)
    return marshal.dumps(value)


def _entry_path(digest):
    return os.path.join(_STATE['cache'], digest[:2], digest[2:])


def _used(path):
    """Marks a cache file used now: the cache's limit evicts the least
    recently used (thffi/_cache.py, which this file, loaded alone, cannot
    import)."""
    try:
        os.utime(path)
    except OSError:
        pass


def _entry(digest):
    """The Converted the cache holds under digest, None for a file that
    runs as it is, _MISSING where it holds nothing (or what cannot be read)."""
    import marshal
    try:
        with open(_entry_path(digest), 'rb') as f:
            stored = f.read()
        _used(_entry_path(digest))
        return None if stored == b'=' else Converted(*marshal.loads(stored))
    except (OSError, EOFError, ValueError, TypeError):
        return _MISSING


def _index_path(folder):
    import hashlib
    key = hashlib.sha256(('%s\0%s' % (_stamp(), folder)).encode('utf-8', 'surrogateescape'))
    return os.path.join(_STATE['cache'], 'index', key.hexdigest()[:32])


def _index(folder):
    """{file name: (size, mtime_ns, package, listing, beside Python 2,
    digest or '')} of the files of folder seen before (at this stamp), and
    '\0python2': their verdicts (_python2_folder): read once a process."""
    import marshal
    indexes = _STATE.setdefault('indexes', {})
    if folder not in indexes:
        try:
            with open(_index_path(folder), 'rb') as f:
                indexes[folder] = marshal.loads(f.read())
            _used(_index_path(folder))
        except (OSError, EOFError, ValueError, TypeError):
            indexes[folder] = {}
    return indexes[folder]


def _stamp():
    """What the conversion depends on besides the file: this Python's
    bytecode, and the state of port's rules' files."""
    if 'stamp' not in _STATE:
        thffi = _STATE['package']
        stats = [os.stat(os.path.join(thffi, *rule)) for rule in _RULES]
        _STATE['stamp'] = '%s %s' % (importlib.util.MAGIC_NUMBER.hex(), ' '.join(
            '%d:%d' % (s.st_size, s.st_mtime_ns) for s in stats))
    return _STATE['stamp']


def _listing(folder):
    """The names in folder (where a package's module finds its siblings),
    hashed: read again only when the folder changed."""
    import hashlib
    changed = os.stat(folder).st_mtime_ns
    known = _STATE.setdefault('listings', {}).get(folder)
    if known is None or known[0] != changed:
        names = '\0'.join(sorted(os.listdir(folder))).encode('utf-8', 'surrogateescape')
        known = _STATE['listings'][folder] = changed, hashlib.sha256(names).hexdigest()
    return known[1]


def _store(entry, data):
    """Writes entry whole, then renamed (processes may convert at once);
    where the cache cannot be written the conversion is redone next time."""
    try:
        os.makedirs(os.path.dirname(entry), exist_ok=True)
        partial = '%s.%d' % (entry, os.getpid())
        with open(partial, 'wb') as f:
            f.write(data)
        os.replace(partial, entry)
    except OSError:
        pass


def _convert(path, data, package, implicit=False):
    """Converted for a file's bytes, by port's rules, or None.  implicit:
    the file is a package's module that Python 2's implicit relative
    imports apply to (a folder of Python 2 code, or a package not written
    for Python 3's imports: _python3_package)."""
    import ast
    try:
        text = importlib.util.decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None  # Python's own error says what is wrong
    from thffi.port import pyversion
    verdict = pyversion.decide(text)
    # A module of Python 3 has its imports of its package's own modules
    # made explicit where Python 2 ran it with implicit relative imports
    # (whatever the module's syntax), unless it asked for absolute imports:
    # those it names (static or exec'd literals), and those it execs or
    # __import__s by a name known as it runs (_wrap_exec).
    relative = implicit and not pyversion.ABSOLUTE_IMPORT.search(text) and (
        _names_a_sibling(text, path) or bool(_DYNAMIC.search(text)))
    if verdict.kind == pyversion.NEITHER or verdict.kind == pyversion.PYTHON3 and not relative:
        return None
    from thffi.port import py2
    rel = os.path.relpath(path, _STATE['root'])
    new, _, verdict = py2.to_python3(text, rel, filename=path, verdict=verdict,
                                     package=bool(package), implicit=relative)
    tree = ast.parse(new, path)
    wraps_line = _wrap_exec(tree) if relative else 0
    wraps = bool(wraps_line)
    if new == text and not wraps:
        return None
    if verdict.kind == pyversion.PYTHON2 and not _FUTURE_DIVISION.search(text):
        _old_division(tree)
    code = compile(tree, path, 'exec', dont_inherit=True)
    if verdict.kind == pyversion.PYTHON2:
        said = '%s is Python 2 (line %d: %s)' % (rel, verdict.line, verdict.why)
    else:
        line = next((i + 1 for i, (a, b) in enumerate(zip(text.splitlines() + [''],
                                                          new.splitlines() + [''])) if a != b),
                    wraps_line)
        said = ('%s: its imports of its package\'s own modules (line %d) find them first, as '
                'in Python 2' % (rel, line))
    said += (': runs as `python -m thffi port` converts it, in memory (the file stays as it '
             'is)')
    return Converted(code, wraps, said)


def _python2_folder(folder):
    """Whether a module of folder is Python 2 (port/pyversion.py's
    verdict)."""
    return _folder_kinds(folder)[0]


def _python3_package(folder):
    """Whether the package folder belongs to was written for Python 3's
    imports: a module of it, of a package above it or of one below them
    (the whole tree of its top-level package) asks for absolute_import or
    imports relatively (pyversion.python3_imports)."""
    top = folder
    while os.path.isfile(os.path.join(os.path.dirname(top), '__init__.py')):
        top = os.path.dirname(top)
    known = _STATE.setdefault('python3_packages', {})
    if top not in known:
        found = False
        for at, dirs, _ in os.walk(top):
            dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(at, d, '__init__.py')))
            if _folder_kinds(at)[1]:
                found = True
                break
        known[top] = found
    return known[top]


def _folder_kinds(folder):
    """(whether a module of folder is Python 2, whether one asks for Python
    3's imports), once a process a folder as it is; each file's verdicts
    kept in the folder's index by its size and time (under the key
    '\0kinds'), so that a file seen before as it is now is not read."""
    changed = os.stat(folder).st_mtime_ns
    known = _STATE.setdefault('folder_kinds', {}).get(folder)
    if known is not None and known[0] == changed:
        return known[1]
    index = _index(folder)
    kinds = dict(index.get('\0kinds', {}))
    for entry in list(kinds):
        if not os.path.isfile(os.path.join(folder, entry)):
            del kinds[entry]
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if not entry.endswith('.py') or not os.path.isfile(path):
            continue
        stat = os.stat(path)
        record = kinds.get(entry)
        if record is None or tuple(record[:2]) != (stat.st_size, stat.st_mtime_ns):
            kinds[entry] = (stat.st_size, stat.st_mtime_ns) + _kinds(path)
    if kinds != index.get('\0kinds'):
        index['\0kinds'] = kinds
        _store(_index_path(folder), _dumps(index))
    found = (any(k[2] for k in kinds.values()), any(k[3] for k in kinds.values()))
    _STATE['folder_kinds'][folder] = changed, found
    return found


def _kinds(path):
    """(Python 2, asks for Python 3's imports) of the file at path."""
    from thffi.port import pyversion
    try:
        with open(path, 'rb') as f:
            text = importlib.util.decode_source(f.read())
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        return False, False
    return pyversion.decide(text).kind == pyversion.PYTHON2, pyversion.python3_imports(text)


def _names_a_sibling(text, path):
    """Whether an `import X`/`from X` in the text (in code, strings or
    comments alike: only ever more than the imports) names a file or
    folder X beside path: else no import of it is relative."""
    beside = {entry.partition('.')[0] for entry in os.listdir(os.path.dirname(path))}
    return not beside.isdisjoint(_NAMED.findall(text))


_FUTURE_DIVISION = re.compile(r'^from[ \t]+__future__[ \t]+import[ \t]+[^#\n]*\bdivision\b', re.M)


def _old_division(tree):
    """Makes each `a / b` and `x /= b` of a Python 2 module's tree
    Python 2's: OLD_DIV(a, b), and x = OLD_DIV(x, b) (its target read
    again, as the augmented assignment read it)."""
    import ast

    def call(left, right, at):
        return ast.copy_location(ast.Call(ast.Name(OLD_DIV, ast.Load()), [left, right], []), at)

    class Divisions(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            return call(node.left, node.right, node) if isinstance(node.op, ast.Div) else node

        def visit_AugAssign(self, node):
            self.generic_visit(node)
            if not isinstance(node.op, ast.Div):
                return node
            read = ast.fix_missing_locations(ast.copy_location(_loaded(node.target), node))
            return ast.copy_location(ast.Assign([node.target], call(read, node.value, node)),
                                     node)

    Divisions().visit(tree)
    ast.fix_missing_locations(tree)


def _loaded(target):
    """An assignment's target as an expression that reads it."""
    import ast
    import copy
    read = copy.deepcopy(target)
    for node in ast.walk(read):
        if hasattr(node, 'ctx'):
            node.ctx = ast.Load()
    return read


def _wrap_exec(tree):
    """Makes each exec(x) of the tree, x not a literal, exec(IMPORTS(x)),
    and each __import__(name, globals, ...) given the importer's globals
    and no level IMPORTS.imported(name, globals, ...) (Python 2 looked
    beside the importer first then): the line of the first, 0 where
    there was none."""
    import ast

    class Wrap(ast.NodeTransformer):
        line = 0

        def visit_Call(self, node):
            self.generic_visit(node)
            if not isinstance(node.func, ast.Name):
                return node
            if node.func.id == 'exec' and node.args and \
                    not isinstance(node.args[0], ast.Constant):
                node.args[0] = ast.copy_location(ast.Call(ast.Name(IMPORTS, ast.Load()),
                                                          [node.args[0]], []), node.args[0])
            elif node.func.id == '__import__' and 2 <= len(node.args) <= 4 and \
                    not node.keywords:
                node.func = ast.copy_location(ast.Attribute(ast.Name(IMPORTS, ast.Load()),
                                                            'imported', ast.Load()), node.func)
            else:
                return node
            Wrap.line = Wrap.line or node.lineno
            return node

    Wrap().visit(tree)
    ast.fix_missing_locations(tree)
    return Wrap.line


class _Imports:
    """IMPORTS of a converted package's module (its file: path): a string
    it execs, with its imports of the package's own modules made explicit
    (py2.explicit_imports), said once a run for each string changed."""

    def __init__(self, path):
        self.path, self.done = path, {}

    def __call__(self, text):
        if not isinstance(text, str) or not _NAMED.search(text):
            return text
        if text not in self.done:
            from thffi.port import py2
            self.done[text] = new = py2.explicit_imports(text, self.path)
            if new != text:
                line = sys._getframe(1).f_lineno
                _say_once('%s:%d:%s' % (self.path, line, text), '%s:%d: exec(%r) imports this '
                          'package\'s own module, as Python 2 found it: runs as exec(%r)' % (
                              os.path.relpath(self.path, _STATE['root']), line, text, new))
        return self.done[text]

    def imported(self, name, globals=None, locals=None, fromlist=()):
        """__import__(name, globals, locals, fromlist) as Python 2 ran it
        (its level -1): the package's own module where one named so is
        beside the file, else the top-level one."""
        import builtins
        first = name.partition('.')[0]
        folder = os.path.dirname(self.path)
        beside = os.path.isfile(os.path.join(folder, first, '__init__.py')) or any(
            os.path.isfile(os.path.join(folder, first + suffix))
            for suffix in importlib.machinery.all_suffixes())
        return builtins.__import__(name, globals, locals, fromlist, 1 if beside else 0)


def _say_once(key, text):
    """Says text on stderr, once a run (marked in the run's folder; once a
    process outside one)."""
    import hashlib
    marks = _STATE['state'] and os.path.join(_STATE['state'], 'said')
    if marks:
        try:
            os.makedirs(marks, exist_ok=True)
            name = hashlib.sha256(key.encode('utf-8', 'surrogateescape')).hexdigest()[:32]
            os.close(os.open(os.path.join(marks, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        except OSError:
            pass
    elif key in _STATE.setdefault('said', set()):
        return
    _STATE.setdefault('said', set()).add(key)
    sys.stderr.write('thffi run: %s\n' % text)
