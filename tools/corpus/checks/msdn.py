"""yikang-li/MSDN (from faster_rcnn/): its RoIPoolFunction asserts CUDA before the CPU call
(`assert False, 'feature not in CUDA'`), so the check imports the wrapper and calls the
extension's CPU roi_pooling_forward as the wrapper's CPU branch would, with NHWC features made
contiguous, against Caffe's RoI max pooling."""

import torch
from corpus_check import close, extension, imported, random_rois, roi_pool

extension()
from roi_pooling.functions.roi_pool import RoIPoolFunction  # noqa: F401 (the wrapper imports)
from roi_pooling._ext import roi_pooling
imported()
torch.manual_seed(0)
features, rois = torch.rand(1, 4, 12, 10), random_rois(1, 12, 10, 6, scale=0.5)
output = torch.zeros(rois.shape[0], 4, 3, 2)
roi_pooling.roi_pooling_forward(3, 2, 0.5, features.permute(0, 2, 3, 1).contiguous(), rois, output)
close('RoI pooling forward', output, roi_pool(features, rois, 3, 2, 0.5))
