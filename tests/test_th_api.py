"""Every function of the TH API, called from C once per tensor type
(thffi/tests/th_test/generic/th_api.c), checked against PyTorch."""

import pytest
import torch

from demo_support import REALS
from functions.add import WITH_CUDA



needs_gpu = pytest.mark.skipif(not (torch.cuda.is_available() and WITH_CUDA),
                               reason='needs a CUDA GPU and a CUDA toolkit')


@pytest.mark.parametrize('device', ['cpu', pytest.param('cuda', marks=needs_gpu)])
@pytest.mark.parametrize('layout', ['contiguous', 'transposed'])
@pytest.mark.parametrize('real, dtype', REALS)
def test_th_api_tour(request, real, dtype, layout, device):
    # thffi/tests/th_test/generic/th_api.c; on the GPU thffi/tests/thc_test/generic/thc_api.c
    lib = request.getfixturevalue('th_test' if device == 'cpu' else 'thc_test')
    base = torch.arange(12).to(dtype).to(device)
    source = base.view(3, 4) if layout == 'contiguous' else base.view(4, 3).t()
    input = source.clone() if layout == 'contiguous' else source
    before = input.clone()
    row, narrowed, trans, twice, filled = (torch.empty(0, dtype=dtype, device=device)
                                           for _ in range(5))
    dims = torch.empty(0, dtype=torch.int64)

    result = getattr(lib, '%s_api_%s_tour' % ('th' if device == 'cpu' else 'thc', real))(
        input, row, narrowed, trans, twice, filled, dims)

    assert torch.equal(input, before)
    assert torch.equal(row, input[1]) and row.data_ptr() == input[1].data_ptr()
    assert torch.equal(narrowed, input[:, 1:3])
    assert torch.equal(trans, input.t()) and trans.is_contiguous()
    assert torch.equal(twice, input + 2 * input)
    assert torch.equal(filled, torch.full((1, 2, 1, 3, 1), 5, dtype=dtype, device=device))
    assert dims.tolist() == [10, 24, 3, 12, int(input.t().is_contiguous()), 20, 2, 0, 1,
                             12 + 123 + 1234, -1, -1]
    assert result.dtype == dtype and result.device == input.device
    if device == 'cpu':   # the sum over row, read by C through data and stride
        assert result.tolist() == [input[1].sum().item()]
    else:                 # a copy of row, made in C
        assert torch.equal(result, input[1])
    # Every tensor the call created was released but the one it returned.
    assert lib._rt.live_tensors() == 0


@needs_gpu
@pytest.mark.parametrize('name, dtype', [('sgemm', torch.float32), ('dgemm', torch.float64)])
def test_cublas_gemm(thc_test, name, dtype):
    a = torch.randn(5, 7, dtype=dtype, device='cuda')
    b = torch.randn(7, 3, dtype=dtype, device='cuda')
    c = torch.empty(0, dtype=dtype, device='cuda')
    getattr(thc_test, 'thc_api_' + name)(a, b, c)
    torch.testing.assert_close(c, a @ b)


def test_tensors_created_before_an_error_are_released(th_test):
    # Both fail the input checks after the call created five tensors.
    for bad in (torch.zeros(3, 3), torch.zeros(12)):
        with pytest.raises(RuntimeError, match='invalid argument 1: input must be'):
            th_test.th_api_Float_tour(bad, *(torch.empty(0) for _ in range(5)),
                                      torch.empty(0, dtype=torch.int64))
        assert th_test._rt.live_tensors() == 0


def _sources(n):
    """One tensor of every TH type with the same n values (0 to 99, with
    fractions in the floating ones), each a transposed view."""
    values = torch.linspace(0, 99.75, n, dtype=torch.float64).reshape(n // 4, 4)
    return [values.to(dtype).t() for _, dtype in REALS]


@pytest.mark.parametrize('real, dtype', REALS)
def test_th_copy_between_all_types(th_test, real, dtype):
    # thffi/tests/th_test/generic/th_copy.c: THTensor_(copyByte) ... copyDouble
    # into strided columns, from transposed sources.
    src = dict(zip('fdbcsil', _sources(24)))
    out = torch.empty(0, dtype=dtype)
    getattr(th_test, 'th_copy_%s_tour' % real)(
        out, src['b'], src['c'], src['s'], src['i'], src['l'], src['f'], src['d'])
    assert out.shape == (24, 7)
    for k, name in enumerate('bcsilfd'):
        assert torch.equal(out[:, k], src[name].reshape(-1).to(dtype)), name


def test_th_copy_between_types_in_parallel(th_test):
    # Above 65,536 elements the conversions run on OpenMP threads, each from
    # the middle of the strided views.
    n = 3 * 2 ** 16
    src = dict(zip('fdbcsil', _sources(n)))
    out = torch.empty(0, dtype=torch.float64)
    th_test.th_copy_Double_tour(out, src['b'], src['c'], src['s'], src['i'], src['l'],
                                src['f'], src['d'])
    for k, name in enumerate('bcsilfd'):
        assert torch.equal(out[:, k], src[name].reshape(-1).to(torch.float64)), name


@pytest.mark.parametrize('real, dtype', REALS)
def test_th_get_and_set(th_test, real, dtype):
    # thffi/tests/th_test/generic/th_access.c, on a permuted view.
    t = (torch.arange(120) % 50).to(dtype).reshape(5, 4, 3, 2).permute(3, 2, 1, 0)
    before = t.clone()
    read = getattr(th_test, 'th_access_%s_tour' % real)(t)
    assert read.tolist() == [before[1, 0, 0, 1], before[1, 0, 1, 0], before[1, 0, 1, 1],
                             before[1, 0, 0, 1]]
    expected = before.clone()
    expected[0, 0, 0, 0] += 1
    expected[1, 0, 0, 0], expected[1, 0, 1, 0], expected[1, 0, 0, 2] = 2, 3, 4
    assert torch.equal(t, expected)


def test_th_get_checks_dimensions_and_indices(th_test):
    t = torch.arange(6, dtype=torch.float64).reshape(2, 3)
    assert th_test.get2d_double(t.t(), 2, 1) == t[1, 2]
    with pytest.raises(RuntimeError, match='invalid argument 3: index 3 out of range for '
                                           'dimension 1 of size 3'):
        th_test.get2d_double(t, 1, 3)
    with pytest.raises(RuntimeError, match='invalid argument 1: tensor must have 2 '
                                           'dimensions, got 1'):
        th_test.get2d_double(t[0], 0, 0)


@pytest.mark.parametrize('dim', [0, 1, 2])
@pytest.mark.parametrize('real, dtype', REALS)
def test_th_dim_apply(th_test, real, dtype, dim):
    # thffi/tests/th_test/generic/th_dimapply.c: a scatter-add, a cumsum and a
    # flip along dim with TH_TENSOR_DIM_APPLY3, 2 and 1, on strided views.
    g = torch.Generator().manual_seed(dim)
    shape = [3, 4, 5]
    out = torch.randint(0, 5, [5, 4, 3], generator=g).to(dtype).permute(2, 1, 0)
    src_shape = list(shape)
    src_shape[dim] = 2
    src = torch.randint(0, 5, src_shape, generator=g).to(dtype)
    index = torch.randint(0, shape[dim], src_shape[::-1], generator=g).permute(2, 1, 0)
    scattered = out.clone().scatter_add_(dim, index, src)
    cumsum = torch.empty(0, dtype=dtype)
    getattr(th_test, 'th_dimapply_%s_tour' % real)(out, src, index, cumsum, dim)
    assert torch.equal(cumsum, scattered.cumsum(dim).to(dtype))
    assert torch.equal(out, scattered.flip(dim))


def test_th_dim_apply_errors(th_test):
    out, src = torch.zeros(3, 4), torch.ones(3, 2)
    with pytest.raises(RuntimeError, match=r'index 9 out of range \[0, 4\)'):
        th_test.th_dimapply_Float_tour(out, src, torch.full((3, 2), 9), torch.empty(0), 1)
    with pytest.raises(RuntimeError, match='Expected out, src and index to have the same size '
                                           'apart from dimension 1; they differ in dimension 0'):
        th_test.th_dimapply_Float_tour(out, torch.ones(2, 2), torch.zeros(2, 2, dtype=torch.int64),
                                       torch.empty(0), 1)
    with pytest.raises(RuntimeError, match=r'invalid dimension 2 \(expected to be 0 <= dim < 2\)'):
        th_test.th_dimapply_Float_tour(out, src, torch.zeros(3, 2, dtype=torch.int64),
                                       torch.empty(0), 2)
    assert th_test._rt.live_tensors() == 0


@pytest.mark.parametrize('real, dtype', REALS + [('Half', torch.float16)])
def test_single_type_generators(th_test, real, dtype):
    # thffi/tests/th_test/generic/th_single.c, included with THGenerate<Real>Type.h:
    # real's size, ureal's for the integer types, TH_CONVERT_* both ways.
    code = getattr(th_test, 'th_single_%s_code' % real)(torch.empty(0, dtype=dtype))
    floating = dtype.is_floating_point
    assert code == torch.empty(0, dtype=dtype).element_size() + 100 * floating + \
        10 * (not floating) + 1000


def test_thalloc_threalloc_thfree(th_test):
    assert th_test.alloc_roundtrip(1000) == sum(range(2000))
    assert th_test.alloc_is_null(0) == 1 and th_test.alloc_is_null(16) == 0
    with pytest.raises(RuntimeError, match='THAlloc: invalid memory size -1'):
        th_test.alloc_is_null(-1)


@needs_gpu
@pytest.mark.parametrize('real, dtype', REALS)
def test_thc_copy_into_every_type(thc_test, real, dtype):
    # thffi/tests/thc_test/generic/thc_copy.c: CPU and GPU sources of every type,
    # transposed views, into strided GPU columns of this type.
    cpu = dict(zip('fdbcsil', _sources(24)))
    gpu = {name: t.cuda() for name, t in cpu.items()}
    same = cpu['fdbcsil'[[d for _, d in REALS].index(dtype)]]
    out = torch.empty(0, dtype=dtype, device='cuda')
    getattr(thc_test, 'thc_copy_to_%s_tour' % real)(
        out, same, *(cpu[k] for k in 'bcsilfd'), *(gpu[k] for k in 'bcsilfd'))
    assert out.shape == (24, 16)
    for k, name in enumerate('bcsilfd'):
        assert torch.equal(out[:, k].cpu(), cpu[name].reshape(-1).to(dtype)), name
        assert torch.equal(out[:, 7 + k].cpu(), cpu[name].reshape(-1).to(dtype)), 'cuda ' + name
    assert torch.equal(out[:, 14].cpu(), same.reshape(-1))
    assert torch.equal(out[:, 15].cpu(), same.reshape(-1))
    assert thc_test._rt.live_tensors() == 0


@needs_gpu
@pytest.mark.parametrize('real, dtype', REALS)
def test_thc_copy_from_to_every_type(thc_test, real, dtype):
    # thffi/tests/thc_test/generic/thc_copy.c: a transposed GPU source of this
    # type into strided CPU and GPU tensors of every type.
    src = _sources(24)[[d for _, d in REALS].index(dtype)].cuda()
    column = {name: torch.empty(24, 2, dtype=d)[:, 1] for name, (_, d) in zip('fdbcsil', REALS)}
    gcolumn = {name: torch.empty(24, 2, dtype=d, device='cuda')[:, 0]
               for name, (_, d) in zip('fdbcsil', REALS)}
    same = torch.empty(24, 2, dtype=dtype)[:, 0]
    staged = torch.empty(24, dtype=dtype)
    gsame = torch.empty(24, 3, dtype=dtype, device='cuda')[:, 2]
    getattr(thc_test, 'thc_copy_from_%s_tour' % real)(
        src, same, staged, gsame, *(column[k] for k in 'bcsilfd'),
        *(gcolumn[k] for k in 'bcsilfd'))
    flat = src.reshape(-1).cpu()
    for name, (_, d) in zip('fdbcsil', REALS):
        assert torch.equal(column[name], flat.to(d)), name
        assert torch.equal(gcolumn[name].cpu(), flat.to(d)), 'cuda ' + name
    for t in (same, staged, gsame.cpu()):
        assert torch.equal(t, flat)


@needs_gpu
@pytest.mark.parametrize('prefix, dtype', [('s', torch.float32), ('d', torch.float64)])
def test_cublas_level1_and_2(thc_test, prefix, dtype):
    # THCudaBlas_Sdot/Ddot, Sgemv/Dgemv both ways, Sger/Dger on strided vectors.
    fn = lambda name: getattr(thc_test, 'thc_api_%s%s' % (prefix, name))  # noqa: E731
    g = torch.Generator(device='cuda').manual_seed(0)
    randn = lambda *shape: torch.randn(*shape, dtype=dtype, device='cuda', generator=g)  # noqa: E731
    x, y = randn(10)[::2], randn(15)[::3]
    torch.testing.assert_close(torch.tensor(fn('dot')(x, y), dtype=dtype), (x * y).sum().cpu())
    a = randn(5, 7)
    for transposed, (nx, ny) in ((0, (7, 5)), (1, (5, 7))):
        v, out = randn(2 * nx)[::2], randn(3 * ny)[::3]
        before = out.clone()
        fn('gemv')(a, v, out, 2.0, 0.5, transposed)
        torch.testing.assert_close(out, 2.0 * ((a.t() if transposed else a) @ v) + 0.5 * before)
    u, w = randn(10)[::2], randn(14)[::2]
    before = a.clone()
    fn('ger')(a, u, w, 1.5)
    torch.testing.assert_close(a, before + 1.5 * torch.outer(u, w))


@needs_gpu
@pytest.mark.parametrize('prefix, dtype', [('s', torch.float32), ('d', torch.float64)])
def test_cublas_batched_gemm(thc_test, prefix, dtype):
    # THCudaBlas_SgemmBatched/DgemmBatched and the strided forms.
    a = torch.randn(3, 4, 5, dtype=dtype, device='cuda')
    b = torch.randn(3, 5, 6, dtype=dtype, device='cuda')
    c1, c2 = (torch.empty(0, dtype=dtype, device='cuda') for _ in range(2))
    getattr(thc_test, 'thc_api_%sgemm_batched' % prefix)(a, b, c1, c2)
    torch.testing.assert_close(c1, a @ b)
    torch.testing.assert_close(c2, a @ b)


def test_th_half_conversions_round_as_torch(th_test):
    # TH/THHalf.h: normals, subnormals, ties, overflow, infinities, NaN
    torch.manual_seed(0)
    src = torch.cat([torch.randn(2000) * 1000, torch.randn(2000) * 1e-5,
                     torch.tensor([0.0, -0.0, 65504.0, 65519.0, 65520.0, 1e6, -1e6,
                                   2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -25, 2.0 ** -14,
                                   1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, float('inf'),
                                   float('-inf'), float('nan')])])
    bits, back = torch.empty(0, dtype=torch.int16), torch.empty(0)
    th_test.th_half_convert(src, bits, back)
    assert torch.equal(bits[:-1], src[:-1].half().view(torch.int16))
    assert torch.equal(back[:-1], src[:-1].half().float())
    assert torch.isnan(back[-1])


def test_error_handlers_see_ths_messages(th_test):
    # THSetErrorHandler / THSetArgErrorHandler: a handler that returns sees
    # the message, and the error still reaches Python
    out = torch.zeros(0, dtype=torch.uint8)

    def seen():
        code = th_test.th_handled_seen(out)
        return code, bytes(out.tolist()[:-1]).decode()
    with pytest.raises(RuntimeError, match='boom 5'):
        th_test.th_handled_error(0)
    code, text = seen()
    assert text.startswith('mine: boom 5 at ')
    with pytest.raises(RuntimeError, match='invalid argument 3: bad 7'):
        th_test.th_handled_error(1)
    code, text = seen()
    assert text.startswith('bad 7 at ') and code == 3
    with pytest.raises(RuntimeError, match='invalid argument 2: dirty'):
        th_test.th_handled_error(2)
    assert seen()[0] == 2 + 10
