"""MyScaleFunction: input * scale + bias by the C functions of src/scale.c
and src/scale_cuda.c; my_scale: the op extension_ffi::scale, for compile."""

import torch
from torch import Tensor
from torch.autograd import Function

from . import adapts_inputs, c_function, my_lib, register_function

scale_forward = c_function(my_lib, 'my_lib_scale_forward', 'MyScaleFunction')
scale_backward = c_function(my_lib, 'my_lib_scale_backward', 'MyScaleFunction')


class MyScaleFunction(Function):
    """input * scale + bias, for a float32 or float64 tensor and two numbers."""

    @staticmethod
    @adapts_inputs(autocast_to=torch.float32)
    def forward(ctx, input: Tensor, scale: float, bias: float) -> Tensor:
        ctx.scale = scale
        output = torch.empty_like(input, memory_format=torch.contiguous_format)
        scale_forward(input, scale, bias, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        grad_input = torch.empty_like(grad_output, memory_format=torch.contiguous_format)
        scale_backward(grad_output, ctx.scale, grad_input)
        return grad_input, None, None


my_scale = register_function('extension_ffi::scale', MyScaleFunction)
