"""The lib/model/ of jwyang/faster-rcnn.pytorch and of the repositories that took it
(Detectron.pytorch), from lib/: RoI pooling and RoI align forward (their backward asserts CUDA),
the BHWD RoI crop sampler forward and backward through crop_resize.py, nms's entry point (CUDA
only)."""

import torch
from corpus_check import (bhwd_sampler, check_roi_pool, close, entry_points, extension,
                          imported, random_rois, roi_align_corners)

name = extension()
torch.manual_seed(0)
if name == 'roi_pooling':
    from model.roi_pooling.functions.roi_pool import RoIPoolFunction
    imported()
    features, rois = torch.rand(1, 4, 12, 10), random_rois(1, 12, 10, 6, scale=0.5)
    check_roi_pool('RoI pooling forward', lambda f, r: RoIPoolFunction(3, 2, 0.5)(f, r),
                   features, rois, 3, 2, 0.5)
elif name == 'roi_align':
    from model.roi_align.functions.roi_align import RoIAlignFunction
    imported()
    features, rois = torch.rand(2, 3, 12, 10), random_rois(2, 12, 10, 5, scale=0.5)
    close('RoI align forward', RoIAlignFunction(4, 3, 0.5)(features, rois),
          roi_align_corners(features, rois, 4, 3, 0.5))
elif name == 'roi_crop':
    from model.roi_crop.functions.crop_resize import RoICropFunction
    imported()
    images = torch.rand(2, 5, 5, 5, requires_grad=True)
    grids = (torch.rand(2, 5, 5, 2) * 2.4 - 1.2).requires_grad_()
    out = RoICropFunction()(images, grids)
    want = bhwd_sampler(images, grids)
    close('RoI crop forward', out, want)
    grad = torch.rand(want.shape)    # contiguous: the C reads gradOutput's memory as such
    got = torch.autograd.grad(out, (images, grids), grad)
    ref = torch.autograd.grad(want, (images, grids), grad)
    close('RoI crop backward (images)', got[0], ref[0])
    close('RoI crop backward (grids)', got[1], ref[1])
elif name == 'nms':
    from model.nms._ext import nms
    imported()
    entry_points(nms, ['nms_cuda'])
