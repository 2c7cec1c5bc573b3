"""What a TH math call done by PyTorch (thffi's bridge, csrc/THMath.c) costs,
against the same operation called from Python and against a TH function
kept in C:

- bridge: a wrapped C function calling THFloatTensor_add(r, a, 1), which
  takes the GIL and runs PyTorch's add into r;
- C loop: a wrapped C function calling THFloatTensor_cadd(r, a, 1, a), one
  of the functions thffi keeps in C;
- torch: torch.add(a, 1, out=r) from Python.

    python bench/th_math_call.py

Medians of torch.utils.benchmark's blocked_autorange, in µs; the machine is
shared, so compare the ratios of one run."""

import tempfile

import torch

from th_extension import build, median_us

HEADER = '''
void bench_bridge_add(THFloatTensor *r, THFloatTensor *a);
void bench_c_cadd(THFloatTensor *r, THFloatTensor *a);
'''
SOURCE = '''
#include <TH/TH.h>
void bench_bridge_add(THFloatTensor *r, THFloatTensor *a) { THFloatTensor_add(r, a, 1); }
void bench_c_cadd(THFloatTensor *r, THFloatTensor *a) { THFloatTensor_cadd(r, a, 1, a); }
'''


def main():
    torch.set_num_threads(1)
    lib = build(tempfile.mkdtemp(prefix='th-math-bench-'), '_th_math_bench', HEADER, SOURCE)
    print('| n | bridge (µs) | C loop (µs) | torch.add(out=) (µs) | bridge / torch |')
    print('|---:|---:|---:|---:|---:|')
    for n in (16, 4096, 1 << 20):
        a, r = torch.randn(n), torch.empty(n)
        env = {'lib': lib, 'a': a, 'r': r, 'torch': torch}
        bridge = median_us('lib.bench_bridge_add(r, a)', env)
        c_loop = median_us('lib.bench_c_cadd(r, a)', env)
        native = median_us('torch.add(a, 1, out=r)', env)
        print('| %d | %.2f | %.2f | %.2f | %.2f |' % (n, bridge, c_loop, native, bridge / native))


if __name__ == '__main__':
    main()
