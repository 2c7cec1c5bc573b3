"""Every function of the TH API, called from C once per tensor type
(tests/th_test/generic/th_api.c), checked against PyTorch."""

import pytest
import torch

from functions.add import WITH_CUDA

REALS = [('Float', torch.float32), ('Double', torch.float64), ('Byte', torch.uint8),
         ('Char', torch.int8), ('Short', torch.int16), ('Int', torch.int32),
         ('Long', torch.int64)]


needs_gpu = pytest.mark.skipif(not (torch.cuda.is_available() and WITH_CUDA),
                               reason='needs a CUDA GPU and a CUDA toolkit')


@pytest.mark.parametrize('device', ['cpu', pytest.param('cuda', marks=needs_gpu)])
@pytest.mark.parametrize('layout', ['contiguous', 'transposed'])
@pytest.mark.parametrize('real, dtype', REALS)
def test_th_api_tour(request, real, dtype, layout, device):
    # tests/th_test/generic/th_api.c; on the GPU tests/thc_test/generic/thc_api.c
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
