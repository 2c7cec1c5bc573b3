"""The examples' RoI pooling and NMS (examples/, legacy code built by its
make.sh) against torchvision.ops.roi_pool and torchvision.ops.nms on the
same inputs, on the CPU and on CUDA.  Runs where torchvision is installed
(tools/gpu_check.sh runs it on a GPU); skipped elsewhere.

RoI pooling: both take rois (K, 5) of (batch index, x1, y1, x2, y2), scale
the corners by spatial_scale and round them half away from zero, give a roi
end - start + 1 cells (at least 1: a malformed roi pools one cell), cover
bin b of P with cells floor(b * cells / P) to ceil((b + 1) * cells / P)
clipped to the map, give 0 for an empty bin, keep the first maximum in
row-major order (strict >), and send each output's gradient to its argmax.
They differ in three conventions, which the inputs here keep apart:
- bin edges: the legacy code computes them in double for every dtype (TH's
  accreal), torchvision in the input's dtype.  b * (cells / P) rounds past
  an integer for some sizes, so the last bin ends one cell beyond the roi
  for 29 cells in 7 bins in double, for 57 cells in float.  float32 results
  are therefore compared with torchvision's on the same values in float64,
  and test_float32_bin_edges_differ_as_documented shows the difference.
- spatial_scale: a C float in the legacy prototype, the input's dtype in
  torchvision: the scales here are powers of two (as feature strides are),
  which both represent exactly.
- a bin's maximum starts from -FLT_MAX in torchvision, from the bin's first
  cell in the legacy code: values below -FLT_MAX (-inf, float64 below
  -3.4e38) and NaN pool differently; the inputs here are finite normals.

NMS: both sort by decreasing score, keep a box unless its IoU (areas
(x2 - x1) * (y2 - y1), no +1, in float32) with a kept box is strictly above
the threshold, and return the kept indices by decreasing score.  Where they
differ, the inputs keep apart:
- the threshold is a C float in the legacy prototype; torchvision's CPU
  kernel compares the float IoU with the threshold as a double.  For 0.3,
  whose float is above 0.3, an IoU of exactly float(0.3) is kept by the
  legacy code and dropped by torchvision (test_nms_threshold_is_a_float
  shows it); the thresholds compared are 0.25 and 0.5, exact in float, and
  0.7, whose float is below 0.7, so no float IoU lies between the two.
- equal scores are ordered as each sort leaves them: the scores are
  distinct.
- rounding: the corners are integers, so areas and intersections are exact
  in float32 and the one rounding, the division, is the same in both (with
  real-valued corners an IoU within a rounding of the threshold can go
  either way, with the order of operations or FMA contraction on CUDA)."""

import math

import numpy as np
import pytest
import torch

from test_examples import DEVICES, _make

try:
    import torchvision.ops
except Exception as e:  # absent, or built for another torch (ImportError, RuntimeError...)
    pytest.skip('needs torchvision (%s: %s)' % (type(e).__name__, e), allow_module_level=True)


@pytest.fixture(scope='module')
def roi_pool(tmp_path_factory):
    _make('roi_pooling', tmp_path_factory.mktemp('roi'))
    from examples.roi_pooling.functions.roi_pool import RoIPoolFunction
    return RoIPoolFunction


@pytest.fixture(scope='module')
def nms(tmp_path_factory):
    _make('nms', tmp_path_factory.mktemp('nms'))
    from examples.nms.nms_wrapper import nms
    return nms


def _features_and_rois(seed, scale, dtype, device, ties=False):
    """Feature maps (2, 3, 64, 72) of normals (ties: small integers, so
    that bins hold equal maxima) and 60 rois in image coordinates: random
    boxes partly outside the map, malformed ones (x2 < x1), and boxes of
    29 and 57 cells, where double and float bin edges differ."""
    g = torch.Generator().manual_seed(seed)
    features = (torch.randint(0, 4, (2, 3, 64, 72), generator=g).to(dtype) if ties
                else torch.randn(2, 3, 64, 72, generator=g, dtype=dtype))
    k = 60
    corner = torch.rand(k, 2, generator=g) * 90 - 10
    size = torch.rand(k, 2, generator=g) * 60 - 5
    cells = torch.tensor([[28.0, 56.0], [56.0, 28.0], [28.0, 28.0]])  # end - start + 1 = 29, 57
    corner[:3] = torch.tensor([[3.0, 2.0], [1.0, 4.0], [0.0, 0.0]])
    size[:3] = cells
    rois = torch.cat([torch.randint(0, 2, (k, 1), generator=g).float(),
                      corner / scale, (corner + size) / scale], 1)
    return features.to(device), rois.to(dtype).to(device)


def _integer_grad(shape, device, dtype):
    """Small integers: sums of them are exact in any order (CUDA's atomicAdd)."""
    g = torch.Generator().manual_seed(7)
    return torch.randint(-3, 4, shape, generator=g).to(dtype).to(device)


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
@pytest.mark.parametrize('pooled', [(7, 7), (2, 3), (14, 11)])
@pytest.mark.parametrize('scale', [1.0, 0.5, 0.0625])
@pytest.mark.parametrize('ties', [False, True])
def test_roi_pooling_matches_torchvision(roi_pool, device, dtype, pooled, scale, ties):
    """Output and gradient equal torchvision's, exactly; float32 against
    torchvision on the same values in float64 (bin edges in double)."""
    features, rois = _features_and_rois(sum(pooled), scale, dtype, device, ties)
    ours_in = features.clone().requires_grad_()
    ours = roi_pool.apply(ours_in, rois, pooled[0], pooled[1], scale)
    theirs_in = features.double().requires_grad_()
    theirs = torchvision.ops.roi_pool(theirs_in, rois.double(), pooled, scale)
    assert ours.dtype == dtype and ours.device == features.device
    torch.testing.assert_close(ours, theirs.to(dtype), rtol=0, atol=0)
    grad = _integer_grad(ours.shape, device, dtype)
    (ours_grad,) = torch.autograd.grad(ours, ours_in, grad)
    (theirs_grad,) = torch.autograd.grad(theirs, theirs_in, grad.double())
    torch.testing.assert_close(ours_grad, theirs_grad.to(dtype), rtol=0, atol=0)


@pytest.mark.parametrize('device', DEVICES)
def test_roi_pooling_cuda_equals_cpu_on_torchvision_inputs(roi_pool, device):
    """The same inputs on the device and on the CPU give the same pooling."""
    features, rois = _features_and_rois(3, 0.5, torch.float32, device)
    on_device = roi_pool.apply(features, rois, 7, 7, 0.5)
    on_cpu = roi_pool.apply(features.cpu(), rois.cpu(), 7, 7, 0.5)
    torch.testing.assert_close(on_device.cpu(), on_cpu, rtol=0, atol=0)


def _last_bin_end(cells, bins, dtype):
    """ceil(bins * (cells / bins)) in the dtype's arithmetic."""
    t = np.float64 if dtype == torch.float64 else np.float32
    return math.ceil(t(bins) * (t(cells) / t(bins)))


@pytest.mark.parametrize('device', DEVICES)
def test_float32_bin_edges_differ_as_documented(roi_pool, device):
    """A roi of 57 rows in 7 bins: in float (torchvision, float32) the last
    bin ends at row 58 and so also covers the row after the roi; in double
    (the legacy code) at 57.  A maximum put on that row shows it."""
    assert (_last_bin_end(57, 7, torch.float32), _last_bin_end(57, 7, torch.float64)) == (58, 57)
    features = torch.zeros(1, 1, 64, 8, device=device)
    features[0, 0, 57, :] = 1.0  # the row just after the roi's 57 rows (0 to 56)
    rois = torch.tensor([[0.0, 0.0, 0.0, 7.0, 56.0]], device=device)
    ours = roi_pool.apply(features, rois, 7, 1, 1.0)
    theirs = torchvision.ops.roi_pool(features, rois, (7, 1), 1.0)
    assert ours[0, 0, :, 0].tolist() == [0.0] * 7
    assert theirs[0, 0, :, 0].tolist() == [0.0] * 6 + [1.0]
    # torchvision in float64 computes the edges as the legacy code does
    assert torchvision.ops.roi_pool(features.double(), rois.double(), (7, 1),
                                    1.0)[0, 0, :, 0].tolist() == [0.0] * 7


def _boxes_and_scores(seed, count):
    """Boxes with integer corners (exact areas and intersections in float32),
    overlapping heavily, a few repeated and a few of zero area; distinct
    scores in random order."""
    g = torch.Generator().manual_seed(seed)
    corner = torch.randint(0, 300, (count, 2), generator=g)
    size = torch.randint(0, 80, (count, 2), generator=g)
    boxes = torch.cat([corner, corner + size], 1).float()
    if count > 10:
        boxes[5:8] = boxes[0]     # repeats: IoU 1
        boxes[8, 2] = boxes[8, 0]  # zero width: IoU 0 or 0/0 (never above a threshold)
    scores = (torch.randperm(count, generator=g).float() + 1) / (count + 1)
    return boxes, scores


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('count', [0, 1, 63, 64, 65, 500, 2000])
@pytest.mark.parametrize('threshold', [0.25, 0.5, 0.7])
def test_nms_matches_torchvision(nms, device, count, threshold):
    boxes, scores = _boxes_and_scores(count, count)
    ours = nms(boxes.to(device), scores.to(device), threshold)
    theirs = torchvision.ops.nms(boxes.to(device), scores.to(device), threshold)
    assert ours.device == theirs.device
    assert ours.tolist() == theirs.tolist()
    if count >= 500:  # not trivially everything or nothing
        assert 0 < len(theirs) < count


@pytest.mark.parametrize('device', DEVICES)
def test_nms_iou_equal_to_the_threshold_is_kept(nms, device):
    """IoU exactly 0.5 (areas 2 and 1, intersection 1): above 0.49, not above
    0.5, in both."""
    boxes = torch.tensor([[0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 1.0]], device=device)
    scores = torch.tensor([0.9, 0.8], device=device)
    for threshold, kept in [(0.5, [0, 1]), (0.49, [0])]:
        assert nms(boxes, scores, threshold).tolist() == kept
        assert torchvision.ops.nms(boxes, scores, threshold).tolist() == kept


@pytest.mark.parametrize('device', DEVICES)
def test_nms_threshold_is_a_float(nms, device):
    """IoU exactly float(0.3) (intersection 30, union 100): not above the
    legacy code's float(0.3), so kept; above torchvision's double 0.3 on the
    CPU, so dropped there."""
    boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [0.0, 0.0, 3.0, 10.0]])
    scores = torch.tensor([0.9, 0.8])
    assert float(np.float32(0.3)) > 0.3
    assert nms(boxes.to(device), scores.to(device), 0.3).tolist() == [0, 1]
    assert torchvision.ops.nms(boxes, scores, 0.3).tolist() == [0]
    # a threshold float represents exactly gives both the same answer
    assert nms(boxes.to(device), scores.to(device), 0.25).tolist() == [0]
    assert torchvision.ops.nms(boxes, scores, 0.25).tolist() == [0]
