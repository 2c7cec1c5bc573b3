"""MyAddFunction: autograd Function over the C add of src/my_lib.c (CPU) and
src/my_lib_cuda.c (GPU, when the library was built with CUDA)."""

import torch
from torch.autograd import Function

from _ext import my_lib

# (dtype, is_cuda) -> (forward, backward) C functions.
_KERNELS = {
    (torch.float32, False): (my_lib.my_lib_add_forward, my_lib.my_lib_add_backward),
    (torch.float64, False): (my_lib.my_lib_add_forward_double,
                             my_lib.my_lib_add_backward_double),
}
WITH_CUDA = hasattr(my_lib, 'my_lib_add_forward_cuda')
if WITH_CUDA:
    _KERNELS.update({
        (torch.float32, True): (my_lib.my_lib_add_forward_cuda,
                                my_lib.my_lib_add_backward_cuda),
        (torch.float64, True): (my_lib.my_lib_add_forward_cuda_double,
                                my_lib.my_lib_add_backward_cuda_double),
    })


def _kernels(tensor, name):
    try:
        return _KERNELS[tensor.dtype, tensor.is_cuda]
    except (KeyError, AttributeError):
        pass
    if not isinstance(tensor, torch.Tensor):
        raise TypeError('MyAddFunction: %s must be a tensor, got %s'
                        % (name, type(tensor).__name__))
    where = 'float32 or float64 CPU%s tensor' % (' or CUDA' if WITH_CUDA else '')
    hint = ('' if WITH_CUDA or not tensor.is_cuda else
            ' (the library was built without CUDA: rebuild it where a CUDA toolkit is found)')
    raise TypeError('MyAddFunction: %s must be a %s, got %s on %s%s'
                    % (name, where, tensor.dtype, tensor.device, hint))


class MyAddFunction(Function):
    """input1 + input2, for two tensors of the same shape, dtype and device."""

    @staticmethod
    def forward(ctx, input1, input2):
        forward, _ = _kernels(input1, 'input1')
        if getattr(input2, 'is_cuda', None) is not input1.is_cuda:
            raise ValueError('MyAddFunction: input1 and input2 must be on the same device, '
                             'got %s and %s' % (input1.device, getattr(input2, 'device', input2)))
        # Allocated at its final size, so the C resizeAs is a no-op (a resize
        # from C costs a call back into Python).
        output = input1.new_empty(input1.shape)
        if not forward(input1, input2, output):
            raise ValueError('MyAddFunction: input1 and input2 must have the same size, '
                             'got %s and %s' % (tuple(input1.shape), tuple(input2.shape)))
        return output

    @staticmethod
    def backward(ctx, grad_output):
        _, backward = _kernels(grad_output, 'grad_output')
        grad_input = grad_output.new_empty(grad_output.shape)
        backward(grad_output, grad_input)
        return (grad_input if ctx.needs_input_grad[0] else None,
                grad_input if ctx.needs_input_grad[1] else None)
