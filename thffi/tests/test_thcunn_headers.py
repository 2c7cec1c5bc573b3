"""THCUNN's headers, as CUDA code of 2018 included them (the *.cuh that
PyTorch 0.4.1's wheel installed, and common.h): a THCUNN-style module
(thffi/tests/thcunn_half: generic SoftSign over float, double and half)
compiled by nvcc in a with_cuda build; half arithmetic checked on the host
without a GPU, the kernels on one."""

import math
import os

import pytest
import torch
from support import TESTS, build_test_extension

from thffi import find_cuda_home

pytestmark = pytest.mark.skipif(find_cuda_home() is None,
                                reason='no CUDA toolkit (nvcc) installed')
needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')


@pytest.fixture(scope='module')
def thcunn_half(tmp_path_factory):
    return build_test_extension(tmp_path_factory, 'thcunn_half', ['thcunn_half.h'],
                                ['thcunn_half.c', 'thcunn_half_kernel.cu'], with_cuda=True,
                                include_dirs=[os.path.join(TESTS, 'thcunn_half')])


def as_half(x):
    return float(torch.tensor(x, dtype=torch.float16))


def test_half_arithmetic_on_the_host(thcunn_half):
    a, b = 1.3, 2.7
    out = torch.zeros(12)
    thcunn_half.thcunn_half_host(a, b, out)
    x, y = as_half(a), as_half(b)
    want = [as_half(x + y), as_half(x * 2), x + b, 1.5 * y, float(x < y), float(x >= 1),
            max(x, y), as_half(math.exp(x)), -x, as_half(as_half(x + y) * y), as_half(x / y),
            x * 0.5]
    assert out.tolist() == pytest.approx(want, rel=1e-6)


def test_launch_arithmetic_of_common_h(thcunn_half):
    # GET_BLOCKS(n) * 10000 + CUDA_NUM_THREADS
    assert thcunn_half.thcunn_half_blocks(1) == 10000 + 1024
    assert thcunn_half.thcunn_half_blocks(1025) == 20000 + 1024


@needs_gpu
@pytest.mark.parametrize('dtype', [torch.float32, torch.float16])
def test_softsign_kernels(thcunn_half, dtype):
    x = torch.linspace(-4, 4, 300, device='cuda').to(dtype)
    out, total = torch.empty(0, device='cuda', dtype=dtype), torch.zeros(1, device='cuda',
                                                                        dtype=dtype)
    fn = thcunn_half.thcunn_half_softsign if dtype == torch.float32 else \
        thcunn_half.thcunn_half_softsign_half
    assert fn(x, out, total) == 1
    torch.testing.assert_close(out, x / (x.abs() + 1))
    torch.testing.assert_close(total[0].float(), x[:128].float().sum(), rtol=1e-2, atol=1e-2)


@needs_gpu
def test_common_h_checks(thcunn_half):
    x = torch.ones(4, device='cuda').t()
    with pytest.raises(RuntimeError, match=r'Need sum of dimension 1 and sum.size\[0\] == 1'):
        thcunn_half.thcunn_half_softsign(x, torch.empty(0, device='cuda'),
                                         torch.zeros(2, device='cuda'))
