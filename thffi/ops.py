"""What every op written over thffi-built C functions needs, written once,
so that an op's own Python is its autograd Function and one line for
torch.compile (functions/add.py shows it whole):

c_function(lib, name, caller)
    The C function `name` of the built library `lib` and its twins for other
    tensor types (`name_double`, `name_cuda`, `name_cuda_double`...: the
    functions named `name_*` with the same parameters), as one function with
    the prototype's parameters.  A call runs the twin whose prototype takes
    the dtype and device of the first tensor argument; when none does it is
    a TypeError naming `caller`, the argument and the types there are.  An
    error of the call names `caller` too, and the argument where it is one
    of another type than the first's twin takes, or None where the C
    wanted a tensor; an error of thffi's own C does not say where in
    thffi's sources it was raised, one of the user's C does.
adapts_inputs(autocast_to=None)
    Decorates a Function's `forward(ctx, ...)` whose tensor parameters are
    annotated `torch.Tensor`.  Forward runs as written; only when it raises
    TypeError, ValueError, KeyError or AttributeError (the C functions did
    not take the inputs as given) are they adapted and forward run again:
    negative views resolved, and under torch.autocast float16/bfloat16
    inputs cast to `autocast_to`, as PyTorch does for its float32-only ops.
    A non-tensor, or CPU and CUDA tensors mixed, is an error naming the
    Function and the arguments; anything else re-raises forward's error.
register_function(qualname, function)
    Registers an autograd Function's computation as the torch.library op
    `qualname` ("namespace::name"), with its backward as the op
    `qualname_backward`, for torch.compile and torch.export to trace; eager
    calls still run `function.apply`.  An elementwise Function registers as
    written when backward needs only its non-tensor arguments and what
    forward saved of its inputs and output (its docstring says it all);
    register_op does the same for any other op.
register_op(qualname, impl, fake, ...)
    The general step under register_function: any typed function calling
    C functions as a custom op, with your fake, backward and setup_context.

Across releases (each decided by feature, not by version number): where
torch.library.custom_op exists (PyTorch 2.4+) ops are custom ops with
register_fake and register_autograd; where register_autocast exists (2.5+)
it casts under torch.autocast, elsewhere the op's call does the same cast
while traced.  Without custom_op (2.0-2.3) eager calls work as everywhere,
torch.compile breaks the graph at each op call (torch.compiler.disable,
2.1+) and torch.export cannot export it: a warning says so once, naming the
release.

The cost: a fast path pays one Python call per c_function and per
adapts_inputs, with no `*args` (their code is generated from the
parameters; a `*args` wrapper costs three times as much, about 3% of a
Function call).  A raw cffi call cannot be traced (Dynamo fails on cffi's
Lib object), so compiled code must see a custom op; dispatching one costs
~9 us a call in eager mode, an autograd.Function ~3.5 us: so eager calls go
to the Function and only traced code through the op."""

import functools
import inspect
import keyword
import os
import re
import threading
import typing
import warnings

import torch

# What a fast path raises for inputs its C functions do not take as given.
_RETRY_ON = (TypeError, ValueError, KeyError, AttributeError)
_LOW_PRECISION = (torch.float16, torch.bfloat16)
_CONTIGUOUS = torch.contiguous_format

# What the running PyTorch offers, decided by feature (module docstring:
# "Across releases").
_CUSTOM_OP = getattr(torch.library, 'custom_op', None)             # 2.4+
_REGISTER_AUTOCAST = getattr(torch.library, 'register_autocast', None)  # 2.5+
_COMPILER = getattr(torch, 'compiler', None)
_IS_COMPILING = getattr(_COMPILER, 'is_compiling', None)
_DISABLE = getattr(_COMPILER, 'disable', None)
_warned_no_custom_op = False


def _autocast_enabled(device_type):
    """Whether torch.autocast is on for `device_type` ('cpu', 'cuda')."""
    try:
        return torch.is_autocast_enabled(device_type)
    except TypeError:  # a torch whose is_autocast_enabled() means CUDA only
        if device_type == 'cpu':
            return torch.is_autocast_cpu_enabled()
        return device_type == 'cuda' and torch.is_autocast_enabled()


def _generated(name, params, body, namespace):
    """The function `def name(params): body`, compiled from source, so that
    it takes exactly `params` and a call to it costs one Python frame."""
    source = 'def %s(%s):\n%s' % (name, ', '.join(params), body)
    exec(compile(source, '<thffi.ops: %s>' % name, 'exec'), namespace)
    return namespace[name]


def _identifier(name, position):
    return name if name.isidentifier() and not keyword.iskeyword(name) else 'arg%d' % position


def _either(words):
    words = list(words)
    return words[0] if len(words) == 1 else '%s or %s' % (', '.join(words[:-1]), words[-1])


def _kind(value):
    return 'None' if value is None else type(value).__name__


def _dtypes(dtypes):
    return _either(str(d).replace('torch.', '') for d in dtypes)


def c_function(lib, name, caller):
    """`name` and its twins in `lib` as one function (see the module's
    docstring); `caller` names them in errors, e.g. 'MyAddFunction'."""
    specs = {f: getattr(lib, '_S_' + f, None) for f in lib.__all__
             if f == name or f.startswith(name + '_')}
    if specs.get(name) is None:
        raise ValueError('c_function: %s has no function %r' % (lib.__name__, name))

    def shape(spec):  # what twins share: the parameters' names and kinds
        return [(p.name, p.kind) for p in spec.params]

    twins = {f: s for f, s in specs.items() if s is not None and shape(s) == shape(specs[name])}
    params = specs[name].params
    first = next((i for i, p in enumerate(params) if p.kind == 'tensor'), None)
    if first is None:
        raise ValueError('c_function: %s takes no tensor to choose a twin by' % name)
    table = {False: {}, True: {}}  # is_cuda -> dtype -> the C function
    chosen = {False: {}, True: {}}  # is_cuda -> dtype -> its spec
    for f, spec in sorted(twins.items()):
        p = spec.params[first]
        same = table[p.device == 'cuda'].get(p.dtype)
        if same is not None:
            raise ValueError('c_function: %s and %s both take %s tensors on %s'
                             % (same.__name__, f, p.dtype, p.device))
        table[p.device == 'cuda'][p.dtype] = getattr(lib, f)
        chosen[p.device == 'cuda'][p.dtype] = spec

    cpu, cuda = list(table[False]), list(table[True])
    if cpu and cpu == cuda:
        expected = '%s CPU or CUDA tensor' % _dtypes(cpu)
    else:
        expected = ' or '.join('%s %s tensor' % (_dtypes(d), where)
                               for d, where in ((cpu, 'CPU'), (cuda, 'CUDA')) if d)
    argument = params[first].name

    def explain(tensor, error):
        if not isinstance(tensor, torch.Tensor):
            return TypeError('%s: %s must be a tensor, got %s'
                             % (caller, argument, _kind(tensor)))
        if tensor.dtype in table[tensor.is_cuda]:
            return error  # not about the tensor that chose the twin
        hint = ('' if cuda or not tensor.is_cuda else
                ' (the library was built without CUDA: rebuild it where a CUDA toolkit is found)')
        return TypeError('%s: %s must be a %s, got %s on %s%s'
                         % (caller, argument, expected, tensor.dtype, tensor.device, hint))

    def failed(args, error):
        """The error of the twin args[first] chose, raising `error`, in
        the caller's words (_call_error)."""
        spec = chosen[args[first].is_cuda][args[first].dtype]
        return _call_error(caller, spec, params[first].name, args, error)

    names = [_identifier(p.name, i) for i, p in enumerate(params, 1)]
    args, chooser = ', '.join(names), names[first]
    call = _generated(name, names, (
        '    try:\n'
        '        return table[{0}.is_cuda][{0}.dtype]({1})\n'
        '    except (KeyError, AttributeError) as error:\n'
        '        raise explain({0}, error) from None\n'
        '    except (TypeError, ValueError, RuntimeError) as error:\n'
        '        raise failed(({1},), error) from None\n').format(chooser, args),
        {'table': table, 'explain': explain, 'failed': failed})
    call.__doc__ = '\n'.join(['%s, for the tensor types of %s: one of' % (name, chooser)]
                             + [twins[f].prototype for f in sorted(twins)])
    return call


# " at <file>:<line>", which an error raised in C ends with.
_C_LOCATION = re.compile(r' at (\S+):\d+$')


def _in_thffi(path):
    """Whether `path` is a source of thffi's own C: <a thffi>/csrc/..., a
    thffi being a folder with thffi's include/THFFIPython.h (the error
    names the thffi that built the extension, not always this one)."""
    parts = path.split(os.sep)
    return any(part == 'csrc' and os.path.isfile(
        os.path.join(os.sep.join(parts[:i]) or os.sep, 'include', 'THFFIPython.h'))
        for i, part in enumerate(parts))


def _call_error(caller, spec, chooser, args, error):
    """The error `error` that the C function `spec` (the twin the tensor
    `chooser` chose) raised on `args`, as the caller's: a tensor argument
    of another type than the twin takes, or None where the C wanted a
    tensor, named by its parameter; else the C's message after the
    caller's name.  The location of a THError or THArgCheck in the user's
    C stays, where the user can fix it; one in thffi's own C goes (it
    would show where thffi checked, not what to change)."""
    message = str(error)
    for p, value in zip(spec.params, args):
        if p.kind != 'tensor':
            continue
        where = 'CUDA' if p.device == 'cuda' else 'CPU'
        wanted = '%s %s tensor' % (str(p.dtype).replace('torch.', ''), where)
        if value is None and 'got NULL' in message:
            return TypeError('%s: %s must be a %s, got None' % (caller, p.name, wanted))
        if isinstance(value, torch.Tensor) and (value.dtype != p.dtype
                                                or value.device.type != p.device):
            return TypeError('%s: %s must be a %s, as %s is, got %s on %s'
                             % (caller, p.name, wanted, chooser,
                                str(value.dtype).replace('torch.', ''), value.device))
    if type(error) not in (TypeError, ValueError, RuntimeError):
        return error  # a subclass may take other arguments: left as raised
    located = _C_LOCATION.search(message)
    if located and _in_thffi(located.group(1)):
        message = message[:located.start()]
    return type(error)('%s: %s' % (caller, message))


def _adapt(caller, names, tensors, autocast_to, args):
    """forward's arguments `args` adapted (see adapts_inputs), or None when
    there is nothing to adapt; `tensors` are the positions of its tensors."""
    args = list(args)
    for i in tensors:
        if not isinstance(args[i], torch.Tensor):
            raise TypeError('%s: %s must be a tensor, got %s'
                            % (caller, names[i], _kind(args[i])))
    adapted = False
    for i in tensors:
        if args[i].is_neg():
            args[i], adapted = args[i].resolve_neg(), True
    first = args[tensors[0]]
    dtypes = {args[i].dtype for i in tensors}
    if (autocast_to is not None and dtypes - {autocast_to}
            and dtypes <= {autocast_to, *_LOW_PRECISION}
            and _autocast_enabled(first.device.type)):
        for i in tensors:
            args[i] = args[i].to(autocast_to)
        adapted = True
    for i in tensors:
        if args[i].is_cuda is not first.is_cuda:
            raise ValueError('%s: %s and %s must be on the same device, got %s and %s'
                             % (caller, names[tensors[0]], names[i], first.device,
                                args[i].device))
    return args if adapted else None


def adapts_inputs(autocast_to=None):
    """Decorates a Function's forward (see the module's docstring); the
    decorated forward keeps its signature and has `autocast_to`, which
    register_function registers for the op too."""
    def decorate(forward):
        params = list(inspect.signature(forward).parameters.values())
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            raise TypeError('adapts_inputs: %s takes *args, **kwargs or keyword-only '
                            'parameters; a Function.forward takes (ctx, inputs...)'
                            % forward.__qualname__)
        names = [p.name for p in params]
        tensors = [i for i, p in enumerate(params[1:]) if p.annotation is torch.Tensor]
        if not tensors:
            raise TypeError('adapts_inputs: %s has no parameter annotated torch.Tensor'
                            % forward.__qualname__)
        caller = (forward.__qualname__.split('.')[-2:])[0]  # the Function's name

        def again(ctx, args):
            """The slow path, in `except`: forward on adapted inputs."""
            adapted = _adapt(caller, names[1:], tensors, autocast_to, args)
            if adapted is None:
                raise  # forward's own error: nothing here could help
            return forward(ctx, *adapted)

        defaults = [p.default for p in params]
        signature = [n if d is p.empty else '%s=defaults[%d]' % (n, i)
                     for i, (n, d, p) in enumerate(zip(names, defaults, params))]
        args = ', '.join(names)
        wrapper = _generated('forward', signature, (
            '    try:\n'
            '        return fast({0})\n'
            '    except retry_on:\n'
            '        return again({1}, ({2},))\n').format(args, names[0], ', '.join(names[1:])),
            {'fast': forward, 'again': again, 'retry_on': _RETRY_ON, 'defaults': defaults})
        functools.update_wrapper(wrapper, forward)
        wrapper.autocast_to = autocast_to
        return wrapper
    return decorate


class _Context:
    """The ctx of a Function's forward or backward run inside an op: it
    keeps the attributes set on it and records, under _RECORDS, the inputs
    forward ran on, what it saved and what it marked non-differentiable."""

    saved_tensors = ()
    _non_differentiable = ()

    def __init__(self, **attributes):
        self.__dict__.update(attributes)

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        pass


_RECORDS = frozenset(('_inputs', 'saved_tensors', '_non_differentiable'))


def _ordinal(n):
    return '%d%s' % (n, {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th'))


def _what_forward_saved(where, ctx, output, tensors, slot_names):
    """What forward, run on `ctx` (a _Context), saved, said by where each
    tensor is in compiled code: (slots, non_differentiable), slots[j] the
    slot of the j-th saved tensor: k for the k-th tensor input, len(tensors)
    for the output, -1 for None; non_differentiable: whether it marked the
    output so.  Anything else is a TypeError saying what to do."""
    found = [ctx._inputs[i] for i in tensors] + [output]
    slots = []
    for j, tensor in enumerate(ctx.saved_tensors, 1):
        slot = -1 if tensor is None else next(
            (k for k, t in enumerate(found) if t is tensor), None)
        if slot is None:
            raise TypeError(
                '%s: the %s tensor forward saved with ctx.save_for_backward is neither one of '
                'its tensor inputs (%s) nor the tensor it returns, so compiled code cannot '
                'give it to backward: save inputs or the output and compute the rest in '
                'backward, or register the op with register_op'
                % (where, _ordinal(j), ', '.join(slot_names[:-1])))
        slots.append(slot)
    for tensor in ctx._non_differentiable:
        if tensor is not output:
            raise TypeError('%s: forward marked a tensor other than its output '
                            'non-differentiable (register the op with register_op)' % where)
    return tuple(slots), bool(ctx._non_differentiable)


def _in_a_thread_of_its_own(function, *args):
    """function(*args), run in a new thread: torch's dispatch modes (the
    fake tensors of tracing among them) are per thread, so there tensors
    are real and C functions can run on them."""
    result = []

    def run():
        try:
            result.append((True, function(*args)))
        except Exception as error:  # re-raised in the caller's thread
            result.append((False, error))

    thread = threading.Thread(target=run, name='thffi.ops: ' + function.__name__)
    thread.start()
    thread.join()
    done, value = result[0]
    if not done:
        raise value
    return value


def register_function(qualname, function):
    """Registers `function`, an autograd.Function calling C functions, as
    the op `qualname` for torch.compile and torch.export; returns a
    function that calls the op while they trace and `function.apply`
    otherwise, with the op as its `.op` (for torch.library.opcheck).

    The op's schema comes from forward's annotations: `forward(ctx, x:
    torch.Tensor, scale: float, ...) -> torch.Tensor`.  What the op needs
    from forward and backward, for tracing without running C:
    - forward returns one tensor shaped like its first tensor input, and
      backward a gradient shaped like the output for each tensor input that
      needs one (an elementwise op; write anything else with register_op);
    - forward allocates its output with torch.empty_like(first tensor input,
      memory_format=torch.contiguous_format): the op's fake does the same;
    - forward stores on ctx only its non-tensor arguments, under their own
      names (`ctx.scale = scale`), and saves with `ctx.save_for_backward`
      only tensor inputs, its output or None (in any order, the same one
      more than once), as relu, sigmoid or x * x do; it may mark its output
      non-differentiable.  Backward reads those, saved_tensors and
      needs_input_grad, and gets them in compiled code too: the backward op
      takes the saved tensors as arguments.  A tensor saved that is none of
      these (an intermediate) is a TypeError naming the Function, at the
      op's first call or trace: save inputs and recompute in backward, or
      use register_op.
    Under torch.autocast the op casts its inputs to forward's
    `autocast_to` (adapts_inputs) when it has one.

    Which tensors forward saves is learnt from a run of forward, the first
    time the op runs or is traced: its C functions cannot run on the fake
    tensors of tracing (nor forward, which calls them, at registration,
    where no dtype or device is known), so a trace that comes first runs
    forward once on one-element tensors of the inputs' dtypes and devices,
    in a thread of its own where tensors are real (dispatch modes are per
    thread).  Eager calls do not pay for any of it: they run function.apply."""
    forward = function.forward
    signature = inspect.signature(forward)
    params = list(signature.parameters.values())[1:]
    where = 'register_function(%r, %s)' % (qualname, function.__name__)
    if signature.return_annotation is not torch.Tensor:
        raise TypeError('%s: forward must be annotated to return torch.Tensor' % where)
    tensors = [i for i, p in enumerate(params) if p.annotation is torch.Tensor]
    if not tensors:
        raise TypeError('%s: forward has no parameter annotated torch.Tensor' % where)
    others = [p for i, p in enumerate(params) if i not in tensors]
    names = [p.name for p in params]
    reserved = ('grad_output', 'saved_from', 'needs_input_grad')
    for name in reserved:
        if name in names:
            raise TypeError('%s: forward may not have a parameter named %s' % (where, name))
    other_names = [p.name for p in others]
    if _CUSTOM_OP is None:  # no op to trace: neither this one nor its backward
        call = _eager_only(qualname, function.apply)
        call.__doc__ = function.__doc__
        return call
    # Where forward's saved tensors can come from: its tensor inputs, then
    # its output (named so in the backward op's schema).
    output_name = 'output'
    while output_name in names:
        output_name += '_'
    slot_names = [names[i] for i in tensors] + [output_name]
    learnt = []  # what forward saves, once known (_what_forward_saved)

    def check(ctx, output):
        """Raises unless backward can get what forward left on ctx in compiled code."""
        stored = set(ctx.__dict__) - set(other_names) - _RECORDS
        if stored:
            raise TypeError('%s: forward stored %s on ctx, which backward could not read in '
                            'compiled code: only its non-tensor arguments, under their own '
                            'names, can be, and tensors saved with ctx.save_for_backward '
                            '(register it with register_op instead)'
                            % (where, ', '.join(sorted(stored))))
        saved = _what_forward_saved(where, ctx, output, tensors, slot_names)
        if not learnt:
            learnt.append(saved)

    def impl(*args):
        ctx = _Context(_inputs=args)
        output = forward(ctx, *args)
        check(ctx, output)
        return output

    def learn_on_ones(*args):
        """check() forward run on one-element real tensors like the fake `args`."""
        args = list(args)
        for i in tensors:
            if args[i].device.type == 'cuda':
                torch.cuda.set_device(args[i].device)
            args[i] = torch.ones((1,) * args[i].dim(), dtype=args[i].dtype,
                                 device=args[i].device)
        ctx = _Context(_inputs=args)
        try:
            output = forward(ctx, *args)
        except Exception as error:
            raise RuntimeError('%s: forward, run once on one-element tensors of its inputs\' '
                               'types to learn which tensors it saves, raised %s: %s'
                               % (where, type(error).__name__, error)) from error
        check(ctx, output)

    def fake(*args):
        return torch.empty_like(args[tensors[0]], memory_format=_CONTIGUOUS)

    # The backward op: (grad_output, one argument per tensor input and one
    # for the output, each the tensor when forward saved it and None
    # otherwise, forward's non-tensor arguments, where each saved tensor
    # came from (_what_forward_saved), a bitmask of the tensor inputs that
    # need a gradient) -> one gradient per tensor input, empty where none
    # is needed (a fixed number of tensors, which Inductor handles; it
    # mishandles lists).
    def needed(mask):
        return [bool(mask >> k & 1) for k in range(len(tensors))]

    def backward_impl(grad_output, *args):
        found, values = args[:len(slot_names)], args[len(slot_names):-2]
        saved_from, needs = args[-2], needed(args[-1])
        needs_input_grad = [False] * len(params)
        for i, need in zip(tensors, needs):
            needs_input_grad[i] = need
        ctx = _Context(needs_input_grad=tuple(needs_input_grad), **dict(zip(other_names, values)))
        ctx.saved_tensors = tuple(None if k < 0 else found[k] for k in saved_from)
        grads = function.backward(ctx, grad_output)
        grads = grads if isinstance(grads, tuple) else (grads,)
        result = []
        for i, need in zip(tensors, needs):
            grad = grads[i] if need else grad_output.new_empty(0)
            if grad is None:
                raise TypeError('%s: backward returned None for %s, which needs a gradient'
                                % (where, params[i].name))
            # An op's outputs may alias neither its inputs nor each other: a
            # gradient that is grad_output, a saved tensor or another
            # gradient is copied.
            if any(grad is t for t in (grad_output, *found, *result)):
                grad = grad.clone()
            result.append(grad)
        return result[0] if len(result) == 1 else tuple(result)

    def backward_fake(grad_output, *args):
        result = [torch.empty_like(grad_output, memory_format=_CONTIGUOUS) if need
                  else grad_output.new_empty(0) for need in needed(args[-1])]
        return result[0] if len(result) == 1 else tuple(result)

    def parameter(name, annotation):
        return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 annotation=annotation)

    impl.__signature__ = signature.replace(parameters=params)
    backward_impl.__signature__ = inspect.Signature(
        [parameter('grad_output', torch.Tensor)]
        + [parameter(name, typing.Optional[torch.Tensor]) for name in slot_names]
        + [p.replace(default=p.empty) for p in others]
        + [parameter('saved_from', typing.List[int]), parameter('needs_input_grad', int)],
        return_annotation=(torch.Tensor if len(tensors) == 1
                           else typing.Tuple[(torch.Tensor,) * len(tensors)]))
    backward_op = register_op(qualname + '_backward', backward_impl, backward_fake)

    def setup_context(ctx, inputs, output):
        for name in other_names:
            setattr(ctx, name, inputs[names.index(name)])
        if not learnt:  # traced before it ran: inputs are fake
            _in_a_thread_of_its_own(learn_on_ones, *inputs)
        saved_from, non_differentiable = learnt[0]
        found = [inputs[i] for i in tensors] + [output]
        ctx.save_for_backward(*(t if k in saved_from else None for k, t in enumerate(found)))
        ctx.saved_from = list(saved_from)
        if non_differentiable:
            ctx.mark_non_differentiable(output)

    def backward(ctx, grad_output):
        mask = sum(1 << k for k, i in enumerate(tensors) if ctx.needs_input_grad[i])
        grads = backward_op(grad_output, *ctx.saved_tensors,
                            *(getattr(ctx, n) for n in other_names), ctx.saved_from, mask)
        grads = dict(zip(tensors, grads if isinstance(grads, tuple) else (grads,)))
        return tuple(grads[i] if i in grads and ctx.needs_input_grad[i] else None
                     for i in range(len(params)))

    call = register_op(qualname, impl, fake, backward=backward, setup_context=setup_context,
                       eager=function.apply, autocast_to=getattr(forward, 'autocast_to', None))
    call.__doc__ = function.__doc__
    return call


def register_op(qualname, impl, fake, *, backward=None, setup_context=None, eager=None,
                autocast_to=None, mutates_args=()):
    """Registers `impl` as the custom op `qualname` ("namespace::name").

    impl: the computation on real tensors, with type annotations, following
        torch.library.custom_op's rules (returns new tensors, never one of its
        inputs; `mutates_args` names the inputs it writes).
    fake: the same signature; returns empty tensors with the shape, dtype,
        device and strides the real output will have (torch.empty_like...),
        for tracing.  Check the inputs here as impl does.
    backward, setup_context: as torch.library.register_autograd takes them.
    eager: what eager calls run instead of the op, e.g. an autograd.Function's
        `apply` (default: the op itself).
    autocast_to: a dtype: under torch.autocast (CPU and CUDA) floating inputs
        are cast to it first, as PyTorch does for its float32-only ops.

    Returns a function that calls the op while torch.compile or torch.export
    traces, and `eager` otherwise; its `.op` is the registered op, for
    torch.library.opcheck.
    """
    if _CUSTOM_OP is None:
        call = _eager_only(qualname, eager if eager is not None else impl)
        call.__doc__ = impl.__doc__
        return call
    op = _CUSTOM_OP(qualname, mutates_args=mutates_args)(impl)
    op.register_fake(fake)
    if backward is not None:
        op.register_autograd(backward, setup_context=setup_context)
    cast_in_call = False
    if autocast_to is not None:
        if _REGISTER_AUTOCAST is not None:
            for device_type in ('cpu', 'cuda'):
                _REGISTER_AUTOCAST(qualname, device_type, autocast_to)
        else:
            cast_in_call = True
    fast = eager if eager is not None else op

    def traced(*args):
        if cast_in_call:  # what register_autocast would do
            args = _autocast_args(args, autocast_to)
        return op(*args)

    def call(*args):
        if _IS_COMPILING():
            return traced(*args)
        return fast(*args)

    call.op = op
    call.__name__ = qualname.split('::')[-1]
    call.__doc__ = impl.__doc__
    return call


def _autocast_args(args, autocast_to):
    """args with their float16/bfloat16 tensors cast to autocast_to when
    torch.autocast is on for their device (register_autocast's rule)."""
    return tuple(a.to(autocast_to) if isinstance(a, torch.Tensor) and a.dtype in _LOW_PRECISION
                 and _autocast_enabled(a.device.type) else a for a in args)


def _eager_only(qualname, fast):
    """register_op and register_function on a torch without
    torch.library.custom_op (before 2.4): calls run `fast`; torch.compile
    does not trace into it (a graph break where torch.compiler.disable
    exists) and torch.export cannot export it.  Said once per process,
    naming the release; `.op` is None."""
    global _warned_no_custom_op
    if not _warned_no_custom_op:
        _warned_no_custom_op = True
        warnings.warn('thffi.ops: torch %s has no torch.library.custom_op (PyTorch 2.4+): %s '
                      'and the other ops registered by thffi run eagerly; torch.compile breaks '
                      'the graph at them and torch.export cannot export them'
                      % (torch.__version__, qualname), stacklevel=3)
    run = _DISABLE(fast) if _DISABLE is not None else fast

    def call(*args):
        return run(*args)

    call.op = None
    call.__name__ = qualname.split('::')[-1]
    return call
