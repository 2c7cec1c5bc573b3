"""register_op: one step from a Python function that calls your C wrappers
to an op that runs at full speed in eager mode and traces under
torch.compile and torch.export with no graph break.

A raw cffi call cannot be traced (Dynamo fails on cffi's Lib object), so
compiled code must see a torch.library custom op.  Dispatching a custom op
costs ~9 us a call in eager mode, an autograd.Function ~3.5 us; so eager
calls go to `eager` and only traced code goes through the op."""

import torch


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
    op = torch.library.custom_op(qualname, mutates_args=mutates_args)(impl)
    op.register_fake(fake)
    if backward is not None:
        op.register_autograd(backward, setup_context=setup_context)
    if autocast_to is not None:
        for device_type in ('cpu', 'cuda'):
            torch.library.register_autocast(qualname, device_type, autocast_to)
    fast = eager if eager is not None else op

    def call(*args):
        if torch.compiler.is_compiling():
            return op(*args)
        return fast(*args)

    call.op = op
    call.__name__ = qualname.split('::')[-1]
    call.__doc__ = impl.__doc__
    return call
