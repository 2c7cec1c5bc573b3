"""Views handed to C, for `python -m thffi port`'s report: a call into an
ffi extension (a function of a module the build scripts' create_extension
makes, or of any `_ext` module) with an argument that is a view made by
permute, transpose, t, narrow, expand, select or a slice, with no
.contiguous() after it, directly or through simple local assignments
(`x = feats.permute(0, 2, 3, 1)` then `my_lib.f(x)`).  Legacy C indexed
THFloatTensor_data as if the tensor were contiguous; thffi hands C the
memory as it is (as PyTorch 0.4 did), so such a call reads the wrong
elements.  A call of a C function that reads strides or asks for contiguity
(c.layouts()) is not reported."""

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider, QualifiedNameProvider, \
    ScopeProvider

from .report import Finding

# Methods whose result may be a non-contiguous view of their receiver (dim 0
# of select and narrow excepted: a block of rows stays contiguous).
_VIEWS = {'permute', 'transpose', 't', 'narrow', 'expand', 'expand_as', 'select', 'unfold',
          'diagonal', 'as_strided', 'movedim', 'swapaxes', 'swapdims'}
_ATTRIBUTE_VIEWS = {'T', 'mT', 'H'}
# Methods that return their receiver's layout (or the receiver itself).
_SAME_LAYOUT = {'float', 'double', 'half', 'long', 'int', 'byte', 'cuda', 'cpu', 'detach',
                'type', 'to', 'type_as', 'clone', 'requires_grad_', 'detach_'}


def ffi_function(qualified_names, extensions):
    """The C function a call's func names (given by its QualifiedNames), if
    it is one of an ffi extension: of a module the build scripts'
    create_extension makes (extensions: their dotted names), or of any
    `_ext` module; else None."""
    for q in qualified_names:
        dotted = '.' + q.name.lstrip('.')
        module, _, name = dotted.rpartition('.')
        if '._ext.' in dotted or any(module.endswith('.' + e) for e in extensions):
            return name
    return None


def _code(node):
    return cst.Module(body=[]).code_for_node(node)


class Views(cst.CSTVisitor):
    """Collects the calls into ffi extensions that pass views:
    calls = [(line, function name, argument position, the argument's code,
    the code that made the view, its line)]."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, PositionProvider,
                             ScopeProvider)

    def __init__(self, extensions=()):
        super().__init__()
        self.extensions = tuple(extensions)
        self.calls = []

    def _line(self, node):
        return self.get_metadata(PositionProvider, node).start.line

    def visit_Call(self, node):
        name = ffi_function(self.get_metadata(QualifiedNameProvider, node.func, ()),
                            self.extensions)
        if name is None:
            return
        for position, arg in enumerate(node.args, 1):
            view = self._view(arg.value, self._line(node))
            if view is not None:
                self.calls.append((self._line(node), name, position, _code(arg.value)) + view)

    def _view(self, node, line, depth=0):
        """(code, line) of the expression that made node, if node may be a
        non-contiguous view, else None; line: where node is."""
        if depth > 4:
            return None
        if makes_view(node):
            return _code(node), line
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value in _SAME_LAYOUT:
                return self._view(node.func.value, line, depth + 1)
            return None  # .contiguous(), and anything else
        if isinstance(node, cst.Attribute):
            return self._view(node.value, line, depth + 1) if node.attr.value == 'data' \
                else None
        if isinstance(node, cst.Name):
            value, where = self._last_assigned(node, line)
            return None if value is None else self._view(value, where, depth + 1)
        return None

    def _last_assigned(self, name, line):
        """(value, line) of the last `name = value` of name's scope before
        line, or (None, 0)."""
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None or name.value not in scope.assignments:
            return None, 0
        best = (None, 0)
        for assignment in scope.assignments[name.value]:
            target = getattr(assignment, 'node', None)
            parent = target is not None and self.get_metadata(ParentNodeProvider, target, None)
            if not isinstance(parent, cst.AssignTarget):
                continue
            where = self._line(target)
            if best[1] <= where < line:
                best = (self.get_metadata(ParentNodeProvider, parent).value, where)
        return best


def makes_view(node):
    """Whether the expression node itself makes a view that may not be
    contiguous: x.permute(...), x.t(), x.narrow(1, ...) (not of dim 0),
    x.T, x[:, 1:] (_strided())."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        method = node.func.attr.value
        return method in _VIEWS and not (method in ('select', 'narrow') and node.args and
                                         isinstance(node.args[0].value, cst.Integer) and
                                         node.args[0].value.value == '0')
    if isinstance(node, cst.Attribute):
        return node.attr.value in _ATTRIBUTE_VIEWS
    return isinstance(node, cst.Subscript) and _strided(node.slice)


def _strided(elements):
    """Whether a subscript's elements may make a non-contiguous view: a
    step, or any restriction of a dimension after the first one indexed
    whole or in part (x[:, 1], x[2:5, :3], x[..., 0]); x[0], x[1:3], x[0, 2:4]
    stay contiguous."""
    outer = True  # no dimension before this one is kept (whole or in part)
    for element in elements:
        index = element.slice
        if isinstance(index, cst.Slice):
            if index.step is not None:
                return True
            whole = index.lower is None and index.upper is None
            if not whole and not outer:
                return True
            outer = False
        elif isinstance(index.value, cst.Ellipsis):
            outer = False
        elif isinstance(index.value, cst.Name) and index.value.value == 'None':
            continue
        elif not outer:
            return True
    return False


def report(calls, path, c_layouts):
    """[Finding] for Views.calls in the file at path; c_layouts: {function:
    (C file, whether it checks layout)} of the C the build compiles."""
    findings = []
    for line, name, position, argument, view, made_at in calls:
        where = c_layouts.get(name)
        if where is not None and where[1]:
            continue
        c = ('its C (%s, %s()) indexes the memory as if contiguous (no _stride, isContiguous '
             'or newContiguous)' % (where[0], name) if where else
             'legacy C commonly indexes the memory as if contiguous')
        made = ('' if argument == view else ' (made by %s)' % view if made_at == line
                else ' (made by %s on line %d)' % (view, made_at))
        findings.append(Finding(path, line, '%s(...): argument %d, %s%s, is a view that may '
                                'not be contiguous, and %s: pass %s.contiguous()' % (
                                    name, position, argument, made, c, argument), False))
    return findings
