import torch

from ._ext import nms as _nms


def nms(boxes, scores, overlap_threshold):
    """Indices of the boxes (N, 4: x1, y1, x2, y2) that greedy non-maximum
    suppression keeps, highest score first."""
    order = scores.argsort(descending=True)
    keep = torch.empty(0, dtype=torch.int64)
    if boxes.is_cuda:
        _nms.nms_cuda(keep, boxes[order], overlap_threshold)
    else:
        _nms.nms_cpu(keep, boxes[order], overlap_threshold)
    return order[keep.to(order.device)]
