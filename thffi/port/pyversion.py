"""Which Python one file was written for, for `python -m thffi port`:
decided per file, from that file's text alone, by Python's own parser (so
it can run in a worker process, and one stray script never decides for the
others).

- Python 3: the file parses as Python 3 and uses no name only Python 2 had
  outside a guard.  It runs today: port changes only what Python 3.10+,
  NumPy 2 and today's PyTorch removed (not its `/`, `map()`, `d.keys()`).
- Python 2: it does not parse as Python 3 but does as Python 2 (print
  statements, `except E, e`...), or it uses, outside a guard, what only
  Python 2 had: a builtin it does not bind itself (xrange, unicode, long,
  basestring, raw_input, reduce...), a dict method (d.iteritems(),
  d.has_key(k)...), `print >>f`, sys.maxint, an import of a module Python 3
  renamed (cPickle, StringIO, Queue...).  The verdict names the first line
  that shows it.  Only these files go through 2to3's fixers (py2.py).
- Neither: it parses neither as Python 3 nor as Python 2: "does not parse
  (line N: ...)", nothing changed.

A guard is code written for both Pythons, which stays as it is: what a
`try:` with an `except` of ImportError, ModuleNotFoundError, NameError or
AttributeError holds (not a bare `except:`, which swallows the
AttributeError of a Python 2 method as well), and an `if` (or `x if c else
y`) whose test reads sys.version_info, sys.version, six.PY2/PY3,
hasattr(...), or a name the file assigns from those (PY2 = sys.version_info
[0] == 2)."""

import ast
import functools
import re
from dataclasses import dataclass

# Method names only Python 2's dict had.
PYTHON2_METHODS = {'iteritems', 'itervalues', 'iterkeys', 'viewitems', 'viewvalues',
                   'viewkeys', 'has_key'}
# Builtins only Python 2 had: a use of one the file does not bind is Python 2.
PYTHON2_BUILTINS = {'xrange', 'unicode', 'unichr', 'basestring', 'long', 'raw_input',
                    'reduce', 'intern', 'apply', 'execfile', 'cmp', 'file', 'StandardError'}
# Modules only Python 2 had (Python 3 renamed them).
PYTHON2_MODULES = {'cPickle', 'cStringIO', 'StringIO', 'Queue', 'ConfigParser', 'urllib2',
                   'urlparse', 'httplib', 'HTMLParser', '__builtin__', 'copy_reg',
                   'SocketServer', 'Tkinter', 'tkMessageBox', 'commands', 'cookielib',
                   'xmlrpclib', 'BaseHTTPServer', 'SimpleHTTPServer', 'thread'}
# The exceptions a `try:` written for both Pythons catches.
_GUARD_EXCEPTIONS = {'ImportError', 'ModuleNotFoundError', 'NameError', 'AttributeError'}
# What the test of an `if` written for both Pythons reads.
_VERSION_TEST = re.compile(r'\bsys\.version(?:_info)?\b|\bsix\.PY\d+\b|\bhasattr\s*\('
                           r'|\bplatform\.python_version')

PYTHON3, PYTHON2, NEITHER = 'Python 3', 'Python 2', 'neither'


@dataclass(frozen=True)
class Verdict:
    """kind: PYTHON3, PYTHON2 or NEITHER; line: the first line that shows
    it (0 for PYTHON3); why: what that line holds; parses: whether the file
    parses as Python 3 (a Python 2 file may, if only its names are Python
    2's)."""
    kind: str
    line: int = 0
    why: str = ''
    parses: bool = True

    def __str__(self):
        if self.kind == NEITHER:
            return 'does not parse (line %d: %s)' % (self.line, self.why)
        if self.kind == PYTHON2:
            return 'Python 2 (line %d: %s)' % (self.line, self.why)
        return 'Python 3'


def is_guard_test(text, guard_names=frozenset()):
    """Whether an `if`'s test (its source text, as the parser delimits it)
    tells Python 2 from Python 3, or asks whether a name exists."""
    return bool(_VERSION_TEST.search(text)) or any(
        re.search(r'\b%s\b' % re.escape(name), text) for name in guard_names)


def is_guard_handler(names):
    """Whether a try's except clauses (the exception names each catches;
    None for a bare `except:`) make it a try written for both Pythons."""
    return any(n in _GUARD_EXCEPTIONS for n in names)


# A module asking for Python 3's absolute imports under Python 2.
ABSOLUTE_IMPORT = re.compile(
    r'^from[ \t]+__future__[ \t]+import[ \t]+[^#\n]*\babsolute_import\b', re.M)
# What may be an explicit relative import (`from . import x`, `from .m import y`).
_EXPLICIT_RELATIVE = re.compile(r'^[ \t]*from[ \t]+\.', re.M)


def python3_imports(source):
    """Whether a file asks for Python 3's imports: `from __future__ import
    absolute_import`, or an explicit relative import (`from . import x`),
    found by Python's parser (Python 2's syntax, which Python 3 cannot
    parse, by the statement's line).  A package holding such a file was
    written for Python 3's imports: its `import x` means the top-level x."""
    if ABSOLUTE_IMPORT.search(source):
        return True
    if not _EXPLICIT_RELATIVE.search(source):
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return True
    return any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))


def decide(source):
    """The Verdict on one file's text (see the module's docstring)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        line, message = exc.lineno or 0, exc.msg
        if parses_as_python2(source):
            return Verdict(PYTHON2, line, '%s, a SyntaxError in Python 3' % message, False)
        return Verdict(NEITHER, line, message, False)
    except ValueError as exc:  # a NUL byte
        return Verdict(NEITHER, 0, str(exc), False)
    if not _may_show_python2(source):
        return Verdict(PYTHON3)
    evidence = _python2_names(tree, _guard_names(tree), _bound(tree))
    if evidence:
        return Verdict(PYTHON2, evidence[0], evidence[1], True)
    return Verdict(PYTHON3)


_WORD = re.compile(r'[A-Za-z_][A-Za-z_0-9]*')
_PYTHON2_WORDS = PYTHON2_METHODS | PYTHON2_BUILTINS | PYTHON2_MODULES | {'maxint'}


def _may_show_python2(source):
    """Whether the text holds a word _python2_names looks for (the tree
    holds no name its text does not): a file holding none is Python 3
    without a walk of its tree."""
    words = set(_WORD.findall(source))
    return not words.isdisjoint(_PYTHON2_WORDS) or ('print' in words and '>>' in source)


def _bound(tree):
    """The names the file binds: assigned, defined, imported, parameters."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split('.')[0])
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return bound


def _guard_names(tree):
    """The names the file assigns a version test (PY2 = sys.version_info[0]
    == 2, PY3 = six.PY3)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and is_guard_test(ast.unparse(node.value)):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return frozenset(names)


def _guarded(tree, guard_names):
    """id() of every node inside a guard."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and is_guard_handler(
                [None if h.type is None else n for h in node.handlers
                 for n in (_exception_names(h.type) if h.type is not None else [None])]):
            inside |= {id(n) for n in ast.walk(node)}
        elif isinstance(node, (ast.If, ast.IfExp)) and is_guard_test(ast.unparse(node.test),
                                                                     guard_names):
            inside |= {id(n) for n in ast.walk(node)}
    return inside


def _exception_names(node):
    """The names an except clause's type names: E, (E1, E2), module.E."""
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return [i.id if isinstance(i, ast.Name) else i.attr if isinstance(i, ast.Attribute)
            else '' for i in items]


def _python2_names(tree, guard_names, bound):
    """(line, what) of the first use of what only Python 2 had outside a
    guard (a builtin not in bound, the names the file binds), or None."""
    guarded = _guarded(tree, guard_names)
    found = []
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, '`import %s`, a module Python 3 renamed' % a.name)
                      for a in node.names if a.name.split('.')[0] in PYTHON2_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module or '').split('.')[0] in PYTHON2_MODULES:
            found.append((node.lineno, '`from %s import`, a module Python 3 renamed'
                          % node.module))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift) and isinstance(
                node.left, ast.Name) and node.left.id == 'print':
            found.append((node.lineno, '`print >>`, a print statement'))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in PYTHON2_METHODS):
            found.append((node.lineno, '`.%s()`, a method only Python 2\'s dict had'
                          % node.func.attr))
        elif (isinstance(node, ast.Attribute) and node.attr == 'maxint' and
              isinstance(node.value, ast.Name) and node.value.id == 'sys'):
            found.append((node.lineno, '`sys.maxint`, which only Python 2 has'))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id in PYTHON2_BUILTINS:
            found.append((node.lineno, '`%s`, which only Python 2 has' % node.id, node.id))
    found = [f for f in found if len(f) == 2 or f[2] not in bound]
    return min(found)[:2] if found else None


def parses_as_python2(source):
    """Whether fissix's Python 2 grammar (print and exec statements) parses
    source."""
    driver = _python2_driver()
    try:
        driver.parse_string(source if source.endswith('\n') else source + '\n')
    except Exception:  # fissix's parser raises ParseError, TokenError, IndentationError
        return False
    return True


@functools.lru_cache(maxsize=1)
def _python2_driver():
    # fissix's grammar is loaded only for a file Python 3 cannot parse.
    from fissix import pygram, pytree
    from fissix.pgen2 import driver
    return driver.Driver(pygram.python_grammar, convert=pytree.convert)
