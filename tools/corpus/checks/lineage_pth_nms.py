"""The nms of the ruotianluo/pytorch-faster-rcnn lineage: `pth_nms(dets, threshold)` of the
wrapper module CORPUS_WRAPPER (dets (K, 5) x1, y1, x2, y2, score) on the CPU, against greedy
NMS with the +1 pixel convention."""

import importlib
import os

from corpus_check import check_nms, extension, imported

extension()
pth_nms = importlib.import_module(os.environ['CORPUS_WRAPPER']).pth_nms
imported()
check_nms('nms', pth_nms)
