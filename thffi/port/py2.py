"""Python 2 files, for `python -m thffi port`: converted to Python 3 with
2to3's fixers, from fissix (lib2to3's maintained fork, lib2to3 itself being
gone from Python 3.13), one fixer per row of thffi/toolchain/pyremoved.py's
PYTHON2 table; the rest of port then works on the converted text.

Which files are Python 2 is decided per file (pyversion.py); a file that
runs on Python 3 goes through none of these fixers.  Inside a Python 2
file, a guard written for both Pythons (`try: ... except ImportError:`,
`if sys.version_info ...`, `if six.PY2:`, `if hasattr(...)`: see
pyversion.py) is left as it is, but for what Python 3 cannot parse (print
statements, `except E, e`...).

Implicit relative imports inside a package (`import _ext`, `from layers
import *`, exec('from convsp import *')) become explicit, as Python 2
resolved them (the package's own module first), in a module that runs as
part of its package: any package's `__init__.py` (which only ever runs as
its package's, where the explicit form always works, whatever its first
line) and a Python 2 module running.py finds imported with its package
(options['top_level'] names the others, with why); a Python 3 module too
where Python 2's imports apply to it (implicit_imports: a folder of Python
2 code, or a package not written for Python 3's imports); a module the build scripts create
(create_extension('_ext.my_lib'): the `_ext` folder beside the script)
counts as present before it is built.  A script, and a module that scripts
import as a top-level module, keeps its imports: Python 3 puts the
script's folder on sys.path, where `import utils.frame_utils` finds utils/
as it is and `from .utils import ...` fails; the report says so of a
module, and of one whose way of running nothing in the repository shows.
`python -m thffi run` knows how each module runs, as it imports it
(to_python3's package), and applies the same rules.  An import in a
string a package's module execs is made explicit where its module is
known: a literal, or a template filled by a loop over literals (`for name
in ['conv', 'pool']: exec('from %s import *' % name)`); where it is known
only at run time it is reported with what to write, as is
`__import__(name, globals())` (Python 2 looked beside the importer first
when given its globals).
`__import__(name)` is absolute in both Pythons and stays."""

import ast
import functools
import os
import re

from fissix import fixer_base, refactor
from fissix.fixer_util import FromImport, String, find_binding, syms, token
from fissix.fixes import fix_operator, fix_print
from fissix.fixes.fix_import import FixImport, traverse_imports
from fissix.pytree import Leaf, Node

from ..toolchain.pyremoved import PYTHON2
from . import pyversion
from .report import Finding
from .running import SCRIPT, TOP_LEVEL

_ROWS = {row.fix: row for row in PYTHON2}
# The fixers of the rows that make imports of siblings explicit.
_IMPORT_FIXERS = ('fix_local_import', 'fix_exec_import')
# The fixers of a use of one of Python 2's builtins: not of a name the file
# binds itself (`long = int`).
_NAME_FIXERS = {'fix_long', 'fix_unicode', 'fix_basestring', 'fix_xrange', 'fix_raw_input',
                'fix_reduce', 'fix_intern', 'fix_apply', 'fix_execfile', 'fix_standarderror',
                'fix_input', 'fix_isinstance'}
# The fixers of what Python 3 cannot parse: applied inside guards too (the
# rest leave a guard as it is, code written for both Pythons).
_SYNTAX_FIXERS = {'fix_print', 'fix_except', 'fix_exec', 'fix_raise', 'fix_ne', 'fix_repr',
                  'fix_numliterals', 'fix_tuple_params', 'fix_paren'}


def future(source, feature):
    """Whether source says `from __future__ import feature`."""
    return re.search(r'^from\s+__future__\s+import\s+[^#\n]*\b%s\b' % feature, source,
                     re.M) is not None


def top_package(folder):
    """The folder of the top-level package that folder belongs to (climbing
    while the folder above holds an __init__.py): folder itself where it
    is no package's but its own."""
    while os.path.isfile(os.path.join(os.path.dirname(folder), '__init__.py')):
        folder = os.path.dirname(folder)
    return folder


def implicit_imports(filename, source, python2_folders, python3_packages):
    """Whether Python 2's implicit relative imports apply to the file
    filename (its text: source): a module of a folder of Python 2 code
    (python2_folders), or of a package (a folder with an __init__.py) whose
    tree (python3_packages: top_package()s) holds no module asking for
    Python 3's imports (pyversion.python3_imports); never a module with
    `from __future__ import absolute_import`."""
    folder = os.path.dirname(os.path.abspath(filename))
    if pyversion.ABSOLUTE_IMPORT.search(source):
        return False
    return folder in python2_folders or os.path.isfile(os.path.join(folder, '__init__.py')) \
        and top_package(folder) not in python3_packages


def _statement(node):
    """A statement's text as the report quotes it: without the comment
    lines and blank lines before it (its prefix)."""
    return str(node)[len(node.prefix):].strip()


def _running(options, tree, name):
    """(skip, kept) for the file name (its tree): skip when its imports are
    not to be looked at (a script, a top-level module thffi run imports,
    `from __future__ import absolute_import`); kept, why they stay and are
    reported (running.py's kind), else None.  See FixLocalImport."""
    package = options.get('package')
    skip = 'absolute_import' in tree.future_features or package is False
    if package is None and os.path.basename(name) != '__init__.py':
        # An __init__.py runs only as its package's, whatever its first line.
        text = str(tree)
        kinds = options.get('top_level')
        kind = dict(kinds or ()).get(os.path.abspath(name))
        # A `#!` line makes a script of a module the repository does not import with its
        # package (running.py decides, where port gives its map).
        skip = skip or bool(re.search(r'^if\s+__name__\s*==\s*[\'"]__main__[\'"]', text, re.M)) \
            or text.startswith('#!') and (kinds is None or kind == SCRIPT)
        return skip, kind
    return skip, None


class FixLocalImport(FixImport):
    """2to3's fix_import, which makes an import of a sibling module inside a
    package explicit (`import _ext` -> `from . import _ext`), knowing also
    the modules the build creates (options['built']: absolute paths), and
    with `import a.b as c` written `from .a import b as c` (2to3 writes `from
    . import a.b`, a SyntaxError); `import a.b` is reported.  Only in a
    module that runs as part of its package: options['package'] True (thffi
    run imports it so), False (it runs as a top-level module: nothing
    changes), None (port: an `__init__.py` always, whatever its first line; a script,
    with an `if __name__ == '__main__':` block, or a `#!` line where running.py finds
    no import of it with its package, never; nor a module
    options['top_level'] names ((absolute path, running.SCRIPT, TOP_LEVEL
    or UNKNOWN) pairs), whose imports are reported as kept but for a
    script's)."""

    def start_tree(self, tree, name):
        super().start_tree(tree, name)
        self.skip, self.kept = _running(self.options, tree, name)

    def transform(self, node, results):
        if self.skip:
            return None
        names = ([str(results['imp']).strip()] if node.type == syms.import_from
                 else list(traverse_imports(results['imp'])))
        local = [self.probably_a_local_import(n) for n in names]
        if self.kept is not None:
            if any(local) and self.kept in _KEPT:
                self.warning(node, 'the implicit relative import `%s` is kept: %s' % (
                    _statement(node), _KEPT[self.kept] % {
                        'explicit': _explicit(names, local, node),
                        'file': os.path.basename(self.filename)}))
            return None
        if node.type == syms.import_from:
            return super().transform(node, results)
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


# What the report says of an import kept, by how the module runs (running.py's
# kinds; a script's imports are kept without a word): the explicit form
# and the file's name filled in.
_KEPT = {
    'top-level module': 'scripts beside this module import it as a top-level module, where '
                        'Python 3 finds it as it is (`from .` fails there); imported as part '
                        'of its package too, it would need `try: from . ... except '
                        'ImportError:` around both forms',
    'not known': 'no file of the repository imports this module nor runs it, so how it runs '
                 'is not known: run as a script (`python %(file)s`), it needs the import as '
                 'it is; imported as part of its package, write `%(explicit)s`',
}


def _explicit(names, local, node):
    """The explicit form of an import statement (node) of names, those of
    siblings marked in local, as the report suggests it."""
    if node.type == syms.import_from:
        module = names[0]
        rest = _statement(node).split(' import ', 1)[1]
        return 'from .%s import %s' % (module, rest)
    return '; '.join('from .%s import %s' % tuple(n.rsplit('.', 1)) if '.' in n else
                     'from . import %s' % n for n, is_local in zip(names, local) if is_local)


def explicit_imports(text, filename):
    """text (statements, as a string exec'd) with its implicit relative
    imports of the siblings of filename (a package's module) made explicit,
    as FixLocalImport makes them in code: `from convsp import *` -> `from
    .convsp import *`.  Also what `thffi run` applies to a string a package's
    module execs, known only then."""
    tree = _tool(['fix_local_import'], {'package': True, 'print_function': True}).convert(
        text + '\n', filename)
    return str(tree)[:-1] if tree is not None else text


def _loop_values(node, name):
    """The values the name takes where node runs: the string literals of a
    `for name in [...]:` (or a tuple) around node; None where not known."""
    while node.parent is not None:
        node = node.parent
        if node.type != syms.for_stmt or node.children[1].type != token.NAME or \
                node.children[1].value != name:
            continue
        items = node.children[3]
        if items.type != syms.atom or items.children[0].value not in '[(':
            return None
        inner = items.children[1] if len(items.children) == 3 else None
        leaves = [inner] if inner is not None and inner.type == token.STRING else \
            [] if inner is None else inner.children[::2]
        if inner is None or any(leaf.type != token.STRING for leaf in leaves):
            return None
        values = [ast.literal_eval(leaf.value) for leaf in leaves]
        return values if all(isinstance(v, str) for v in values) else None
    return None


# A folder's path as 2018 code wrote the module's own (os.path, osp or
# path's dirname of __file__, made absolute or not), and the module files
# a glob of it finds; a file's stem, from the glob's result F.
_OWN_FOLDER = (r'(?:(?:os\.path|osp|path)\.)?dirname\((?:__file__|(?:(?:os\.path|osp|path)\.)?'
               r'(?:abspath|realpath)\(__file__\))\)')
_GLOB = re.compile(r'(?:(?:sorted|list)\()?(?:glob\.)?i?glob\((?:%s\+([\'"])/\*\.py\1|'
                   r'(?:os\.path|osp|path)\.join\(%s,([\'"])\*\.py\2\))\)\)?'
                   % (_OWN_FOLDER, _OWN_FOLDER))
_STEM = (r'(?:(?:(?:os\.path|osp|path)\.)?basename\(%(f)s\)\[:-3\]|(?:(?:os\.path|osp|path)\.)?'
         r'splitext\((?:(?:os\.path|osp|path)\.)?basename\(%(f)s\)\)\[0\])')


def _globbed_stems(node, name, folder):
    """The stems of the module files beside the module (in folder) where
    name, at node, is the stem of each file a loop over a glob of the
    module's own folder finds (`for f in glob(os.path.dirname(__file__) +
    '/*.py'): name = os.path.basename(f)[:-3]`, sorted() or not): each a module of the
    package, whatever files are added later; None otherwise."""
    while node.parent is not None:
        node = node.parent
        if node.type != syms.for_stmt or node.children[1].type != token.NAME or \
                not _GLOB.fullmatch(re.sub(r'\s+', '', str(node.children[3]))):
            continue
        stem = re.compile(r'%s=%s' % (re.escape(name), _STEM % {
            'f': re.escape(node.children[1].value)}))
        if not any(stem.fullmatch(re.sub(r'\s+', '', str(statement)))
                   for statement in node.children[5].pre_order()
                   if statement.type == syms.expr_stmt):
            return None
        return sorted(entry[:-3] for entry in os.listdir(folder) if entry.endswith('.py'))
    return None


def _template(argument, folder=None):
    """(the string literal, the values filling it) of an exec's argument
    `'from %s import *' % name` whose name takes known values (see
    _loop_values; and, where folder, the module's, is given,
    _globbed_stems) or is a literal itself; None otherwise."""
    if argument.type != syms.term or len(argument.children) != 3 or \
            argument.children[0].type != token.STRING or argument.children[1].value != '%':
        return None
    value = argument.children[2]
    if value.type == token.STRING:
        values = [ast.literal_eval(value.value)]
    elif value.type == token.NAME:
        values = _loop_values(argument, value.value) or (
            folder and _globbed_stems(argument, value.value, folder))
    else:
        return None
    return (argument.children[0], values) if values else None


def _exec_argument(node):
    """The first argument of exec (call or Python 2 statement), less the
    parentheses of `exec ('...')`."""
    if node.type == syms.exec_stmt:
        argument = node.children[1]
    else:
        argument = node.children[1].children[1]
        if argument.type == syms.arglist:
            argument = argument.children[0]
    while argument.type == syms.atom and argument.children[0].value == '(' and \
            len(argument.children) == 3:
        argument = argument.children[1]
    return argument


class FixExecImport(fixer_base.BaseFix):
    """An import in a string a package's module execs, made explicit as
    FixLocalImport makes it in code (in the modules where it does): a
    literal, exec('from sibling import *'), and a template filled by a loop
    over literals, `for name in ['conv', 'pool']: exec('from %s import *' %
    name)` -> 'from .%s import *' when every value names a sibling (when
    none does, Python 2 imported them from the top level too; when some
    do, reported)."""

    BM_compatible = True
    PATTERN = """
    power< 'exec' trailer< '(' any ')' > >
    |
    exec_stmt< 'exec' any* >
    """

    def start_tree(self, tree, name):
        super().start_tree(tree, name)
        self.skip, self.kept = _running(self.options, tree, name)

    def transform(self, node, results):
        argument = _exec_argument(node)
        if self.skip or self.kept is not None:
            return None
        if argument.type == token.STRING:
            literal, values, template = argument, [None], None
        else:
            found = _template(argument, os.path.dirname(self.filename))
            if found is None:
                return None  # FixDynamicImport's
            literal, values = found
            template = re.match(r'^(\s*from\s+)%s(\s+import\b.*)$', ast.literal_eval(
                literal.value), re.S)
            if template is None:
                return None
        try:
            text = ast.literal_eval(literal.value)
        except (ValueError, SyntaxError):
            return None
        if not isinstance(text, str):
            return None
        if template is None:
            new = explicit_imports(text, self.filename)
        else:
            local = [explicit_imports(text % v, self.filename) == text % ('.' + v)
                     for v in values]
            if not any(local):
                return None
            if not all(local):
                self.warning(node, '`%s`: the import in the string names this package\'s '
                             'modules (%s) and others (%s): Python 2 found each where it is, '
                             'Python 3 looks only at the top level; import this package\'s '
                             'with `from .%%s import *`' % (
                                 _statement(node),
                                 ', '.join(v for v, is_local in zip(values, local) if is_local),
                                 ', '.join(v for v, is_local in zip(values, local)
                                           if not is_local)))
                return None
            new = template.group(1) + '.%s' + template.group(2)
        if new == text:
            return None
        quote = literal.value.lstrip('rRuUbB')[0]
        literal.replace(String(repr(new) if quote == "'" else '"%s"' % new.replace('"', '\\"'),
                               prefix=literal.prefix))
        return None


class FixDynamicImport(fixer_base.BaseFix):
    """In a package's module, an import whose module is known only at run
    time, which Python 2 looked for among the package's modules first and
    Python 3 looks for only at the top level: a string exec'd (`exec('from
    %s import *' % name)`, where FixExecImport cannot know name's values)
    and `__import__(name, globals())` (not `__import__(name)`: without the
    importer's globals Python 2 imported from the top level too).
    Reported, with the form that imports from the package."""

    BM_compatible = True
    PATTERN = """
    power< 'exec' trailer< '(' any ')' > >
    |
    exec_stmt< 'exec' any* >
    |
    power< '__import__' trailer< '(' s=any ')' > >
    """

    def start_tree(self, tree, name):
        super().start_tree(tree, name)
        skip, kept = _running(self.options, tree, name)
        self.skip = skip or kept is not None

    def transform(self, node, results):
        if self.skip:
            return None
        if 's' in results:
            arguments = results['s']
            if arguments.type != syms.arglist:
                return None  # __import__(name): the top level in Python 2 too
            given = arguments.children[::2]
            if len(given) >= 5 or any(a.type == syms.argument and str(a.children[0]).strip()
                                      == 'level' for a in given):
                return None  # the level given: the same in both Pythons
            name = str(given[0]).strip()
            self.warning(node, '`%s`: Python 2 looked for %s among this package\'s modules '
                         'first (given the globals), Python 3 only at the top level; if it '
                         'names a module of this package, write `importlib.import_module(\'.\' '
                         '+ %s, __package__)` (it returns that module, not the top-level '
                         'package)' % (_statement(node), name, name))
            return None
        argument = _exec_argument(node)
        if argument.type == token.STRING or _template(
                argument, os.path.dirname(self.filename)) is not None:
            return None  # FixExecImport's
        if re.match(r'^[rRuU]?[\'"]\s*(?:from|import)\s+[^.\s]', str(argument).strip()):
            self.warning(node, '`%s`: an import in a string, of a top-level module in Python '
                         '3; if it names a module of this package, make the import in the '
                         'string relative (`from .%%s import *`)' % _statement(node))
        return None


class FixOperator(fix_operator.FixOperator):
    """2to3's fix_operator, advising on a bare `repeat(x, n)` (and the
    others) only when the file imports that name from operator: itertools'
    repeat is not operator's."""

    def _check_method(self, node, results):
        if 'module' not in results:
            root = node
            while root.parent is not None:
                root = root.parent
            if not find_binding(results['method'][0].value, root, 'operator'):
                return None
        return super()._check_method(node, results)


def _in_guard(node, guard_names):
    """Whether node is inside code written for both Pythons (see
    pyversion.py): a try catching ImportError, NameError, AttributeError,
    an if or a conditional expression testing the version."""
    while node.parent is not None:
        parent = node.parent
        if parent.type == syms.try_stmt:
            caught = []
            for child in parent.children:
                if child.type == syms.except_clause:
                    test = child.children[1:2]
                    caught += [leaf.value for t in test for leaf in t.leaves()
                               if leaf.type == token.NAME] or [None]
                elif child.type == token.NAME and child.value == 'except':
                    caught.append(None)
            if pyversion.is_guard_handler(caught):
                return True
        elif parent.type in (syms.if_stmt, syms.test):
            children = parent.children
            tests = [children[i + 1] for i, c in enumerate(children)
                     if c.type == token.NAME and c.value in ('if', 'elif')]
            if any(pyversion.is_guard_test(str(t), guard_names) for t in tests):
                return True
        node = parent
    return False


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
        'fix_print': FixPrint, 'fix_operator': FixOperator,
        'fix_dynamic_import': FixDynamicImport}


class _Tool(refactor.RefactoringTool):
    """fissix's RefactoringTool with port's fixers, recording on which lines
    each fixer changed the tree: changes = [(fix name, line)].  Made once
    for a set of fixers and options (making one compiles every fixer's
    pattern): _tool()."""

    def __init__(self, names, options=None):
        self._names = names
        super().__init__([], options)
        self.changes = []
        # Of the file converted: the names it assigns a version test (PY2 =
        # sys.version_info[0] == 2), the Python 2 builtins it binds itself.
        self.guard_names, self.own_names = frozenset(), frozenset()

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
            if name not in _SYNTAX_FIXERS and _in_guard(node, self.guard_names):
                return None  # written for both Pythons: left as it is
            if name in _NAME_FIXERS and next(node.leaves()).value in self.own_names:
                return None  # the file's own name
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

    def refactor_tree(self, tree, name):
        self.guard_names = frozenset(
            leaf.value for node in tree.pre_order() if node.type == syms.expr_stmt
            and len(node.children) == 3 and node.children[1].value == '='
            and pyversion.is_guard_test(str(node.children[2]))
            for leaf in [node.children[0]] if leaf.type == token.NAME)
        self.own_names = frozenset(n for n in pyversion.PYTHON2_BUILTINS
                                   if find_binding(n, tree) is not None)
        return super().refactor_tree(tree, name)

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


def indented_as_python2(source):
    """source with the indentation of each logical line as Python 2's
    tokenizer read it: a tab to the next multiple of 8 columns (Python 3
    refuses tabs and spaces mixed: TabError).  Only the leading blanks of
    the lines that begin a statement change: not a string's lines, not a
    continuation line's; the tokenize module reads them, with Python 2's
    tab size.  source as it is where it has no tab there, or cannot be
    tokenized."""
    import io
    import tokenize
    if '\t' not in source:
        return source
    starts, begins = set(), True
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.NEWLINE, tokenize.NL):
                begins = True
            elif token.type not in (tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT,
                                    tokenize.ENDMARKER):
                if begins:
                    starts.add(token.start[0])
                begins = False
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source
    lines = source.splitlines(True)
    for number in starts:
        line = lines[number - 1]
        blanks = line[:len(line) - len(line.lstrip(' \t'))]
        if '\t' in blanks:
            lines[number - 1] = blanks.expandtabs(8) + line[len(blanks):]
    return ''.join(lines)


def to_python3(source, path, filename=None, built=(), top_level=None, verdict=None,
               package=None, implicit=None):
    """(new source, [Finding], pyversion.Verdict) for one file's text: a
    Python 2 file (verdict: pyversion.decide(source) unless given) converted
    by PYTHON2's fixers, the implicit relative imports of a package's
    __init__.py made explicit; otherwise source as it is.  path is for the
    report; filename, the file on disk, is where sibling modules are looked
    for (none without it); built: absolute paths of the modules the build
    creates; top_level: the modules whose imports stay, {absolute path:
    running.py's kind} (a set of paths: modules scripts import as top-level
    ones; None: not known, a `#!` line makes a script); package: whether
    the file runs as part of its package, where known (thffi run imports
    it: True, its imports of its siblings made explicit; False, nothing of
    its imports changes), None where port
    decides (FixLocalImport); a Python 3 file's imports change only where
    implicit (the caller knows that Python 2's implicit relative imports
    apply to it: a package's module of a folder of Python 2 code, or of a
    package not written for Python 3's imports, with no `from __future__
    import absolute_import`), and in an __init__.py where implicit is None.  A Python 2
    file's indentation is first read as Python 2 read tabs
    (indented_as_python2).  A file that parses as neither Python, that
    fissix cannot parse, or that does not compile once converted, is
    returned unchanged, with a finding saying so."""
    verdict = verdict or pyversion.decide(source)
    if verdict.kind == pyversion.NEITHER:
        return source, [Finding(path, verdict.line, '%s: not changed' % verdict, False)], verdict
    python2 = verdict.kind == pyversion.PYTHON2
    tabbed, original = [], source
    if python2:
        expanded = indented_as_python2(source)
        tabbed = [i + 1 for i, (a, b) in enumerate(zip(source.splitlines(),
                                                       expanded.splitlines())) if a != b]
        source = expanded
    init = os.path.basename(path) == '__init__.py'
    if not python2 and not ((init if implicit is None else implicit) and package is not False
                            and re.search(r'^\s*(?:from|import|exec)\b|\b__import__\(',
                                          source, re.M)):
        return source, [], verdict
    names = [row.fix for row in PYTHON2] if python2 else list(_IMPORT_FIXERS)
    kinds = None if top_level is None else tuple(sorted(
        top_level.items() if isinstance(top_level, dict) else ((p, TOP_LEVEL) for p in top_level)))
    options = {'built': frozenset(built), 'top_level': kinds,
               'print_function': not python2, 'package': package}
    tool = _tool(names + ['fix_dynamic_import'], options)
    tree = tool.convert(source, filename or os.path.abspath(path))
    if tree is None and python2 and verdict.parses:  # print(x, end='') and such
        tool = _tool(names + ['fix_dynamic_import'], dict(options, print_function=True))
        tree = tool.convert(source, filename or os.path.abspath(path))
    if tree is None:
        return original, [Finding(path, verdict.line, '%s: not converted, fissix cannot parse it; '
                                'convert it by hand (2to3 -w), then run port again' % verdict,
                                False)] if python2 else [], verdict
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
    for message in tool.fixer_log:
        match = re.match(r'Line (\d+): (.*)', message, re.S)
        if match:
            findings.append(Finding(path, int(match.group(1)), 'Python 2: not converted: %s'
                                    % match.group(2).strip(), False))
    if tabbed:
        findings.append(Finding(path, tabbed[0], 'Python 2 indentation of tabs and spaces mixed '
                                '(a TabError in Python 3): now spaces, a tab to the next multiple '
                                'of 8 columns as Python 2 read it%s' % (
                                    '; also on lines %s' % ', '.join(map(str, tabbed[1:]))
                                    if tabbed[1:] else ''), True))
    findings.sort(key=lambda f: f.line)
    if new != original:
        try:
            compile(new, path, 'exec')
        except (SyntaxError, ValueError) as exc:
            return original, [Finding(path, exc.lineno or 0, '%s: not converted: after 2to3\'s '
                                    'fixers it still does not compile (%s); fix that line by '
                                    'hand, then run port again' % (verdict, exc.msg),
                                    False)], verdict
    if python2:
        findings.insert(0, Finding(path, verdict.line, 'Python 2, as this line shows (%s): '
                                   'the file is converted by 2to3\'s fixers' % verdict.why, True)
                        if new != original else
                        Finding(path, verdict.line, 'Python 2, as this line shows (%s), but '
                                '2to3\'s fixers change nothing in the file: port it by hand'
                                % verdict.why, False))
    return new, findings, verdict
