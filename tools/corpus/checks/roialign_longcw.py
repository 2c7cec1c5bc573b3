"""longcw/RoIAlign.pytorch: the installed roi_align package's CropAndResizeFunction, forward
and backward."""

from corpus_check import check_crop_and_resize, extension, imported

extension()
from roi_align.crop_and_resize import CropAndResizeFunction
imported()
check_crop_and_resize('crop_and_resize', lambda i, b, n: CropAndResizeFunction(4, 3)(i, b, n))
