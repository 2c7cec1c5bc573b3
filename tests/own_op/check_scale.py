"""Step 5 of README's "Add your own op": the scale op against a pure-PyTorch
reference, gradcheck in float64, torch.library.opcheck and
torch.compile(fullgraph=True).  Run from the project's folder after
`python build.py`: python check_scale.py cpu (or cuda)."""

import sys

import torch
from torch.autograd import gradcheck

from _ext import my_lib
from functions.scale import MyScaleFunction, my_scale
from modules.scale import MyScaleModule

device = sys.argv[1]


def reference(input, scale, bias):
    return input * scale + bias


for dtype in (torch.float32, torch.float64):
    x = torch.randn(6, 5, dtype=dtype, device=device)
    for input in (x, x.t(), x[1:, ::2], x[0, 0], x[:0]):  # layouts, 0-d, empty
        out = MyScaleModule(2.5, -1.25)(input)
        assert out.dtype == dtype and out.device == input.device
        torch.testing.assert_close(out, reference(input, 2.5, -1.25))

x = torch.randn(4, 3, dtype=torch.float64, device=device, requires_grad=True)
assert gradcheck(lambda x: MyScaleFunction.apply(x, 1.5, 0.25), (x,), eps=1e-6, atol=1e-8)
torch.library.opcheck(my_scale.op, (x, 1.5, 0.25))

# Compiled: one graph through the op, forward and backward as in eager.
compiled = torch.compile(MyScaleModule(3.0, 0.5), fullgraph=True)
x = torch.randn(4, 3, device=device, requires_grad=True)
for fn in (compiled, MyScaleModule(3.0, 0.5)):
    x.grad = None
    out = fn(x)
    out.square().sum().backward()
    torch.testing.assert_close(out, reference(x, 3.0, 0.5))
    torch.testing.assert_close(x.grad, 2 * out * 3.0)

try:
    MyScaleFunction.apply(torch.arange(3, device=device), 2.0, 1.0)
except TypeError as error:
    assert str(error).startswith('MyScaleFunction: input must be a float32 or float64 '), error
else:
    raise AssertionError('an int64 input was taken')

print(' '.join(sorted(name for name in my_lib.__all__ if 'scale' in name)))
