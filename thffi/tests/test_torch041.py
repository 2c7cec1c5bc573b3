"""thffi.torch041: PyTorch 0.4.1's linear algebra and FFT functions with
their 0.4.1 meaning.  Each result is checked by what defines the LAPACK
routine 0.4.1 called (an upper Cholesky factor, gels' solution and residual
rows, getrf's 1-based pivots, syev's zero eigenvectors, geev's packed
pairs), the FFTs against NumPy's, the RNN cells against torch.nn's; the
gradients by gradcheck in float64."""

import numpy as np
import pytest
import torch
from torch.autograd import gradcheck

from thffi import torch041 as T


def double(*shape, seed=0, requires_grad=False):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, dtype=torch.float64, generator=generator).requires_grad_(
        requires_grad)


def spd(n, seed=0):
    """A symmetric positive definite matrix."""
    a = double(n, n, seed=seed)
    return a @ a.t() + n * torch.eye(n, dtype=torch.float64)


close = torch.testing.assert_close


def test_potrf_is_upper_by_default_and_reads_one_triangle():
    a = spd(4)
    u = T.potrf(a)
    assert torch.equal(u, u.triu()) and bool((u.diagonal() > 0).all())
    close(u.t() @ u, a)
    close(T.potrf(a, False), u.t())
    # LAPACK's potrf reads the triangle it is asked for: the other may hold anything.
    close(T.potrf(a.triu() + 7 * torch.ones(4, 4, dtype=torch.float64).tril(-1)), u)
    close(T.potrf(a.tril() + 7 * torch.ones(4, 4, dtype=torch.float64).triu(1), upper=False),
          u.t())


def test_potrs_potri_and_pstrf():
    a, b = spd(4), double(4, 2, seed=1)
    u = T.potrf(a)
    close(a @ T.potrs(b, u), b)
    close(a @ T.potrs(b, u.t(), upper=False), b)
    assert T.potrs(b[:, 0], u).shape == (4, 1)  # a vector is one column, as TH took it
    close(T.potri(u), torch.linalg.inv(a))
    factor, piv = T.pstrf(a)
    assert piv.dtype == torch.int32 and sorted(piv.tolist()) == [0, 1, 2, 3]  # 0-based
    p = piv.long()
    close(factor.t() @ factor, a[p][:, p])
    assert torch.equal(factor, factor.triu())
    # Complete pivoting: the largest remaining diagonal first.
    assert int(piv[0]) == int(torch.argmax(a.diagonal()))
    lower, piv_l = T.pstrf(a, upper=False)
    assert torch.equal(piv_l, piv)
    close(lower @ lower.t(), a[p][:, p])
    with pytest.raises(RuntimeError, match='pstrf: the matrix is rank deficient'):
        T.pstrf(torch.ones(3, 3, dtype=torch.float64))


def test_gesv_returns_the_solution_and_lu():
    a, b = double(4, 4, seed=2), double(4, 3, seed=3)
    x, lu = T.gesv(b, a)
    close(a @ x, b)
    close(lu, torch.linalg.lu_factor(a)[0])
    assert T.gesv(b[:, 0], a)[0].shape == (4, 1)
    batch_a, batch_b = double(2, 1, 4, 4, seed=4), double(3, 4, 2, seed=5)
    x, lu = T.gesv(batch_b, batch_a)  # batch dimensions broadcast, as ATen's gesv did
    assert x.shape == (2, 3, 4, 2) and lu.shape == (2, 3, 4, 4)
    close(batch_a @ x, batch_b.expand(2, 3, 4, 2))


def test_gels_returns_x_of_max_m_n_rows_and_the_factorization():
    a, b = double(6, 3, seed=6), double(6, 2, seed=7)
    x, qr = T.gels(b, a)
    assert x.shape == (6, 2) and qr.shape == (6, 3)
    solution = torch.linalg.lstsq(a, b).solution
    close(x[:3], solution)
    # Below the solution: entries of Q^T B whose squares sum to the residual.
    close((x[3:] ** 2).sum(0), ((a @ solution - b) ** 2).sum(0))
    r = qr[:3].triu()
    close(r.t() @ r, a.t() @ a)  # the R of A's QR (geqrf's upper triangle)
    wide, rhs = double(2, 5, seed=8), double(2, 1, seed=9)
    x, lq = T.gels(rhs, wide)
    assert x.shape == (5, 1)
    close(x, torch.linalg.pinv(wide) @ rhs)  # the minimum-norm solution
    low = lq[:, :2].tril()
    close(low @ low.t(), wide @ wide.t())  # the L of A's LQ (gelqf's lower triangle)


def test_trtrs_solves_with_one_triangle_and_returns_a_copy_of_a():
    a, b = double(4, 4, seed=10), double(4, 2, seed=11)
    x, copy = T.trtrs(b, a)
    close(a.triu() @ x, b)
    assert torch.equal(copy, a) and copy.data_ptr() != a.data_ptr()
    close(a.tril().t() @ T.trtrs(b, a, upper=False, transpose=True)[0], b)
    unit = a.triu(1) + torch.eye(4, dtype=torch.float64)
    close(unit @ T.trtrs(b, a, unitriangular=True)[0], b)


def test_btrifact_btrisolve_and_btriunpack():
    a = double(3, 4, 4, seed=12)
    lu, piv = T.btrifact(a)
    assert piv.dtype == torch.int32 and piv.shape == (3, 4)
    assert bool(((piv >= 1) & (piv <= 4)).all())  # LAPACK's 1-based pivots
    p, low, up = T.btriunpack(lu, piv)
    close(p @ low @ up, a)
    b = double(3, 4, seed=13)
    x = T.btrisolve(b, lu, piv)
    assert x.shape == b.shape
    close((a @ x.unsqueeze(-1)).squeeze(-1), b)
    assert T.btriunpack(lu, piv, unpack_data=False)[1:] == (None, None)
    singular = a.clone()
    singular[1] = 0
    _, _, info = T.btrifact_with_info(singular)
    assert info.dtype == torch.int32 and info[0] == 0 and info[1] != 0
    with pytest.raises(RuntimeError, match='failed to factorize batch element 1'):
        T.btrifact(singular)
    status = torch.zeros(1, dtype=torch.int32)
    with pytest.warns(UserWarning, match='info= is deprecated'):
        T.btrifact(singular, info=status)
    assert status.tolist() == info.tolist()
    with pytest.raises(RuntimeError, match='pivot=False is CUDA only'):
        T.btrifact(a, pivot=False)


def test_symeig_and_eig():
    a = spd(4)
    e, v = T.symeig(a)
    assert torch.equal(v, torch.zeros(4, 4, dtype=torch.float64))  # TH left zeros
    assert e.tolist() == sorted(e.tolist())
    e2, v2 = T.symeig(a, eigenvectors=True)
    close(e2, e)
    close(a @ v2, v2 * e2)
    close(v2.t() @ v2, torch.eye(4, dtype=torch.float64))
    other = a.triu() + 9 * torch.ones(4, 4, dtype=torch.float64).tril(-1)
    close(T.symeig(other)[0], e)  # the upper triangle, by default
    close(T.symeig(a.tril() + 9 * torch.ones(4, 4, dtype=torch.float64).triu(1),
                   upper=False)[0], e)
    rotation = torch.tensor([[0., -2., 0.], [2., 0., 0.], [0., 0., 3.]], dtype=torch.float64)
    w, packed = T.eig(rotation, eigenvectors=True)
    assert w.shape == (3, 2)
    close(sorted(map(tuple, w.tolist())), [(0.0, -2.0), (0.0, 2.0), (3.0, 0.0)])
    for j in range(3):  # geev's packing: a complex pair's real and imaginary columns
        if w[j, 1] > 0:
            vector = torch.complex(packed[:, j], packed[:, j + 1])
            value = complex(w[j, 0], w[j, 1])
            close(rotation.to(torch.complex128) @ vector, value * vector)
        elif w[j, 1] == 0:
            close(rotation @ packed[:, j], w[j, 0] * packed[:, j])
    assert T.eig(rotation)[1].numel() == 0


def test_the_ffts_are_numpys_over_real_imaginary_pairs():
    x = double(3, 4, 2, seed=14)
    c = x[..., 0].numpy() + 1j * x[..., 1].numpy()
    f = T.fft(x, 2)
    np.testing.assert_allclose(f[..., 0].numpy() + 1j * f[..., 1].numpy(), np.fft.fft2(c),
                               atol=1e-12)
    close(T.ifft(f, 2), x)
    norm = T.fft(x, 1, normalized=True)
    np.testing.assert_allclose(norm[..., 0].numpy() + 1j * norm[..., 1].numpy(),
                               np.fft.fft(c, norm='ortho'), atol=1e-12)
    r = double(2, 7, seed=15)
    half = T.rfft(r, 1)
    assert half.shape == (2, 4, 2)
    np.testing.assert_allclose(half[..., 0].numpy() + 1j * half[..., 1].numpy(),
                               np.fft.rfft(r.numpy()), atol=1e-12)
    assert T.rfft(r, 1, onesided=False).shape == (2, 7, 2)
    close(T.irfft(half, 1, signal_sizes=(7,)), r)
    close(T.irfft(T.rfft(r, 1, onesided=False), 1, onesided=False), r)


def test_out_and_errors():
    a = spd(3)
    out = torch.empty(0, dtype=torch.float64)
    assert T.potrf(a, out=out) is out and torch.equal(out, T.potrf(a))
    values, vectors = torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.float64)
    assert T.symeig(a, True, out=(values, vectors)) == (values, vectors)
    close(values, T.symeig(a)[0])
    with pytest.raises(TypeError, match='symeig: out= should be a tuple of 2 tensors'):
        T.symeig(a, out=values)
    with pytest.raises(RuntimeError, match=r'potrf: a should be a 2-dimensional square matrix.*'
                                           r'\(2, 3\)'):
        T.potrf(double(2, 3))
    with pytest.raises(RuntimeError, match='gels: B has 2 rows, the matrix 3'):
        T.gels(double(2, 1), double(3, 2))
    with pytest.raises(RuntimeError, match='btrisolve: LU_data should be a 3-dimensional'):
        T.btrisolve(double(3), double(3, 3), torch.ones(3, dtype=torch.int32))


def test_assert_no_grad():
    T._assert_no_grad(double(2))
    with pytest.raises(AssertionError, match="_assert_no_grad: nn criterions don't compute"):
        T._assert_no_grad(double(2, requires_grad=True))


@pytest.mark.parametrize('name, module', [('LSTMCell', torch.nn.LSTMCell),
                                          ('GRUCell', torch.nn.GRUCell),
                                          ('RNNTanhCell', torch.nn.RNNCell),
                                          ('RNNReLUCell', torch.nn.RNNCell)])
def test_rnn_cells_compute_what_torch_nn_cells_do(name, module):
    torch.manual_seed(0)
    kwargs = {'nonlinearity': 'relu'} if name == 'RNNReLUCell' else {}
    cell = module(5, 4, **kwargs).double()
    x, h, c = double(3, 5, seed=16), double(3, 4, seed=17), double(3, 4, seed=18)
    weights = (cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    if name == 'LSTMCell':
        mine, theirs = getattr(T, name)(x, (h, c), *weights), cell(x, (h, c))
        close(mine[0], theirs[0])
        close(mine[1], theirs[1])
    else:
        close(getattr(T, name)(x, h, *weights), cell(x, h))


# Each function with a gradient: through today's operators (0.4.1 had one for
# potrf, gesv and trtrs, and gives the same here), checked in float64.
GRADIENTS = [
    ('potrf', lambda a: T.potrf(a @ a.t() + 3 * torch.eye(3, dtype=a.dtype)),
     lambda: (double(3, 3, seed=20, requires_grad=True),)),
    ('potrf lower', lambda a: T.potrf(a @ a.t() + 3 * torch.eye(3, dtype=a.dtype), False),
     lambda: (double(3, 3, seed=21, requires_grad=True),)),
    ('potrs', lambda b, u: T.potrs(b, u.triu() + 3 * torch.eye(3, dtype=u.dtype)),
     lambda: (double(3, 2, seed=22, requires_grad=True),
              double(3, 3, seed=23, requires_grad=True))),
    ('potri', lambda u: T.potri(u.triu() + 3 * torch.eye(3, dtype=u.dtype)),
     lambda: (double(3, 3, seed=24, requires_grad=True),)),
    ('gesv', lambda b, a: T.gesv(b, a + 4 * torch.eye(3, dtype=a.dtype))[0],
     lambda: (double(3, 2, seed=25, requires_grad=True),
              double(3, 3, seed=26, requires_grad=True))),
    ('trtrs', lambda b, a: T.trtrs(b, a + 4 * torch.eye(3, dtype=a.dtype), transpose=True)[0],
     lambda: (double(3, 2, seed=27, requires_grad=True),
              double(3, 3, seed=28, requires_grad=True))),
    ('symeig', lambda a: T.symeig(a + a.t())[0],
     lambda: (double(3, 3, seed=29, requires_grad=True),)),
    ('btrisolve', lambda b: T.btrisolve(b, *T.btrifact(spd(3, seed=30).unsqueeze(0))),
     lambda: (double(1, 3, seed=31, requires_grad=True),)),
    ('fft', lambda x: T.fft(x, 1), lambda: (double(4, 2, seed=32, requires_grad=True),)),
    ('ifft', lambda x: T.ifft(x, 2), lambda: (double(3, 4, 2, seed=33, requires_grad=True),)),
    ('rfft', lambda x: T.rfft(x, 1), lambda: (double(6, seed=34, requires_grad=True),)),
    ('LSTMCell', lambda x, w: T.LSTMCell(x, (x, x), w, w)[1],
     lambda: (double(2, 3, seed=35, requires_grad=True),
              double(12, 3, seed=36, requires_grad=True))),
]


@pytest.mark.parametrize('name, fn, inputs', GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradcheck(name, fn, inputs):
    assert gradcheck(fn, inputs())
