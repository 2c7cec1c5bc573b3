"""DingKe/pytorch_workplace (from cffi/): functions/relu.py's ReLUF (a legacy Function) forward
and backward against torch.relu (the C's backward is TH maskedCopy of the gradient where the
input is positive)."""

import torch
from corpus_check import close, extension, imported

extension()
from functions.relu import ReLUF
imported()
torch.manual_seed(0)
x = torch.randn(6, 5, requires_grad=True)
out = ReLUF()(x)
want = torch.relu(x)
close('ReLU forward', out, want)
grad = torch.rand(6, 5)
close('ReLU backward', torch.autograd.grad(out, x, grad)[0], torch.autograd.grad(want, x, grad)[0])
