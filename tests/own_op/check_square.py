"""Step 5 of README's "Add your own op" for an op whose backward reads the
input forward saved: the square op against a pure-PyTorch reference,
gradcheck in float64 (the Function's and the op's), torch.library.opcheck
and torch.compile(fullgraph=True).  Run from the project's folder after
`python build.py`: python check_square.py cpu (or cuda)."""

import sys

import torch
from torch.autograd import gradcheck

from _ext import my_lib
from functions.square import MySquareFunction, my_square
from modules.square import MySquareModule

device = sys.argv[1]


def reference(input):
    return input * input


for dtype in (torch.float32, torch.float64):
    x = torch.randn(6, 5, dtype=dtype, device=device)
    for input in (x, x.t(), x[1:, ::2], x[0, 0], x[:0]):  # layouts, 0-d, empty
        out = MySquareModule()(input)
        assert out.dtype == dtype and out.device == input.device
        torch.testing.assert_close(out, reference(input))

# Compiled before the op ever ran, as in a fresh process (register_function
# learns then that forward saves its input): one graph through the op,
# forward and backward as in eager.
compiled = torch.compile(MySquareModule(), fullgraph=True)
x = torch.randn(4, 3, device=device, requires_grad=True)
for fn in (compiled, MySquareModule()):
    x.grad = None
    out = fn(x)
    out.square().sum().backward()
    torch.testing.assert_close(out, reference(x))
    torch.testing.assert_close(x.grad, 4 * x.detach() ** 3)

x = torch.randn(4, 3, dtype=torch.float64, device=device, requires_grad=True)
assert gradcheck(MySquareFunction.apply, (x,), eps=1e-6, atol=1e-8)
assert gradcheck(my_square.op, (x.t(),), eps=1e-6, atol=1e-8)  # the backward op
torch.library.opcheck(my_square.op, (x,))

try:
    MySquareFunction.apply(torch.arange(3, device=device))
except TypeError as error:
    assert str(error).startswith('MySquareFunction: input must be a float32 or float64 '), error
else:
    raise AssertionError('an int64 input was taken')

print(' '.join(sorted(name for name in my_lib.__all__ if 'square' in name)))
