"""DingKe/pytorch_workplace (from cffi/): functions/relu.py's ReLUF (a legacy Function) forward
and backward against torch.relu. The C's backward is TH's maskedCopy of the gradient where the
input is positive; a mismatch that equals maskedCopy's own semantics (src taken in order) says
so."""

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
got = torch.autograd.grad(out, x, grad)[0]
try:
    close('ReLU backward', got, torch.autograd.grad(want, x, grad)[0])
except AssertionError as e:
    # TH's maskedCopy takes src's elements in order, not at the mask's positions.
    sequential = torch.zeros(6, 5)
    mask = x.detach() >= 0
    sequential[mask] = grad.reshape(-1)[:int(mask.sum())]
    try:
        close('ReLU backward', got, sequential)
    except AssertionError:
        raise e
    raise AssertionError('%s; it equals TH maskedCopy\'s result (the gradient\'s first elements '
                         'copied in order to the positive inputs), as under PyTorch 0.3: the C '
                         'relies on maskedCopy placing them by position' % e) from None
