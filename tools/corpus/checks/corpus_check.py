"""What every corpus check shares: the import mark the runner reads, the comparison to a
reference, the entry-point test for CUDA-only code, and the plain-PyTorch references of the
operations several repositories implement (RoI pooling, RoI align, crop and resize, NMS,
the RNN transducer loss).

A check is `python CHECK EXTENSION`, run from the folder the extension's wrapper is imported
from; it calls `imported()` once the wrapper is imported, and ends normally when the results
match (it raises AssertionError with the largest relative error when they do not)."""

import math
import sys

import torch
import torch.nn.functional as F

RTOL = 1e-4


def imported():
    """Tells the runner the repository's wrapper imported."""
    print('CORPUS-CHECK imported', flush=True)


def extension():
    """The extension this run checks (the check's one argument)."""
    if len(sys.argv) != 2:
        raise SystemExit('usage: python %s EXTENSION' % sys.argv[0])
    return sys.argv[1]


def close(what, got, want, rtol=RTOL, atol=1e-6):
    """Asserts `got` equals the reference `want` to `rtol` relative."""
    got = torch.as_tensor(got).detach().double().cpu()
    want = torch.as_tensor(want).detach().double().cpu()
    if got.shape != want.shape:
        raise AssertionError('%s: shape %s, the PyTorch reference has %s' % (
            what, tuple(got.shape), tuple(want.shape)))
    err = ((got - want).abs() - atol).clamp(min=0) / want.abs().clamp(min=atol)
    worst = err.max().item() if err.numel() else 0.0
    if not worst <= rtol:
        raise AssertionError('%s differs from the PyTorch reference: max relative error %.3g'
                             % (what, worst))


def entry_points(lib, names):
    """Asserts a CUDA-only extension module has each of its C functions."""
    missing = [n for n in names if not hasattr(lib, n)]
    if missing:
        raise AssertionError('entry points missing: %s' % ', '.join(missing))


# -- references ------------------------------------------------------------------------------

def roi_pool(features, rois, pooled_h, pooled_w, scale):
    """Caffe's RoI max pooling (the ffi-era roi_pooling kernels): features (N, C, H, W), rois
    (K, 5) as (batch, x1, y1, x2, y2) in image coordinates; bins of an RoI rounded to pixels."""
    n, c, h, w = features.shape
    out = features.new_zeros(rois.shape[0], c, pooled_h, pooled_w)
    for k, roi in enumerate(rois.tolist()):
        b = int(roi[0])
        x1, y1, x2, y2 = [int(math.floor(v * scale + 0.5)) for v in roi[1:]]  # C's round()
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        bh, bw = rh / pooled_h, rw / pooled_w
        for ph in range(pooled_h):
            hs = min(max(int(math.floor(ph * bh)) + y1, 0), h)
            he = min(max(int(math.ceil((ph + 1) * bh)) + y1, 0), h)
            for pw in range(pooled_w):
                ws = min(max(int(math.floor(pw * bw)) + x1, 0), w)
                we = min(max(int(math.ceil((pw + 1) * bw)) + x1, 0), w)
                if he > hs and we > ws:
                    out[k, :, ph, pw] = features[b, :, hs:he, ws:we].reshape(c, -1).max(1)[0]
    return out


def bilinear(img, y, x):
    """img (C, H, W) sampled at (y, x), zero outside [-1, H] x [-1, W] as the kernels do."""
    c, h, w = img.shape
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return img.new_zeros(c)
    y, x = min(max(y, 0.0), h - 1), min(max(x, 0.0), w - 1)
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * img[:, y0, x0] + (1 - ly) * lx * img[:, y0, x1] +
            ly * (1 - lx) * img[:, y1, x0] + ly * lx * img[:, y1, x1])


def crop_and_resize(image, boxes, box_index, crop_h, crop_w, extrapolation=0.0):
    """TensorFlow's crop_and_resize: image (N, C, H, W), boxes (K, 4) normalized (y1, x1, y2,
    x2), bilinear, `extrapolation` outside the image."""
    n, c, h, w = image.shape
    out = image.new_full((boxes.shape[0], c, crop_h, crop_w), extrapolation)
    for k, (y1, x1, y2, x2) in enumerate(boxes.tolist()):
        b = int(box_index[k])
        sy = (y2 - y1) * (h - 1) / (crop_h - 1) if crop_h > 1 else 0
        sx = (x2 - x1) * (w - 1) / (crop_w - 1) if crop_w > 1 else 0
        for i in range(crop_h):
            y = y1 * (h - 1) + i * sy if crop_h > 1 else 0.5 * (y1 + y2) * (h - 1)
            if y < 0 or y > h - 1:
                continue
            for j in range(crop_w):
                x = x1 * (w - 1) + j * sx if crop_w > 1 else 0.5 * (x1 + x2) * (w - 1)
                if x < 0 or x > w - 1:
                    continue
                y0, x0 = int(math.floor(y)), int(math.floor(x))
                yy, xx = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
                ly, lx = y - y0, x - x0
                top = image[b, :, y0, x0] + (image[b, :, y0, xx] - image[b, :, y0, x0]) * lx
                bot = image[b, :, yy, x0] + (image[b, :, yy, xx] - image[b, :, yy, x0]) * lx
                out[k, :, i, j] = top + (bot - top) * ly
    return out


def nms(boxes, scores, threshold, plus_one=1.0):
    """Greedy NMS: indices kept, by descending score; boxes (K, 4) x1, y1, x2, y2 with areas
    (x2 - x1 + plus_one) * (y2 - y1 + plus_one), the 2018 pixel convention by default."""
    order = scores.argsort(descending=True).tolist()
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1 + plus_one) * (y2 - y1 + plus_one)
    keep, dropped = [], set()
    for i in order:
        if i in dropped:
            continue
        keep.append(i)
        for j in order:
            if j in dropped or j == i or j in keep:
                continue
            iw = (torch.min(x2[i], x2[j]) - torch.max(x1[i], x1[j]) + plus_one).clamp(min=0)
            ih = (torch.min(y2[i], y2[j]) - torch.max(y1[i], y1[j]) + plus_one).clamp(min=0)
            inter = iw * ih
            if inter / (areas[i] + areas[j] - inter) > threshold:
                dropped.add(j)
    return keep


def rnnt_costs(log_probs, targets, lengths, blank):
    """The RNN transducer loss (Graves 2012), one cost an example: log_probs (B, T, U + 1, V),
    targets a list of B label sequences, lengths (B,) the frames of each; alpha over (t, u),
    the cost -log P(labels)."""
    costs = []
    for b, y in enumerate(targets):
        T, U = int(lengths[b]), len(y)
        lp = log_probs[b]
        alpha = [[None] * (U + 1) for _ in range(T)]
        for t in range(T):
            for u in range(U + 1):
                terms = []
                if t == 0 and u == 0:
                    terms.append(lp.new_zeros(()))
                if t > 0:
                    terms.append(alpha[t - 1][u] + lp[t - 1, u, blank])
                if u > 0:
                    terms.append(alpha[t][u - 1] + lp[t, u - 1, int(y[u - 1])])
                alpha[t][u] = torch.logsumexp(torch.stack(terms), 0)
        costs.append(-(alpha[T - 1][U] + lp[T - 1, U, blank]))
    return torch.stack(costs)

def random_rois(n_batch, height, width, count, scale=1.0, seed=0):
    """RoIs (count, 5) as (batch, x1, y1, x2, y2), inside an image of (height, width) / scale."""
    g = torch.Generator().manual_seed(seed)
    rois = torch.zeros(count, 5)
    rois[:, 0] = torch.randint(0, n_batch, (count,), generator=g).float()
    for k in range(count):
        xs = sorted(torch.randint(0, int(width / scale), (2,), generator=g).tolist())
        ys = sorted(torch.randint(0, int(height / scale), (2,), generator=g).tolist())
        rois[k, 1:] = torch.tensor([xs[0], ys[0], xs[1], ys[1]], dtype=torch.float)
    return rois


def random_boxes(count, size=32.0, seed=0):
    """Boxes (count, 4) x1, y1, x2, y2 that overlap often, and distinct scores (count,)."""
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(count, 2, generator=g) * size
    wh = torch.rand(count, 2, generator=g) * size / 2 + 2
    scores = torch.randperm(count, generator=g).float() / count
    return torch.cat([xy, xy + wh], 1), scores


def check_roi_pool(what, forward, features, rois, pooled_h, pooled_w, scale):
    """RoI pooling's forward against the reference; a mismatch that equals the reference on the
    NCHW memory read as NHWC (a permute view handed to C as if contiguous) says so."""
    want = roi_pool(features, rois, pooled_h, pooled_w, scale)
    try:
        close(what, forward(features, rois), want)
    except AssertionError as e:
        n, c, h, w = features.shape
        as_nhwc = features.contiguous().view(n, h, w, c).permute(0, 3, 1, 2)
        try:
            close(what, forward(features, rois), roi_pool(as_nhwc, rois, pooled_h, pooled_w, scale))
        except AssertionError:
            raise e
        raise AssertionError('%s; it equals the reference on the NCHW memory read as NHWC (the '
                             'wrapper passes a permute view to C, which reads it as contiguous)'
                             % e) from None


def roi_align_corners(features, rois, aligned_h, aligned_w, scale):
    """The ffi-era "RoIAlign" of longcw/faster_rcnn_pytorch lineage: aligned_h x aligned_w points
    spread from the RoI's start over (size + 1), corner to corner (bin = size / (n - 1)),
    bilinear from the top-left pixel clamped to (H - 2, W - 2), zero outside the image."""
    n, c, h, w = features.shape
    out = features.new_zeros(rois.shape[0], c, aligned_h, aligned_w)
    for k, roi in enumerate(rois.tolist()):
        b = int(roi[0])
        x1, y1, x2, y2 = [v * scale for v in roi[1:]]
        bh = max(y2 - y1 + 1.0, 0.0) / (aligned_h - 1.0)
        bw = max(x2 - x1 + 1.0, 0.0) / (aligned_w - 1.0)
        for ph in range(aligned_h):
            y = ph * bh + y1
            for pw in range(aligned_w):
                x = pw * bw + x1
                if y < 0 or y >= h or x < 0 or x >= w:
                    continue
                y0, x0 = min(int(math.floor(y)), h - 2), min(int(math.floor(x)), w - 2)
                ly, lx = y - y0, x - x0
                img = features[b]
                out[k, :, ph, pw] = (img[:, y0, x0] * (1 - ly) * (1 - lx) +
                                     img[:, y0, x0 + 1] * (1 - ly) * lx +
                                     img[:, y0 + 1, x0] * ly * (1 - lx) +
                                     img[:, y0 + 1, x0 + 1] * ly * lx)
    return out


def bhwd_sampler(images, grids):
    """The BHWD bilinear sampler (stn.pytorch lineage): images (B, H, W, C), grids (B, H', W', 2)
    holding (y, x) in [-1, 1] corner to corner, zero outside; output (B, H', W', C)."""
    out = F.grid_sample(images.permute(0, 3, 1, 2), grids.flip(-1), mode='bilinear',
                        padding_mode='zeros', align_corners=True)
    return out.permute(0, 2, 3, 1)


def check_crop_and_resize(what, forward, crop_h=4, crop_w=3, backward=True):
    """crop_and_resize (image NCHW, boxes normalized y1 x1 y2 x2, box_ind int) forward and,
    where the wrapper has one, backward to the image, against the reference; some boxes reach
    outside the image (extrapolated with 0)."""
    g = torch.Generator().manual_seed(1)
    image = torch.rand(2, 3, 9, 8, generator=g).requires_grad_(backward)
    corners = torch.rand(5, 2, 2, generator=g) * 1.2 - 0.1
    boxes = torch.cat([corners.min(1)[0], corners.max(1)[0]], 1).contiguous()
    box_ind = torch.tensor([0, 1, 1, 0, 1], dtype=torch.int)
    got = forward(image, boxes, box_ind)
    want = crop_and_resize(image, boxes, box_ind, crop_h, crop_w)
    close('%s forward' % what, got, want)
    if backward:
        grad = torch.rand_like(want)
        close('%s backward' % what, torch.autograd.grad(got, image, grad)[0],
              torch.autograd.grad(want, image, grad)[0])


def check_nms(what, forward, count=40, threshold=0.3, plus_one=1.0):
    """forward(dets (K, 5) as x1, y1, x2, y2, score; threshold) -> kept indices, in the order of
    descending score, against the reference."""
    boxes, scores = random_boxes(count)
    dets = torch.cat([boxes, scores[:, None]], 1).contiguous()
    got = [int(i) for i in torch.as_tensor(forward(dets, threshold)).reshape(-1).tolist()]
    want = nms(boxes, scores, threshold, plus_one)
    if got != want:
        raise AssertionError('%s differs from the PyTorch reference: kept %s, the reference %s'
                             % (what, got, want))
