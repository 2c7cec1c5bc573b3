"""Imports a rewrite left unused, taken out.

A rewrite that takes away the uses of a name (Variable(x) becomes
x.detach(), a removed module's uses are rewritten, a build script's
torch.cuda.is_available() becomes cuda_enabled()) schedules its import
with schedule(); remove() then takes out each scheduled import that
nothing reads any more, and keeps the others.

Whether a name is read is what the compiler's own symbol tables say of the
final code (symtable): the scope the import binds the name in, and every
scope nested in it that reads that binding (a function reading a module's
global, a closure reading its function's local), as Python resolves
names; a name listed in the module's `__all__` or written in a string
annotation counts as read.  This is what libcst's RemoveImportsVisitor
decides with its own scope analysis, at a tenth of the cost: it resolves
scopes and qualified names on the whole new tree and walks it three times
(a third of port's time on a 200-file repository); the symbol tables come
from C, and the walk here visits statements only, never expressions."""

import ast
import re
import symtable

import libcst as cst

_KEY = 'thffi.port.unused_imports'
_WORD = re.compile(r'[A-Za-z_][A-Za-z_0-9]*')
_EXPRESSION = {}  # node type: whether it is an expression (an ABC: asked once a type)


def schedule(context, module, obj=None, asname=None):
    """Asks remove() to take out `import module [as asname]` (obj None) or
    `from module import obj [as asname]` wherever the file has it, if
    nothing reads the name it binds (libcst's remove_unused_import)."""
    context.scratch.setdefault(_KEY, []).append((module, obj, asname))


def scheduled(context):
    return bool(context.scratch.get(_KEY))


def remove(tree, context):
    """(tree without the scheduled imports nothing reads, names of the
    modules of the `import` statements the tree still holds)."""
    wanted = set(context.scratch.get(_KEY, ()))
    code = tree.code
    try:
        reads = _Reads(code)
    except SyntaxError:
        reads = None  # not Python 3 after all: nothing is taken out
    remover = _Remover(wanted, reads)
    return tree.visit(remover), remover.imported


class _Reads:
    """Whether a name bound in a scope of code is read, by the compiler's
    symbol tables."""

    def __init__(self, code):
        self.top = symtable.symtable(code, '<port>', 'exec')
        module = ast.parse(code)
        self.exported = _exported(module)
        self.annotated = _annotation_words(module)
        self.dotted = {alias.name for node in ast.walk(module) if isinstance(node, ast.Import)
                       for alias in node.names if alias.asname is None and '.' in alias.name}
        self.chains = _chains(module)

    def through_others(self, module):
        """Whether every read of the name `import module` binds (its first
        part) goes through a longer dotted module another import statement
        names (`collections.abc.Iterable` where `import collections.abc`
        binds collections too): that import is the one read."""
        root = module.split('.')[0]
        others = [d for d in self.dotted if d != module and d.split('.')[0] == root]
        return bool(others) and all(any(chain == d or chain.startswith(d + '.') for d in others)
                                    for chain in self.chains.get(root, ()))

    def read(self, table, name):
        """Whether the binding of name in table (a symtable.SymbolTable,
        where an import statement binds it) is read anywhere."""
        try:
            symbol = table.lookup(name)
        except KeyError:
            return True  # the tables do not know it: keep the import
        if table.get_type() != 'module' and not symbol.is_global():
            if symbol.is_referenced():
                return True
            if table.get_type() == 'class':
                return False  # a class body's names are not seen by its methods
            return any(_reads_local(child, name) for child in table.get_children())
        # A module's global (or a function's `global name`): read by any
        # scope that takes it for the global.
        if name in self.exported or name in self.annotated:
            return True
        return _reads_global(self.top, name)


def _reads_global(table, name):
    try:
        symbol = table.lookup(name)
    except KeyError:
        symbol = None
    if symbol is not None and symbol.is_global() and symbol.is_referenced():
        return True
    return any(_reads_global(child, name) for child in table.get_children())


def _reads_local(table, name):
    """Whether table, nested in the function that binds name, or a scope
    nested in it reads that binding (a free variable of theirs)."""
    try:
        symbol = table.lookup(name)
    except KeyError:
        symbol = None
    if symbol is not None:
        if symbol.is_free():
            if symbol.is_referenced():
                return True
        elif table.get_type() != 'class' and (symbol.is_local() or symbol.is_global()):
            return False  # bound again here: what is nested reads this one
    return any(_reads_local(child, name) for child in table.get_children())


def _chains(module):
    """{name: [the dotted name each read of it writes, `a.b.c` for
    a.b.c.d()'s a]}, for names read with attributes or alone."""
    chains, inner = {}, set()
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            parts, value = [node.attr], node.value
            while isinstance(value, ast.Attribute):
                inner.add(id(value))
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name):
                inner.add(id(value))
                chains.setdefault(value.id, []).append('.'.join([value.id] + parts[::-1]))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                id(node) not in inner:
            chains.setdefault(node.id, []).append(node.id)
    return chains


def _exported(module):
    """The strings of the module's `__all__ = [...]` (and `+=`)."""
    names = set()
    for statement in module.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else []
        if any(isinstance(t, ast.Name) and t.id == '__all__' for t in targets) and \
                isinstance(statement.value, (ast.List, ast.Tuple)):
            names.update(e.value for e in statement.value.elts
                         if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return names


def _annotation_words(module):
    """The names written in string annotations (`x: "Variable"`)."""
    words = set()
    for node in ast.walk(module):
        for annotation in (getattr(node, 'annotation', None), getattr(node, 'returns', None)):
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                words.update(_WORD.findall(annotation.value))
    return words


def _dotted(node):
    """The dotted name a libcst Name or Attribute writes, or None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return base and base + '.' + node.attr.value
    return None


def _asname(alias):
    return alias.asname.name.value if alias.asname is not None and \
        isinstance(alias.asname.name, cst.Name) else None


class _Remover(cst.CSTTransformer):
    """Takes the wanted aliases nothing reads out of the import statements,
    following the symbol table of each scope as it enters functions and
    classes; expressions (where no import is) are not walked."""

    def __init__(self, wanted, reads):
        super().__init__()
        self.wanted, self.reads = wanted, reads
        self.tables = [reads.top if reads else None]
        self._taken = {}         # a table: its children matched to a def or class
        self.imported = set()    # the modules of the `import` statements left

    def on_visit(self, node):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self.tables.append(self._child(node))
        elif isinstance(node, (cst.Import, cst.ImportFrom)):
            return False
        kind = type(node)
        expression = _EXPRESSION.get(kind)
        if expression is None:
            expression = _EXPRESSION[kind] = issubclass(kind, cst.BaseExpression)
        return not expression

    def _child(self, node):
        """The symbol table of the def or class node, the next child of the
        current table with its name and kind (None when not found)."""
        table = self.tables[-1]
        if table is None:
            return None
        kind = 'class' if isinstance(node, cst.ClassDef) else 'function'
        taken = self._taken.setdefault(id(table), set())
        for child in table.get_children():
            if id(child) not in taken and child.get_name() == node.name.value and \
                    child.get_type() == kind:
                taken.add(id(child))
                return child
        return None

    def on_leave(self, original_node, updated_node):
        if isinstance(original_node, (cst.FunctionDef, cst.ClassDef)):
            self.tables.pop()
        elif isinstance(original_node, cst.Import):
            return self._import(updated_node)
        elif isinstance(original_node, cst.ImportFrom):
            return self._import_from(updated_node)
        return updated_node

    def _unread(self, name):
        table = self.tables[-1]
        return table is not None and not self.reads.read(table, name)

    def _import(self, node):
        kept = []
        for alias in node.names:
            module, asname = _dotted(alias.name), _asname(alias)
            if (module, None, asname) in self.wanted and (
                    self._unread(asname or module.split('.')[0]) or
                    asname is None and self.reads.through_others(module)):
                continue
            kept.append(alias)
            self.imported.add(module)
        return _with_names(node, kept)

    def _import_from(self, node):
        module = _dotted(node.module) if node.module is not None else None
        if node.relative or module is None or isinstance(node.names, cst.ImportStar):
            return node
        kept = [alias for alias in node.names
                if (module, _dotted(alias.name), _asname(alias)) not in self.wanted or
                not self._unread(_asname(alias) or _dotted(alias.name))]
        return _with_names(node, kept)


def _with_names(node, kept):
    """node with only the aliases kept (the statement gone when none is).
    In a from-import, what followed the comma of an alias taken out (a line
    break, a comment) moves to the alias before it, or after the opening
    parenthesis, as libcst's RemoveImportsVisitor moves it."""
    if len(kept) == len(node.names):
        return node
    if not kept:
        return cst.RemoveFromParent()
    names, lpar = [], getattr(node, 'lpar', None)
    kept_ids = {id(alias) for alias in kept}
    for alias in node.names:
        if id(alias) in kept_ids:
            names.append(alias)
        elif isinstance(node, cst.ImportFrom) and isinstance(alias.comma, cst.Comma):
            after = alias.comma.whitespace_after
            if not names:
                if isinstance(lpar, cst.LeftParen):
                    lpar = lpar.with_changes(whitespace_after=_merged(lpar.whitespace_after,
                                                                      after))
            elif isinstance(names[-1].comma, cst.Comma):
                comma = names[-1].comma
                names[-1] = names[-1].with_changes(comma=comma.with_changes(
                    whitespace_after=_merged(comma.whitespace_after, after)))
            else:
                names[-1] = names[-1].with_changes(comma=alias.comma)
    if id(node.names[-1]) not in kept_ids:  # the last kept has a comma to drop
        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    changes = {'names': names}
    if isinstance(lpar, cst.LeftParen):
        changes['lpar'] = lpar
    return node.with_changes(**changes)


def _merged(left, right):
    """The whitespace after a comma kept, given the one after a comma taken
    out (right): a line break of right's when left has none, else left
    with the comment lines right holds."""
    if not isinstance(right, cst.ParenthesizedWhitespace):
        return left
    if not isinstance(left, cst.ParenthesizedWhitespace):
        return right
    return left.with_changes(empty_lines=tuple(line for line in right.empty_lines
                                               if line.comment is not None))
