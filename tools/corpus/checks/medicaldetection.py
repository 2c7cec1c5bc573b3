"""MIC-DKFZ/medicaldetectiontoolkit (from cuda_functions/): nms_2D and nms_3D through pth_nms's
nms_cpu, against greedy NMS (areas and volumes with the +1 pixel convention); roi_align_2D's
CropAndResizeFunction forward and backward; roi_align_3D's, for which no 3-D reference is written
here (its CPU C is the 2-D kernel): the check stops where the wrapper stops."""

import importlib

import torch
from corpus_check import check_crop_and_resize, check_nms, extension, imported

name = extension()


def nms_3d(boxes, scores, threshold):
    """boxes (K, 6) x1, y1, x2, y2, z1, z2."""
    lo, hi = boxes[:, [0, 1, 4]], boxes[:, [2, 3, 5]]
    volume = (hi - lo + 1).prod(1)
    keep, dropped = [], set()
    for i in scores.argsort(descending=True).tolist():
        if i in dropped:
            continue
        keep.append(i)
        inter = (torch.min(hi[i], hi) - torch.max(lo[i], lo) + 1).clamp(min=0).prod(1)
        iou = inter / (volume[i] + volume - inter)
        dropped.update(j for j in (iou >= threshold).nonzero().reshape(-1).tolist() if j != i)
    return keep


if name in ('nms_2D', 'nms_3D'):
    nms_cpu = importlib.import_module('%s.pth_nms' % name).nms_cpu
    imported()
    if name == 'nms_2D':
        check_nms('nms_2D', nms_cpu)
    else:
        g = torch.Generator().manual_seed(0)
        lo = torch.rand(30, 3, generator=g) * 20
        hi = lo + torch.rand(30, 3, generator=g) * 10 + 2
        boxes = torch.stack([lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1], lo[:, 2], hi[:, 2]], 1)
        scores = torch.randperm(30, generator=g).float() / 30
        got = [int(i) for i in nms_cpu(torch.cat([boxes, scores[:, None]], 1), 0.2).tolist()]
        want = nms_3d(boxes, scores, 0.2)
        if got != want:
            raise AssertionError('nms_3D differs from the PyTorch reference: kept %s, the '
                                 'reference %s' % (got, want))
elif name == 'roi_align_2D':
    from roi_align_2D.roi_align.crop_and_resize import CropAndResizeFunction
    imported()
    check_crop_and_resize('crop_and_resize', lambda i, b, n: CropAndResizeFunction(4, 3)(i, b, n))
else:
    from roi_align_3D.roi_align.crop_and_resize import CropAndResizeFunction
    imported()
    image = torch.rand(1, 2, 6, 6, 4)
    boxes = torch.tensor([[0.1, 0.2, 0.8, 0.9, 0.0, 1.0]])
    CropAndResizeFunction(3, 3, 2)(image, boxes, torch.tensor([0], dtype=torch.int))
    raise AssertionError('roi_align_3D ran: no 3-D reference is written here to compare it with')
