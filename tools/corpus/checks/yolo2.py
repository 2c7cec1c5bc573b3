"""longcw/yolo2-pytorch (from layers/): the reorg layer forward and backward against darknet's
reorg written as a view and permute; RoI pooling forward (its backward asserts CUDA)."""

import torch
from corpus_check import check_roi_pool, close, extension, imported

name = extension()
torch.manual_seed(0)
if name == 'reorg':
    from reorg.reorg_layer import ReorgFunction
    imported()
    s, (B, C, H, W) = 2, (2, 3, 8, 6)
    x = torch.rand(B, C, H, W, requires_grad=True)
    out = ReorgFunction(s)(x)
    # out[b, (dy * s + dx) * C + c, j, i] = x[b, c, j * s + dy, i * s + dx]
    want = (x.view(B, C, H // s, s, W // s, s).permute(0, 3, 5, 1, 2, 4)
            .reshape(B, s * s * C, H // s, W // s))
    close('reorg forward', out, want)
    grad = torch.rand(want.shape)
    close('reorg backward', torch.autograd.grad(out, x, grad)[0],
          torch.autograd.grad(want, x, grad)[0])
else:
    from roi_pooling.roi_pool import RoIPoolFunction
    imported()
    features, rois = torch.rand(1, 4, 12, 10), torch.tensor([[0, 1, 2, 15, 19], [0, 0, 0, 19, 23],
                                                             [0, 6, 4, 9, 20]], dtype=torch.float)
    check_roi_pool('RoI pooling forward', lambda f, r: RoIPoolFunction(3, 2, 0.5)(f, r),
                   features, rois, 3, 2, 0.5)
