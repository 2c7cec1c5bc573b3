"""Linking legacy code: a name nothing defines fails the build, by name, and
keeps the previous library; objects a make.sh built with g++ or nvcc get the
C++ and CUDA runtimes the old torch process had loaded for them."""

import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import torch

from support import ROOT, load_build_script, only_these_cuda_wheels
from thffi import BuildError, create_extension, find_cuda_home
from thffi.toolchain import cuda_toolkit as thffi_cuda

needs_toolkit = pytest.mark.skipif(find_cuda_home() is None,
                                   reason='no CUDA toolkit (nvcc) installed')
needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')


def _write(folder, files):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())


def _run(command, cwd):
    """Runs a make.sh or build.py as a user would, with thffi importable and
    this interpreter's environment activated: the `python` of make.sh is the
    one running the tests (in a virtual environment not activated, PATH's
    python is another one, whose cffi builds with another configuration)."""
    bindir = os.path.dirname(sys.executable)
    env = dict(os.environ, PYTHONPATH=ROOT,
               PATH=bindir + os.pathsep + os.environ.get('PATH', ''))
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def _load(folder, alias):
    """Imports the built package in `folder` (e.g. <project>/_ext/scale) as
    `alias`: every project here calls its package _ext, as legacy ones did,
    and the demo's _ext is imported already."""
    spec = importlib.util.spec_from_file_location(
        alias, str(folder / '__init__.py'), submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


def _build_script(name, sources, headers, extra_objects):
    # A 2018 build.py, its import line ported; torch.cuda.is_available()
    # was False on the machine that built it, but extra_objects were kept.
    return '''
        import os
        from thffi import create_extension

        sources = %r
        headers = %r
        defines = []
        with_cuda = False

        this_file = os.path.dirname(os.path.realpath(__file__))
        extra_objects = %r
        extra_objects = [os.path.join(this_file, fname) for fname in extra_objects]

        ffi = create_extension(
            '_ext.%s',
            headers=headers,
            sources=sources,
            define_macros=defines,
            relative_to=__file__,
            with_cuda=with_cuda,
            extra_objects=extra_objects
        )

        if __name__ == '__main__':
            ffi.build()
        ''' % (sources, headers, extra_objects, name)


# -- a name nothing defines ------------------------------------------------------

OPS_H = '''
    int ops_double(THFloatTensor *input, THFloatTensor *output);
    '''

OPS_C = '''
    #include <TH/TH.h>

    int ops_double(THFloatTensor *input, THFloatTensor *output)
    {
      long i, n;
      float *in, *out;
      THArgCheck(THFloatTensor_isContiguous(input), 1, "input must be contiguous");
      THFloatTensor_resizeAs(output, input);
      n = THFloatTensor_nElement(input);
      in = THFloatTensor_data(input);
      out = THFloatTensor_data(output);
      for (i = 0; i < n; i++)
        out[i] = 2 * in[i];
      return 1;
    }
    '''

# Calls a TH function thffi lacks, a helper whose file is not in sources
# (both compile, with implicit-declaration warnings) and a C++ helper
# without extern "C", and exports a function no file defines.
OPS_BAD_H = OPS_H + '''
    int ops_mul(THFloatTensor *input1, THFloatTensor *input2, THFloatTensor *output);
    int ops_count(THFloatTensor *input);
    int ops_scale(THFloatTensor *input, float factor, THFloatTensor *output);
    float ops_norm(THFloatTensor *input);
    '''

OPS_BAD_C = OPS_C + '''
    int ops_mul(THFloatTensor *input1, THFloatTensor *input2, THFloatTensor *output)
    {
      THFloatTensor_resizeAS(output, input1);
      THFloatTensor_dirichlet_grad(output, input1, input2, input2);
      return 1;
    }

    int ops_count(THFloatTensor *input)
    {
      return count_positive(THFloatTensor_data(input), THFloatTensor_nElement(input));
    }

    float ops_norm(THFloatTensor *input)
    {
      return sum_squares(THFloatTensor_data(input), THFloatTensor_nElement(input));
    }
    '''

SUM_SQUARES_CPP = '''
    float sum_squares(float *data, long n)
    {
      float total = 0;
      for (long i = 0; i < n; i++)
        total += data[i] * data[i];
      return total;
    }
    '''


def test_undefined_names_fail_the_build_by_name_and_keep_the_previous_library(tmp_path):
    _write(tmp_path, {'src/ops.h': OPS_H, 'src/ops.c': OPS_C,
                      'build.py': _build_script('ops', ['src/ops.c'], ['src/ops.h'], [])})
    assert load_build_script(str(tmp_path / 'build.py'), '_link_test_ops_build').ffi.build()
    package = tmp_path / '_ext' / 'ops'
    before = {p.name: p.read_bytes() for p in package.iterdir() if p.is_file()}

    _write(tmp_path, {'src/ops.h': OPS_BAD_H, 'src/ops.c': OPS_BAD_C,
                      'src/sum_squares.cpp': SUM_SQUARES_CPP,
                      'build.py': _build_script('ops', ['src/ops.c'], ['src/ops.h'],
                                                ['src/sum_squares.o'])})
    subprocess.run(['g++', '-c', '-fPIC', '-o', 'sum_squares.o', 'sum_squares.cpp'],
                   cwd=tmp_path / 'src', check=True)
    failed = _run([sys.executable, 'build.py'], tmp_path)
    assert failed.returncode != 0
    # A name 0.4 had that thffi leaves out points to the page saying why; a
    # misspelled one, to the name meant.
    assert ('BuildError: building _ext.ops failed: nothing defines these 5 names the code '
            'uses, so importing the library would fail with "undefined symbol":\n'
            '  THFloatTensor_dirichlet_grad, used in src/ops.c: PyTorch 0.4.1 declared it and '
            'thffi leaves it out on purpose: docs/porting/not_supported.md ("`_dirichlet_grad`") '
            'says why and what to write instead\n'
            '  THFloatTensor_resizeAS, used in src/ops.c: thffi does not provide this TH/THC '
            'function: did you mean THFloatTensor_resizeAs?\n'
            '  count_positive, used in src/ops.c: no source, extra object or library of the '
            'build defines it\n'
            '  ops_scale, declared in src/ops.h: no source or extra object defines it\n'
            '  sum_squares, used in src/ops.c: src/sum_squares.o defines it with C++ linkage: '
            'declare it extern "C"\n'
            'The previous build, if any, is left in place.') in failed.stderr, failed.stderr

    # Nothing of the failed build was installed; the previous one works.
    after = {p.name: p.read_bytes() for p in package.iterdir() if p.is_file()}
    assert after == before
    ops = _load(package, '_link_test_ops')
    assert not hasattr(ops, 'ops_mul')
    out = torch.empty(0)
    assert ops.ops_double(torch.arange(4.0), out) == 1
    assert torch.equal(out, torch.tensor([0.0, 2.0, 4.0, 6.0]))


# -- a C++ object from make.sh ------------------------------------------------------

MEDIAN_FILES = {
    'src/median.h': '''
        int median_forward(THFloatTensor *input, THFloatTensor *output);
        ''',
    'src/median.c': '''
        #include <TH/TH.h>

        /* sort_helpers.cpp, compiled by make.sh */
        extern float sorted_median(float *data, long n);

        int median_forward(THFloatTensor *input, THFloatTensor *output)
        {
          THFloatTensor *contiguous;
          long n = THFloatTensor_nElement(input);
          if (n == 0)
            return 0;
          contiguous = THFloatTensor_newContiguous(input);
          THFloatTensor_resize1d(output, 1);
          THFloatTensor_data(output)[0] = sorted_median(THFloatTensor_data(contiguous), n);
          THFloatTensor_free(contiguous);
          return 1;
        }
        ''',
    'src/sort_helpers.cpp': '''
        #include <algorithm>
        #include <vector>

        extern "C" float sorted_median(float *data, long n)
        {
          std::vector<float> values(data, data + n);
          std::nth_element(values.begin(), values.begin() + n / 2, values.end());
          return values[n / 2];
        }
        ''',
    'make.sh': '''
        #!/usr/bin/env bash
        set -e
        cd src
        echo "Compiling sort helpers by g++..."
        g++ -c -o sort_helpers.o sort_helpers.cpp -fPIC -std=c++11 -O2
        cd ..
        python build.py
        ''',
    'build.py': _build_script('median', ['src/median.c'], ['src/median.h'],
                              ['src/sort_helpers.o']),
}


def test_cpp_object_in_a_c_only_extension_imports_and_runs(tmp_path):
    if shutil.which('g++') is None:
        pytest.skip('g++ is not installed')
    _write(tmp_path, MEDIAN_FILES)
    made = _run(['bash', 'make.sh'], tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    median = _load(tmp_path / '_ext' / 'median', '_link_test_median')
    x = torch.randn(7, 9)
    out = torch.empty(0)
    assert median.median_forward(x.t(), out) == 1
    assert out.item() == x.median().item()

    # The object is a dependency of the build: a make.sh run that changed it
    # means a relink.
    ffi = load_build_script(str(tmp_path / 'build.py'), '_link_test_median_build').ffi
    assert ffi.is_up_to_date()
    with open(tmp_path / 'src' / 'sort_helpers.o', 'ab') as f:
        f.write(b'\0')
    assert not ffi.is_up_to_date()


# -- an nvcc object in a build without CUDA ---------------------------------------------

SCALE_FILES = {
    'src/scale.h': '''
        int scale_forward(THFloatTensor *input, float factor, THFloatTensor *output);
        int scale_gpu_count(void);
        int scale_forward_gpu(float *data, int n, float factor);
        ''',
    'src/scale.c': '''
        #include <TH/TH.h>
        #include "cuda/scale_kernel.h"

        int scale_forward(THFloatTensor *input, float factor, THFloatTensor *output)
        {
          long i, n;
          float *in, *out;
          THArgCheck(THFloatTensor_isContiguous(input), 1, "input must be contiguous");
          THFloatTensor_resizeAs(output, input);
          n = THFloatTensor_nElement(input);
          in = THFloatTensor_data(input);
          out = THFloatTensor_data(output);
          for (i = 0; i < n; i++)
            out[i] = in[i] * factor;
          return 1;
        }

        int scale_gpu_count(void)
        {
          return ScaleDeviceCount();
        }

        int scale_forward_gpu(float *data, int n, float factor)
        {
          return ScaleForwardLaucher(data, n, factor);
        }
        ''',
    'src/cuda/scale_kernel.h': '''
        #ifndef _SCALE_KERNEL
        #define _SCALE_KERNEL

        #ifdef __cplusplus
        extern "C" {
        #endif

        int ScaleForwardLaucher(float *data, int n, float factor);
        int ScaleDeviceCount(void);

        #ifdef __cplusplus
        }
        #endif

        #endif
        ''',
    'src/cuda/scale_kernel.cu': '''
        #include <stdio.h>
        #include "scale_kernel.h"

        #define CUDA_1D_KERNEL_LOOP(i, n) \\
          for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; \\
               i += blockDim.x * gridDim.x)

        __global__ void ScaleForward(const int nthreads, float *data, const float factor)
        {
          CUDA_1D_KERNEL_LOOP(index, nthreads) {
            data[index] *= factor;
          }
        }

        int ScaleForwardLaucher(float *data, int n, float factor)
        {
          const int kThreadsPerBlock = 1024;
          cudaError_t err;
          ScaleForward<<<(n + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock>>>(
              n, data, factor);
          err = cudaGetLastError();
          if (cudaSuccess != err) {
            fprintf(stderr, "cudaCheckError() failed : %s\\n", cudaGetErrorString(err));
            return 0;
          }
          return 1;
        }

        int ScaleDeviceCount(void)
        {
          int count = 0;
          if (cudaGetDeviceCount(&count) != cudaSuccess)
            return 0;
          return count;
        }
        ''',
    'make.sh': '''
        #!/usr/bin/env bash
        set -e
        cd src/cuda
        echo "Compiling scale kernels by nvcc..."
        nvcc -c -o scale_kernel.cu.o scale_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_75
        cd ../..
        python build.py
        ''',
    'build.py': _build_script('scale', ['src/scale.c'], ['src/scale.h'],
                              ['src/cuda/scale_kernel.cu.o']),
}


@pytest.fixture(scope='module')
def scale_project(tmp_path_factory):
    """The scale project after its make.sh: nvcc's .cu.o, linked into a build
    with with_cuda=False."""
    if find_cuda_home() is None:
        pytest.skip('no CUDA toolkit (nvcc) installed')
    project = tmp_path_factory.mktemp('scale')
    _write(project, SCALE_FILES)
    made = _run(['bash', 'make.sh'], project)
    assert made.returncode == 0, made.stdout + made.stderr
    return project


@pytest.fixture(scope='module')
def scale(scale_project):
    return _load(scale_project / '_ext' / 'scale', '_link_test_scale')


@needs_toolkit
def test_nvcc_object_without_with_cuda_imports_and_its_cpu_functions_run(scale):
    x = torch.randn(3, 5)
    out = torch.empty(0)
    assert scale.scale_forward(x, 2.5, out) == 1
    assert torch.equal(out, x * 2.5)
    # A host function of the .cu.o: it calls the CUDA runtime, GPU or not.
    assert scale.scale_gpu_count() == torch.cuda.device_count()


@needs_toolkit
@needs_gpu
def test_nvcc_object_without_with_cuda_runs_its_kernel(scale):
    x = torch.randn(3000, device='cuda')
    expected = x * 3
    assert scale.scale_forward_gpu(x.data_ptr(), x.numel(), 3.0) == 1
    torch.cuda.synchronize()
    assert torch.equal(x, expected)
    # One CUDA runtime in the process: the library reused PyTorch's.
    with open('/proc/self/maps') as f:
        runtimes = {line.split()[-1] for line in f if 'libcudart.so' in line}
    assert len(runtimes) == 1, runtimes


@needs_toolkit
def test_nvcc_object_without_a_toolkit_says_what_to_install(scale_project, tmp_path,
                                                            monkeypatch):
    monkeypatch.setenv('CUDA_HOME', str(tmp_path))  # not a toolkit
    only_these_cuda_wheels(monkeypatch)  # nor pip's wheels of the machine
    ffi = create_extension('_ext.scale', headers=[str(scale_project / 'src' / 'scale.h')],
                           sources=[str(scale_project / 'src' / 'scale.c')],
                           extra_objects=[str(scale_project / 'src/cuda/scale_kernel.cu.o')],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    with pytest.raises(BuildError) as error:
        ffi.build()
    assert str(error.value).startswith(
        "create_extension('_ext.scale'): %s uses the CUDA runtime (cudaGetDeviceCount, "
        "cudaGetErrorString, cudaGetLastError, ...): no CUDA toolkit found"
        % (scale_project / 'src/cuda/scale_kernel.cu.o')), error.value
    assert str(error.value).endswith('Install the CUDA toolkit or set CUDA_HOME, or leave '
                                     'that object out of extra_objects')
    assert ffi.library_path() is None and not list(tmp_path.glob('_ext/scale/*.so'))


def test_object_using_a_cuda_library_links_it_or_says_it_is_missing(tmp_path):
    """An object calling cuBLAS gets the toolkit's libcublas, by soname, or
    a BuildError naming what is missing."""
    home = find_cuda_home()
    if home is None:
        pytest.skip('no CUDA toolkit (nvcc) installed')
    _write(tmp_path, {
        'src/blas.h': 'int blas_handle_ok(void);\n',
        'src/blas.c': '''
            #include <TH/TH.h>
            #include "blas_helper.h"
            int blas_handle_ok(void) { return blas_helper_init(); }
            ''',
        'src/blas_helper.h': 'int blas_helper_init(void);\n',
        'src/blas_helper.c': '''
            #include "blas_helper.h"
            /* from cublas_v2.h */
            typedef struct cublasContext *cublasHandle_t;
            int cublasCreate_v2(cublasHandle_t *handle);
            int blas_helper_init(void)
            {
              cublasHandle_t handle;
              return cublasCreate_v2(&handle) == 0;
            }
            ''',
    })
    subprocess.run(['gcc', '-c', '-fPIC', '-o', 'blas_helper.o', 'blas_helper.c'],
                   cwd=tmp_path / 'src', check=True)
    ffi = create_extension('_ext.blas', headers=['src/blas.h'], sources=['src/blas.c'],
                           extra_objects=['src/blas_helper.o'],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    if thffi_cuda.find_library('cublas', home) is None:  # in the toolkit or pip's wheels
        with pytest.raises(BuildError, match=r"create_extension\('_ext.blas'\): "
                                             r"src/blas_helper.o uses cuBLAS \(cublasCreate_v2\)"
                                             r", but neither the CUDA toolkit in .* nor "
                                             r"pip's CUDA wheels \(site-packages/nvidia\) "
                                             r"hold libcublas.so \(cuBLAS\): pip install "
                                             r"nvidia-cublas"):
            ffi.build()
        return
    assert ffi.build() is True
    needed = subprocess.run(['readelf', '-d', ffi.library_path()], capture_output=True,
                            text=True, check=True).stdout
    assert 'libcublas.so.' in needed, needed


def test_missing_extra_object_is_named(tmp_path):
    _write(tmp_path, {'src/ops.h': OPS_H, 'src/ops.c': OPS_C})
    ffi = create_extension('_ext.ops', headers=['src/ops.h'], sources=['src/ops.c'],
                           extra_objects=['src/cuda/ops_kernel.cu.o'],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    with pytest.raises(BuildError, match=r"create_extension\('_ext.ops'\): extra_objects: "
                                         r".*/src/cuda/ops_kernel.cu.o does not exist \(a "
                                         r"make.sh step builds it\?\)"):
        ffi.build()
