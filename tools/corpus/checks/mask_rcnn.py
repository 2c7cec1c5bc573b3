"""multimodallearning/pytorch-mask-rcnn (from the checkout's root): nms through pth_nms, and the
roialign package's CropAndResizeFunction forward and backward."""

from corpus_check import check_crop_and_resize, check_nms, extension, imported

name = extension()
if name == 'nms':
    from nms.pth_nms import pth_nms
    imported()
    check_nms('nms', pth_nms)
else:
    from roialign.roi_align.crop_and_resize import CropAndResizeFunction
    imported()
    check_crop_and_resize('crop_and_resize', lambda i, b, n: CropAndResizeFunction(4, 3)(i, b, n))
