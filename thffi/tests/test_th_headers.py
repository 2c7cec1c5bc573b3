"""The small headers of TH that PyTorch's wheels installed beside the tensor
API (THMath.h, THSize.h, THAtomic.h, THTensorMacros.h, THHalf.h's literals),
called from C of ours (thffi/tests/th_headers) and checked against PyTorch."""

import os

import pytest
import torch
from support import TESTS, build_test_extension


@pytest.fixture(scope='module')
def th_headers(tmp_path_factory):
    return build_test_extension(tmp_path_factory, 'th_headers', ['th_headers.h'],
                                ['th_headers.c'],
                                include_dirs=[os.path.join(TESTS, 'th_headers')])


def test_math(th_headers):
    x = torch.tensor([0.3, 1.7, 2.5, 7.25, -0.6], dtype=torch.float64)
    out = torch.empty(0, dtype=torch.float64)
    th_headers.th_headers_math(x, out)
    want = torch.stack([torch.sigmoid(x), torch.frac(x), torch.rsqrt(x), torch.lerp(x, torch.full_like(x, 10), 0.25),
                        torch.special.digamma(x), torch.special.polygamma(1, x),
                        torch.special.erfinv(x / 4), x * x + 2 * x + 3], 1)
    torch.testing.assert_close(out, want, equal_nan=True, rtol=1e-9, atol=1e-12)


def test_size(th_headers):
    assert th_headers.th_headers_size(torch.zeros(2, 3, dtype=torch.long),
                                      torch.zeros(2, 3, dtype=torch.long)) == 1006
    assert th_headers.th_headers_size(torch.zeros(2, 3, dtype=torch.long),
                                      torch.zeros(3, 2, dtype=torch.long)) == 6


def test_atomic(th_headers):
    assert th_headers.th_headers_atomic() == 2101057


def test_fast_get_set(th_headers):
    t = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    assert th_headers.th_headers_fast_get(t) == 6
    assert t[0, 1] == 6


def test_half_literals(th_headers):
    assert th_headers.th_headers_half_literals() == 1
