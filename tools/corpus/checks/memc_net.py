"""baowenbo/MEMC-Net (from the checkout's root): my_package._ext.my_lib. Its wrappers' CPU paths
are broken upstream (InterpolationLayer's forward passes an `output` it never made; the
backward allocates torch.cuda tensors), so the check imports functions/InterpolationLayer.py and
calls the CPU C functions it calls: the image (B, 3, H, W) warped by a flow (B, 2, H, W) to
x + fx, y + fy, bilinear, zero outside [0, W) x [0, H), its right and bottom neighbours clamped
to the image; forward, the gradient to the image, and the gradient to the flow where the
target is not on the last row or column (there the C's flow gradient uses the clamped
neighbour's distance, not the bilinear weight)."""

import torch
from corpus_check import close, extension, imported

extension()
import my_package.functions.InterpolationLayer  # noqa: F401  (the wrapper)
import my_package._ext.my_lib as my_lib
imported()


def warp(image, flow):
    """The reference: bilinear warping, gathered from the four neighbours (clamped)."""
    b, c, h, w = image.shape
    ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float), torch.arange(w, dtype=torch.float),
                            indexing='ij')
    x2, y2 = xs + flow[:, 0], ys + flow[:, 1]
    inside = (x2 >= 0) & (y2 >= 0) & (x2 < w) & (y2 < h)
    xl = x2.detach().clamp(0, w - 1).floor()
    yt = y2.detach().clamp(0, h - 1).floor()
    alpha, beta = x2 - xl, y2 - yt
    xl, yt = xl.long(), yt.long()
    xr, yb = (xl + 1).clamp(max=w - 1), (yt + 1).clamp(max=h - 1)
    flat = image.reshape(b, c, h * w)

    def at(yy, xx):
        return flat.gather(2, (yy * w + xx).reshape(b, 1, h * w).expand(b, c, h * w)).reshape(b, c, h, w)

    alpha, beta = alpha[:, None], beta[:, None]
    out = ((1 - alpha) * (1 - beta) * at(yt, xl) + alpha * (1 - beta) * at(yt, xr) +
           (1 - alpha) * beta * at(yb, xl) + alpha * beta * at(yb, xr))
    edge = (x2 >= w - 1) | (y2 >= h - 1)
    return out * inside[:, None], inside & ~edge


g = torch.Generator().manual_seed(0)
image = torch.rand(2, 3, 7, 9, generator=g)
flow = torch.randn(2, 2, 7, 9, generator=g) * 2.5
output = torch.zeros_like(image)
err = my_lib.InterpolationLayer_cpu_forward(image, flow, output)
assert err == 0, 'InterpolationLayer_cpu_forward returned %s' % err
image_r, flow_r = image.clone().requires_grad_(), flow.clone().requires_grad_()
want, interior = warp(image_r, flow_r)
close('InterpolationLayer forward', output, want)

grad_out = torch.rand(want.shape, generator=g)
grad_image, grad_flow = torch.zeros_like(image), torch.zeros_like(flow)
err = my_lib.InterpolationLayer_cpu_backward(image, flow, grad_out, grad_image, grad_flow)
assert err == 0, 'InterpolationLayer_cpu_backward returned %s' % err
ref_image, ref_flow = torch.autograd.grad(want, (image_r, flow_r), grad_out)
close('InterpolationLayer backward (image)', grad_image, ref_image)
mask = interior[:, None].expand_as(grad_flow)
close('InterpolationLayer backward (flow)', grad_flow[mask], ref_flow[mask])
