"""`t.data` handed to C, for `python -m thffi port`: in the arguments of a
call into an ffi extension (layout.ffi_function), `t.data` becomes `t`.

On PyTorch 0.4, `t.data` was t's own tensor without its autograd part: C
that resized or set it (`THFloatTensor_resizeAs(output, input)`) changed t.
`output = Variable(torch.FloatTensor()); my_lib.f(x.data, output.data)`
left output with the C's shape.  Today `.data` is a new tensor sharing t's
memory, not t: the C resizes that one, and output stays empty.  Handed t
itself, thffi's runtime gives C t's data (a tensor that requires grad is
detached first) and lands a change of shape on t (on t.data where t
requires grad, as a Parameter; a non-leaf that requires grad is refused):
what 0.4 did.  C that only reads the argument sees the same either way.

The rewrite is made where t is known to be a tensor, since `.data` of any
other object (a PackedSequence, a Function instance's own attribute) is
something else: a name that its scope assigns only tensors (a torch
factory or Variable(...), nn.Parameter, a tensor method such as .new() or
.cuda(), an unpacked .saved_tensors) or that is a parameter of a Function's
forward or backward, or `self.x` that its class assigns only tensors.
Other receivers are reported."""

import libcst as cst
import libcst.matchers as m
from libcst.metadata import (ParentNodeProvider, PositionProvider, QualifiedNameProvider,
                             ScopeProvider)

from .layout import ffi_function
from .report import Finding

_FUNCTION_BASES = {'torch.autograd.Function', 'torch.autograd.function.Function',
                   'thffi.legacy.Function'}
_TENSOR_CLASSES = {'torch.autograd.Variable', 'torch.autograd.variable.Variable',
                   'torch.nn.Parameter', 'torch.nn.parameter.Parameter'}
_FACTORIES = {'Tensor', 'FloatTensor', 'DoubleTensor', 'HalfTensor', 'LongTensor', 'IntTensor',
              'ShortTensor', 'CharTensor', 'ByteTensor', 'zeros', 'ones', 'empty', 'full',
              'rand', 'randn', 'randint', 'randperm', 'arange', 'eye', 'tensor', 'from_numpy',
              'zeros_like', 'ones_like', 'empty_like', 'full_like', 'rand_like', 'randn_like',
              'stack', 'cat'}
# Methods of a tensor that return a tensor (and that no object likely to
# be handed to C with .data has besides).
_TENSOR_METHODS = {'new', 'new_zeros', 'new_ones', 'new_empty', 'new_full', 'new_tensor',
                   'clone', 'contiguous', 'cuda', 'float', 'double', 'half', 'long', 'int',
                   'byte', 'view', 'view_as', 'zero_', 'fill_', 'detach', 'resize_',
                   'resize_as_', 'type_as', 'permute', 'transpose', 'unsqueeze', 'squeeze'}


def _code(node):
    return cst.Module(body=[]).code_for_node(node)


def _listed(arguments):
    return ', '.join('%s.data (argument %d)' % a for a in arguments)


class DataArguments(cst.CSTTransformer):
    """Rewrites `t.data` in the arguments of ffi calls where t is known to
    be a tensor; findings: per call, one for those made, one for those left."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, PositionProvider,
                             ScopeProvider)

    def __init__(self, path, extensions=()):
        super().__init__()
        self.path = path
        self.extensions = tuple(extensions)
        self.findings = []
        self._classes = {}  # ClassDef -> {attribute: whether self.<attribute> is a tensor}

    def leave_Call(self, original_node, updated_node):
        name = ffi_function(self.get_metadata(QualifiedNameProvider, original_node.func, ()),
                            self.extensions)
        if name is None or len(original_node.args) != len(updated_node.args):
            return updated_node
        args = list(updated_node.args)
        made, left = [], []  # (receiver, position)
        for position, (before, arg) in enumerate(zip(original_node.args, updated_node.args), 1):
            if before.star or not m.matches(before.value, m.Attribute(attr=m.Name('data'))) \
                    or not m.matches(arg.value, m.Attribute(attr=m.Name('data'))):
                continue
            receiver = _code(before.value.value)
            if not self._tensor(before.value.value):
                left.append((receiver, position))
                continue
            value = arg.value.value
            if arg.value.lpar and not value.lpar:
                value = value.with_changes(lpar=arg.value.lpar, rpar=arg.value.rpar)
            args[position - 1] = arg.with_changes(value=value)
            made.append((receiver, position))
        line = self.get_metadata(PositionProvider, original_node).start.line
        if made:
            self.findings.append(Finding(
                self.path, line, '%s(...): %s: now %s (on PyTorch 0.4 x.data was x itself, '
                'so C that resized or set it changed x; today it is another tensor over the '
                'same memory, and such a change would be lost)' % (
                    name, _listed(made), ', '.join(r for r, _ in made)), True))
        if left:
            self.findings.append(Finding(
                self.path, line, '%s(...): %s not changed (not known to be %s): where x is a '
                'tensor, write x, or a change of shape its C makes is lost (on PyTorch 0.4 '
                'x.data was x itself; today it is another tensor over the same memory)' % (
                    name, _listed(left), 'a tensor' if len(left) == 1 else 'tensors'), False))
        return updated_node.with_changes(args=args)

    # -- is it a tensor? -------------------------------------------------------

    def _qualified(self, node):
        return {q.name for q in self.get_metadata(QualifiedNameProvider, node, ())}

    def _parent(self, node):
        return self.get_metadata(ParentNodeProvider, node, None)

    def _tensor(self, node):
        if isinstance(node, cst.Name):
            scope = self.get_metadata(ScopeProvider, node, None)
            assignments = list(scope[node.value]) if scope is not None else []
            return bool(assignments) and all(self._tensor_assignment(a.node)
                                             for a in assignments)
        if m.matches(node, m.Attribute(value=m.Name('self'), attr=m.Name())):
            owner = self._enclosing(node, cst.ClassDef)
            return owner is not None and self._attributes(owner).get(node.attr.value, False)
        return False

    def _tensor_value(self, value):
        """Whether an expression makes a tensor."""
        if not isinstance(value, cst.Call):
            return False
        if m.matches(value.func, m.Attribute(attr=m.Name())) and \
                value.func.attr.value in _TENSOR_METHODS:
            return True
        return any(q in _TENSOR_CLASSES or q.startswith(('torch.', 'torch.cuda.')) and
                   q.rsplit('.', 1)[1] in _FACTORIES and q.count('.') <= 2
                   for q in self._qualified(value.func))

    def _tensor_assignment(self, target):
        """Whether what an assignment binds (its node in libcst's scope
        analysis) is a tensor."""
        if isinstance(target, cst.Param):
            return self._function_input(target)
        parent = self._parent(target)
        if isinstance(parent, cst.AssignTarget):
            return self._tensor_value(self._parent(parent).value)
        if isinstance(parent, cst.Element):  # a, b = ctx.saved_tensors
            unpacked = self._parent(parent)
            holder = self._parent(unpacked)
            return isinstance(holder, cst.AssignTarget) and m.matches(
                self._parent(holder).value,
                m.Attribute(attr=m.Name('saved_tensors') | m.Name('saved_variables')))
        return False

    def _function_input(self, param):
        """A parameter of forward or backward of an autograd Function
        (legacy or modern), but the first (self or ctx)."""
        function = self._enclosing(param, cst.FunctionDef)
        if function is None or function.name.value not in ('forward', 'backward') or \
                not function.params.params or function.params.params[0] is param or \
                param not in function.params.params:
            return False
        owner = self._enclosing(function, cst.ClassDef)
        return owner is not None and any(
            self._qualified(base.value) & _FUNCTION_BASES for base in owner.bases)

    def _enclosing(self, node, kind):
        node = self._parent(node)
        while node is not None and not isinstance(node, kind):
            node = self._parent(node)
        return node

    def _attributes(self, classdef):
        """{name: whether every `self.name = value` of the class makes a tensor}."""
        known = self._classes.get(classdef)
        if known is None:
            known = self._classes[classdef] = {}
            tensor_value = self._tensor_value

            class Assignments(cst.CSTVisitor):
                def visit_Assign(self, assign):
                    for target in assign.targets:
                        if m.matches(target.target, m.Attribute(value=m.Name('self'),
                                                                attr=m.Name())):
                            name = target.target.attr.value
                            known[name] = known.get(name, True) and tensor_value(assign.value)

                def visit_ClassDef(self, inner):
                    return inner is classdef  # a nested class has a self of its own

            classdef.visit(Assignments())
        return known
