"""Legacy autograd Functions (PyTorch 0.3 and before) on today's autograd.

A Function written for PyTorch 0.3 runs unchanged but for its import line:

    from thffi.legacy import Function        # was: from torch.autograd import Function

    class ScaleFunction(Function):
        def __init__(self, alpha):
            super(ScaleFunction, self).__init__()
            self.alpha = alpha

        def forward(self, input):
            self.save_for_backward(input)
            return input * self.alpha

        def backward(self, grad_output):
            input, = self.saved_tensors
            return grad_output * self.alpha

    output = ScaleFunction(2.0)(input)       # called the legacy way

Each call runs a torch.autograd.Function named after the class (grad_fn is
ScaleFunctionBackward) whose forward and backward call the instance's.  In
forward and backward, the instance has the legacy context API:
save_for_backward, saved_tensors (and saved_variables), needs_input_grad
(one flag per input), mark_dirty, mark_non_differentiable; backward returns
one gradient or a tuple of them, None for inputs without one.

Where thffi differs from PyTorch 0.3, and why:
- An instance may be called more than once.  Each call's backward sees the
  instance's attributes as that call's forward left them (a copy is taken
  after forward); PyTorch 0.3 let the second call overwrite the first's.
- Backward is not differentiable, as in PyTorch 0.3: with
  create_graph=True, the gradients it returns are marked so that
  differentiating them again (double backward) raises RuntimeError
  "<class>: the gradients of a legacy Function cannot be differentiated
  again ...", rather than giving second derivatives without its part.
- A subclass with a @staticmethod forward is a TypeError: that is the
  modern style, which subclasses torch.autograd.Function.

NestedIOFunction is PyTorch 0.4.1's Function of nested inputs and outputs
(`from thffi.legacy import NestedIOFunction`, was torch.autograd's): a
subclass defines forward_extended and backward_extended, which take and
return lists and tuples of tensors nested as the caller's, and is called
as any legacy Function (`Twice()(x)`, `Pair()((a, b), c)`).  As in 0.4.1,
the call flattens its inputs to their tensors (anything else but None is a
ValueError), forward_extended gets them nested as given and its result,
kept as `_nested_output`, is the shape the outputs are returned in;
backward_extended gets the output gradients nested so (one tensor output's
gradient as its one argument: 0.4.1 unpacked that tensor along its first
dimension, which no backward_extended could have meant) and returns the
input gradients nested as the inputs (None for an input without one);
save_for_backward takes a nest too and saved_tensors gives it back;
retain_variables is True in backward, as 0.4.1 always passed it.

Without the import line: accept_legacy_functions() lets torch.autograd.Function
itself run legacy subclasses (instance forward) this way, and
torch.autograd.function.NestedIOFunction's subclasses (whose call today's
PyTorch left broken: "'super' object has no attribute '_do_forward'").
Every thffi-built extension calls it as it loads (the runtime's install),
and so does importing torch.utils.ffi, so a 2018 script that imports its
extension runs its Functions unchanged; THFFI_LEGACY_FUNCTIONS=0 turns that
off."""

import inspect
import os
import types

import torch

__all__ = ['Function', 'NestedIOFunction', 'accept_legacy_functions']


class _Context:
    """The legacy context API of an instance, valid inside its forward and
    backward: the torch.autograd.Function context of the call running on
    it does the work."""

    # That context; None outside forward and backward.
    _thffi_ctx = None

    def _ctx(self, what):
        if self._thffi_ctx is None:
            raise RuntimeError('%s.%s: only available while forward or backward of this '
                               'Function runs' % (type(self).__name__, what))
        return self._thffi_ctx

    def save_for_backward(self, *tensors):
        self._ctx('save_for_backward').save_for_backward(*tensors)

    @property
    def saved_tensors(self):
        return self._ctx('saved_tensors').saved_tensors

    @property
    def saved_variables(self):
        return self._ctx('saved_variables').saved_tensors

    @property
    def needs_input_grad(self):
        # The context's first input is the instance itself.
        return self._ctx('needs_input_grad').needs_input_grad[1:]

    def mark_dirty(self, *tensors):
        self._ctx('mark_dirty').mark_dirty(*tensors)

    def mark_non_differentiable(self, *tensors):
        self._ctx('mark_non_differentiable').mark_non_differentiable(*tensors)

    def mark_shared_storage(self, *pairs):
        """PyTorch 0.2's declaration that an output shares an input's memory;
        today's autograd tracks that itself, so it does nothing."""


def _autograd_class(cls):
    """The torch.autograd.Function that runs the legacy class cls, named
    after it so that grad_fn is <class name>Backward."""
    return type(cls.__name__, (torch.autograd.Function,), {
        '__module__': cls.__module__,
        '__qualname__': cls.__qualname__,
        '__doc__': 'Runs %s (a legacy Function) on autograd.' % cls.__qualname__,
        'forward': staticmethod(_forward),
        'backward': staticmethod(_backward),
    })


class Function(_Context):
    """Base class of legacy autograd Functions: subclass it, define forward
    and backward as instance methods, and call an instance on the inputs."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ('forward', 'backward'):
            if isinstance(cls.__dict__.get(name), (staticmethod, classmethod)):
                raise TypeError(
                    '%s.%s: thffi.legacy.Function is the base of legacy Functions, whose '
                    'forward and backward are instance methods (forward(self, ...)); a '
                    'Function with a static forward(ctx, ...) subclasses '
                    'torch.autograd.Function' % (cls.__name__, name))
        cls._thffi_autograd = _autograd_class(cls)

    def __call__(self, *inputs):
        return type(self)._thffi_autograd.apply(self, *inputs)

    def forward(self, *inputs):
        raise NotImplementedError('%s.forward is not defined' % type(self).__name__)

    def backward(self, *grad_outputs):
        raise NotImplementedError('%s.backward is not defined' % type(self).__name__)


def _forward(ctx, function, *inputs):
    # The leaves that require grad (Parameters), with their shapes: C called
    # by forward may change one's shape (see _accumulate_reshaped).
    leaves = [(i, t, t.shape) for i, t in enumerate(inputs)
              if isinstance(t, torch.Tensor) and t.requires_grad and t.is_leaf]
    function._thffi_ctx = ctx
    try:
        outputs = function.forward(*inputs)
    finally:
        function._thffi_ctx = None
    ctx.thffi_reshaped = [(i, t) for i, t, shape in leaves if t.shape != shape]
    # This call's backward works on a copy of the instance as forward left
    # it, so that a later call of the same instance does not change it.
    state = type(function).__new__(type(function))
    state.__dict__.update(function.__dict__)
    ctx.thffi_state = state
    ctx.thffi_inputs = len(inputs)
    if isinstance(outputs, list):
        outputs = tuple(outputs)
    return outputs


def _backward(ctx, *grad_outputs):
    state = ctx.thffi_state
    state._thffi_ctx = ctx
    try:
        # Legacy backward is not recorded by autograd (see _Gradients).
        with torch.no_grad():
            grads = state.backward(*grad_outputs)
    finally:
        state._thffi_ctx = None
    if not isinstance(grads, (tuple, list)):
        grads = (grads,)
    grads = tuple(grads)
    expected = ctx.thffi_inputs
    if len(grads) < expected or any(g is not None for g in grads[expected:]):
        raise RuntimeError('%s.backward returned %d gradients, expected %d: one per input '
                           'of forward (None for an input without one)'
                           % (type(state).__name__, len(grads), expected))
    grads = grads[:expected]
    if ctx.thffi_reshaped:
        grads = _accumulate_reshaped(type(state).__name__, ctx.thffi_reshaped, grads)
    if torch.is_grad_enabled():  # create_graph=True: mark the gradients
        grads = _Gradients.mark(type(state).__name__, grads,
                                grad_outputs + tuple(ctx.saved_tensors))
    return (None,) + grads


def _accumulate_reshaped(name, reshaped, grads):
    """grads with None for each input of `reshaped` (index, tensor), whose
    shape forward changed, and that input's gradient put into its .grad.

    C that a legacy forward calls may change the shape of a Parameter it is
    handed (THFloatTensor_resize2d(bias, n, 1)): the change lands on the
    Parameter's data, as on PyTorch 0.4 (csrc/THPython.c).  Autograd recorded
    the Parameter's old shape when the call began, and checks the gradient
    against it; so on that call, the gradient backward returns for it goes
    into its .grad here, in its new shape, as autograd accumulates one.
    Later calls see the new shape from the start (the C dropped the old
    gradient accumulator) and are as any."""
    grads = list(grads)
    for i, tensor in reshaped:
        grad = grads[i]
        if grad is None:
            continue
        grads[i] = None
        if grad.numel() != tensor.numel():
            raise RuntimeError(
                '%s.backward: the gradient of input %d has shape %s, but the C code that '
                'forward called made that input (which requires grad) of shape %s'
                % (name, i, tuple(grad.shape), tuple(tensor.shape)))
        grad = grad.detach().reshape(tensor.shape)
        if tensor.grad is None:
            tensor.grad = grad.clone()
        elif tensor.grad.shape == tensor.shape:
            tensor.grad.add_(grad)
        elif tensor.grad.numel() == tensor.numel():
            # a .grad of the old shape, not zeroed since: summed in the new
            tensor.grad = tensor.grad.reshape(tensor.shape) + grad
        else:
            raise RuntimeError(
                '%s.backward: input %d has a .grad of shape %s from before the C code that '
                'forward called made it of shape %s: zero or drop its gradients '
                '(optimizer.zero_grad()) before that call'
                % (name, i, tuple(tensor.grad.shape), tuple(tensor.shape)))
    return tuple(grads)


class _Gradients(torch.autograd.Function):
    """Passes on the gradients a legacy backward returned, as copies that
    depend on what they were computed from (the gradients of the outputs and
    the saved tensors) through a node whose backward raises."""

    @staticmethod
    def mark(name, grads, sources):
        index = [i for i, g in enumerate(grads) if isinstance(g, torch.Tensor)]
        sources = [t for t in sources if isinstance(t, torch.Tensor) and t.requires_grad]
        if not index or not sources:
            return grads
        marked = _Gradients.apply(name, len(index), *[grads[i] for i in index], *sources)
        grads = list(grads)
        for i, g in zip(index, marked):
            grads[i] = g
        return tuple(grads)

    @staticmethod
    def forward(ctx, name, count, *tensors):
        ctx.name = name
        return tuple(t.clone() for t in tensors[:count])

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(
            '%s: the gradients of a legacy Function cannot be differentiated again (double '
            'backward): its backward is not recorded by autograd. Rewrite it as a '
            'torch.autograd.Function whose backward uses differentiable torch operations'
            % ctx.name)


# -- NestedIOFunction -------------------------------------------------------

def _flat(nest, what, none=False):
    """The tensors of a nest of lists and tuples, in order: Nones left
    out (kept, with none=True); any other leaf is a ValueError, as in
    0.4.1."""
    if isinstance(nest, torch.Tensor):
        yield nest
    elif nest is None:
        if none:
            yield None
    elif isinstance(nest, (list, tuple)):
        for item in nest:
            yield from _flat(item, what, none)
    else:
        raise ValueError('NestedIOFunction: %s should be Tensors, or lists or tuples of them '
                         '(None allowed), got %s' % (what, type(nest).__name__))


def _nest(flat, proto):
    """The items of flat put in proto's nesting: each non-None leaf of
    proto takes the next item; a None of proto stays None."""
    items = iter(flat)

    def build(node):
        if isinstance(node, (list, tuple)):
            return type(node)(None if item is None else build(item) for item in node)
        return next(items)

    return build(proto)


def _autograd_of(cls):
    return cls.__dict__.get('_thffi_autograd') or _adopt(cls)


class _Nested:
    """NestedIOFunction's contract (see the module's docstring), over the
    legacy Function machinery: the call runs on the flat tensors."""

    def __call__(self, *inputs):
        flat = tuple(_flat(inputs, 'the inputs'))
        self._nested_input = inputs
        outputs = _autograd_of(type(self)).apply(self, *flat)
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        return _nest(outputs, self._nested_output)

    _do_forward = __call__

    def forward(self, *flat):
        result = self.forward_extended(*_nest(flat, self._nested_input))
        del self._nested_input
        self._nested_output = result
        return tuple(_flat(result, 'the outputs of forward_extended'))

    def backward(self, *gradients):
        self.retain_variables = True
        nested = _nest(gradients, self._nested_output)
        result = self.backward_extended(*nested if isinstance(nested, (list, tuple))
                                        else (nested,))
        return tuple(_flat(result, 'the gradients backward_extended returns', none=True))

    def save_for_backward(self, *nest):
        self._ctx('save_for_backward').save_for_backward(*_flat(nest, 'saved tensors'))
        self._to_save_nested = nest

    @property
    def saved_tensors(self):
        return _nest(self._ctx('saved_tensors').saved_tensors, self._to_save_nested)

    def mark_dirty(self, *nest, **named):
        self._ctx('mark_dirty').mark_dirty(*_flat((nest, tuple(named.values())), 'dirty'))

    def mark_non_differentiable(self, *nest, **named):
        self._ctx('mark_non_differentiable').mark_non_differentiable(
            *_flat((nest, tuple(named.values())), 'non-differentiable outputs'))


class NestedIOFunction(_Nested, Function):
    """Base class of PyTorch 0.4.1's Functions of nested inputs and outputs:
    define forward_extended and backward_extended."""

    def forward_extended(self, *inputs):
        raise NotImplementedError('%s.forward_extended is not defined' % type(self).__name__)

    def backward_extended(self, *grad_outputs):
        raise NotImplementedError('%s.backward_extended is not defined' % type(self).__name__)


def _accept_nested():
    """torch.autograd.function.NestedIOFunction's call and context run as
    thffi's (where this PyTorch still has the class; read from the module's
    own namespace: under `thffi run` the name is thffi's class already)."""
    torch_class = vars(torch.autograd.function).get('NestedIOFunction')
    if torch_class is None or issubclass(torch_class, _Nested):
        return
    for name, value in vars(_Nested).items():
        if not name.startswith('__') or name == '__call__':
            setattr(torch_class, name, value)


# -- legacy subclasses of torch.autograd.Function ---------------------------

ENVIRONMENT = 'THFFI_LEGACY_FUNCTIONS'


def _is_legacy(cls):
    """A torch.autograd.Function subclass whose forward is an instance
    method (torch's own forward is a staticmethod)."""
    return isinstance(inspect.getattr_static(cls, 'forward', None), types.FunctionType)


def _adopt(cls):
    """The autograd class that runs the legacy class cls, made on its first
    call; the legacy context API goes on cls, over torch's (which works on
    an autograd node, not on an instance), for names cls does not define."""
    autograd = cls.__dict__.get('_thffi_autograd')
    if autograd is None:
        torch_classes = torch.autograd.Function.__mro__
        for name, value in vars(_Context).items():
            if name.startswith('__'):
                continue
            owner = next((k for k in cls.__mro__ if name in vars(k)), None)
            if owner is None or owner in torch_classes:
                setattr(cls, name, value)
        autograd = cls._thffi_autograd = _autograd_class(cls)
    return autograd


def accept_legacy_functions():
    """Lets torch.autograd.Function run legacy subclasses: an instance of a
    subclass whose forward is an instance method, called on inputs, runs
    as a thffi.legacy.Function would (PyTorch 2 raises "Legacy autograd
    function with non-static forward method is deprecated"), and creating
    one no longer warns.  Modern Functions (static forward) are left as
    they were: their calls and instances go to torch's own code.  Idempotent;
    does nothing when the environment sets THFFI_LEGACY_FUNCTIONS=0.
    Returns whether legacy Functions are accepted."""
    if os.environ.get(ENVIRONMENT, '1').strip() == '0':
        return False
    base = torch.autograd.Function
    torch_call = base.__dict__.get('__call__')
    if getattr(torch_call, '_thffi_legacy', False):
        return True
    _accept_nested()
    # Decided by what this PyTorch defines: a torch without __init__ or
    # __call__ on Function gets none wrapped (instances are then plain).
    torch_init = base.__dict__.get('__init__')

    def __call__(self, *args, **kwargs):
        if kwargs or not _is_legacy(type(self)):
            if torch_call is None:
                raise TypeError('%r object is not callable' % type(self).__name__)
            return torch_call(self, *args, **kwargs)
        return _adopt(type(self)).apply(self, *args)

    __call__._thffi_legacy = True
    base.__call__ = __call__
    if torch_init is not None:
        def __init__(self, *args, **kwargs):
            if not _is_legacy(type(self)):
                torch_init(self, *args, **kwargs)

        base.__init__ = __init__
    return True
