"""Every CUDA call of the demo and of the examples, once each way, for
tools/gpu_check.sh to run under compute-sanitizer (memcheck, racecheck).

    python tools/gpu_calls.py

The demo's add (MyAddFunction, float32 and float64, contiguous, transposed,
sliced, expanded, 0-d and empty tensors, forward and backward, and the raw
C call on the current stream and on a side stream), the example RoI pooling
(forward and backward, both dtypes, rois inside, across and outside the map)
and the example NMS (0 to 2000 boxes, across the 64-box blocks of its mask
kernel), and when thffi/tests/thc_sparse is built (gpu_check.sh's step 1c) its
legacy cuSPARSE calls, which thffi provides over today's API
(thffi/tests/thc_sparse/check_sparse.py).  Each result is checked against
PyTorch on the CPU.  Prints one
line per group and exits 0 when every result matched, 1 otherwise; the
sanitizer's own report is its business (gpu_check.sh reads it).  Needs the
demo built with CUDA (python build.py) and the examples built
(examples/roi_pooling/make.sh, examples/nms/make.sh)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import torch  # noqa: E402

from functions.add import WITH_CUDA, MyAddFunction  # noqa: E402
from _ext import my_lib  # noqa: E402
from examples.nms.nms_wrapper import nms  # noqa: E402
from examples.roi_pooling.functions.roi_pool import RoIPoolFunction  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, 'thffi', 'tests', 'thc_sparse'))
import check_sparse  # noqa: E402


def demo_add():
    """MyAddFunction forward and backward on every layout (views made on
    the GPU), both dtypes; the raw C call on the current and a side stream."""
    mismatches = 0
    g = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        base = torch.randn(33, 65, generator=g, dtype=dtype).cuda()
        other = torch.randn(65, 33, generator=g, dtype=dtype).cuda()
        cases = [(base, other.t()),                                  # contiguous, transposed
                 (base[:, 1::2], other.t()[:, 2::2]),                # sliced
                 (base[:1].expand(33, 65), other.t()),               # expanded
                 (base[0, 0], other[0, 0]),                          # 0-d
                 (base[:0], other.t()[:0])]                          # empty
        for a, b in cases:
            x, y = a.detach().requires_grad_(), b.detach().requires_grad_()
            out = MyAddFunction.apply(x, y)
            grad = torch.randn(out.shape, generator=g, dtype=dtype).cuda()
            grad_x, grad_y = torch.autograd.grad(out, (x, y), grad)
            mismatches += not (torch.equal(out.cpu(), a.cpu() + b.cpu())
                               and torch.equal(grad_x, grad) and torch.equal(grad_y, grad))
    a, b = torch.rand(1000, device='cuda'), torch.rand(1000, device='cuda')
    for stream in (torch.cuda.current_stream(), torch.cuda.Stream()):
        stream.wait_stream(torch.cuda.current_stream())  # a and b are written
        with torch.cuda.stream(stream):
            out = torch.empty_like(a)
            my_lib.my_lib_add_forward_cuda(a, b, out)
        stream.synchronize()
        mismatches += not torch.equal(out, a + b)
    return mismatches


def roi_pooling():
    """Forward and backward against the CPU code on the same inputs."""
    mismatches = 0
    g = torch.Generator().manual_seed(1)
    for dtype in (torch.float32, torch.float64):
        features = torch.randn(2, 4, 24, 30, generator=g, dtype=dtype)
        corner = torch.rand(40, 2, generator=g) * 70 - 10
        rois = torch.cat([torch.randint(0, 2, (40, 1), generator=g).float(), corner,
                          corner + torch.rand(40, 2, generator=g) * 40 - 4], 1).to(dtype)
        grad = torch.randint(-3, 4, (40, 4, 5, 6), generator=g).to(dtype)
        results = []
        for device in ('cuda', 'cpu'):
            f = features.to(device).requires_grad_()
            out = RoIPoolFunction.apply(f, rois.to(device), 5, 6, 0.5)
            out.backward(grad.to(device))
            results.append((out.cpu(), f.grad.cpu()))
        mismatches += not (torch.equal(results[0][0], results[1][0])
                           and torch.equal(results[0][1], results[1][1]))
    return mismatches


def non_maximum_suppression():
    """Kept indices on the GPU against the CPU code, across mask blocks."""
    mismatches = 0
    g = torch.Generator().manual_seed(2)
    for count in (0, 1, 63, 64, 65, 129, 2000):
        corner = torch.randint(0, 300, (count, 2), generator=g)
        boxes = torch.cat([corner, corner + torch.randint(1, 80, (count, 2), generator=g)],
                          1).float()
        scores = torch.randperm(count, generator=g).float()
        for threshold in (0.3, 0.7):
            mismatches += not torch.equal(nms(boxes.cuda(), scores.cuda(), threshold).cpu(),
                                          nms(boxes, scores, threshold))
    return mismatches


def legacy_cusparse():
    """cuSPARSE's legacy calls (csrmv, csrmm, csrgemm, csrgeam, csr2csc,
    gthr, sctr, axpyi, doti) against dense PyTorch; None when
    thffi/tests/thc_sparse is not built."""
    if not os.path.isdir(os.path.join(check_sparse.HERE, '_ext', 'sparse')):
        return None
    results = check_sparse.results(check_sparse.load())
    for call, ok in results.items():
        if not ok:
            print('gpu_calls.py: legacy cuSPARSE: %s does not match' % call, flush=True)
    return sum(not ok for ok in results.values())


def main():
    if not (torch.cuda.is_available() and WITH_CUDA):
        print('gpu_calls.py: needs a CUDA GPU and the demo built with CUDA', file=sys.stderr)
        return 1
    failed = 0
    for name, group in [('demo add', demo_add), ('roi pooling', roi_pooling),
                        ('nms', non_maximum_suppression), ('legacy cuSPARSE', legacy_cusparse)]:
        mismatches = group()
        torch.cuda.synchronize()
        print('gpu_calls.py: %s: %s' % (name, 'skipped (thffi/tests/thc_sparse not built)'
                                          if mismatches is None else 'ok' if not mismatches
                                          else '%d mismatches' % mismatches), flush=True)
        failed += mismatches or 0
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
