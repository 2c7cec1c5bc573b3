"""MyAddFunction: input1 + input2 by the C functions of src/ (my_lib.c on the
CPU, my_lib_cuda.c on the GPU when the library was built with CUDA); my_add:
the same as the op extension_ffi::add, which torch.compile and torch.export
trace.  The machinery is thffi.ops' (its docstring says what it does)."""

import torch
from torch import Tensor
from torch.autograd import Function

# The library build.py builds and thffi's helpers, found in any layout
# (functions/__init__.py).
from . import adapts_inputs, c_function, my_lib, register_function

# Each runs my_lib_add_forward (or _backward) or its twin _double, _cuda or
# _cuda_double: the one whose prototype takes its first tensor's type.
add_forward = c_function(my_lib, 'my_lib_add_forward', 'MyAddFunction')
add_backward = c_function(my_lib, 'my_lib_add_backward', 'MyAddFunction')
WITH_CUDA = hasattr(my_lib, 'my_lib_add_forward_cuda')


class MyAddFunction(Function):
    """input1 + input2, for two tensors of the same shape, dtype and device."""

    @staticmethod
    @adapts_inputs(autocast_to=torch.float32)  # retries negative views, autocast's float16
    def forward(ctx, input1: Tensor, input2: Tensor) -> Tensor:
        output = torch.empty_like(input1, memory_format=torch.contiguous_format)
        if not add_forward(input1, input2, output):
            raise ValueError('MyAddFunction: input1 and input2 must have the same size, '
                             'got %s and %s' % (tuple(input1.shape), tuple(input2.shape)))
        return output

    @staticmethod
    def backward(ctx, grad_output):
        grad_input = torch.empty_like(grad_output, memory_format=torch.contiguous_format)
        add_backward(grad_output, grad_input)
        return grad_input, grad_input


# torch.compile and torch.export trace the op; eager calls run MyAddFunction.
my_add = register_function('extension_ffi::add', MyAddFunction)
