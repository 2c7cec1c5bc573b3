# functions/scale_mul.py
import torch
from torch.autograd import Function
from _ext import scale_mul


class ScaleMulFunction(Function):
    """output = alpha * input1 * input2"""

    def __init__(self, alpha):
        super(ScaleMulFunction, self).__init__()
        self.alpha = alpha

    def _mul(self, input1, input2, output):
        if self.on_gpu:
            scale_mul.scale_mul_forward_cuda(self.alpha, input1, input2, output)
        elif isinstance(input1, torch.DoubleTensor):
            scale_mul.scale_mul_forward_double(self.alpha, input1, input2, output)
        else:
            scale_mul.scale_mul_forward(self.alpha, input1, input2, output)
        return output

    def forward(self, input1, input2):
        self.save_for_backward(input1, input2)
        self.on_gpu = input1.is_cuda  # read in backward
        return self._mul(input1, input2, input1.new())

    def backward(self, grad_output):
        input1, input2 = self.saved_tensors
        grad_output = grad_output.contiguous()
        grad_input1 = grad_input2 = None
        if self.needs_input_grad[0]:
            grad_input1 = self._mul(grad_output, input2, grad_output.new())
        if self.needs_input_grad[1]:
            grad_input2 = self._mul(grad_output, input1, grad_output.new())
        return grad_input1, grad_input2
