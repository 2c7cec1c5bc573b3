"""The calls of thffi/tests/thc_sparse (cuSPARSE's legacy API, which thffi
provides over today's) on small random matrices, against PyTorch's dense
results on the CPU.  Needs a CUDA GPU; thffi/tests/test_cusparse_legacy.py and
tools/gpu_calls.py run it."""

import importlib.util
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def load(folder=HERE):
    """The extension build.py made in `folder` (its _ext/sparse), imported
    as thc_sparse_ext: the demo's package is _ext too."""
    package = os.path.join(folder, '_ext', 'sparse')
    spec = importlib.util.spec_from_file_location(
        'thc_sparse_ext', os.path.join(package, '__init__.py'),
        submodule_search_locations=[package])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _close(got, expected):
    return torch.allclose(got.cpu(), expected, rtol=1e-5, atol=1e-5)


def _csr(rows, cols, generator, dtype=torch.float32):
    """A random dense matrix with about 40% of its entries nonzero, and its
    CSR arrays on the GPU (values, row pointers, column indices as int32)."""
    dense = torch.rand(rows, cols, generator=generator, dtype=dtype)
    dense[torch.rand(rows, cols, generator=generator) > 0.4] = 0
    row, col = dense.nonzero(as_tuple=True)  # in row-major order
    pointers = torch.zeros(rows + 1, dtype=torch.int32)
    pointers[1:] = torch.bincount(row, minlength=rows).cumsum(0)
    return dense, dense[row, col].cuda(), pointers.cuda(), col.int().cuda()


def _dense(values, pointers, col, size):
    """The dense matrix of CSR arrays (entries at one place added up)."""
    pointers = pointers.cpu().long()
    row = torch.repeat_interleave(torch.arange(size[0]), pointers[1:] - pointers[:-1])
    out = torch.zeros(size, dtype=values.dtype)
    return out.index_put_((row, col.cpu().long()), values.cpu(), accumulate=True)


def results(sparse):
    """{call: whether its result matched PyTorch's} for every call of the
    extension `sparse` (thffi/tests/thc_sparse built)."""
    g = torch.Generator().manual_seed(0)
    m, k, n = 7, 6, 5
    ok = {}
    A, values, rows, cols = _csr(m, k, g)

    x, y = torch.rand(k, generator=g), torch.empty(m, device='cuda')
    sparse.sparse_csrmv_cuda(values, rows, cols, x.cuda(), y, 0)
    ok['Scsrmv'] = _close(y, A @ x)
    x, y = torch.rand(m, generator=g), torch.empty(k, device='cuda')
    sparse.sparse_csrmv_cuda(values, rows, cols, x.cuda(), y, 1)
    ok['Scsrmv transposed'] = _close(y, A.t() @ x)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = torch.empty(k, device='cuda')
        sparse.sparse_csrmv_cuda(values, rows, cols, x.cuda(), y, 1)
    side.synchronize()
    ok['Scsrmv on a side stream'] = _close(y, A.t() @ x)
    Ad, dvalues, drows, dcols = _csr(m, k, g, torch.float64)
    x, y = torch.rand(k, generator=g, dtype=torch.float64), torch.empty(m, device='cuda',
                                                                         dtype=torch.float64)
    sparse.sparse_dcsrmv_cuda(dvalues, drows, dcols, x.cuda(), y)
    ok['Dcsrmv'] = _close(y, Ad @ x)

    # column-major dense matrices: a (n, k) tensor is k x n
    B, C = torch.rand(n, k, generator=g), torch.empty(n, m, device='cuda')
    sparse.sparse_csrmm_cuda(values, rows, cols, B.cuda(), C)
    ok['Scsrmm'] = _close(C.t(), A @ B.t())
    B, C = torch.rand(k, n, generator=g), torch.empty(n, m, device='cuda')
    sparse.sparse_csrmm2_cuda(values, rows, cols, B.cuda(), C)
    ok['Scsrmm2 (op(B) = B^T)'] = _close(C.t(), A @ B)

    B, bvalues, brows, bcols = _csr(k, n, g)
    out = [torch.empty(0, device='cuda'), torch.empty(0, device='cuda', dtype=torch.int32),
           torch.empty(0, device='cuda', dtype=torch.int32)]
    nnz = sparse.sparse_csrgemm_cuda(0, m, n, k, values, rows, cols, bvalues, brows, bcols,
                                     *out)
    ok['XcsrgemmNnz, Scsrgemm'] = (nnz == out[0].numel()
                                   and _close(_dense(out[0], out[1], out[2], (m, n)), A @ B))
    At, tvalues, trows, tcols = _csr(k, m, g)  # op(A) = At^T, m x k
    nnz = sparse.sparse_csrgemm_cuda(1, m, n, k, tvalues, trows, tcols, bvalues, brows, bcols,
                                     *out)
    ok['XcsrgemmNnz, Scsrgemm transposed'] = (
        nnz == out[0].numel() and _close(_dense(out[0], out[1], out[2], (m, n)), At.t() @ B))
    A2, values2, rows2, cols2 = _csr(m, k, g)
    nnz = sparse.sparse_csrgeam_cuda(2.0, values, rows, cols, -0.5, values2, rows2, cols2, k,
                                     *out)
    ok['XcsrgeamNnz, Scsrgeam'] = (nnz == out[0].numel() and
                                   _close(_dense(out[0], out[1], out[2], (m, k)),
                                          2 * A - 0.5 * A2))

    csc = [torch.empty(values.numel(), device='cuda'),
           torch.empty(values.numel(), device='cuda', dtype=torch.int32),
           torch.empty(k + 1, device='cuda', dtype=torch.int32)]
    sparse.sparse_csr2csc_cuda(values, rows, cols, k, *csc)
    ok['Scsr2csc'] = _close(_dense(csc[0], csc[2], csc[1], (k, m)), A.t())

    dense = torch.rand(20, generator=g)
    index = torch.randperm(20, generator=g)[:8]
    found, where = torch.empty(8, device='cuda'), index.int().cuda()
    sparse.sparse_gthr_cuda(dense.cuda(), where, found, 0)
    ok['Sgthr'] = _close(found, dense[index])
    gathered = dense.cuda()
    sparse.sparse_gthr_cuda(gathered, where, found, 1)
    zeroed = dense.clone()
    zeroed[index] = 0
    ok['Sgthrz'] = _close(found, dense[index]) and _close(gathered, zeroed)
    xval = torch.rand(8, generator=g)
    scattered = torch.zeros(20, device='cuda')
    sparse.sparse_sctr_cuda(xval.cuda(), where, scattered)
    expected = torch.zeros(20)
    expected[index] = xval
    ok['Ssctr'] = _close(scattered, expected)
    added = dense.cuda()
    sparse.sparse_axpyi_cuda(3.0, xval.cuda(), where, added)
    expected = dense.clone()
    expected[index] += 3 * xval
    ok['Saxpyi'] = _close(added, expected)
    result = torch.empty(1, device='cuda')
    sparse.sparse_doti_cuda(xval.cuda(), where, dense.cuda(), result)
    ok['Sdoti'] = _close(result, (xval * dense[index]).sum().reshape(1))

    ok['cudaThreadGetLimit, cudaThreadSynchronize'] = sparse.sparse_sync_cuda() == 1
    return ok
