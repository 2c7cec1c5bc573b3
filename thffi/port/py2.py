"""Python 2 files, for `python -m thffi port`: converted to Python 3 with
2to3's fixers, from fissix (lib2to3's maintained fork, lib2to3 itself being
gone from Python 3.13), one fixer per row of thffi/toolchain/pyremoved.py's
PYTHON2 table; the rest of port then works on the converted text.

A file is Python 2 when it does not compile as Python 3 (print statements,
`except E, e`), or when it uses what only Python 2 had and does not define
it itself: d.iteritems() and the other iter*/view* dict methods,
d.has_key(k), xrange, unicode, basestring, long, raw_input, reduce, `print
>>f`, `import cPickle`...  (a file that binds `xrange = range` for both
Pythons is not).  A repository with more such files than files using what
only Python 3 has (f-strings, print(..., end=...), keyword-only arguments,
annotations, nonlocal, async, `raise ... from`, super() without arguments)
was run by Python 2: its other files are Python 2 too (their `/`,
`d.keys()`, `map()` meant what they did there), but for those using what
only Python 3 has.

Implicit relative imports inside a package (`import _ext`, `from layers
import *`, exec('from convsp import *')) become explicit in Python 2 files
and in any package's `__init__.py` (Python 3 never resolved them there); a
module the build scripts create (create_extension('_ext.my_lib'): the
`_ext` folder beside the script) counts as present before it is built.
Scripts keep theirs (FixLocalImport)."""

import ast
import functools
import os
import re

from fissix import fixer_base, refactor
from fissix.fixer_util import FromImport, String, syms, token
from fissix.fixes import fix_print
from fissix.fixes.fix_import import FixImport, traverse_imports
from fissix.pytree import Leaf, Node

from ..toolchain.pyremoved import PYTHON2
from .report import Finding

# Method names only Python 2's dict had.
_PYTHON2_METHODS = {'iteritems', 'itervalues', 'iterkeys', 'viewitems', 'viewvalues',
                    'viewkeys', 'has_key'}
# Builtins only Python 2 had: a use of one the file does not bind is Python 2.
_PYTHON2_BUILTINS = {'xrange', 'unicode', 'unichr', 'basestring', 'long', 'raw_input',
                     'reduce', 'intern', 'apply', 'execfile', 'cmp', 'file', 'StandardError'}
# Modules only Python 2 had: an import of one outside `try: ... except
# ImportError:` is Python 2.
_PYTHON2_MODULES = {'cPickle', 'cStringIO', 'StringIO', 'Queue', 'ConfigParser', 'urllib2',
                    'urlparse', 'httplib', 'HTMLParser', '__builtin__', 'copy_reg',
                    'SocketServer', 'Tkinter', 'tkMessageBox', 'commands', 'cookielib',
                    'xmlrpclib', 'BaseHTTPServer', 'SimpleHTTPServer', 'thread'}
_ROWS = {row.fix: row for row in PYTHON2}
# The fixers of the rows that make imports of siblings explicit.
_IMPORT_FIXERS = ('fix_local_import', 'fix_exec_import')


def python2_reason(source):
    """Why source is Python 2 ('' when it is not): a SyntaxError under
    Python 3, or a Python 2 name it uses and does not bind."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return '%s at line %s' % (exc.msg, exc.lineno)
    except ValueError:
        return ''
    bound, used = set(), []
    guarded = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try) and any(
        'ImportError' in ast.dump(h.type) for h in t.handlers if h.type is not None)
        for n in ast.walk(t)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in guarded:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                node.module or '']
            gone = next((n for n in names if n in _PYTHON2_MODULES), None)
            if gone:
                return 'import %s at line %d' % (gone, node.lineno)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift) and isinstance(
                node.left, ast.Name) and node.left.id == 'print':
            return 'print >> at line %d' % node.lineno
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                used.append(node)
            else:
                bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split('.')[0])
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _PYTHON2_METHODS):
            return '.%s() at line %d' % (node.func.attr, node.lineno)
    for node in used:
        if node.id in _PYTHON2_BUILTINS and node.id not in bound:
            return '%s at line %d' % (node.id, node.lineno)
    return ''


def python3_only(source):
    """Whether source uses what only Python 3 has (see the module's
    docstring); False when it does not compile."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    print_function = future(source, 'print_function')
    for node in ast.walk(tree):
        if isinstance(node, (ast.JoinedStr, ast.Nonlocal, ast.AsyncFunctionDef, ast.Await,
                             ast.AnnAssign, ast.YieldFrom, ast.NamedExpr)):
            return True
        if isinstance(node, ast.arguments) and (node.kwonlyargs or node.posonlyargs or any(
                a.annotation for a in node.args + node.kwonlyargs)):
            return True
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            return True
        if isinstance(node, ast.Raise) and node.cause is not None:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id == 'super' and not node.args or
                node.func.id == 'print' and node.keywords and not print_function):
            return True
    return False


def future(source, feature):
    """Whether source says `from __future__ import feature`."""
    return re.search(r'^from\s+__future__\s+import\s+[^#\n]*\b%s\b' % feature, source,
                     re.M) is not None


class FixLocalImport(FixImport):
    """2to3's fix_import, which makes an import of a sibling module inside a
    package explicit (`import _ext` -> `from . import _ext`), knowing also
    the modules the build creates (options['built']: absolute paths), and
    with `import a.b as c` written `from .a import b as c` (2to3 writes `from
    . import a.b`, a SyntaxError); `import a.b` is reported.  Not in a
    script (a file with an `if __name__ == '__main__':` block, or one in the
    repository's top folder, options['root']): Python 3 runs it with its own
    folder first on sys.path, where `import sibling` finds the sibling."""

    def start_tree(self, tree, name):
        super().start_tree(tree, name)
        root = self.options.get('root')
        self.skip = self.skip or bool(re.search(
            r'^if\s+__name__\s*==\s*[\'"]__main__[\'"]', str(tree), re.M)) or (
                root is not None and os.path.dirname(os.path.abspath(name)) == root)

    def transform(self, node, results):
        if self.skip or node.type == syms.import_from:
            return super().transform(node, results)
        names = list(traverse_imports(results['imp']))
        local = [self.probably_a_local_import(n) for n in names]
        if not any(local) or not all(local):
            return super().transform(node, results)
        imp = results['imp']
        if imp.type == syms.dotted_as_name and imp.children[0].type == syms.dotted_name:
            dotted, alias = imp.children[0], imp.children[2]
            parts = [leaf.value for leaf in dotted.children if leaf.type == token.NAME]
            new = FromImport('.' + '.'.join(parts[:-1]), [])
            new.children[3].replace(_as_names(parts[-1], alias.value))
            new.prefix = node.prefix
            return new
        if any('.' in n for n in names):
            self.warning(node, 'implicit relative import of a dotted name: write `from .%s '
                         'import %s` and use that name' % tuple(
                             next(n for n in names if '.' in n).rsplit('.', 1)))
            return None
        return super().transform(node, results)

    def probably_a_local_import(self, imp_name):
        if imp_name.startswith('.'):
            return False
        base = os.path.join(os.path.dirname(self.filename), imp_name.split('.', 1)[0])
        if base in self.options.get('built', ()) and os.path.exists(
                os.path.join(os.path.dirname(base), '__init__.py')):
            return True
        return super().probably_a_local_import(imp_name)


def _as_names(name, alias):
    """The ` name as alias` of a `from` import."""
    return Node(syms.import_as_name, [Leaf(token.NAME, name, prefix=' '),
                                      Leaf(token.NAME, 'as', prefix=' '),
                                      Leaf(token.NAME, alias, prefix=' ')])


class FixExecImport(fixer_base.BaseFix):
    """exec('from sibling import *') with a string literal: the import in
    the string made explicit as FixLocalImport makes it in code."""

    BM_compatible = True
    PATTERN = """
    power< 'exec' trailer< '(' (s=STRING | arglist< s=STRING >) ')' > >
    |
    exec_stmt< 'exec' atom< '(' s=STRING ')' > >
    """

    def transform(self, node, results):
        literal = results['s']
        try:
            text = ast.literal_eval(literal.value)
        except (ValueError, SyntaxError):
            return None
        if not isinstance(text, str):
            return None
        inner = _tool(['fix_local_import'], dict(self.options, print_function=True))
        tree = inner.convert(text + '\n', self.filename)
        new = str(tree)[:-1] if tree is not None else text
        if new == text:
            return None
        quote = literal.value.lstrip('rRuUbB')[0]
        literal.replace(String(repr(new) if quote == "'" else '"%s"' % new.replace('"', '\\"'),
                               prefix=literal.prefix))
        return None


def _line(node):
    """The line of node, or of the nearest node around it that has one (a
    node an earlier fixer made has none)."""
    while node is not None:
        line = next((leaf.lineno for leaf in node.leaves() if leaf.lineno), 0)
        if line:
            return line
        node = node.parent
    return 0


class FixPrint(fix_print.FixPrint):
    """2to3's fix_print, leaving `print(x)` of one expression as it is (2to3
    writes print((x)) for anything but a name or literal: the same output)."""

    def transform(self, node, results):
        args = node.children[1:]
        if len(args) == 1 and args[0].type == syms.atom and args[0].children[0].value == '(' \
                and len(args[0].children) == 3 and args[0].children[1].type != syms.testlist_gexp:
            return None
        return super().transform(node, results)


_OWN = {'fix_local_import': FixLocalImport, 'fix_exec_import': FixExecImport,
        'fix_print': FixPrint}


class _Tool(refactor.RefactoringTool):
    """fissix's RefactoringTool with port's fixers, recording on which lines
    each fixer changed the tree: changes = [(fix name, line)].  Made once
    for a set of fixers and options (making one compiles every fixer's
    pattern): _tool()."""

    def __init__(self, names, options=None):
        self._names = names
        super().__init__([], options)
        self.changes = []

    def get_fixers(self):
        pre, post = [], []
        for name in self._names:
            if name in _OWN:
                fixer = _OWN[name](self.options, self.fixer_log)
            else:
                module = __import__('fissix.fixes.' + name, {}, {}, ['*'])
                fixer = getattr(module, 'Fix' + ''.join(
                    p.title() for p in name[len('fix_'):].split('_')))(self.options,
                                                                        self.fixer_log)
            fixer.transform = self._recorded(name, fixer.transform)
            (pre if fixer.order == 'pre' else post).append(fixer)
        key = lambda f: f.run_order  # noqa: E731
        return sorted(pre, key=key), sorted(post, key=key)

    def _recorded(self, name, transform):
        def recorded(node, results):
            # Some fixers also add an import (fix_reduce: from functools
            # import reduce), a statement more at the top.
            root = node
            while root.parent is not None:
                root = root.parent
            line, before, statements = _line(node), str(node), len(root.children)
            new = transform(node, results)
            if new is not None or len(root.children) != statements or str(node) != before:
                self.changes.append((name, line))
            return new
        return recorded

    def log_error(self, msg, *args, **kwds):
        raise refactor.FixerError(msg % args)

    def convert(self, source, filename):
        """The converted tree of source, or None when fissix cannot parse it
        (options['print_function']: parse print as a function, as Python 3)."""
        self.changes = []
        del self.fixer_log[:]  # the fixers hold this list
        try:
            return self.refactor_string(source if source.endswith('\n') else source + '\n',
                                        filename)
        except Exception:  # fissix's parser raises ParseError, TokenError, IndentationError
            return None


@functools.lru_cache(maxsize=16)
def _cached(names, options):
    return _Tool(list(names), dict(options))


def _tool(names, options):
    """The _Tool of these fixer names and options (a dict), made once."""
    return _cached(tuple(names), tuple(sorted(options.items())))


def to_python3(source, path, filename=None, built=(), python2_repository=False, root=None):
    """(new source, [Finding], python 2) for one file's text: a Python 2 file
    (see python2_reason; in a Python 2 repository, any file that is not
    python3_only) converted by PYTHON2's fixers, the implicit relative
    imports of a package's __init__.py made explicit; otherwise source as it
    is.  path is for the report; filename, the file on disk, is where sibling
    modules are looked for (none without it); built: absolute paths of the
    modules the build creates; root: the repository's folder (its scripts).
    A file fissix cannot parse, or that does not compile once converted, is
    returned unchanged, with a finding saying so."""
    reason = python2_reason(source) or (python2_repository and not python3_only(source)
                                        and 'in a Python 2 repository')
    init = os.path.basename(path) == '__init__.py'
    if not reason and not (init and re.search(r'^\s*(?:from|import|exec)\b', source, re.M)):
        return source, [], False
    names = [row.fix for row in PYTHON2] if reason else list(_IMPORT_FIXERS)
    options = {'built': frozenset(built), 'root': root and os.path.abspath(root),
               'print_function': not reason}
    tool = _tool(names, options)
    tree = tool.convert(source, filename or os.path.abspath(path))
    if tree is None and reason and not python2_reason(source):  # print(x, end='') and such
        tool = _tool(names, dict(options, print_function=True))
        tree = tool.convert(source, filename or os.path.abspath(path))
    if tree is None:
        return source, [Finding(path, 0, 'Python 2 (%s): not converted, fissix cannot parse it; '
                                'convert it by hand (2to3 -w), then run port again' % reason,
                                False)] if reason else [], bool(reason)
    new = str(tree)
    if not source.endswith('\n') and new.endswith('\n'):
        new = new[:-1]  # convert() gave the parser the newline it needs
    findings, lines = [], {}
    for name, line in tool.changes:
        lines.setdefault(name, set()).add(line)
    for name, where in lines.items():  # one finding per idiom, naming each line
        row, where = _ROWS[name], sorted(where)
        findings.append(Finding(path, where[0], 'Python 2 `%s`: now `%s` (%s)%s' % (
            row.old, row.new, row.why, '; also on lines %s' % ', '.join(map(str, where[1:]))
            if where[1:] else ''), True))
    findings.sort(key=lambda f: f.line)
    for message in tool.fixer_log:
        match = re.match(r'Line (\d+): (.*)', message, re.S)
        if match:
            findings.append(Finding(path, int(match.group(1)), 'Python 2: not converted: %s'
                                    % match.group(2).strip(), False))
    if new != source:
        try:
            compile(new, path, 'exec')
        except (SyntaxError, ValueError) as exc:
            return source, [Finding(path, exc.lineno or 0, 'Python 2 (%s): not converted: '
                                    'after 2to3\'s fixers it still does not compile (%s); fix '
                                    'that line by hand, then run port again' % (reason, exc.msg),
                                    False)], bool(reason)
    return new, findings, bool(reason)

