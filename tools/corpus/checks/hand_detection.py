"""yangli18/hand_detection (from layers/): layers/box_utils.py's nms_new ends by moving its
result to CUDA, and the `layers` package imports cv2 (a requirement not installed here), so the
check imports the extension module itself and calls its cpu_nms as nms_new does (areas
(x2 - x1) * (y2 - y1), order by descending score), against greedy NMS without the +1."""

import torch
from corpus_check import check_nms, extension, imported

extension()
from _ext import nms
imported()


def cpu_nms(dets, threshold):
    order = dets[:, 4].sort(0, descending=True)[1]
    areas = (dets[:, 2] - dets[:, 0]) * (dets[:, 3] - dets[:, 1])
    keep, num_out = torch.LongTensor(dets.size(0)), torch.LongTensor(1)
    nms.cpu_nms(keep, num_out, dets, order, areas, threshold)
    return keep[:num_out[0]]


check_nms('nms', cpu_nms, plus_one=0.0)
