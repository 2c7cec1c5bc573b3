"""What TH's raw BLAS costs in thffi (THFloatBlas_gemm, THDoubleBlas_gemm: SciPy's
BLAS, csrc/THBlas.c) against torch.mm on the same matrices (PyTorch's own BLAS):

- TH gemm: a wrapped C function calling THBlas_(gemm) on the memory of
  three n x n tensors (column-major, as TH's callers passed them);
- torch.mm(a, b, out=c) from Python.

    python bench/th_blas_gemm.py

One thread each (OPENBLAS_NUM_THREADS=1 for SciPy's OpenBLAS, set before it
loads; torch.set_num_threads(1)), so the libraries are compared, not the
thread pools.  Medians of torch.utils.benchmark's blocked_autorange, in µs;
the machine is shared, so compare the ratios of one run."""

import os
import tempfile

os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')

import torch  # noqa: E402

from th_extension import build, median_us  # noqa: E402

HEADER = '''
void bench_sgemm(THFloatTensor *a, THFloatTensor *b, THFloatTensor *c);
void bench_dgemm(THDoubleTensor *a, THDoubleTensor *b, THDoubleTensor *c);
'''
SOURCE = '''
#include <TH/TH.h>
/* c = a b, n x n, column-major */
void bench_sgemm(THFloatTensor *a, THFloatTensor *b, THFloatTensor *c) {
  long n = THFloatTensor_size(a, 0);
  THFloatBlas_gemm('n', 'n', n, n, n, 1, THFloatTensor_data(a), n, THFloatTensor_data(b), n, 0,
                   THFloatTensor_data(c), n);
}
void bench_dgemm(THDoubleTensor *a, THDoubleTensor *b, THDoubleTensor *c) {
  long n = THDoubleTensor_size(a, 0);
  THDoubleBlas_gemm('n', 'n', n, n, n, 1, THDoubleTensor_data(a), n, THDoubleTensor_data(b), n,
                    0, THDoubleTensor_data(c), n);
}
'''


def main():
    torch.set_num_threads(1)
    lib = build(tempfile.mkdtemp(prefix='th-blas-bench-'), '_th_blas_bench', HEADER, SOURCE)
    print('| dtype | n | TH gemm (µs) | torch.mm(out=) (µs) | TH / torch | max |difference| |')
    print('|---|---:|---:|---:|---:|---:|')
    for dtype, fn in ((torch.float32, lib.bench_sgemm), (torch.float64, lib.bench_dgemm)):
        for n in (64, 256, 1024):
            # column-major a and b: torch's a.t() @ b.t() is their product's transpose
            a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
            c, r = torch.empty(n, n, dtype=dtype), torch.empty(n, n, dtype=dtype)
            env = {'fn': fn, 'a': a, 'b': b, 'c': c, 'r': r, 'torch': torch}
            th = median_us('fn(a, b, c)', env)
            native = median_us('torch.mm(b, a, out=r)', env)
            print('| %s | %d | %.1f | %.1f | %.2f | %.1e |' % (
                str(dtype).replace('torch.', ''), n, th, native, th / native,
                (c - r).abs().max()))


if __name__ == '__main__':
    main()
