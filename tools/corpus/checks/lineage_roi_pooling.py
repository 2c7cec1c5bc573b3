"""The RoI pooling of the longcw/faster_rcnn_pytorch lineage: `RoIPoolFunction(pooled_h,
pooled_w, spatial_scale)(features, rois)` of the wrapper module CORPUS_WRAPPER, forward on
the CPU (these wrappers' backward asserts CUDA), against Caffe's RoI max pooling."""

import importlib
import os

import torch
from corpus_check import check_roi_pool, extension, imported, random_rois

extension()
RoIPoolFunction = importlib.import_module(os.environ['CORPUS_WRAPPER']).RoIPoolFunction
imported()
torch.manual_seed(0)
features, rois = torch.rand(1, 4, 12, 10), random_rois(1, 12, 10, 6, scale=0.5)
check_roi_pool('RoI pooling forward', lambda f, r: RoIPoolFunction(3, 2, 0.5)(f, r),
               features, rois, 3, 2, 0.5)
