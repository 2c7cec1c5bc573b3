import torch
from torch.autograd import Function

from .._ext import roi_pooling

# (dtype, on GPU) -> (forward, backward)
_KERNELS = {
    (torch.float32, False): ('roi_pooling_forward', 'roi_pooling_backward'),
    (torch.float64, False): ('roi_pooling_forward_double', 'roi_pooling_backward_double'),
    (torch.float32, True): ('roi_pooling_forward_cuda', 'roi_pooling_backward_cuda'),
    (torch.float64, True): ('roi_pooling_forward_cuda_double',
                            'roi_pooling_backward_cuda_double'),
}


def _kernels(features):
    names = _KERNELS.get((features.dtype, features.is_cuda))
    if names is None or not hasattr(roi_pooling, names[0]):
        raise TypeError('RoIPoolFunction: no kernel for %s features on %s'
                        % (features.dtype, features.device))
    return getattr(roi_pooling, names[0]), getattr(roi_pooling, names[1])


class RoIPoolFunction(Function):
    """Max-pools each region of interest of `features` (N, C, H, W) into
    pooled_height x pooled_width bins.  rois: (R, 5) rows of (batch index,
    x1, y1, x2, y2), in the coordinates spatial_scale maps onto features."""

    @staticmethod
    def forward(ctx, features, rois, pooled_height, pooled_width, spatial_scale):
        forward, _ = _kernels(features)
        output = features.new_empty(0)
        argmax = torch.empty(0, dtype=torch.int32, device=features.device)
        forward(pooled_height, pooled_width, spatial_scale, features, rois, output, argmax)
        ctx.save_for_backward(rois, argmax)
        ctx.params = (pooled_height, pooled_width, spatial_scale, features.shape)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        rois, argmax = ctx.saved_tensors
        pooled_height, pooled_width, spatial_scale, shape = ctx.params
        _, backward = _kernels(grad_output)
        grad_input = grad_output.new_zeros(shape)
        backward(pooled_height, pooled_width, spatial_scale, grad_output, rois, argmax,
                 grad_input)
        return grad_input, None, None, None, None
