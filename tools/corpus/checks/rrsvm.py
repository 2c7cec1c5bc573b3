"""zijunwei/RRSVM_pytorch (from RRSVM/): RRSVM.py's and SoftMax_RRSVM.py's RRSVM_Module (a legacy
Function over the C) forward and backward against a reference in PyTorch: each k x k window
(unfold, no padding) sorted in descending order and weighted by s (RRSVM) or by softmax(s) over
the window (SoftMaxRRSVM), summed; the gradients through autograd. SoftMaxRRSVM is run on a batch
of one: its C's `omp parallel for private(elt)` over the batch shares the channel counter
between threads (an upstream race). The inputs are square: both C's accGradParameters index the
window columns with outputHeight * outputHeight where outputHeight * outputWidth is meant (an
upstream bug: s's gradient reads outside them when the output is not square)."""

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

name = extension()
if name == 'RRSVM':
    from RRSVM import RRSVM_Module
    batch = 2
else:
    from SoftMax_RRSVM import RRSVM_Module
    batch = 1
imported()


def reference(x, s, k, stride, softmax):
    n, c, h, w = x.shape
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    cols = F.unfold(x, k, stride=stride).view(n, c, k * k, oh * ow)
    ranked = cols.sort(2, descending=True)[0]
    weights = s.softmax(1) if softmax else s
    return (ranked * weights[None, :, :, None]).sum(2).view(n, c, oh, ow)


torch.manual_seed(0)
for k, stride in ((3, 1), (2, 2)):
    module = RRSVM_Module(in_channels=3, kernel_size=k, stride=stride)
    module.s.data.normal_()
    x = torch.randn(batch, 3, 7, 7, requires_grad=True)
    s = module.s.detach().clone().requires_grad_()
    got = module(x)
    want = reference(x, s, k, stride, name != 'RRSVM')
    what = '%s k=%d stride=%d' % (name, k, stride)
    close('%s forward' % what, got, want)
    grad = torch.randn(want.shape)
    got_x, got_s = torch.autograd.grad(got, (x, module.s), grad)
    want_x, want_s = torch.autograd.grad(want, (x, s), grad)
    close('%s backward (input)' % what, got_x, want_x)
    close('%s backward (s)' % what, got_s, want_s)
