"""The Python, NumPy, SciPy and PyTorch names that today's releases removed,
for `python -m thffi port`: each row of thffi/toolchain/pyremoved.py's
REMOVED table applied where the code's imports resolve a name to its `old`
(libcst's qualified names, so `import numpy as np; np.float` and `from
collections import Iterable` are both found):

- 'rename' rows: the use, or the `from` import, rewritten to `new` (imports
  added; an import left unused goes);
- 'value' rows: the use written as the row's expression, and `from M
  import name` as `name = <expression>`;
- 'call' rows: the call rewritten by the row's template;
- 'method' rows: `x.potrf(u)` (x neither self nor an import's name)
  written `thffi.torch041.potrf(x, u)`;
- CALLS rows: the call of the name (`torch.fft(x, 2)`) made a call of the
  row's new; IMPORTS rows: the import reported;
- keyword rows: the keyword of a call of their owner (a qualified name, or
  a method's name on an object an import did not name) renamed, or the
  call reported;
- the rest: reported, with the line and what to write: at the import (once
  for the file) for a removed module, else at each use.

And, in a Python 2 file (py2.py) without `from __future__ import division`,
each `/` keeps what Python 2 computed: between operands that are provably
integers (int literals, len(), int(), x.size(d), x.dim(), x.numel(), their
sums, products and floor quotients, and names assigned only those) it
becomes `//`; with a provable float (a float literal, float()) it stays;
else, the types known only as the code runs, `old_div(a, b)` of
thffi/runtime/python2.py (floor division of two integers, else true division), and
`x /= b` `x = old_div(x, b)` where x is a name or an attribute of one (read
twice alike; another target is reported).  A division behaviours.py
rewrites (an integer tensor's) is left to it.  Nothing else changes."""

import ast
import builtins

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, QualifiedNameProvider, \
    QualifiedNameSource, ScopeProvider

from ..toolchain import pyremoved
from . import unused_imports
from .report import Finding

_INT_CALLS = {'builtins.len', 'builtins.int', 'builtins.ord'}
_INT_METHODS = {'size', 'dim', 'numel', 'nelement', 'ndimension', 'element_size'}
_INT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)
# The fields of inspect.getargspec's result, which getfullargspec's also has
# (keywords as varkw).
_ARGSPEC_FIELDS = ('args', 'varargs', 'keywords', 'defaults')


def _code(node):
    return cst.Module(body=[]).code_for_node(node)


def _dotted(name):
    """The expression of a dotted name: a.b.c."""
    return cst.parse_expression(name)


def _modules_named(expression):
    """The modules a 'value' row's expression names (the roots of its
    dotted names that are not builtins), in order."""
    found = []
    for node in ast.walk(ast.parse(expression, mode='eval')):
        if isinstance(node, ast.Attribute):
            while isinstance(node, ast.Attribute):
                node = node.value
            if isinstance(node, ast.Name) and not hasattr(builtins, node.id) and \
                    node.id not in found:
                found.append(node.id)
    return found


def _expression(row):
    """A 'value' row's expression, in parentheses where it is not an
    atom (so that it binds as the name did)."""
    new = cst.parse_expression(row.new)
    if isinstance(new, (cst.Name, cst.Attribute, cst.Tuple, cst.Dict, cst.List, cst.Call,
                        cst.Integer, cst.Float)):
        return new
    return new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _drops_module(row, name):
    """Whether row rewrites the use of name (a qualified name it matches
    exactly) to something not naming name's module any more."""
    if row is None or row.old != name:
        return False
    if row.fix == 'value':
        return True
    if row.fix == 'call':
        return '{module}' not in row.new
    return row.fix == 'rename' and row.new.rpartition('.')[0] != row.old.rpartition('.')[0]


def _imports_row(module):
    """The IMPORTS row of a module name that is something else today (or
    of the module holding it), shown as the module; or None."""
    name = module
    while name:
        if name in pyremoved.IMPORTS:
            return pyremoved.IMPORTS[name]._replace(old=name)
        name = name.rpartition('.')[0]
    return None


def _message(row, what=None, new=None):
    """What the report says of a use of row: what was written, the release
    that removed it and why, and what it became (or is to become)."""
    return '%s: gone since %s%s; %s %s' % (what or row.old, row.removed,
                                          ' (%s)' % row.why if row.why else '',
                                          'now' if row.fix else 'write', new or row.new)


class Removed(cst.CSTTransformer):
    """Applies REMOVED to one module (see the module's docstring);
    findings: [Finding]; python2: the file was Python 2."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, PositionProvider,
                             ScopeProvider)

    def __init__(self, context, path, python2=False, division=False,
                 integer_tensor=lambda node: False):
        super().__init__()
        self.integer_tensor = integer_tensor  # behaviours.py's: its divisions are its own
        self.context = context
        self.path = path
        self.findings = []
        self.python2 = python2 and not division
        self._reported = set()     # (line, row.old) reported
        self._at_imports = set()   # the rows reported at an import statement
        self._keywords = set()     # id() of `getargspec(f).keywords` attributes
        self._new_lines = []       # made by leave_ImportFrom, for the line it is on
        self._removals = []        # (finding, module) of the imports said to go

    def _line(self, node):
        return self.get_metadata(PositionProvider, node).start.line

    def confirm(self, imported):
        """Drops from findings the imports said to go that the file's final
        tree still holds (unused_imports.py keeps an import still read:
        those uses are reported); imported: the modules of the `import`
        statements it holds (unused_imports.remove), None when no import
        was scheduled to go."""
        gone = {id(finding) for finding, name in self._removals if name in (imported or ())}
        self.findings = [f for f in self.findings if id(f) not in gone]

    def _report(self, node, message, fixed, key=None):
        line = self._line(node)
        if key is not None:
            if (line, key) in self._reported:
                return
            self._reported.add((line, key))
        self.findings.append(Finding(self.path, line, message, fixed))

    def _qualified(self, node):
        return {q.name for q in self.get_metadata(QualifiedNameProvider, node, ())}

    def _row(self, node):
        """(qualified name, row) of a REMOVED row that node's qualified names
        fall under, or (None, None)."""
        for name in sorted(self._qualified(node)):
            if name.split('.')[0] in pyremoved.MODULES:
                row = pyremoved.find(name)
                if row is not None:
                    return name, row
        return None, None

    def _bound_elsewhere(self, node, root):
        """Whether the name root is bound, where node is, to something other
        than the module of that name (a rewrite to root.x would hit it)."""
        scope = self.get_metadata(ScopeProvider, node, None)
        if scope is None or root not in scope:
            return False
        return any(q.name != root for q in scope.get_qualified_names_for(root))

    # -- imports ---------------------------------------------------------------

    def visit_Import(self, node):
        for alias in node.names:
            name = _code(alias.name)
            gone = _imports_row(name)
            if gone is not None:
                self._report(node, _message(gone, 'import ' + name), False, gone.old)
                continue
            row = pyremoved.find(name)
            if row is None:
                continue
            if row.fix is None and not self._all_rewritten(node, alias):
                self._at_imports.add(row.old)
                self._report(node, _message(row, 'import ' + name), False, row.old)
                continue
            if row.fix is None:
                self._report(node, 'import %s: gone since %s; its uses are rewritten (if it '
                             'has any), so the import goes' % (name, row.removed), True)
                self._removals.append((self.findings[-1], name))
            unused_imports.schedule(
                self.context, name, asname=alias.asname.name.value if alias.asname else None)
        return False

    def _all_rewritten(self, node, alias):
        """Whether every use of what the import alias binds is rewritten to
        something else (so the import goes unused)."""
        bound = (alias.asname.name.value if alias.asname else _code(alias.name).split('.')[0])
        return self._rewritten_away(node, bound)

    def _rewritten_away(self, node, bound):
        """Whether every reference, where node is, to the name bound is part
        of a use a row rewrites to another module's name (np.float ->
        float, but not np.float_ -> np.float64)."""
        scope = self.get_metadata(ScopeProvider, node, None)
        if scope is None or bound not in scope.assignments:
            return False
        for assignment in scope.assignments[bound]:
            for reference in assignment.references:
                chain, away = reference.node, False
                while not away and isinstance(self.get_metadata(ParentNodeProvider, chain, None),
                                              cst.Attribute):
                    chain = self.get_metadata(ParentNodeProvider, chain)
                    away = any(_drops_module(pyremoved.find(n), n) for n in self._qualified(chain))
                if not away:
                    return False
        return True

    def visit_ImportFrom(self, node):
        return False

    def leave_ImportFrom(self, original_node, updated_node):
        if isinstance(original_node.names, cst.ImportStar) or original_node.relative:
            return updated_node
        module = _code(original_node.module)
        gone = _imports_row(module)
        if gone is not None:
            self._report(original_node, _message(gone, 'from %s import ...' % module), False,
                         gone.old)
            return updated_node
        moved, kept, lines = {}, [], []
        for alias in original_node.names:
            name = module + '.' + alias.name.value
            row = pyremoved.find(name)
            local = alias.asname.name.value if alias.asname else alias.name.value
            if row is not None and row.fix in ('rename', 'value') and row.old == name:
                self._report(original_node, _message(row, 'from %s import %s' % (
                    module, alias.name.value)), True)
                lines += self._bind(row, local, moved, original_node)
                continue
            if row is not None and row.fix is None:
                self._at_imports.add(row.old)
                self._report(original_node, _message(row, 'from %s import %s' % (
                    module, alias.name.value)), False, row.old)
            elif row is not None:  # 'call' and 'getargspec' rows: rewritten at the call
                unused_imports.schedule(self.context, module, alias.name.value)
            kept.append(alias)
        if len(kept) == len(original_node.names):
            return updated_node
        self._new_lines += [cst.ImportFrom(module=_dotted(name), names=aliases)
                            for name, aliases in moved.items()] + lines
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated_node.with_changes(names=kept)
        return cst.RemoveFromParent()

    def _bind(self, row, local, moved, node):
        """What binds local, as `from M import old` did (at node), to row's
        new: an alias added to moved ({module: [ImportAlias]}) where new is
        a module's attribute, else the statements to write."""
        if row.fix == 'value':
            scope = self.get_metadata(ScopeProvider, node, None)
            return [cst.Import(names=[cst.ImportAlias(name=_dotted(name))])
                    for name in _modules_named(row.new)
                    if scope is None or name not in scope or
                    not any(q.name == name for q in scope.get_qualified_names_for(name))] + [
                cst.Assign(targets=[cst.AssignTarget(target=cst.Name(local))],
                           value=_expression(row))]
        new_module, _, new_name = row.new.rpartition('.')
        if new_module:
            moved.setdefault(new_module, []).append(cst.ImportAlias(
                name=cst.Name(new_name), asname=None if new_name == local else
                cst.AsName(name=cst.Name(local))))
            return []
        if hasattr(builtins, new_name):  # np.float -> float; int_classes -> int
            return [] if local == new_name else [cst.Assign(
                targets=[cst.AssignTarget(target=cst.Name(local))], value=cst.Name(new_name))]
        return [cst.Import(names=[cst.ImportAlias(  # a module: os.errno -> errno
            name=cst.Name(new_name),
            asname=None if local == new_name else cst.AsName(name=cst.Name(local)))])]

    def leave_SimpleStatementLine(self, original_node, updated_node):
        """The statements `from` imports became (leave_ImportFrom), each on
        a line of its own after the line of the original."""
        if not self._new_lines:
            return updated_node
        new, self._new_lines = self._new_lines, []
        lines = [cst.SimpleStatementLine(body=[statement]) for statement in new]
        if updated_node.body:
            return cst.FlattenSentinel([updated_node] + lines)
        lines[0] = lines[0].with_changes(leading_lines=updated_node.leading_lines)
        return cst.FlattenSentinel(lines)

    # -- uses --------------------------------------------------------------------

    def leave_Attribute(self, original_node, updated_node):
        if id(original_node) in self._keywords:  # getargspec(f).keywords
            return updated_node.with_changes(attr=cst.Name('varkw'))
        method = pyremoved.METHODS.get(original_node.attr.value)
        if method is not None and method.fix == 'rename':
            return self._rename_method(original_node, updated_node, method)
        self_row = pyremoved.SELF_METHODS.get(original_node.attr.value)
        if self_row is not None and m.matches(original_node.value, m.Name('self')):
            return self._rename_method(original_node, updated_node, self_row)
        name, row = self._row(original_node)
        if row is None or row.fix not in ('rename', 'value') or row.old != name:
            return updated_node
        if row.fix == 'value':
            return self._value(original_node, updated_node, row)
        return self._rename(original_node, updated_node, row)

    def _value(self, original, updated, row):
        """updated (an attribute naming row.old) written as row's
        expression."""
        for name in _modules_named(row.new):
            AddImportsVisitor.add_needed_import(self.context, name)
        self._forget(original.value, row.old.rpartition('.')[0])
        self._report(original, _message(row), True)
        new = _expression(row)
        return new.with_changes(lpar=updated.lpar or new.lpar, rpar=updated.rpar or new.rpar)

    def visit_Attribute(self, node):
        """A use of a reported row, where no import was reported: the whole
        attribute (torch.legacy.nn.Linear) is named, so this is done on the
        way down."""
        name, row = self._row(node)
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Attribute):  # torch._six in torch._six.inf, rewritten
            outer, outer_row = self._row(parent)
            if outer_row is not None and outer_row.fix is not None and outer_row.old == outer:
                return
        if row is not None and row.fix is None and row.old not in self._at_imports:
            self._report(node, _message(row, name if name == row.old else
                                        '%s (%s)' % (name, row.old)), False, row.old)

    def _rename_method(self, original, updated, row):
        name = row.new.rpartition('.')[2]
        self._report(original, _message(row, _code(original), '%s.%s' % (
            _code(original.value), name)), True)
        return updated.with_changes(attr=cst.Name(name))

    def _rename(self, original, updated, row):
        """updated (an attribute naming row.old) written as row.new."""
        old_module = row.old.rpartition('.')[0]
        new_module, _, new_name = row.new.rpartition('.')
        if not new_module:  # a builtin (np.float -> float) or a module (os.errno -> errno)
            new = cst.Name(new_name)
            if not hasattr(builtins, new_name):
                AddImportsVisitor.add_needed_import(self.context, new_name)
        elif new_module == old_module:
            new = updated.with_changes(attr=cst.Name(new_name))
        elif new_module.startswith(old_module + '.'):
            new = updated.with_changes(attr=cst.Name(new_name), value=_dotted(
                _code(updated.value) + new_module[len(old_module):]))
            AddImportsVisitor.add_needed_import(self.context, new_module)
        else:
            root = new_module.split('.')[0]
            if self._bound_elsewhere(original, root):
                self._report(original, _message(row._replace(fix=None), row.old) +
                             ' (not changed: %s names something else here)' % root, False)
                return updated
            new = _dotted(row.new)
            AddImportsVisitor.add_needed_import(self.context, new_module)
        if new_module != old_module:
            self._forget(original.value, old_module)
        self._report(original, _message(row), True)
        return new.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def _forget(self, value, module):
        """Asks for the import that binds value (naming module) to go, when
        the rewrites leave it unused (asking costs a pass over the file)."""
        root = value
        while isinstance(root, cst.Attribute):
            root = root.value
        if isinstance(root, cst.Name) and self._rewritten_away(root, root.value):
            unused_imports.schedule(
                self.context, module, asname=None if root.value == module.split('.')[0]
                else root.value)

    def leave_Name(self, original_node, updated_node):
        """A name `from` imported is rewritten with its import
        (leave_ImportFrom); one of a reported row is reported here when its
        import was not."""
        if isinstance(self.get_metadata(ParentNodeProvider, original_node, None),
                      (cst.Attribute, cst.ImportAlias)):
            return updated_node
        name, row = self._row(original_node)
        if row is not None and row.fix is None and row.old not in self._at_imports:
            self._report(original_node, _message(row, name), False, row.old)
        return updated_node

    # -- calls ---------------------------------------------------------------

    def _imported(self, node):
        """Whether node names what an import bound (a module: np.fft), not
        an object of the program's own."""
        return any(q.source == QualifiedNameSource.IMPORT
                   for q in self.get_metadata(QualifiedNameProvider, node, ()))

    def _method_row(self, func):
        """The 'method' row of a call `x.m(...)` of a tensor's method m that
        is gone, where x is neither self nor an import's name."""
        if not isinstance(func, cst.Attribute):
            return None
        row = pyremoved.METHODS.get(func.attr.value)
        if row is None or row.fix != 'method' or m.matches(func.value, m.Name('self')) or \
                self._imported(func.value):
            return None
        return row

    def leave_Call(self, original_node, updated_node):
        updated_node = self._keyword_rows(original_node, updated_node)
        method = self._method_row(original_node.func)
        if method is not None:
            return self._method_call(original_node, updated_node, method)
        called = self._qualified(original_node.func) & pyremoved.CALLS.keys()
        if called:
            return self._renamed_call(original_node, updated_node,
                                      pyremoved.CALLS[sorted(called)[0]])
        name, row = self._row(original_node.func)
        if row is None or row.old != name or row.fix not in ('call', 'getargspec'):
            return updated_node
        positional = [a for a in original_node.args if a.keyword is None and not a.star]
        if len(positional) != 1 or len(original_node.args) != 1:
            self._report(original_node, _message(row._replace(fix=None)) +
                         ' (not changed: its arguments are not one positional one)', False)
            return updated_node
        if row.fix == 'getargspec':
            return self._getargspec(original_node, updated_node, row)
        func = updated_node.func
        module = (_code(func.value) if isinstance(func, cst.Attribute)
                  else row.old.rpartition('.')[0])
        if not isinstance(func, cst.Attribute) and '{module}' in row.new:
            AddImportsVisitor.add_needed_import(self.context, module)
        argument = updated_node.args[0].value
        if not isinstance(argument, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            argument = argument.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        new = cst.parse_expression(row.new.format(_code(argument), module=module))
        self._report(original_node, _message(row, _code(original_node), _code(new)), True)
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def _method_call(self, original, updated, row):
        """x.m(args) -> new(x, args): a tensor's method that is gone, given as
        the function that takes the tensor first."""
        receiver = updated.func.value
        new = updated.with_changes(func=_dotted(row.new), args=[
            cst.Arg(receiver.with_changes(lpar=[], rpar=[]) if receiver.lpar else receiver)
        ] + list(updated.args))
        AddImportsVisitor.add_needed_import(self.context, row.new.rpartition('.')[0])
        self._report(original, _message(row, _code(original.func) + '()', '%s(%s%s)' % (
            row.new, _code(receiver), ', ...' if updated.args else '')), True)
        return new

    def _renamed_call(self, original, updated, row):
        """A call of a name that is something else today (CALLS: torch.fft
        is a module): the call's function is row.new."""
        shown = row.old[:-2] + '(...)'
        if row.fix != 'rename':
            self._report(original, _message(row, shown), False)
            return updated
        AddImportsVisitor.add_needed_import(self.context, row.new.rpartition('.')[0])
        self._report(original, _message(row, shown, row.new + '(...)'), True)
        return updated.with_changes(func=_dotted(row.new))

    def _keyword_rows(self, original, updated):
        """The call's keyword arguments that a KEYWORDS row names: renamed
        ('rename'), else reported."""
        owners = set(self._qualified(original.func))
        if isinstance(original.func, cst.Attribute) and not self._imported(original.func.value):
            owners.add('.' + original.func.attr.value)
        if not owners or not any(a.keyword for a in original.args):
            return updated
        args = list(updated.args)
        for i, arg in enumerate(original.args):
            if arg.keyword is None:
                continue
            row = next((pyremoved.KEYWORDS[(o, arg.keyword.value)] for o in sorted(owners)
                        if (o, arg.keyword.value) in pyremoved.KEYWORDS), None)
            if row is None:
                continue
            shown = '%s(%s=)' % (_code(original.func), arg.keyword.value)
            if row.fix == 'rename':
                self._report(original, _message(row, shown, '%s=' % row.new), True)
                args[i] = args[i].with_changes(keyword=cst.Name(row.new))
            else:
                self._report(original, _message(row, shown), False)
        return updated.with_changes(args=args)

    def _getargspec(self, original, call, row):
        """inspect.getargspec(f): getfullargspec(f) where only its first four
        fields are read (an attribute, an index, a name assigned the result
        and read so; unpacking them into four: then [:4]); `.keywords` is
        varkw there.  Otherwise reported."""
        func = call.func
        new_func = (func.with_changes(attr=cst.Name('getfullargspec'))
                    if isinstance(func, cst.Attribute) else cst.Name('getfullargspec'))
        new = call.with_changes(func=new_func)
        fields = self._fields_read(original)
        if fields is not None:
            self._keywords |= {id(a) for a in fields if a.attr.value == 'keywords'}
        elif self._unpacked_into(original) == 4:
            new = cst.Subscript(value=new, slice=[cst.SubscriptElement(cst.Slice(
                lower=None, upper=cst.Integer('4')))])
        else:
            self._report(original, _message(row._replace(fix=None), _code(original),
                                            _code(new)) + ' (not changed here, where the '
                         'result is kept whole)', False)
            return call
        if not isinstance(func, cst.Attribute):
            AddImportsVisitor.add_needed_import(self.context, 'inspect', 'getfullargspec')
        self._report(original, _message(row, _code(original), _code(new)), True)
        return new

    def _fields_read(self, node):
        """The attributes by which node's value is read, when it is read
        only by getargspec's fields (an attribute args, varargs, keywords or
        defaults, or an index), directly or through a name assigned it; else
        None."""
        parent = self.get_metadata(ParentNodeProvider, node)
        if isinstance(parent, cst.Attribute) and parent.attr.value in _ARGSPEC_FIELDS:
            return [parent]
        if isinstance(parent, cst.Subscript):
            return []
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and
                isinstance(parent.targets[0].target, cst.Name)):
            return None
        scope = self.get_metadata(ScopeProvider, parent.targets[0].target, None)
        name = parent.targets[0].target.value
        if scope is None or len(scope.assignments[name]) != 1:
            return None
        fields = []
        for reference in next(iter(scope.assignments[name])).references:
            use = self.get_metadata(ParentNodeProvider, reference.node, None)
            if isinstance(use, cst.Attribute) and use.attr.value in _ARGSPEC_FIELDS:
                fields.append(use)
            elif not isinstance(use, cst.Subscript):
                return None
        return fields

    def _unpacked_into(self, node):
        """The number of targets node is unpacked into (a, b = node), or 0."""
        parent = self.get_metadata(ParentNodeProvider, node)
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(
                parent.targets[0].target, (cst.Tuple, cst.List)):
            return len(parent.targets[0].target.elements)
        return 0

    # -- Python 2's integer division ---------------------------------------------

    def _int(self, node, depth=0):
        """Whether node is provably a Python int."""
        if depth > 4:
            return False
        if isinstance(node, cst.Integer):
            return True
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus,
                                                                               cst.Plus)):
            return self._int(node.expression, depth + 1)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _INT_OPERATORS):
            return self._int(node.left, depth + 1) and self._int(node.right, depth + 1)
        if isinstance(node, cst.Call):
            if self._qualified(node.func) & _INT_CALLS:
                return True
            return (isinstance(node.func, cst.Attribute) and node.func.attr.value in _INT_METHODS
                    and not (node.func.attr.value == 'size' and not node.args))
        if isinstance(node, cst.Name):
            values = self._assigned(node)
            return bool(values) and all(v is not None and self._int(v, depth + 1)
                                        for v in values)
        return False

    def _assigned(self, name):
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None or name.value not in scope.assignments:
            return []
        values = []
        for assignment in scope.assignments[name.value]:
            target = getattr(assignment, 'node', None)
            parent = target is not None and self.get_metadata(ParentNodeProvider, target, None)
            if isinstance(parent, cst.AssignTarget):
                values.append(self.get_metadata(ParentNodeProvider, parent).value)
            elif isinstance(parent, cst.AugAssign) and parent.target is target:
                # Python 2's int /= int stayed an int (and becomes //= here).
                values.append(parent.value if isinstance(parent.operator, (
                    cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign,
                    cst.FloorDivideAssign, cst.DivideAssign)) else None)
            else:
                values.append(None)
        return values

    def _float(self, node):
        """Whether node is provably a float: a float literal or float(...)."""
        return isinstance(node, cst.Float) or isinstance(node, cst.Call) and bool(
            self._qualified(node.func) & {'builtins.float'})

    def _division(self, left, right):
        """'int' when both sides are ints, 'unknown' when neither is a float
        (their types known only as the code runs), else None (a Python 3
        file's, or one with `from __future__ import division`)."""
        if not self.python2 or self._float(left) or self._float(right):
            return None
        return 'int' if self._int(left) and self._int(right) else 'unknown'

    def leave_BinaryOperation(self, original_node, updated_node):
        if not isinstance(original_node.operator, cst.Divide):
            return updated_node
        return self._floor_if_int(original_node, updated_node, original_node.left,
                                  original_node.right, cst.FloorDivide, '//')

    def leave_AugAssign(self, original_node, updated_node):
        if not isinstance(original_node.operator, cst.DivideAssign):
            return updated_node
        return self._floor_if_int(original_node, updated_node, original_node.target,
                                  original_node.value, cst.FloorDivideAssign, '//=')

    def _floor_if_int(self, original_node, updated_node, left, right, floor, symbol):
        """Python 2's `/` (or `/=`) of two provable integers becomes `symbol`;
        one whose operands' types are known only as it runs, old_div."""
        kind = self._division(left, right)
        text = _code(original_node).strip()
        if kind == 'int':
            self._report(original_node, 'Python 2 integer division %s: now %s (Python 2\'s / '
                         'of two integers floored; Python 3\'s gives a float)' % (text, symbol), True)
            return updated_node.with_changes(operator=floor(
                whitespace_before=updated_node.operator.whitespace_before,
                whitespace_after=updated_node.operator.whitespace_after))
        if kind is None or self.integer_tensor(left):
            return updated_node
        if isinstance(updated_node, cst.AugAssign) and not m.matches(
                updated_node.target, m.Name() | m.Attribute(value=m.Name())):
            self._report(original_node, 'Python 2 division %s not changed: Python 2 floored it '
                         'when both sides were integers; write %s = old_div(%s, ...) (from '
                         'thffi.runtime.python2) with the target read once' % (
                             text, _code(left).strip(), _code(left).strip()), False)
            return updated_node
        AddImportsVisitor.add_needed_import(self.context, 'thffi.runtime.python2', 'old_div')
        call = cst.Call(func=cst.Name('old_div'), args=[
            cst.Arg((updated_node.target if isinstance(updated_node, cst.AugAssign)
                     else updated_node.left).with_changes(lpar=[], rpar=[]),
                    comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(' '))),
            cst.Arg((updated_node.value if isinstance(updated_node, cst.AugAssign)
                     else updated_node.right).with_changes(lpar=[], rpar=[]))])
        self._report(original_node, 'Python 2 division %s: now old_div(...) '
                     '(thffi.runtime.python2: floor division where both sides are integers as '
                     'it runs, as Python 2\'s /; else true division)' % text, True)
        if isinstance(updated_node, cst.AugAssign):
            return cst.Assign(targets=[cst.AssignTarget(updated_node.target)], value=call,
                              semicolon=updated_node.semicolon)
        return call.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
