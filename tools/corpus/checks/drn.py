"""fyu/drn: lib/modules/batchnormsync.py's BatchNormSync (imported from lib/, as the README's
`PYTHONPATH` has it) in training mode on the CPU, forward and backward (input, weight, bias),
against batch normalisation written in PyTorch. eps=0: the C divides by (std + eps) where
F.batch_norm divides by sqrt(var + eps); with eps 0 both are the batch's standard deviation
(written out: F.batch_norm of PyTorch 2.13 refuses eps 0 in training)."""

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

extension()
from modules.batchnormsync import BatchNormSync
imported()
torch.manual_seed(0)
x = (torch.randn(4, 3, 5, 6) * 1.5 + 0.5).requires_grad_()
bn = BatchNormSync(3, eps=0.0)
bn.bias.data.normal_()
bn.train()
got = bn(x)
mean = x.mean(dim=(0, 2, 3), keepdim=True)
std = x.var(dim=(0, 2, 3), unbiased=False, keepdim=True).sqrt()
want = (x - mean) / std * bn.weight.view(1, -1, 1, 1) + bn.bias.view(1, -1, 1, 1)
assert torch.allclose(want, F.batch_norm(x, None, None, bn.weight, bn.bias, training=True,
                                         eps=1e-12), rtol=1e-4, atol=1e-5)
close('drn BatchNormSync forward', got, want)
grad = torch.randn_like(want)
wrt = (x, bn.weight, bn.bias)
for name, g, w in zip(('input', 'weight', 'bias'), torch.autograd.grad(got, wrt, grad),
                      torch.autograd.grad(want, wrt, grad)):
    close('drn BatchNormSync backward (%s)' % name, g, w)
