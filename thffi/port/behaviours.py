"""The PyTorch 0.x behaviours that changed silently (the script runs, the
numbers differ), for `python -m thffi port`: rewritten where today's
PyTorch has an exact equivalent, reported with the line and what to write
otherwise.  `version` is the PyTorch the code was written for ('0.1' to
'0.4', see version.py).

- An integer tensor divided by `/` or `/=` truncated in 0.x; today it is
  true division (a float result, or an error in place).  Where the left
  operand is known to be an integer tensor (.long(), torch.LongTensor,
  dtype=torch.long, indices from max/min/sort/topk/argmax/nonzero, a name
  assigned only those): torch.div(a, b, rounding_mode='trunc') and
  a.div_(b, rounding_mode='trunc').
- Before 0.2, reductions with a dim kept it: x.sum(1) is x.sum(1,
  keepdim=True) (version 0.1 only; a dim that is not an int literal is
  reported, as x.max(y) is elementwise).
- size_average= / reduce= (literals): the equivalent reduction=.
- x.volatile = ...: reported (volatile does nothing today: torch.no_grad()).
- F.upsample, F.upsample_bilinear, F.upsample_nearest: F.interpolate with
  the same arguments; bilinear (linear, trilinear, bicubic) modes keep the
  corner alignment of the version: align_corners=True before 0.4 (and
  always for upsample_bilinear), False in 0.4.  nn.Upsample with such a
  mode and no align_corners, before 0.4: align_corners=True.
- torch.cuda.device(n) for n >= 1 (an error where the device does not
  exist), requires_grad on an integer tensor (an error today): reported.
- toolchain/tensor_behaviours.py's changed defaults, written as 0.x had
  them where the call does not give the parameter (OLD_DEFAULTS:
  F.grid_sample and F.affine_grid align_corners=True, F.dropout training=
  False, optim.LBFGS tolerance_grad=1e-5); written for 0.4, F.interpolate,
  F.upsample and nn.Upsample with a scale_factor that is not a whole
  number: recompute_scale_factor=True (sampled by the ratio of the sizes).
- toolchain/tensor_behaviours.py's other rows, reported with what to write: a
  type conversion of a view (x.t().double(), directly or through a name)
  then viewed or resized (0.x's was contiguous); type(x).__name__ or
  x.__class__.__name__ compared with a tensor class name ('FloatTensor':
  never true since 0.4); before 0.4, pad_packed_sequence (its lengths were
  a list).

`.cuda(async=True)` is a SyntaxError since Python 3.7, so it is rewritten
before parsing (python.py, fix_async)."""

import io
import tokenize

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, QualifiedNameProvider, \
    ScopeProvider

from ..toolchain import tensor_behaviours
from .layout import makes_view
from .report import Finding

# The legacy autograd classes python.py rewrites (triggers.py looks for them).
FUNCTION_CLASSES = {'torch.autograd.Function', 'torch.autograd.function.Function'}
VARIABLE_CLASSES = {'torch.autograd.Variable', 'torch.autograd.variable.Variable'}
_INT_DTYPES = {'torch.' + n for n in ('long', 'int64', 'int', 'int32', 'short', 'int16',
                                       'int8', 'uint8', 'char', 'byte')}
_INT_TYPES = ('LongTensor', 'IntTensor', 'ShortTensor', 'CharTensor', 'ByteTensor')
_INT_METHODS = ('long', 'int', 'short', 'char', 'byte', 'nonzero', 'argmax', 'argmin')
_INT_FUNCTIONS = {'torch.' + n for n in ('nonzero', 'argmax', 'argmin', 'randperm')}
# Reductions returning (values, indices) with a dim: the indices are int64.
_WITH_INDICES = ('max', 'min', 'sort', 'topk', 'kthvalue', 'mode', 'median')
# Reductions that, with a dim, kept it before 0.2; the dim's position
# among the method's arguments.
_KEEPDIM = {'sum': 0, 'mean': 0, 'prod': 0, 'max': 0, 'min': 0, 'std': 0, 'var': 0,
            'median': 0, 'mode': 0, 'norm': 1}
_CORNER_MODES = ('linear', 'bilinear', 'trilinear', 'bicubic')
_UPSAMPLE = {'torch.nn.functional.' + n for n in ('upsample', 'upsample_bilinear',
                                                   'upsample_nearest')}
_REDUCTION = {(True, True): 'mean', (False, True): 'sum'}  # (size_average, reduce)
# What a converted view is then given to, that reads its layout.
_READS_LAYOUT = ('view', 'resize_', 'resize_as_')
_DTYPES = {'Float': 'float32', 'Double': 'float64', 'Half': 'float16', 'Byte': 'uint8',
           'Char': 'int8', 'Short': 'int16', 'Int': 'int32', 'Long': 'int64'}
_PAD_PACKED = 'torch.nn.utils.rnn.pad_packed_sequence'
# callable: (its parameter, its place among the positional arguments, 0.x's value, the row).
_OLD_DEFAULTS = {d[0]: d[1:] for d in tensor_behaviours.OLD_DEFAULTS}
_UPSAMPLE_MODULES = {'torch.nn.Upsample', 'torch.nn.modules.upsampling.Upsample'}


def fix_async(source):
    """(source with `async=` keyword arguments renamed non_blocking=, [line
    numbers changed]): `.cuda(async=True)` is a SyntaxError since Python
    3.7 (async became a keyword), so this works on tokens, before parsing."""
    if 'async' not in source:
        return source, []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source, []
    found = [token.start for before, token, after in zip(tokens, tokens[1:], tokens[2:])
             if token.type == tokenize.NAME and token.string == 'async'
             and before.string in ('(', ',') and after.string == '=']
    lines = source.splitlines(keepends=True)
    for row, col in reversed(found):  # from the end: earlier columns stay
        line = lines[row - 1]
        lines[row - 1] = line[:col] + 'non_blocking' + line[col + len('async'):]
    return ''.join(lines), sorted({row for row, _ in found})


def _keyword(call, name):
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name),
                None)


def _positional(call):
    return [a for a in call.args if a.keyword is None and not a.star]


def _string(node):
    return node.evaluated_value if isinstance(node, cst.SimpleString) else None


def _bool(node):
    return {'True': True, 'False': False}.get(node.value) if isinstance(node, cst.Name) \
        else None


def _arg(keyword, value):
    return cst.Arg(keyword=cst.Name(keyword), value=value,
                   equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(''),
                                         whitespace_after=cst.SimpleWhitespace('')))


def _said(name, what, write, verb='write'):
    """A report of toolchain/tensor_behaviours.py's row name: what the code
    does, what the old releases did and today's does, what to write (verb
    'now': what port wrote)."""
    rule = tensor_behaviours.RULES[name]
    return '%s: PyTorch %s %s; today %s: %s %s' % (what, rule.versions, rule.then, rule.now,
                                                  verb, write)


def _whole(node):
    """Whether node is a number literal with a whole value, or a tuple or
    list of them (a scale factor that samples alike either way)."""
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(_whole(e.value) for e in node.elements)
    return isinstance(node, (cst.Integer, cst.Float)) and float(node.evaluated_value).is_integer()


def _class_name(node):
    """The code of x where node is type(x).__name__ or x.__class__.__name__."""
    if not m.matches(node, m.Attribute(attr=m.Name('__name__'))):
        return None
    owner = node.value
    if m.matches(owner, m.Call(func=m.Name('type'), args=[m.Arg(keyword=None)])):
        return cst.Module(body=[]).code_for_node(owner.args[0].value)
    if m.matches(owner, m.Attribute(attr=m.Name('__class__'))):
        return cst.Module(body=[]).code_for_node(owner.value)
    return None


def _tensor_class_names(node):
    """The tensor class names ('FloatTensor'...) a string, or a tuple, list
    or set of strings, holds."""
    values = [node] if isinstance(node, cst.SimpleString) else [
        e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List, cst.Set)) \
        else []
    return [v for v in map(_string, values) if v in tensor_behaviours.TENSOR_CLASS_NAMES]


def _with_arg(call, arg):
    args = list(call.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(' ')))
    return call.with_changes(args=args + [arg])


class Behaviours(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, PositionProvider,
                             ScopeProvider)

    def __init__(self, path, version):
        super().__init__()
        self.path = path
        self.version = version
        self.findings = []
        self.needs_torch = False  # a rewrite wrote torch.div

    def _report(self, node, message, fixed=True):
        line = self.get_metadata(PositionProvider, node).start.line
        self.findings.append(Finding(self.path, line, message, fixed))

    def _qualified(self, node):
        return {q.name for q in self.get_metadata(QualifiedNameProvider, node, ())}

    # -- integer tensors ----------------------------------------------------

    def integer_tensor(self, node):
        """Whether node is known to be an integer tensor (its `/` is this
        pass's to rewrite)."""
        return self._int_tensor(node)

    def _int_tensor(self, node, depth=0):
        """Whether node is known to be an integer tensor."""
        if depth > 4:
            return False
        if isinstance(node, cst.Call):
            names = self._qualified(node.func)
            dtype = _keyword(node, 'dtype')
            if dtype is not None:
                return bool(self._qualified(dtype.value) & _INT_DTYPES)
            if names & _INT_FUNCTIONS or any(n.rsplit('.', 1)[-1] in _INT_TYPES and
                                             n.startswith('torch.') for n in names):
                return True
            if isinstance(node.func, cst.Attribute):
                name = node.func.attr.value
                if name in _INT_METHODS and not _positional(node) or name in ('nonzero',
                                                                             'argmax', 'argmin'):
                    return True
                if name == 'type' and node.args:
                    kind = node.args[0].value
                    text = _string(kind) or '.'.join(sorted(self._qualified(kind)))
                    return any(t in text for t in _INT_TYPES)
            return False
        if m.matches(node, m.Subscript(slice=[m.SubscriptElement(
                slice=m.Index(value=m.Integer('1')))])):
            return self._indices(node.value)
        if isinstance(node, cst.Name):
            values = self._assigned(node)
            return bool(values) and all(v is not None and self._int_tensor(v, depth + 1)
                                        for v in values)
        return False

    def _indices(self, call):
        """A call that returns (values, indices): x.max(1), x.sort()..."""
        return (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                and call.func.attr.value in _WITH_INDICES
                and (call.func.attr.value == 'sort' or bool(call.args)))

    def _assigned(self, name):
        """The values name's scope assigns it; the indices of `_, i =
        x.max(1)` as x.max(1)[1]; None for any other binding."""
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None or name.value not in scope.assignments:
            return []
        values = []
        for assignment in scope.assignments[name.value]:
            target = getattr(assignment, 'node', None)
            parent = target is not None and self.get_metadata(ParentNodeProvider, target)
            if isinstance(parent, cst.AssignTarget):
                values.append(self.get_metadata(ParentNodeProvider, parent).value)
            elif isinstance(parent, cst.Element):
                pair = self.get_metadata(ParentNodeProvider, parent)
                statement = self.get_metadata(ParentNodeProvider, pair)
                if (isinstance(pair, cst.Tuple) and len(pair.elements) == 2
                        and pair.elements[1] is parent
                        and isinstance(statement, cst.AssignTarget)):
                    value = self.get_metadata(ParentNodeProvider, statement).value
                    values.append(cst.Subscript(value=value, slice=[cst.SubscriptElement(
                        cst.Index(cst.Integer('1')))]) if self._indices(value) else None)
                else:
                    values.append(None)
            elif not (isinstance(parent, cst.AugAssign) and parent.target is target):
                values.append(None)
        return values

    def leave_BinaryOperation(self, original_node, updated_node):
        if isinstance(original_node.operator, cst.Divide) and self._int_tensor(
                original_node.left):
            self._report(original_node, 'integer tensor / : 0.x truncated, today it is true '
                         'division; now torch.div(a, b, rounding_mode=\'trunc\')')
            self.needs_torch = True
            return cst.Call(func=cst.parse_expression('torch.div'), args=[
                cst.Arg(updated_node.left.with_changes(lpar=[], rpar=[]),
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(' '))),
                cst.Arg(updated_node.right.with_changes(lpar=[], rpar=[]),
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(' '))),
                _arg('rounding_mode', cst.SimpleString("'trunc'"))],
                lpar=updated_node.lpar, rpar=updated_node.rpar)
        return updated_node

    def leave_AugAssign(self, original_node, updated_node):
        if isinstance(original_node.operator, cst.DivideAssign) and self._int_tensor(
                original_node.target):
            self._report(original_node, 'integer tensor /= : 0.x truncated, today it is true '
                         'division (an error in place); now a.div_(b, rounding_mode=\'trunc\')')
            return cst.Expr(cst.Call(
                func=cst.Attribute(value=updated_node.target, attr=cst.Name('div_')),
                args=[cst.Arg(updated_node.value,
                              comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(' '))),
                      _arg('rounding_mode', cst.SimpleString("'trunc'"))]))
        return updated_node

    # -- calls -----------------------------------------------------------------

    def leave_Call(self, original_node, updated_node):
        names = self._qualified(original_node.func)
        self._converted_view(original_node)
        if _PAD_PACKED in names and self.version < '0.4':
            self._pad_packed(original_node)
        if names & _UPSAMPLE:
            return self._scale_factor(original_node, self._upsample(
                original_node, updated_node, names), (1, 2))
        if any(n.startswith('torch.nn.') and (n.endswith('Loss') or
                                              n.startswith('torch.nn.functional.'))
               for n in names):
            updated_node = self._reduction(original_node, updated_node)
        if names & _UPSAMPLE_MODULES:
            return self._scale_factor(original_node, self._upsample_module(
                original_node, updated_node), tensor_behaviours.SCALED['torch.nn.Upsample'])
        if 'torch.nn.functional.interpolate' in names:
            return self._scale_factor(original_node, updated_node, tensor_behaviours.SCALED[
                'torch.nn.functional.interpolate'])
        for path in names & set(_OLD_DEFAULTS):
            return self._old_default(original_node, updated_node, path)
        if 'torch.cuda.device' in names and original_node.args and isinstance(
                original_node.args[0].value, cst.Integer) and int(
                    original_node.args[0].value.value) >= 1:
            self._report(original_node, 'torch.cuda.device(%s) raises where there is no GPU %s: '
                         'guard it with `if torch.cuda.device_count() > %s:`' % ((
                             original_node.args[0].value.value,) * 3), fixed=False)
        self._requires_grad(original_node, names)
        if self.version == '0.1':
            return self._keepdim(original_node, updated_node, names)
        return updated_node

    def _reduction(self, original, call):
        size_average, reduce = _keyword(call, 'size_average'), _keyword(call, 'reduce')
        if size_average is None and reduce is None:
            return call
        values = [True if a is None else _bool(a.value) for a in (size_average, reduce)]
        if None in values or _keyword(call, 'reduction') is not None:
            self._report(original, 'size_average=/reduce= not changed (not True/False): write '
                         "reduction='mean', 'sum' or 'none'", fixed=False)
            return call
        reduction = _REDUCTION.get(tuple(values), 'none')
        given = ', '.join('%s=%s' % (key, value) for key, arg, value in zip(
            ('size_average', 'reduce'), (size_average, reduce), values) if arg is not None)
        self._report(original, "%s: now reduction='%s'" % (given, reduction))
        # reduction= takes the place of the first of them (and its line).
        first = next(a for a in call.args if a in (size_average, reduce))
        args = [_arg('reduction', cst.SimpleString("'%s'" % reduction)).with_changes(
            comma=a.comma) if a is first else a for a in call.args
            if a is first or a not in (size_average, reduce)]
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma)
        return call.with_changes(args=args)

    def _upsample(self, original, call, names):
        name = next(iter(names & _UPSAMPLE)).rsplit('.', 1)[1]
        if not isinstance(call.func, cst.Attribute):
            self._report(original, '%s(...) not changed: write F.interpolate(...) with the same '
                         'arguments (align_corners=%s for a bilinear mode)'
                         % (name, self.version < '0.4'), fixed=False)
            return call
        args = list(call.args)
        if name == 'upsample':
            mode_arg = _keyword(call, 'mode') or (args[3] if len(_positional(call)) > 3 else None)
            mode = 'nearest' if mode_arg is None else _string(mode_arg.value)
            if mode is None:
                self._report(original, 'F.upsample(...) not changed: its mode is not a string; '
                             'write F.interpolate(...) with align_corners=%s for a bilinear mode'
                             % (self.version < '0.4'), fixed=False)
                return call
            align = self.version < '0.4'
        else:
            mode = 'bilinear' if name == 'upsample_bilinear' else 'nearest'
            align = True  # upsample_bilinear always aligned corners
            call = _with_arg(call, _arg('mode', cst.SimpleString("'%s'" % mode)))
        given = _keyword(call, 'align_corners') is not None
        if mode in _CORNER_MODES and not given:
            call = _with_arg(call, _arg('align_corners', cst.Name(str(align))))
        self._report(original, '%s(...): now F.interpolate(...)%s' % (
            name, '' if mode not in _CORNER_MODES or given else
            ', align_corners=True as upsample_bilinear had' if name == 'upsample_bilinear' else
            ', align_corners=%s as in PyTorch %s' % (align, self.version)))
        return call.with_changes(func=call.func.with_changes(attr=cst.Name('interpolate')))

    def _upsample_module(self, original, call):
        mode = _keyword(call, 'mode') or (call.args[2] if len(_positional(call)) > 2 else None)
        if (self.version < '0.4' and mode is not None and _string(mode.value) in _CORNER_MODES
                and _keyword(call, 'align_corners') is None):
            self._report(original, 'nn.Upsample(mode=%r) before 0.4 aligned corners: now '
                         'align_corners=True' % _string(mode.value))
            return _with_arg(call, _arg('align_corners', cst.Name('True')))
        return call

    def _scale_factor(self, original, call, places):
        """Written for 0.4, recompute_scale_factor=True where the call gives a
        scale_factor that is not a whole number (places: those of size and
        scale_factor among the positional arguments), no size and no
        recompute_scale_factor."""
        positional = _positional(call)
        size, scale = (_keyword(call, k) or (positional[p] if len(positional) > p else None)
                       for k, p in zip(('size', 'scale_factor'), places))
        if (self.version < '0.4' or scale is None or _keyword(call, 'recompute_scale_factor')
                or size is not None and not m.matches(size.value, m.Name('None'))
                or m.matches(scale.value, m.Name('None')) or _whole(scale.value)):
            return call
        self._report(original, _said('scale factor', 'scale_factor=%s' % cst.Module(
            body=[]).code_for_node(scale.value), 'recompute_scale_factor=True', verb='now'))
        return _with_arg(call, _arg('recompute_scale_factor', cst.Name('True')))

    def _old_default(self, original, call, path):
        """parameter=0.x's value where the call of path (a row of
        OLD_DEFAULTS) gives no argument in its place."""
        parameter, place, value, row = _OLD_DEFAULTS[path]
        if _keyword(call, parameter) is not None or len(_positional(call)) > place:
            return call
        what = '%s(...) without %s=' % (path.rsplit('.', 1)[1], parameter)
        if any(a.star for a in call.args):
            self._report(original, _said(row, what, '%s=%r where *args and **kwargs do not give '
                                         'it' % (parameter, value)), fixed=False)
            return call
        self._report(original, _said(row, what, '%s=%r' % (parameter, value), verb='now'))
        return _with_arg(call, _arg(parameter, cst.parse_expression(repr(value))))

    def _keepdim(self, original, call, names):
        """Before 0.2 a reduction with a dim kept it."""
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value in _KEEPDIM and not (
                names & {'torch.' + func.attr.value}):
            name, position = func.attr.value, _KEEPDIM[func.attr.value]
        else:
            torch = [n.rsplit('.', 1)[1] for n in names if n.startswith('torch.')
                     and n.count('.') == 1 and n.rsplit('.', 1)[1] in _KEEPDIM]
            if not torch:
                return call
            name, position = torch[0], _KEEPDIM[torch[0]] + 1
        if _keyword(call, 'keepdim') is not None:
            return call
        positional = _positional(original)
        dim = _keyword(original, 'dim') or (positional[position] if len(positional) > position
                                            else None)
        if dim is None:
            return call
        if not isinstance(dim.value, (cst.Integer, cst.UnaryOperation)):
            self._report(original, '%s(..., dim) in PyTorch 0.1 kept the dim: if this is a '
                         'dim, add keepdim=True' % name, fixed=False)
            return call
        self._report(original, '%s(dim) in PyTorch 0.1 kept the dim: now keepdim=True' % name)
        return _with_arg(call, _arg('keepdim', cst.Name('True')))

    def _requires_grad(self, original, names):
        func = original.func
        flag = _keyword(original, 'requires_grad')
        if isinstance(func, cst.Attribute) and func.attr.value == 'requires_grad_':
            subject = func.value
        elif flag is not None and _bool(flag.value) is not False and (
                names & {'torch.autograd.Variable', 'torch.autograd.variable.Variable'}):
            subject = original.args[0].value if original.args else None
        elif flag is not None and _bool(flag.value) is not False:
            subject = original
        else:
            return
        if subject is not None and self._int_tensor(subject):
            self._report(original, 'requires_grad on an integer tensor: an error today (only '
                         'floating point tensors have gradients); drop it, or make the tensor '
                         'float', fixed=False)

    # -- tensor_behaviours.py's rows -------------------------------------------

    def _conversion_of_view(self, node):
        """The code of node where it is a type conversion (x.double(),
        x.cuda()...) of an expression that may be a non-contiguous view,
        or of a name assigned one."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value in tensor_behaviours.CONVERSIONS):
            return None
        receiver = node.func.value
        if makes_view(receiver) or isinstance(receiver, cst.Name) and any(
                v is not None and makes_view(v) for v in self._assigned(receiver)):
            return cst.Module(body=[]).code_for_node(node)
        return None

    def _converted_view(self, call):
        """x.t().double().view(-1), or y.resize_(n) where y = x.t().double()."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _READS_LAYOUT):
            return
        made = self._conversion_of_view(func.value)
        where = ''
        if made is None and isinstance(func.value, cst.Name):
            for value in self._assigned(func.value):
                made = value is not None and self._conversion_of_view(value)
                if made:
                    line = self.get_metadata(PositionProvider, value).start.line
                    where = ' (%s = %s, line %d)' % (func.value.value, made, line)
                    break
        if made:
            self._report(call, _said('contiguous conversion', '%s then .%s()%s' % (
                func.value.value if where else made, func.attr.value, where),
                '%s.contiguous()' % made), fixed=False)

    def _pad_packed(self, call):
        """Before 0.4, pad_packed_sequence's lengths were a list."""
        lengths = 'lengths'
        parent = self.get_metadata(ParentNodeProvider, call)
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and m.matches(
                parent.targets[0].target, m.Tuple(elements=[m.Element(), m.Element(
                    value=m.Name())])):
            lengths = parent.targets[0].target.elements[1].value.value
        self._report(call, _said('packed lengths', 'pad_packed_sequence(...)', '%s = %s.tolist() '
                                 'after it where the code needs a list' % (lengths, lengths)),
                     fixed=False)

    def leave_Comparison(self, original_node, updated_node):
        """type(x).__name__ == 'FloatTensor': never true since 0.4."""
        operands = [original_node.left] + [c.comparator for c in original_node.comparisons]
        subjects = [s for s in map(_class_name, operands) if s]
        names = [n for o in operands for n in _tensor_class_names(o)]
        if subjects and names:
            x = subjects[0]
            write = ' or '.join(
                'isinstance(%s, torch.Tensor)' % x if n == 'Variable' else
                "%s.type() == 'torch.%s' (any device: %s.dtype == torch.%s)"
                % (x, n, x, _DTYPES[n[:-len('Tensor')]]) for n in dict.fromkeys(names))
            self._report(original_node, _said('tensor class name', cst.Module(
                body=[]).code_for_node(original_node), write), fixed=False)
        return updated_node

    # -- volatile ------------------------------------------------------------

    def leave_AssignTarget(self, original_node, updated_node):
        if m.matches(original_node.target, m.Attribute(attr=m.Name('volatile'))):
            self._report(original_node, '.volatile = ...: volatile does nothing today; run '
                         'inference under `with torch.no_grad():`', fixed=False)
        return updated_node
