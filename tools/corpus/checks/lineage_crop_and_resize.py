"""The crop_and_resize of the longcw/RoIAlign.pytorch lineage: `CropAndResizeFunction(crop_h,
crop_w)(image, boxes, box_ind)` of the wrapper module CORPUS_WRAPPER, forward and backward on the
CPU, against TensorFlow's crop_and_resize written in PyTorch."""

import importlib
import os

from corpus_check import check_crop_and_resize, extension, imported

extension()
CropAndResizeFunction = importlib.import_module(os.environ['CORPUS_WRAPPER']).CropAndResizeFunction
imported()
check_crop_and_resize('crop_and_resize', lambda i, b, n: CropAndResizeFunction(4, 3)(i, b, n))
