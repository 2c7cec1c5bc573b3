"""rusty1s/pytorch_spline_conv: the installed SplineConv (degree 1, one open and one closed
dimension, with root weight) forward and backward to src, weight, pseudo and root weight,
against the B-spline convolution written in PyTorch."""

import itertools

import torch
from corpus_check import close, extension, imported

extension()
from torch_spline_conv import SplineConv
imported()


def reference(src, edge_index, pseudo, weight, kernel_size, is_open, root_weight):
    row, col = edge_index
    v = pseudo * (kernel_size - is_open).to(pseudo.dtype)      # degree 1
    low = v.floor()
    frac = v - low
    out = src.new_zeros(edge_index.shape[1], weight.shape[2])
    for corner in itertools.product((0, 1), repeat=pseudo.shape[1]):
        basis, index, offset = 1.0, 0, 1
        for d, s in enumerate(corner):
            basis = basis * (frac[:, d] if s else 1 - frac[:, d])
            index = index + ((low[:, d].long() + s) % int(kernel_size[d])) * offset
            offset *= int(kernel_size[d])
        out = out + basis[:, None] * torch.bmm(src[col][:, None, :], weight[index])[:, 0]
    n = src.shape[0]
    summed = src.new_zeros(n, weight.shape[2]).index_add(0, row, out)
    degree = torch.bincount(row, minlength=n).clamp(min=1).to(src.dtype)
    return summed / degree[:, None] + src @ root_weight


torch.manual_seed(0)
n, edges, m_in, m_out = 6, 14, 3, 4
src = torch.rand(n, m_in, requires_grad=True)
edge_index = torch.randint(0, n, (2, edges))
pseudo = torch.rand(edges, 2, requires_grad=True)
kernel_size = torch.tensor([5, 4])
is_open = torch.tensor([1, 0], dtype=torch.uint8)
weight = torch.rand(20, m_in, m_out, requires_grad=True)
root = torch.rand(m_in, m_out, requires_grad=True)
out = SplineConv.apply(src, edge_index, pseudo, weight, kernel_size, is_open, 1, root)
want = reference(src, edge_index, pseudo, weight, kernel_size, is_open, root)
close('SplineConv forward', out, want)
grad = torch.rand_like(want)
got = torch.autograd.grad(out, (src, weight, pseudo, root), grad)
ref = torch.autograd.grad(want, (src, weight, pseudo, root), grad)
for what, g, r in zip(('src', 'weight', 'pseudo', 'root weight'), got, ref):
    close('SplineConv backward (%s)' % what, g, r)
