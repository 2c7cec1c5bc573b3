"""TH math, random and LAPACK functions, done by PyTorch through thffi's
bridge (csrc/THMath.c, thffi/runtime/thmath.py), called from legacy generic C
(thffi/tests/th_math, thffi/tests/thc_math) on contiguous, transposed and sliced views, checked against
PyTorch; THError from what PyTorch refuses; calls from OpenMP threads; the
generated entry points in step with their table (tools/gen_thmath.py)."""

import os
import subprocess
import sys

import pytest
import torch
from support import TESTS, ROOT, build_test_extension

TYPES = [('Float', torch.float32), ('Double', torch.float64), ('Long', torch.int64)]
LAYOUTS = ['contiguous', 'transposed', 'sliced']


@pytest.fixture(scope='module')
def th_math(tmp_path_factory):
    return build_test_extension(tmp_path_factory, 'th_math', ['th_math.h'], ['th_math.c'],
                                extra_compile_args=['-fopenmp'],
                                include_dirs=[os.path.join(TESTS, 'th_math')])


def view(values, layout):
    """values (2-D) as a tensor of that layout: its own memory, the
    transpose of a contiguous tensor, or every other column of a wider one."""
    if layout == 'contiguous':
        return values.clone()
    if layout == 'transposed':
        return values.t().contiguous().t()
    wide = torch.zeros(values.shape[0], 2 * values.shape[1], dtype=values.dtype)
    wide[:, ::2] = values
    return wide[:, ::2]


def sample(dtype, rows=3, cols=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(-3, 9, (rows, cols), generator=g).to(dtype)


def empty(dtype=torch.float32):
    return torch.empty(0, dtype=dtype)


def close(got, want):
    torch.testing.assert_close(got, want.to(got.dtype), check_stride=False)


@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('real, dtype', TYPES)
def test_pointwise(th_math, real, dtype, layout):
    a, b = view(sample(dtype), layout), view(sample(dtype, seed=1), layout)
    before = a.clone()
    outs = [empty(dtype) for _ in range(4)] + [empty(torch.uint8)] + [empty(dtype) for _ in range(2)]
    # a result tensor of the right shape is written in place, whatever its strides
    outs[0] = torch.zeros(4, 3, dtype=dtype).t()
    getattr(th_math, 'th_math_%s_pointwise' % real)(a, b, *outs)
    add, cmul, addcmul, clamp, lt, geT, unary = outs
    assert torch.equal(a, before)
    close(add, a + 3)
    assert add.stride() == (1, 3)
    close(cmul, a * b)
    close(addcmul, a + 2 * a * b)
    close(clamp, a.clamp(2, 7))
    assert lt.dtype == torch.uint8 and torch.equal(lt, (a < 4).to(torch.uint8))
    close(geT, (a >= b).to(dtype))
    close(unary, torch.sigmoid(a) if dtype.is_floating_point else a.abs())


@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('real, dtype', TYPES)
def test_reductions(th_math, real, dtype, layout):
    a = view(sample(dtype), layout)
    r_sum, r_max, r_cumsum, r_mean = (empty(dtype) for _ in range(4))
    r_argmax = empty(torch.int64)
    total = getattr(th_math, 'th_math_%s_reduce' % real)(a, r_sum, r_max, r_argmax, r_cumsum,
                                                          r_mean)
    close(r_sum, a.sum(1, keepdim=True))
    values, indices = a.max(0, keepdim=True)
    close(r_max, values)
    assert torch.equal(r_argmax, indices)
    close(r_cumsum, a.cumsum(1))
    close(r_mean, a.std(0) if dtype.is_floating_point else a.prod(0))
    assert total == pytest.approx((a.sum() + a[0].prod()).item())


@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('real, dtype', TYPES)
def test_blas(th_math, real, dtype, layout):
    m, n = view(sample(dtype), layout), view(sample(dtype, 4, 2, seed=2), layout)
    v = view(sample(dtype, 1, 4, seed=3), layout)[0]
    r_mm, r_mv, r_dot = (empty(dtype) for _ in range(3))
    getattr(th_math, 'th_math_%s_blas' % real)(m, n, v, r_mm, r_mv, r_dot)
    close(r_mm, m @ n)
    close(r_mv, m @ v)
    close(r_dot, (v * v).sum().reshape(1))


@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('real, dtype', TYPES)
def test_index_and_sort(th_math, real, dtype, layout):
    a = view(sample(dtype), layout)
    idx = torch.tensor([3, 0, 2])
    mask = (a > 2).to(torch.uint8)
    r_sel, r_masked, r_sort, r_topk, r_cat, r_catarray = (empty(dtype) for _ in range(6))
    r_sorti, r_topki = empty(torch.int64), empty(torch.int64)
    getattr(th_math, 'th_math_%s_index' % real)(a, idx, mask, r_sel, r_masked, r_sort, r_sorti,
                                                 r_topk, r_topki, r_cat, r_catarray)
    close(r_sel, a[:, idx])
    close(r_masked, a[a > 2])
    values, indices = a.sort(1, descending=True)
    close(r_sort, values)
    assert torch.equal(a.gather(1, r_sorti), values)
    close(r_topk, a.topk(2, 1).values)
    assert torch.equal(a.gather(1, r_topki), a.topk(2, 1).values)
    close(r_cat, torch.cat([a, a]))
    close(r_catarray, torch.cat([a, a[:, idx]], 1))


@pytest.mark.parametrize('real, dtype', TYPES)
def test_random_draws_from_torchs_default_generator(th_math, real, dtype):
    u, n = torch.empty(200, dtype=dtype), torch.empty(200, dtype=dtype)
    torch.manual_seed(7)
    getattr(th_math, 'th_math_%s_random' % real)(u, n)
    first = u.clone(), n.clone()
    torch.manual_seed(7)
    getattr(th_math, 'th_math_%s_random' % real)(u, n)
    assert torch.equal(u, first[0]) and torch.equal(n, first[1])
    torch.manual_seed(7)
    if dtype.is_floating_point:
        want_u = torch.empty(200, dtype=dtype).uniform_(-1, 2)
        want_n = torch.empty(200, dtype=dtype).normal_(0, 1)
        assert u.min() >= -1 and u.max() < 2
    else:
        want_u = torch.empty(200, dtype=dtype).random_(-5, 5)
        want_n = torch.empty(200, dtype=dtype).random_(0, 10)
        assert u.min() >= -5 and u.max() < 5 and n.min() >= 0 and n.max() < 10
    assert torch.equal(u, want_u) and torch.equal(n, want_n)


@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('real, dtype', TYPES[:2])
def test_lapack(th_math, real, dtype, layout):
    g = torch.Generator().manual_seed(4)
    a = view(torch.randn(4, 4, generator=g, dtype=dtype) + 4 * torch.eye(4, dtype=dtype), layout)
    b = view(torch.randn(4, 2, generator=g, dtype=dtype), layout)
    spd = a @ a.t() + torch.eye(4, dtype=dtype)
    r_x, r_lu, r_inv, r_chol, r_pchol = (empty(dtype) for _ in range(5))
    r_piv = empty(torch.int32)
    getattr(th_math, 'th_math_%s_lapack' % real)(a, b, spd, r_x, r_lu, r_inv, r_chol, r_pchol,
                                                  r_piv)
    close(r_x, torch.linalg.solve(a, b))
    close(r_lu, torch.linalg.lu_factor(a).LU)
    close(r_inv, torch.linalg.inv(a))
    close(r_chol, torch.linalg.cholesky(spd, upper=True))
    p = r_piv.long()
    assert sorted(p.tolist()) == [0, 1, 2, 3] and torch.equal(r_pchol, r_pchol.triu())
    close(r_pchol.t() @ r_pchol, spd[p][:, p])
    # complete pivoting: the first pivot is the largest diagonal element
    assert p[0] == spd.diagonal().argmax()


@pytest.mark.parametrize('real, dtype', TYPES)
def test_what_torch_refuses_is_a_th_error(th_math, real, dtype):
    a = sample(dtype, 2, 3)
    before = a.clone()
    with pytest.raises(RuntimeError) as err:
        getattr(th_math, 'th_math_%s_bad_addmm' % real)(a)
    message = str(err.value)
    assert message.startswith('th_math_%s_bad_addmm: TH%sTensor_addmm: ' % (real, real))
    assert 'cannot be multiplied' in message and 'THMath.c' in message
    assert torch.equal(a, before)
    assert th_math._rt.live_tensors() == 0
    # the next call works
    r = empty(dtype)
    getattr(th_math, 'th_math_%s_blas' % real)(a, a.t(), a[0], r, empty(dtype), empty(dtype))
    close(r, a @ a.t())


def test_vector_loops_and_logadd_in_c(th_math):
    x = torch.tensor([-3.7, -0.5, 0.25, 1.0, 2.5, 3.9], dtype=torch.float64)
    dig, trig, erfinv, sq = (empty(torch.float64) for _ in range(4))
    assert th_math.th_math_vector(x, dig, trig, erfinv, sq) == pytest.approx(0, abs=1e-12)
    close(dig, torch.digamma(x))
    close(trig, torch.polygamma(1, x))
    close(erfinv, torch.erfinv(x / 4))
    close(sq, x * x)


def test_openmp_threads_call_the_bridge(th_math):
    a = torch.arange(48, dtype=torch.float32).reshape(12, 4)
    sums = torch.empty(0, dtype=torch.float64)
    th_math.th_math_omp_row_sums(a, sums)
    assert sums.tolist() == a.sum(1).double().tolist()


def test_an_error_on_an_openmp_thread_of_ours_is_the_calls_exception(th_math):
    # The thread's work ends there; the call raises the error once its team
    # is done (thffi/tests/test_threads.py has the rest).  In a child: the test's
    # timeout catches a deadlock, its exit status a crash.
    child = subprocess.run(
        [sys.executable, '-c', 'import sys, torch; sys.path.insert(0, sys.argv[1]); '
         'import _thffi_th_math.th_math as m\n'
         'try:\n    torch.addmm(torch.ones(4, 3), torch.ones(4, 3), torch.ones(4, 3))\n'
         'except RuntimeError as e:\n    print(e)\n'
         'try:\n    m.th_math_omp_bad_row(torch.ones(4, 3))\n'
         'except RuntimeError as e:\n    print(e)\n'
         'a, sums = torch.ones(4, 3), torch.empty(0, dtype=torch.float64)\n'
         'm.th_math_omp_row_sums(a, sums)\nprint(sums.tolist())',
         os.path.dirname(os.path.dirname(os.path.dirname(th_math.__file__)))],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=ROOT))
    assert child.returncode == 0, child.stderr
    # Our words around PyTorch's own (its wording changes between releases).
    refused, ours = child.stdout.splitlines()[:2]
    assert ours.startswith('th_math_omp_bad_row: THFloatTensor_addmm: %s at ' % refused), \
        child.stdout
    assert 'THMath.c:' in ours, child.stdout
    assert child.stdout.endswith('\n[3.0, 3.0, 3.0, 3.0]\n'), child.stdout


needs_toolkit = pytest.mark.skipif(not __import__('thffi').cuda_enabled(),
                                   reason='needs a CUDA toolkit')
needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')


@pytest.fixture(scope='module')
def thc_math(tmp_path_factory):
    return build_test_extension(tmp_path_factory, 'thc_math', ['thc_math.h'], ['thc_math.c'],
                                with_cuda=True)


@needs_toolkit
def test_thc_math_builds_and_links(thc_math):
    assert callable(thc_math.thc_math_mul_sum) and callable(thc_math.thc_math_getrf)


@needs_toolkit
@needs_gpu
@pytest.mark.parametrize('layout', LAYOUTS)
def test_thc_math_on_the_gpu(thc_math, layout):
    a = view(sample(torch.float32), layout).cuda()
    r_mul, r_sum = torch.empty(0, device='cuda'), torch.empty(0, device='cuda')
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):  # the caller's current stream is used
        thc_math.thc_math_mul_sum(a, r_mul, r_sum)
    stream.synchronize()
    close(r_mul, 2 * a)
    close(r_sum, a.sum(1, keepdim=True))
    b = view(sample(torch.int64), layout).cuda()
    r_topk, r_idx = (torch.empty(0, dtype=torch.int64, device='cuda') for _ in range(2))
    thc_math.thc_math_long_topk(b, r_topk, r_idx)
    close(r_topk, b.topk(2, 1).values)
    assert torch.equal(b.gather(1, r_idx), b.topk(2, 1).values)


@needs_toolkit
@needs_gpu
def test_thc_blas_getrf(thc_math):
    m = torch.randn(3, 4, 4, device='cuda') + 4 * torch.eye(4, device='cuda')
    lu = m.transpose(1, 2).contiguous()  # cuBLAS is column-major
    addresses = torch.tensor([lu[i].data_ptr() for i in range(3)], device='cuda')
    pivots = torch.zeros(3, 4, dtype=torch.int32, device='cuda')
    info = torch.zeros(3, dtype=torch.int32, device='cuda')
    thc_math.thc_math_getrf(addresses, pivots, info, 4)
    torch.cuda.synchronize()
    want = torch.linalg.lu_factor(m)
    assert info.tolist() == [0, 0, 0]
    close(lu.transpose(1, 2), want.LU)
    assert torch.equal(pivots, want.pivots)
