"""What CUDA 13's CCCL (Thrust 3) removed that 2018 CUDA code used, the
functor bases thrust::binary_function and thrust::unary_function, given
back by include/cccl_legacy.h, which thffi's nvcc compiles of the user's
sources include first: in create_extension's sources and under `thffi
run`.  The functors are ours, written as 2018 kernels wrote them."""

import os
import re
import subprocess
import sys

import pytest

from support import ROOT, write_files
from thffi import create_extension
from thffi.toolchain import cuda_api
from thffi.toolchain import cuda_toolkit as cuda

HOME = cuda.find_cuda_home()
pytestmark = pytest.mark.skipif(HOME is None, reason='no CUDA toolkit (nvcc) installed')
ENV = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5')

FUNCTORS_CU = '''\
    #include <thrust/device_ptr.h>
    #include <thrust/transform.h>

    struct scaled_sum : public thrust::binary_function<float, float, float> {
        const float a;
        scaled_sum(float a_) : a(a_) {}
        __host__ __device__ float operator()(const float &x, const float &y) const
        {
            return a * x + y;
        }
    };

    struct negate_op : public thrust::unary_function<float, float> {
        __host__ __device__ result_type operator()(argument_type x) const { return -x; }
    };

    extern "C" void axpy_negated(float *x, float *y, int n, float a)
    {
        thrust::device_ptr<float> px(x), py(y);
        thrust::transform(px, px + n, py, py, scaled_sum(a));
        thrust::transform(py, py + n, py, negate_op());
    }
    '''


def _thrust_removed_them():
    """Whether the toolkit's Thrust is 3.0 or newer (CUDA 13's)."""
    for folder in cuda.header_dirs(HOME):
        for sub in ('', 'cccl'):
            path = os.path.join(folder, sub, 'thrust', 'version.h')
            if os.path.isfile(path):
                with open(path) as f:
                    return int(re.search(r'#define THRUST_VERSION (\d+)', f.read()).group(1)) >= 300000
    return False


def test_a_cuda_source_with_2018_functor_bases_builds_and_runs(tmp_path):
    write_files(tmp_path, {
        'src/axpy.h': 'int axpy_negated_forward(THCudaTensor *x, THCudaTensor *y, float a);\n',
        'src/axpy.c': '''\
            #include <THC/THC.h>
            extern THCState *state;
            void axpy_negated(float *x, float *y, int n, float a);

            int axpy_negated_forward(THCudaTensor *x, THCudaTensor *y, float a)
            {
                axpy_negated(THCudaTensor_data(state, x), THCudaTensor_data(state, y),
                             (int)THCudaTensor_nElement(state, x), a);
                return 1;
            }
            ''',
        'src/axpy_kernel.cu': FUNCTORS_CU})
    create_extension('_ext.axpy', headers=['src/axpy.h'],
                     sources=['src/axpy.c', 'src/axpy_kernel.cu'], with_cuda=True,
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    out = subprocess.run([sys.executable, '-c', '''if True:
        import torch
        from _ext import axpy
        if torch.cuda.is_available():
            x = torch.arange(4.0, device='cuda')
            y = torch.ones(4, device='cuda')
            axpy.axpy_negated_forward(x, y, 2.0)
            print(y.tolist())
        else:
            print('built', callable(axpy.axpy_negated_forward))
        '''], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    import torch
    expected = '[-1.0, -3.0, -5.0, -7.0]' if torch.cuda.is_available() else 'built True'
    assert out.stdout.strip() == expected


@pytest.mark.slow  # deselected by default (conftest.py)
def test_a_make_step_compiling_them_under_thffi_run(tmp_path):
    write_files(tmp_path, {
        'src/functors.cu': FUNCTORS_CU,
        'make.sh': '''\
            #!/bin/sh
            cd src
            nvcc -c -o functors.cu.o functors.cu -x cu -Xcompiler -fPIC -arch=sm_75
            '''})
    os.chmod(tmp_path / 'make.sh', 0o755)
    plain = subprocess.run(['./make.sh'], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                           timeout=600)
    if _thrust_removed_them():
        assert plain.returncode != 0
        assert 'has no member class "binary_function"' in plain.stdout + plain.stderr
    run = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', './make.sh'], cwd=tmp_path,
                         env=ENV, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    symbols = subprocess.run(['nm', str(tmp_path / 'src/functors.cu.o')], capture_output=True,
                             text=True, check=True).stdout
    assert re.search(r' T axpy_negated$', symbols, re.M)


def test_a_compilers_error_on_them_says_what_replaces_them():
    (line,) = cuda_api.explain('x.cu(4): error: namespace "thrust" has no member class '
                               '"binary_function"\n')
    assert line.startswith('binary_function: removed from CCCL (Thrust, CUB, libcu++) in CUDA '
                           '13.0; use no base class')
    assert "thffi's <cccl_legacy.h> defines it as Thrust 2 did" in line
