"""abyravan/se3posenets-pytorch (from layers/): NTfm3D.py's NTfm3D (a legacy Function over the C),
float and double, forward and backward against the blend it computes written in PyTorch:
out = sum_k mask_k * (R_k p + t_k), the gradients through autograd (use_mask_gradmag=True, the
default: the mask's true gradient)."""

import torch
from corpus_check import close, extension, imported

extension()
from NTfm3D import NTfm3D
imported()

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    B, K, H, W = 2, 3, 5, 4
    points = torch.randn(B, 3, H, W, dtype=dtype, requires_grad=True)
    masks = torch.rand(B, K, H, W, dtype=dtype).softmax(1).requires_grad_()
    tfms = torch.randn(B, K, 3, 4, dtype=dtype, requires_grad=True)
    got = NTfm3D()(points, masks, tfms)
    moved = torch.einsum('bkij,bjhw->bkihw', tfms[:, :, :, :3], points) + tfms[:, :, :, 3, None, None]
    want = (masks[:, :, None] * moved).sum(1)
    what = 'NTfm3D %s' % str(dtype).replace('torch.', '')
    close('%s forward' % what, got, want)
    grad = torch.randn(want.shape, dtype=dtype)
    got_g = torch.autograd.grad(got, (points, masks, tfms), grad)
    want_g = torch.autograd.grad(want, (points, masks, tfms), grad)
    for part, g, r in zip(('points', 'masks', 'transforms'), got_g, want_g):
        close('%s backward (%s)' % (what, part), g, r)
