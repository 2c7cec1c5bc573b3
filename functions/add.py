"""MyAddFunction: autograd Function over the C add of src/my_lib.c (CPU) and
src/my_lib_cuda.c (GPU, when the library was built with CUDA); and my_add,
the same as a torch.library op for torch.compile and torch.export."""

import torch
from torch.autograd import Function

if '.' in __package__:  # inside a package: installed, or copied into a project
    from .._ext import my_lib
    from ..thffi.ops import register_op
else:                   # the script layout: python test.py beside _ext/
    from _ext import my_lib
    from thffi.ops import register_op

# dtype -> (forward, backward) C functions, for CPU and for CUDA tensors.
_CPU = {
    torch.float32: (my_lib.my_lib_add_forward, my_lib.my_lib_add_backward),
    torch.float64: (my_lib.my_lib_add_forward_double, my_lib.my_lib_add_backward_double),
}
_CUDA = {}
WITH_CUDA = hasattr(my_lib, 'my_lib_add_forward_cuda')
if WITH_CUDA:
    _CUDA.update({
        torch.float32: (my_lib.my_lib_add_forward_cuda, my_lib.my_lib_add_backward_cuda),
        torch.float64: (my_lib.my_lib_add_forward_cuda_double,
                        my_lib.my_lib_add_backward_cuda_double),
    })
_LOW_PRECISION = (torch.float16, torch.bfloat16)


def _no_kernel(tensor, name):
    where = 'float32 or float64 CPU%s tensor' % (' or CUDA' if WITH_CUDA else '')
    hint = ('' if WITH_CUDA or not tensor.is_cuda else
            ' (the library was built without CUDA: rebuild it where a CUDA toolkit is found)')
    return TypeError('MyAddFunction: %s must be a %s, got %s on %s%s'
                     % (name, where, tensor.dtype, tensor.device, hint))


def _inputs_off_the_fast_path(input1, input2):
    """Inputs the C wrapper did not take at once: under torch.autocast,
    float16/bfloat16 ones run in float32 (the kernels' type), as PyTorch's
    float32-only ops do; negative views (the .imag of a conjugated tensor)
    are resolved; anything else is an error, or a mismatch the C wrapper
    reports."""
    for name, tensor in (('input1', input1), ('input2', input2)):
        if not isinstance(tensor, torch.Tensor):
            raise TypeError('MyAddFunction: %s must be a tensor, got %s'
                            % (name, type(tensor).__name__))
    input1, input2 = input1.resolve_neg(), input2.resolve_neg()
    if (torch.is_autocast_enabled(input1.device.type)
            and {input1.dtype, input2.dtype} <= {torch.float32, *_LOW_PRECISION}):
        return input1.float(), input2.float()
    if input1.dtype not in (_CUDA if input1.is_cuda else _CPU):
        raise _no_kernel(input1, 'input1')
    return input1, input2  # a dtype or device mismatch: explained by the caller


class MyAddFunction(Function):
    """input1 + input2, for two tensors of the same shape, dtype and device."""

    @staticmethod
    def forward(ctx, input1, input2):
        # ctx is unused: add_forward calls this with None.
        try:
            forward = (_CUDA if input1.is_cuda else _CPU)[input1.dtype][0]
            # Allocated at its final size, so the C resizeAs is a no-op (a
            # resize from C costs a call back into Python).
            output = torch.empty_like(input1, memory_format=torch.contiguous_format)
            # The C wrapper checks input2; its TypeError or ValueError (raised
            # before C runs) gets another try or its explanation below.
            ok = forward(input1, input2, output)
        except (KeyError, AttributeError, TypeError, ValueError):
            input1, input2 = _inputs_off_the_fast_path(input1, input2)
            if input2.is_cuda is not input1.is_cuda:
                raise ValueError('MyAddFunction: input1 and input2 must be on the same '
                                 'device, got %s and %s' % (input1.device, input2.device))
            output = torch.empty_like(input1, memory_format=torch.contiguous_format)
            ok = (_CUDA if input1.is_cuda else _CPU)[input1.dtype][0](input1, input2, output)
        if not ok:
            raise ValueError('MyAddFunction: input1 and input2 must have the same size, '
                             'got %s and %s' % (tuple(input1.shape), tuple(input2.shape)))
        return output

    @staticmethod
    def backward(ctx, grad_output):
        grad_input = add_backward(grad_output)
        return (grad_input if ctx.needs_input_grad[0] else None,
                grad_input if ctx.needs_input_grad[1] else None)


def add_forward(input1, input2):
    """input1 + input2 by the C kernels (the computation on real tensors)."""
    return MyAddFunction.forward(None, input1, input2)


def add_backward(grad_output):
    """The gradient of either input: grad_output itself, copied by C."""
    kernels = (_CUDA if grad_output.is_cuda else _CPU).get(grad_output.dtype)
    if kernels is None:
        raise _no_kernel(grad_output, 'grad_output')
    grad_input = torch.empty_like(grad_output, memory_format=torch.contiguous_format)
    kernels[1](grad_output, grad_input)
    return grad_input


# The same computation as torch.library ops, which torch.compile and
# torch.export trace; eager calls stay on MyAddFunction.


def _add_impl(input1: torch.Tensor, input2: torch.Tensor) -> torch.Tensor:
    return add_forward(input1, input2)


def _add_fake(input1, input2):
    if input1.shape != input2.shape:
        raise ValueError('MyAddFunction: input1 and input2 must have the same size, '
                         'got %s and %s' % (tuple(input1.shape), tuple(input2.shape)))
    return torch.empty_like(input1, memory_format=torch.contiguous_format)


def _add_backward_impl(grad_output: torch.Tensor) -> torch.Tensor:
    return add_backward(grad_output)


def _add_backward_fake(grad_output):
    return torch.empty_like(grad_output, memory_format=torch.contiguous_format)


_add_backward_op = register_op('extension_ffi::add_backward', _add_backward_impl,
                               _add_backward_fake)


def _setup_context(ctx, inputs, output):
    pass  # the backward needs nothing saved


def _backward(ctx, grad_output):
    grad_input = _add_backward_op(grad_output)
    return (grad_input if ctx.needs_input_grad[0] else None,
            grad_input if ctx.needs_input_grad[1] else None)


my_add = register_op('extension_ffi::add', _add_impl, _add_fake, backward=_backward,
                     setup_context=_setup_context, eager=MyAddFunction.apply,
                     autocast_to=torch.float32)
