"""PyTorch 0.4.1's functions that today's PyTorch removed, or keeps only as
a stub that raises, with their 0.4.1 meaning, written over today's
operators.  thffi/toolchain/pyremoved.py's rows name them: `python -m thffi
run` gives them back under their old names (`torch.potrf(a)`,
`a.potrf()`), and `python -m thffi port` writes them
(`thffi.torch041.potrf(a)`), so a 2018 script computes what it computed.

Each takes the arguments and defaults 0.4.1 documented and returns what
0.4.1's TH/ATen returned (read in its sources: THTensorLapack's calls of
LAPACK, ATen's gesv, torch/functional.py): torch.potrf is upper by default,
torch.gels(B, A) returns (X, QR) with X of max(m, n) rows (below the
solution, the entries of Q^T B whose squares sum to the residual) and QR
LAPACK's factorization of A, torch.symeig returns zeros for the
eigenvectors it was not asked for, torch.eig its eigenvalues as (real,
imaginary) pairs and its complex eigenvectors packed as LAPACK's geev
packs them, pivots are int32 (1-based from btrifact, 0-based from pstrf).
A 1-dimensional right-hand side B is taken as one column, and the solution
has that one column, as TH did.  out= takes the result tensor (a tuple for
a tuple), which is resized and returned.  Where a function reads one
triangle of a matrix (potrf, potrs, potri, pstrf, symeig, trtrs), only that
triangle counts, as in LAPACK.

What differs from 0.4.1, and why: results are contiguous (TH returned
LAPACK's column-major layout); an eigenvector's sign may differ (0.4.1 ran
LAPACK's syev and geev, today's eigh and eig other drivers); gradients flow
wherever today's operators have one, including through functions 0.4.1
gave none (potrs, potri, symeig, btrisolve); gels and pstrf have none, as
in 0.4.1.

The FFTs (fft, ifft, rfft, irfft) take and give complex numbers as a last
dimension of (real, imaginary) pairs, as 0.4.1's did, over the
signal_ndim dimensions before it; normalized is norm='ortho'.

Also here: `_assert_no_grad`, the check 0.4.1's losses ran on their target
(torch.nn.modules.loss imported it), and the four RNN cells of
torch.nn._functions.rnn (one step of each, gates in torch.nn's order)."""

import warnings

import torch
import torch.nn.functional as F

from .runtime.thmath import pivoted_cholesky

__all__ = ['potrf', 'potrs', 'potri', 'pstrf', 'gesv', 'gels', 'trtrs', 'btrifact',
           'btrifact_with_info', 'btrisolve', 'btriunpack', 'symeig', 'eig', 'fft', 'ifft',
           'rfft', 'irfft',
           '_assert_no_grad', 'LSTMCell', 'GRUCell', 'RNNTanhCell', 'RNNReLUCell']


def _matrix(function, argument, value, square=True):
    if not isinstance(value, torch.Tensor):
        raise TypeError('thffi.torch041.%s: %s should be a Tensor, got %s'
                        % (function, argument, type(value).__name__))
    if value.dim() != 2 or (square and value.shape[0] != value.shape[1]):
        raise RuntimeError('thffi.torch041.%s: %s should be a 2-dimensional%s matrix, as in '
                           'PyTorch 0.4.1, got shape %s' % (
                               function, argument, ' square' if square else '',
                               tuple(value.shape)))
    return value


def _column(function, argument, b, rows):
    """b as TH took a right-hand side: a matrix, or a vector as one column."""
    if not isinstance(b, torch.Tensor) or b.dim() not in (1, 2):
        raise RuntimeError('thffi.torch041.%s: %s should be a 1- or 2-dimensional Tensor, '
                           'got %s' % (function, argument, tuple(b.shape) if isinstance(
                               b, torch.Tensor) else type(b).__name__))
    if b.shape[0] != rows:
        raise RuntimeError('thffi.torch041.%s: %s has %d rows, the matrix %d'
                           % (function, argument, b.shape[0], rows))
    return b.unsqueeze(1) if b.dim() == 1 else b


def _triangle(a, upper):
    return a.triu() if upper else a.tril()


def _symmetric(a, upper):
    """The symmetric matrix of a's upper (or lower) triangle."""
    if upper:
        return a.triu() + a.triu(1).transpose(-2, -1)
    return a.tril() + a.tril(-1).transpose(-2, -1)


def _into(out, result, function):
    """result written into out (resized), as 0.4.1's out= did; result when
    out is None."""
    if out is None:
        return result
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError('thffi.torch041.%s: out= should be a tuple of %d tensors'
                            % (function, len(result)))
        for target, value in zip(out, result):
            target.resize_(value.shape).copy_(value.detach())
        return tuple(out)
    out.resize_(result.shape).copy_(result.detach())
    return out


# -- Cholesky ------------------------------------------------------------------------

def potrf(a, upper=True, out=None):
    """The Cholesky factor of a (upper by default: a = U^T U), from its
    upper (or lower) triangle."""
    _matrix('potrf', 'a', a)
    return _into(out, torch.linalg.cholesky(_symmetric(a, upper), upper=upper), 'potrf')


def potrs(b, u, upper=True, out=None):
    """The solution X of A X = b, where u is A's Cholesky factor
    (A = U^T U; A = L L^T with upper=False)."""
    _matrix('potrs', 'u', u)
    b2 = _column('potrs', 'b', b, u.shape[0])
    return _into(out, torch.cholesky_solve(b2, _triangle(u, upper), upper=upper), 'potrs')


def potri(u, upper=True, out=None):
    """The inverse of A from its Cholesky factor u."""
    _matrix('potri', 'u', u)
    return _into(out, torch.cholesky_inverse(_triangle(u, upper), upper=upper), 'potri')


def pstrf(a, upper=True, tol=-1, out=None):
    """The Cholesky factorization with complete pivoting (LAPACK's pstrf):
    (u, piv) with a[piv][:, piv] = U^T U (L L^T with upper=False), piv
    int32 and 0-based.  tol < 0: n * eps * max(diag(a)), as LAPACK; a matrix
    whose rank is below its size is an error, as in 0.4.1."""
    _matrix('pstrf', 'a', a)
    n = a.shape[0]
    work = _symmetric(a.detach(), upper).to(torch.float64)
    if tol < 0:
        tol = n * torch.finfo(a.dtype).eps * float(work.diagonal().max()) if n else 0.0
    try:
        low, piv = pivoted_cholesky(work, tol)
    except ValueError as exc:
        raise RuntimeError('thffi.torch041.pstrf: the matrix is rank deficient or not '
                           'positive semidefinite (pivot %d)' % exc.args[0]) from None
    factor = (low.t() if upper else low).to(a.dtype)
    return _into(out, (factor, torch.tensor(piv, dtype=torch.int32, device=a.device)), 'pstrf')


# -- solving ---------------------------------------------------------------------------

def gesv(B, A, out=None):
    """(X, LU): the solution of A X = B and A's LU factorization (LAPACK's
    getrf, packed); batched with broadcasting where B and A have more than
    two dimensions."""
    for name, value in (('B', B), ('A', A)):
        if not isinstance(value, torch.Tensor):
            raise TypeError('thffi.torch041.gesv: %s should be a Tensor, got %s'
                            % (name, type(value).__name__))
    if B.dim() <= 2 and A.dim() <= 2:
        _matrix('gesv', 'A', A)
        B = _column('gesv', 'B', B, A.shape[0])
    else:
        batch = torch.broadcast_shapes(B.shape[:-2], A.shape[:-2])
        B = B.expand(batch + B.shape[-2:])
        A = A.expand(batch + A.shape[-2:])
    lu, pivots = torch.linalg.lu_factor(A)
    return _into(out, (torch.linalg.lu_solve(lu, pivots, B), lu), 'gesv')


def trtrs(b, A, upper=True, transpose=False, unitriangular=False, out=None):
    """(X, A): the solution of op(A) X = b, op(A) being A or its transpose,
    A triangular (its upper or lower triangle; ones on the diagonal with
    unitriangular), and a copy of A."""
    _matrix('trtrs', 'A', A)
    b2 = _column('trtrs', 'b', b, A.shape[0])
    tri = _triangle(A, upper)
    system = tri.transpose(-2, -1) if transpose else tri
    x = torch.linalg.solve_triangular(system, b2, upper=upper != bool(transpose),
                                      unitriangular=unitriangular)
    return _into(out, (x, A.clone()), 'trtrs')


def gels(B, A, out=None):
    """(X, QR), as LAPACK's gels left them: for an m x n A of full rank, X
    (max(m, n) rows) holds the least-squares solution (m >= n: its first n
    rows; below them the entries of Q^T B whose squares sum to the
    residual) or the minimum-norm one (m < n); QR holds A's QR (m >= n) or
    LQ (m < n) factorization as geqrf/gelqf write it."""
    _matrix('gels', 'A', A, square=False)
    b = _column('gels', 'B', B, A.shape[0])
    m, n = A.shape
    if m >= n:
        qr, tau = torch.geqrf(A)
        qtb = torch.ormqr(qr, tau, b, left=True, transpose=True)
        top = torch.linalg.solve_triangular(qr[:n, :n].triu(), qtb[:n], upper=True)
        return _into(out, (torch.cat([top, qtb[n:]]), qr), 'gels')
    # A = L Q, from A^T = Q R: L = R^T; X = Q^T [L^-1 B; 0].
    qr, tau = torch.geqrf(A.transpose(0, 1))
    y = torch.linalg.solve_triangular(qr[:m, :m].triu().transpose(0, 1), b, upper=False)
    padded = torch.cat([y, y.new_zeros((n - m, y.shape[1]))])
    x = torch.ormqr(qr, tau, padded, left=True, transpose=False)
    return _into(out, (x, qr.transpose(0, 1).contiguous()), 'gels')


# -- batched LU --------------------------------------------------------------------------

def _batched(function, argument, value):
    if not isinstance(value, torch.Tensor) or value.dim() != 3:
        raise RuntimeError('thffi.torch041.%s: %s should be a 3-dimensional Tensor (a batch '
                           'of matrices), as in PyTorch 0.4.1, got %s' % (
                               function, argument, tuple(value.shape)
                               if isinstance(value, torch.Tensor) else type(value).__name__))
    return value


def btrifact_with_info(A, pivot=True):
    """(LU, pivots, info) of a batch of square matrices (LAPACK's getrf on
    each: pivots int32 and 1-based, info nonzero where one is singular)."""
    _batched('btrifact_with_info', 'A', A)
    if A.shape[1] != A.shape[2]:
        raise RuntimeError('thffi.torch041.btrifact_with_info: only square matrices, as in '
                           'PyTorch 0.4.1')
    if not pivot and A.device.type == 'cpu':
        raise RuntimeError('thffi.torch041.btrifact: pivot=False is CUDA only, as in '
                           'PyTorch 0.4.1 (its CPU LU always pivoted)')
    lu, pivots, info = torch.linalg.lu_factor_ex(A, pivot=pivot)
    return lu, pivots.to(torch.int32), info.to(torch.int32)


def btrifact(A, info=None, pivot=True):
    """(LU, pivots) of a batch of square matrices; a singular one is an
    error.  info (deprecated in 0.4.1 too): an IntTensor given each
    factorization's status, and no error."""
    lu, pivots, status = btrifact_with_info(A, pivot=pivot)
    if info is not None:
        warnings.warn('btrifact: info= is deprecated (as in PyTorch 0.4.1); use '
                      'btrifact_with_info', stacklevel=2)
        if info.dtype != torch.int32:
            raise ValueError('thffi.torch041.btrifact: info should be an IntTensor, got %s'
                             % info.dtype)
        info.resize_(status.shape).copy_(status)
    elif bool((status != 0).any()):
        batch = int((status != 0).nonzero()[0, 0])
        raise RuntimeError('thffi.torch041.btrifact: failed to factorize batch element %d '
                           '(info == %d)' % (batch, int(status[batch])))
    return lu, pivots


def btrisolve(b, LU_data, LU_pivots):
    """The solution of A x = b for each matrix of a batch from btrifact's
    (LU_data, LU_pivots); b a batch of vectors (2-D) or of matrices (3-D),
    the solution of its shape."""
    _batched('btrisolve', 'LU_data', LU_data)
    if not isinstance(b, torch.Tensor) or b.dim() not in (2, 3):
        raise RuntimeError('thffi.torch041.btrisolve: b should be a 2- or 3-dimensional '
                           'Tensor, as in PyTorch 0.4.1')
    b3 = b.unsqueeze(-1) if b.dim() == 2 else b
    x = torch.linalg.lu_solve(LU_data, LU_pivots.to(torch.int32), b3)
    return x.reshape(b.shape)


def btriunpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) of btrifact's results, A = P L U; None for what was not
    asked for."""
    _batched('btriunpack', 'LU_data', LU_data)
    P, L, U = torch.lu_unpack(LU_data, LU_pivots.to(torch.int32))
    return (P if unpack_pivots else None, L if unpack_data else None,
            U if unpack_data else None)


# -- eigenvalues ---------------------------------------------------------------------------

def symeig(input, eigenvectors=False, upper=True, out=None):
    """(e, V): the eigenvalues (ascending) of the symmetric matrix of
    input's upper (or lower) triangle, and its eigenvectors as columns
    (zeros when eigenvectors=False, as TH left them)."""
    _matrix('symeig', 'input', input)
    uplo = 'U' if upper else 'L'
    if eigenvectors:
        e, v = torch.linalg.eigh(input, UPLO=uplo)
    else:
        e = torch.linalg.eigvalsh(input, UPLO=uplo)
        v = torch.zeros_like(input)
    return _into(out, (e, v), 'symeig')


def eig(a, eigenvectors=False, out=None):
    """(e, v): the eigenvalues as an n x 2 tensor of (real, imaginary)
    parts, and (eigenvectors=True) the eigenvectors as LAPACK's geev gives
    them: a real one as a column, a complex pair's as two columns (real
    part, imaginary part) at the first of the pair; else an empty tensor."""
    _matrix('eig', 'a', a)
    if not eigenvectors:
        w = torch.linalg.eigvals(a)
        return _into(out, (torch.stack([w.real, w.imag], 1).to(a.dtype),
                           a.new_empty(0)), 'eig')
    w, v = torch.linalg.eig(a)
    packed = v.real.clone()
    j, n = 0, a.shape[0]
    while j < n:
        if float(w.imag[j]) != 0 and j + 1 < n:
            packed[:, j] = v[:, j].real
            packed[:, j + 1] = v[:, j].imag
            j += 2
        else:
            j += 1
    return _into(out, (torch.stack([w.real, w.imag], 1).to(a.dtype), packed.to(a.dtype)),
                 'eig')


# -- Fourier transforms ---------------------------------------------------------------

def _signal(function, input, signal_ndim, complex_input):
    if signal_ndim not in (1, 2, 3):
        raise RuntimeError('thffi.torch041.%s: signal_ndim should be 1, 2 or 3, got %r'
                           % (function, signal_ndim))
    least = signal_ndim + (1 if complex_input else 0)
    if not isinstance(input, torch.Tensor) or input.dim() < least or (
            complex_input and input.shape[-1] != 2):
        raise RuntimeError('thffi.torch041.%s: input should have at least %d dimensions%s, '
                           'as in PyTorch 0.4.1' % (function, least, ', the last of size 2 '
                                                    '(real, imaginary)' if complex_input
                                                    else ''))
    return tuple(range(-signal_ndim, 0))


def _norm(normalized):
    return 'ortho' if normalized else 'backward'


def fft(input, signal_ndim, normalized=False):
    """The complex-to-complex FFT over the last signal_ndim dimensions
    before the last, which holds (real, imaginary) pairs."""
    dims = _signal('fft', input, signal_ndim, True)
    return torch.view_as_real(torch.fft.fftn(torch.view_as_complex(input.contiguous()),
                                             dim=dims, norm=_norm(normalized)))


def ifft(input, signal_ndim, normalized=False):
    """The inverse of fft (divided by the signal's size unless normalized)."""
    dims = _signal('ifft', input, signal_ndim, True)
    return torch.view_as_real(torch.fft.ifftn(torch.view_as_complex(input.contiguous()),
                                              dim=dims, norm=_norm(normalized)))


def rfft(input, signal_ndim, normalized=False, onesided=True):
    """The FFT of a real signal over its last signal_ndim dimensions, as
    (real, imaginary) pairs: the half spectrum (onesided) or the whole."""
    dims = _signal('rfft', input, signal_ndim, False)
    transform = torch.fft.rfftn if onesided else torch.fft.fftn
    return torch.view_as_real(transform(input, dim=dims, norm=_norm(normalized)))


def irfft(input, signal_ndim, normalized=False, onesided=True, signal_sizes=None):
    """The real signal of a spectrum of (real, imaginary) pairs: rfft's
    inverse; signal_sizes the signal's sizes (the last one's parity is not
    in a half spectrum)."""
    dims = _signal('irfft', input, signal_ndim, True)
    spectrum = torch.view_as_complex(input.contiguous())
    if not onesided:
        return torch.fft.ifftn(spectrum, s=signal_sizes, dim=dims, norm=_norm(normalized)).real
    return torch.fft.irfftn(spectrum, s=signal_sizes, dim=dims, norm=_norm(normalized))


# -- torch.nn's private helpers ------------------------------------------------------------

def _assert_no_grad(tensor):
    """What 0.4.1's losses checked of their target: it must not require
    grad (a loss computes no gradient for it)."""
    if isinstance(tensor, torch.Tensor) and tensor.requires_grad:
        raise AssertionError("_assert_no_grad: nn criterions don't compute the gradient "
                             'w.r.t. targets - mark the target as not requiring gradients '
                             '(target.detach())')


def LSTMCell(input, hidden, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: (h, c) from hidden (hx, cx), gates in the order input,
    forget, cell, output."""
    hx, cx = hidden
    gates = F.linear(input, w_ih, b_ih) + F.linear(hx, w_hh, b_hh)
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    cy = torch.sigmoid(forgetgate) * cx + torch.sigmoid(ingate) * torch.tanh(cellgate)
    return torch.sigmoid(outgate) * torch.tanh(cy), cy


def GRUCell(input, hidden, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step: the new hidden state, gates in the order reset,
    update, new."""
    gi = F.linear(input, w_ih, b_ih)
    gh = F.linear(hidden, w_hh, b_hh)
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    resetgate = torch.sigmoid(i_r + h_r)
    updategate = torch.sigmoid(i_z + h_z)
    newgate = torch.tanh(i_n + resetgate * h_n)
    return newgate + updategate * (hidden - newgate)


def RNNTanhCell(input, hidden, w_ih, w_hh, b_ih=None, b_hh=None):
    """One tanh RNN step."""
    return torch.tanh(F.linear(input, w_ih, b_ih) + F.linear(hidden, w_hh, b_hh))


def RNNReLUCell(input, hidden, w_ih, w_hh, b_ih=None, b_hh=None):
    """One ReLU RNN step."""
    return F.relu(F.linear(input, w_ih, b_ih) + F.linear(hidden, w_hh, b_hh))
