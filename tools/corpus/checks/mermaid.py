"""uncbiag/mermaid (from the checkout's root): the CPU samplers pyreg/libraries builds, through
the modules its wrappers import (functions/stn_nd.py: my_lib_nd; functions/nn_interpolation.py:
my_lib_nn), called as the wrappers call them: images (B, C, X, Y[, Z]), maps (B, ndim, X', Y'[, Z'])
in [-1, 1] corner to corner, dimension by dimension.

my_lib_nd: bilinear/trilinear forward and backward (to the image and to the map) against
grid_sample (align_corners) at points inside the image; with zero_boundary, a point whose cell
reaches outside the image samples 0 (the C's rule: floor(x) < 0 or floor(x) + 1 > X - 1).
my_lib_nn: the nearest voxel (rounded), 0 outside."""

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

name = extension()
if name == 'my_lib_nd':
    import pyreg.libraries.functions.stn_nd  # noqa: F401  (the wrapper)
    from pyreg.libraries._ext import my_lib_nd as lib
else:
    import pyreg.libraries.functions.nn_interpolation  # noqa: F401  (the wrapper)
    from pyreg.libraries._ext import my_lib_nn as lib
imported()

g = torch.Generator().manual_seed(0)


def to_grid(phi):
    """A map (B, ndim, X, Y[, Z]) as grid_sample's grid: (B, X, Y[, Z], ndim), last dimension first."""
    ndim = phi.shape[1]
    return phi.permute(0, *range(2, 2 + ndim), 1).flip(-1)


def check_nd(ndim):
    size = (5, 6, 4)[:ndim]
    out_size = (4, 3, 5)[:ndim]
    image = torch.rand(2, 3, *size, generator=g)
    # points inside: coordinates in [0, X - 1 - 0.05], then normalized to [-1, 1]
    scale = torch.tensor([s - 1 for s in size], dtype=torch.float).view(1, ndim, *[1] * ndim)
    coords = torch.rand(2, ndim, *out_size, generator=g) * (scale - 0.05)
    phi = coords / scale * 2 - 1
    for zero_boundary in (0, 1):
        out = torch.zeros(2, 3, *out_size)
        lib.BilinearSamplerBCXYZ_updateOutput_ND(image, phi, out, ndim, zero_boundary)
        image_r, phi_r = image.clone().requires_grad_(), phi.clone().requires_grad_()
        want = F.grid_sample(image_r, to_grid(phi_r), mode='bilinear', padding_mode='zeros',
                             align_corners=True)
        what = '%dD bilinear (zero_boundary=%d)' % (ndim, zero_boundary)
        close(what + ' forward', out, want)
        grad = torch.rand(want.shape, generator=g)
        grad_image, grad_phi = torch.zeros_like(image), torch.zeros_like(phi)
        lib.BilinearSamplerBCXYZ_updateGradInput_ND(image, phi, grad_image, grad_phi, grad, ndim,
                                                    zero_boundary)
        ref_image, ref_phi = torch.autograd.grad(want, (image_r, phi_r), grad)
        close(what + ' backward (image)', grad_image, ref_image)
        close(what + ' backward (map)', grad_phi, ref_phi)
    # zero_boundary: points anywhere in [-1.3, 1.3]; those whose cell leaves the image give 0
    phi = torch.rand(2, ndim, *out_size, generator=g) * 2.6 - 1.3
    out = torch.zeros(2, 3, *out_size)
    lib.BilinearSamplerBCXYZ_updateOutput_ND(image, phi, out, ndim, 1)
    low = ((phi + 1) * scale / 2).floor()
    outside = ((low < 0) | (low + 1 > scale)).any(1, keepdim=True)
    want = F.grid_sample(image, to_grid(phi), mode='bilinear', padding_mode='zeros',
                         align_corners=True).masked_fill(outside, 0)
    close('%dD bilinear (zero_boundary=1) forward, points outside' % ndim, out, want)


def check_nn(ndim):
    size = (5, 6, 4)[:ndim]
    out_size = (4, 3, 5)[:ndim]
    image = torch.rand(2, 3, *size, generator=g)
    scale = torch.tensor([s - 1 for s in size], dtype=torch.float).view(1, ndim, *[1] * ndim)
    phi = torch.rand(2, ndim, *out_size, generator=g) * 2.6 - 1.3
    out = torch.zeros(2, 3, *out_size)
    lib.nearestNeighBCXYZ_updateOutput_ND(image, phi, out, ndim)
    index = ((phi + 1) * scale / 2).round().long()
    inside = ((index >= 0) & (index <= scale.long())).all(1)
    want = torch.zeros_like(out)
    for b in range(2):
        for pos in zip(*[t.reshape(-1).tolist() for t in torch.meshgrid(
                *[torch.arange(s) for s in out_size], indexing='ij')]):
            if inside[(b,) + pos]:
                src = tuple(int(index[(b, d) + pos]) for d in range(ndim))
                want[(b, slice(None)) + pos] = image[(b, slice(None)) + src]
    close('%dD nearest neighbour' % ndim, out, want)


for ndim in (2, 3):
    (check_nd if name == 'my_lib_nd' else check_nn)(ndim)
