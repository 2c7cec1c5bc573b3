"""MySquareFunction: input * input by the C functions of src/square.c and
src/square_cuda.c, whose backward reads the input forward saved; my_square:
the op extension_ffi::square, for compile."""

import torch
from torch import Tensor
from torch.autograd import Function

# The library build.py builds and thffi's helpers, found in any layout
# (functions/__init__.py).
from . import adapts_inputs, c_function, my_lib, register_function

square_forward = c_function(my_lib, 'my_lib_square_forward', 'MySquareFunction')
square_backward = c_function(my_lib, 'my_lib_square_backward', 'MySquareFunction')


class MySquareFunction(Function):
    """input * input, for a float32 or float64 tensor."""

    @staticmethod
    @adapts_inputs(autocast_to=torch.float32)
    def forward(ctx, input: Tensor) -> Tensor:
        output = torch.empty_like(input, memory_format=torch.contiguous_format)
        square_forward(input, output)
        ctx.save_for_backward(input)  # d(input * input)/d(input) = 2 * input
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = torch.empty_like(grad_output, memory_format=torch.contiguous_format)
        square_backward(grad_output, input, grad_input)
        return grad_input


# register_function passes the saved input to backward in compiled code too.
my_square = register_function('extension_ffi::square', MySquareFunction)
