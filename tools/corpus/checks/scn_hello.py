"""facebookresearch/SparseConvNet: its PyTorch interface as the README's hello world uses it
(`sparseconvnet.legacy`, imported from PyTorch/, where `setup.py develop` leaves it): an
InputBatch of two 2-D samples filled site by site, then a 3x3 ValidConvolution (submanifold:
outputs at the active sites only, from the active sites around them) with bias, forward and
backward, against F.conv2d (padding 1) on the same sites written into a dense tensor, read at
the active sites.  Named apart from the package: a check's folder comes first on sys.path, and a
check named sparseconvnet.py imported itself."""

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

extension()
import sparseconvnet.legacy as scn
imported()
g = torch.Generator().manual_seed(0)
n, n_in, n_out, batch = 7, 3, 4, 2
inp = scn.InputBatch(2, torch.LongTensor([n, n]))
dense = torch.zeros(batch, n_in, n, n)
sites = []                                                # (sample, x, y), the features' rows
for b in range(batch):
    inp.addSample()
    for flat in torch.randperm(n * n, generator=g)[:15].tolist():
        x, y = divmod(flat, n)
        vector = torch.randn(n_in, generator=g)
        inp.setLocation(torch.LongTensor([x, y]), vector, 0)
        dense[b, :, x, y] = vector
        sites.append((b, x, y))
conv = scn.ValidConvolution(2, n_in, n_out, 3, True)
conv.bias.normal_(generator=g)
got = conv.forward(inp).features.clone()

# The weight is (3 * 3 * n_in, n_out): the offsets in order, the last coordinate fastest.
weight = conv.weight.clone().view(3, 3, n_in, n_out).permute(3, 2, 0, 1).requires_grad_()
bias = conv.bias.clone().requires_grad_()
dense.requires_grad_()
index = torch.tensor(sites)


def at_sites(t):
    return t[index[:, 0], :, index[:, 1], index[:, 2]]


want = at_sites(F.conv2d(dense, weight, bias, padding=1))
close('SparseConvNet ValidConvolution forward', got, want)

grad = torch.randn(want.shape, generator=g)
conv.gradWeight.zero_()
conv.gradBias.zero_()
grad_input = conv.backward(inp, grad)
d_dense, d_weight, d_bias = torch.autograd.grad(want, (dense, weight, bias), grad)
close('SparseConvNet ValidConvolution backward (input)', grad_input, at_sites(d_dense))
close('SparseConvNet ValidConvolution backward (weight)', conv.gradWeight,
      d_weight.permute(2, 3, 1, 0).reshape(3 * 3 * n_in, n_out))
close('SparseConvNet ValidConvolution backward (bias)', conv.gradBias, d_bias)
