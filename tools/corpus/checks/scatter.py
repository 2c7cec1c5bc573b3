"""rusty1s/pytorch_scatter: the installed scatter_mul, scatter_div, scatter_max and scatter_min
(the ones that call C) against Tensor.scatter_reduce, with the backward of mul, div and max."""

import torch
from corpus_check import close, extension, imported

extension()
from torch_scatter import scatter_div, scatter_max, scatter_min, scatter_mul
imported()
torch.manual_seed(0)
index = torch.tensor([[0, 2, 1, 2, 0, 4, 2], [1, 1, 0, 3, 3, 3, 0]])
shape = (2, 5)


def reduced(src, how, fill):
    return torch.full(shape, float(fill)).scatter_reduce(1, index, src, how, include_self=True)


positive = (torch.rand(2, 7) + 0.5).requires_grad_()
signed = (torch.randn(2, 7) * 3).requires_grad_()
for what, fn, src, how, transform, fill in (
        ('scatter_mul', scatter_mul, positive, 'prod', lambda s: s, 1),
        ('scatter_div', scatter_div, positive, 'prod', lambda s: 1 / s, 1),
        ('scatter_max', scatter_max, signed, 'amax', lambda s: s, 0)):
    got = fn(src, index, dim=1, dim_size=5)
    got = got[0] if isinstance(got, tuple) else got
    want = reduced(transform(src), how, fill)
    close(what, got, want)
    grad = torch.rand(shape)
    close('%s backward' % what, torch.autograd.grad(got, src, grad)[0],
          torch.autograd.grad(want, src, grad)[0])
got = scatter_min(signed.detach(), index, dim=1, dim_size=5)[0]
close('scatter_min', got, reduced(signed.detach(), 'amin', 0))
