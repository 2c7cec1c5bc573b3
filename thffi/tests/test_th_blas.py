"""TH's raw BLAS and LAPACK wrappers (TH/THBlas.h, TH/THLapack.h; csrc/THBlas.c,
THLapack.c), called from legacy generic C (thffi/tests/th_blas) on column-major
matrices of the tensors it is handed, checked against PyTorch."""

import os
import subprocess
import sys

import pytest
import torch
from support import TESTS, ROOT, build_test_extension, write_files

TYPES = [('Float', torch.float32), ('Double', torch.float64), ('Long', torch.int64)]


@pytest.fixture(scope='module')
def th_blas(tmp_path_factory):
    return build_test_extension(tmp_path_factory, 'th_blas', ['th_blas.h'], ['th_blas.c'],
                                include_dirs=[os.path.join(TESTS, 'th_blas')])


def column_major(values, ld=None):
    """values (2-D) in column-major memory (stride (1, ld)), ld >= rows:
    a leading dimension longer than the matrix when ld is larger."""
    rows, cols = values.shape
    whole = torch.zeros(cols, ld or rows, dtype=values.dtype).t()
    whole[:rows] = values
    return whole[:rows]


def sample(dtype, *shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(-4, 5, shape, generator=g).to(dtype)


def close(got, want):
    torch.testing.assert_close(got, want.to(got.dtype))


def op(matrix, trans):
    return matrix.t() if trans == 't' else matrix


@pytest.mark.parametrize('trans', ['nn', 'nt', 'tn', 'tt'])
@pytest.mark.parametrize('real, dtype', TYPES)
def test_gemm(th_blas, real, dtype, trans):
    m, n, k = 5, 3, 4
    a = sample(dtype, *((m, k) if trans[0] == 'n' else (k, m)))
    b = sample(dtype, *((k, n) if trans[1] == 'n' else (n, k)), seed=1)
    c = sample(dtype, m, n, seed=2)
    want = 2 * op(a, trans[0]) @ op(b, trans[1]) + 3 * c
    got = column_major(c, ld=7)
    getattr(th_blas, 'th_blas_%s_gemm' % real)(trans.encode(), 2, column_major(a, ld=6),
                                               column_major(b), 3, got)
    close(got, want)


@pytest.mark.parametrize('real, dtype', TYPES)
def test_gemm_beta_zero_ignores_c(th_blas, real, dtype):
    a, b = sample(dtype, 2, 3), sample(dtype, 3, 2, seed=1)
    c = column_major(torch.full((2, 2), float('nan')) if dtype.is_floating_point
                     else torch.full((2, 2), 99), ld=2).to(dtype)
    getattr(th_blas, 'th_blas_%s_gemm' % real)(b'nn', 1, column_major(a), column_major(b), 0, c)
    close(c, a @ b)


@pytest.mark.parametrize('trans', ['n', 't'])
@pytest.mark.parametrize('real, dtype', TYPES)
def test_gemv(th_blas, real, dtype, trans):
    a = sample(dtype, 4, 3)
    x = sample(dtype, 3 if trans == 'n' else 4, seed=1)
    y = sample(dtype, 4 if trans == 'n' else 3, seed=2)
    strided_y = torch.zeros(2 * len(y), dtype=dtype)[::2]
    strided_y.copy_(y)
    getattr(th_blas, 'th_blas_%s_gemv' % real)(trans.encode(), 2, column_major(a, ld=5), x, -1,
                                               strided_y)
    close(strided_y, 2 * op(a, trans) @ x - y)


@pytest.mark.parametrize('real, dtype', TYPES)
def test_ger(th_blas, real, dtype):
    x, y, a = sample(dtype, 4), sample(dtype, 3, seed=1), sample(dtype, 4, 3, seed=2)
    got = column_major(a, ld=6)
    getattr(th_blas, 'th_blas_%s_ger' % real)(3, x, y, got)
    close(got, a + 3 * torch.outer(x, y))


@pytest.mark.parametrize('real, dtype', TYPES)
def test_level1(th_blas, real, dtype):
    x0, y0 = sample(dtype, 6), sample(dtype, 6, seed=1)
    x, y = x0.clone(), torch.zeros(12, dtype=dtype)[::2]
    y.copy_(y0)
    z = torch.zeros(3 * 6, dtype=dtype)[::3]
    dot = getattr(th_blas, 'th_blas_%s_level1' % real)(2, x, y, z)
    assert dot == pytest.approx(float(x0 @ y0))
    close(x, y0 + 2 * x0)   # y += 2x, x *= 2, then swapped
    close(y, 2 * x0)
    close(z, y0 + 2 * x0)


def test_linear_layer_as_2018_wrote_it(th_blas):
    x, w = torch.randn(8, 6), torch.randn(5, 6)
    out = torch.empty(0)
    assert th_blas.th_blas_linear(x, w, out) == 1
    close(out, x @ w.t())


def test_gemm_leading_dimension_refused(th_blas):
    a, b = column_major(torch.ones(3, 2)), column_major(torch.ones(2, 2))
    memory = torch.zeros(8)
    # c: 3 x 2 whose columns lie 2 apart, fewer than its 3 rows
    c = memory.as_strided((3, 2), (1, 2))
    with pytest.raises(RuntimeError, match='ldc should be at least max\\(1, m=3\\), but have 2'):
        th_blas.th_blas_Float_gemm(b'nn', 1, a, b, 0, c)
    assert torch.equal(memory, torch.zeros(8))


def test_gesv(th_blas):
    a = torch.tensor([[4., 1, 2], [1, 5, 3], [2, 3, 6]], dtype=torch.float64) + torch.eye(3)
    a[0, 2] = -1
    b = torch.randn(3, 2, dtype=torch.float64)
    lu, pivots = torch.linalg.lu_factor(a)
    got_a, got_b = column_major(a, ld=4), column_major(b)
    ipiv = torch.empty(0, dtype=torch.int32)
    assert th_blas.th_blas_gesv(got_a, got_b, ipiv) == 0
    close(got_b, torch.linalg.solve(a, b))
    close(got_a, lu)
    assert torch.equal(ipiv, pivots.to(torch.int32))


def test_gesv_singular_info(th_blas):
    a = column_major(torch.tensor([[1., 2], [2, 4]], dtype=torch.float64))
    b = column_major(torch.ones(2, 1, dtype=torch.float64))
    assert th_blas.th_blas_gesv(a, b, torch.empty(0, dtype=torch.int32)) == 2


@pytest.mark.parametrize('uplo', ['U', 'L'])
def test_potrf(th_blas, uplo):
    g = torch.randn(4, 4)
    spd = g @ g.t() + 4 * torch.eye(4)
    got = column_major(spd)
    th_blas.th_blas_potrf(got, uplo.encode())
    factor = torch.linalg.cholesky(spd, upper=uplo == 'U')
    triangle = torch.triu if uplo == 'U' else torch.tril
    other = torch.tril if uplo == 'U' else torch.triu
    close(triangle(got), factor)
    # LAPACK leaves the other triangle as it was
    assert torch.equal(other(got, diagonal=-1 if uplo == 'U' else 1),
                       other(spd, diagonal=-1 if uplo == 'U' else 1))


def test_potrf_not_positive_definite(th_blas):
    with pytest.raises(RuntimeError, match='potrf : the leading minor of order 2 is not '
                                           'positive definite'):
        th_blas.th_blas_potrf(column_major(torch.tensor([[1., 2], [2, 1]])), b'U')


def test_without_scipy(th_blas):
    """SciPy missing: the call fails naming the function and what to install."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(th_blas.__file__)))
    code = ('import sys; sys.modules["scipy"] = None; sys.path[:0] = [%r, %r]\n'
            'import torch, _thffi_th_blas.th_blas as m\n'
            'try:\n'
            '    m.th_blas_Double_gemm(b"nn", 1, torch.ones(1, 1, dtype=torch.float64),\n'
            '                          torch.ones(1, 1, dtype=torch.float64), 0,\n'
            '                          torch.ones(1, 1, dtype=torch.float64))\n'
            'except RuntimeError as e:\n'
            '    print(e)\n' % (package, ROOT))
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert ("THDoubleBlas_gemm: TH's BLAS and LAPACK run on SciPy's, and "
            "scipy.linalg.cython_blas's dgemm could not be had") in out.stdout
    assert 'pip install scipy' in out.stdout


def test_blas_call_with_no_header_fails_the_build(tmp_path):
    """A C file calling TH's BLAS with no TH header in scope: C would pass
    its arguments as for `int THFloatBlas_dot()` (the call computed 3 for
    6); the build fails naming the call and the header."""
    from thffi import create_extension
    from thffi.builder import BuildError
    write_files(tmp_path, {
        'src/dot.h': 'float dot3(THFloatTensor *x, THFloatTensor *y);\n',
        'src/dot.c': '''\
            /* the 2018 way to save an include */
            typedef struct THFloatTensor THFloatTensor;
            float *THFloatTensor_data(THFloatTensor *t);

            float dot3(THFloatTensor *x, THFloatTensor *y)
            {
              return THFloatBlas_dot(3, THFloatTensor_data(x), 1, THFloatTensor_data(y), 1);
            }
            '''})
    ffi = create_extension('_ext.dot', headers=['src/dot.h'], sources=['src/dot.c'],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    with pytest.raises(BuildError, match=r'src/dot.c:7 calls THFloatBlas_dot with no declaration '
                                         r'in scope, C calls it as `int THFloatBlas_dot\(\)`.*'
                                         r'#include <TH/TH.h>'):
        ffi.build()
    assert not list(tmp_path.glob('_ext/dot/*.so'))
