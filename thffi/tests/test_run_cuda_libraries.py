"""CUDA's libraries and library copies for the compilers `python -m thffi
run` starts (thffi/run/shims.py, run/cuda_sources.py) and in the makefiles
`python -m thffi port --write` rewrites (port/make.py):

- a 2018 Makefile compiling `#include <curand.h>` with `nvcc
  -I/usr/local/cuda/include` and gcc, and linking `-lcurand`: pip's cuRAND wheel
  (CUDA 13.0's, installed once into thffi's cache: 60 MB, about 7 s from
  this machine's package index) serves the header and the library, under
  run and after port, in an environment that has the wheel (a venv whose
  .pth names the folder, as a user's pip install puts it on sys.path);
- the header that nothing installed holds is named with its wheel;
- a CUB 1.x copy included by a relative path compiles as the toolkit's CUB.

The Makefiles and sources are ours, in the 2018 idiom; the CUB copy is a
stand-in whose cub.cuh stops any compile, as a 1.x copy's does beside
today's thrust."""

import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from support import installed_once, ROOT, write_files
from thffi.toolchain import cuda_toolkit as cuda
from thffi.toolchain import libraries

HOME = cuda.find_cuda_home()
NVCC = HOME and os.path.join(HOME, 'bin', 'nvcc')
ENV = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5')
# CUDA 13.0.3's cuRAND (cuda-toolkit==13.0.3 pins it), for the toolkit here.
CURAND_WHEEL = 'nvidia-curand==10.4.0.35'

RNG_KERNEL = '''\
    /* rng_kernel.cu: uniform noise for a tensor's storage, on cuRAND's host API */
    #include <cuda_runtime.h>
    #include <curand.h>

    extern "C" int rng_uniform_cuda(float *data, long n, unsigned long long seed)
    {
      curandGenerator_t gen;
      if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS)
        return 0;
      curandSetPseudoRandomGeneratorSeed(gen, seed);
      curandStatus_t status = curandGenerateUniform(gen, data, n);
      curandDestroyGenerator(gen);
      return status == CURAND_STATUS_SUCCESS;
    }
    '''
RNG_HOST = '''\
    /* rng.c: the status check the C side shares with the kernel's file */
    #include <curand.h>

    int rng_ok(curandStatus_t status) { return status == CURAND_STATUS_SUCCESS; }
    '''
RNG_MAKEFILE = '''\
    CUDA_PATH ?= /usr/local/cuda
    NVCC = $(CUDA_PATH)/bin/nvcc

    all: librng.so

    rng_kernel.o: rng_kernel.cu
    \t$(NVCC) -I$(CUDA_PATH)/include -Xcompiler -fPIC -c rng_kernel.cu -o rng_kernel.o

    rng.o: rng.c
    \tgcc -I$(CUDA_PATH)/include -fPIC -c rng.c -o rng.o

    librng.so: rng_kernel.o rng.o
    \t$(NVCC) -shared rng_kernel.o rng.o -o librng.so -L$(CUDA_PATH)/lib64 -lcurand
    '''


def _run(args, cwd, env=ENV, python=sys.executable):
    return subprocess.run([python, '-m', 'thffi'] + args, cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=900)


def said(stderr):
    return [line for line in stderr.splitlines() if line.startswith('thffi run:')]


def _toolkit_has(header):
    return any(os.path.isfile(os.path.join(d, header)) for d in cuda.toolkit_include_dirs(HOME))


def test_a_library_header_is_named_with_the_wheel_that_brings_it():
    assert libraries.header_message('curand.h', 13) == (
        'curand.h comes with pip install nvidia-curand (or thffi[cuda])')
    assert libraries.header_message('cublas_v2.h', None) == (
        'cublas_v2.h comes with pip install nvidia-cublas (or thffi[cuda])')
    # thffi[cuda] is CUDA 13's: a CUDA 12 toolkit's wheel alone.
    assert libraries.header_message('cufft.h', 12) == (
        'cufft.h comes with pip install nvidia-cufft-cu12')
    assert libraries.header_message('stdio.h', 13) is None


def test_thffi_cuda_brings_every_library_whose_header_is_named():
    """thffi[cuda]'s cuda-toolkit extras name the wheel of each library
    whose missing header the messages send to thffi[cuda]."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip('tomli')
    with open(os.path.join(ROOT, 'thffi', 'pyproject.toml'), 'rb') as f:
        extra, = tomllib.load(f)['project']['optional-dependencies']['cuda']
    named = set(extra.partition('[')[2].partition(']')[0].split(','))
    wheels = {libraries.LIBRARIES[name].wheel for name in set(libraries.HEADERS.values())}
    assert {'nvidia-' + n for n in named} >= wheels - {'nvidia-cuda-nvrtc'}, (extra, wheels)
    assert {'cublas', 'curand', 'cufft', 'cusparse', 'cusolver'} <= named


@pytest.fixture(scope='module')
def curand_site():
    """A folder holding pip's cuRAND wheel (nvidia/cu13/...), installed into
    thffi's cache once."""
    if HOME is None:
        pytest.skip('no CUDA toolkit (nvcc) installed')
    if _toolkit_has('curand.h'):
        pytest.skip('the toolkit in %s has cuRAND: no wheel serves it' % HOME)
    return installed_once([CURAND_WHEEL])


@pytest.fixture
def venv_with_curand(curand_site, tmp_path):
    """A venv over this interpreter whose sys.path holds the cuRAND wheel's
    folder (a .pth), as pip installing it there would: (its python, its
    environment, PATH first its bin)."""
    venv = tmp_path / 'venv'
    subprocess.run([sys.executable, '-m', 'venv', '--without-pip', '--system-site-packages',
                    str(venv)], check=True, timeout=300)
    site = subprocess.run([str(venv / 'bin' / 'python'), '-c',
                           'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
                          capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(site, 'test-wheels.pth'), 'w') as f:
        f.write(curand_site + '\n')
    env = dict(ENV, PATH=str(venv / 'bin') + os.pathsep + ENV['PATH'])
    return str(venv / 'bin' / 'python'), env


def _links_the_wheels_curand(library):
    dynamic = subprocess.run(['readelf', '-d', str(library)], capture_output=True, text=True,
                             check=True).stdout
    runpath = [line.split('[')[1].rstrip(']') for line in dynamic.splitlines()
               if 'RUNPATH' in line or 'RPATH' in line]
    assert '[libcurand.so.10]' in dynamic, dynamic
    assert runpath and any(os.path.isfile(os.path.join(folder, 'libcurand.so.10'))
                           for path in runpath for folder in path.split(':')), dynamic


def test_curand_from_pips_wheel_under_run_and_after_port(venv_with_curand, tmp_path):
    python, env = venv_with_curand
    write_files(tmp_path / 'rng', {'rng_kernel.cu': RNG_KERNEL, 'rng.c': RNG_HOST,
                                   'Makefile': RNG_MAKEFILE})
    folder = tmp_path / 'rng'
    before = subprocess.run(['make'], cwd=str(folder), env=env, capture_output=True, text=True)
    assert before.returncode != 0 and 'curand.h: No such file' in before.stderr

    out = _run(['run', 'make'], folder, env, python)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = said(out.stderr)
    assert len(lines) == 3, lines
    for line, compiler in zip(lines[:2], ('nvcc', 'gcc')):
        assert line.startswith("thffi run: %s: curand.h from pip's CUDA wheels (" % compiler)
        assert line.endswith("), searched after the toolkit's")
    assert lines[2].startswith("thffi run: nvcc: -lcurand: libcurand.so.10 from pip's CUDA "
                               'wheels (')
    assert lines[2].endswith('with its rpath, as python -m thffi --cuda-libs curand links it')
    _links_the_wheels_curand(folder / 'librng.so')

    # port writes the same into the Makefile: plain make builds it.
    for name in ('rng_kernel.o', 'rng.o', 'librng.so'):
        os.remove(str(folder / name))
    ported = _run(['port', '--write', '.'], folder, env, python)
    assert ported.returncode == 0, ported.stdout + ported.stderr
    makefile = (folder / 'Makefile').read_text()
    assert ('-c rng_kernel.cu -o rng_kernel.o $(shell python -m thffi --cuda-includes)\n'
            in makefile)
    assert '-c rng.c -o rng.o $(shell python -m thffi --cuda-includes)\n' in makefile
    assert '-L$(CUDA_PATH)/lib64 $(shell python -m thffi --cuda-libs curand)\n' in makefile
    after = subprocess.run(['make'], cwd=str(folder), env=env, capture_output=True, text=True)
    assert after.returncode == 0, after.stdout + after.stderr
    _links_the_wheels_curand(folder / 'librng.so')
    again = _run(['port', '--write', '.'], folder, env, python)
    assert (folder / 'Makefile').read_text() == makefile, again.stdout



# FindCUDA's era: a library looked up by name in the toolkit of the machine
# that wrote the file, which is gone here.
RNG_CMAKE = '''\
    cmake_minimum_required(VERSION 3.5)
    project(rng C)
    find_library(CURAND_LIBRARY curand HINTS /usr/local/cuda-9.1/lib64)
    if(NOT CURAND_LIBRARY)
      message(FATAL_ERROR "cuRAND not found")
    endif()
    message(STATUS "cuRAND: ${CURAND_LIBRARY}")
    add_library(rng SHARED rng.c)
    target_link_libraries(rng ${CURAND_LIBRARY})
    '''
# cuRAND's host generator: runs without a GPU.
RNG_HOST_UNIFORM = '''\
    #include <curand.h>

    float rng_first(void)
    {
      curandGenerator_t gen;
      float x = -1;
      if (curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS)
        return -2;
      curandSetPseudoRandomGeneratorSeed(gen, 7);
      curandGenerateUniform(gen, &x, 1);
      curandDestroyGenerator(gen);
      return x;
    }
    '''


@pytest.mark.skipif(shutil.which('cmake') is None, reason='needs cmake')
def test_cmakes_find_library_of_a_cuda_library_by_a_2018_path_under_run(
        venv_with_curand, curand_site, tmp_path):
    """find_library(CURAND_LIBRARY curand HINTS /usr/local/cuda-9.1/lib64)
    finds the wheel's cuRAND under `thffi run` (run/torch_folder.py: the
    folder CMake searches first holds it as libcurand.so); the library it
    links loads it by its soname and calls it."""
    python, env = venv_with_curand
    folder = tmp_path / 'rng'
    write_files(folder, {'CMakeLists.txt': RNG_CMAKE, 'rng.c': RNG_HOST_UNIFORM})
    (folder / 'build').mkdir()
    plain = subprocess.run(['cmake', '..'], cwd=str(folder / 'build'), env=env,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode != 0 and 'cuRAND not found' in plain.stderr
    shutil.rmtree(str(folder / 'build'))
    (folder / 'build').mkdir()
    out = _run(['run', '--', 'bash', '-c', 'cmake .. && make'], folder / 'build', env, python)
    assert out.returncode == 0, out.stdout + out.stderr
    found = re.search(r'-- cuRAND: (\S+)', out.stdout).group(1)
    assert os.path.basename(found) == 'libcurand.so'
    assert os.path.realpath(found).startswith(os.path.realpath(curand_site))
    _links_the_wheels_curand(folder / 'build' / 'librng.so')
    first = subprocess.run([python, '-c', 'import ctypes; f = ctypes.CDLL(%r).rng_first; '
                            'f.restype = ctypes.c_float; print(f())'
                            % str(folder / 'build' / 'librng.so')],
                           env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0 and 0 < float(first.stdout) < 1, first.stdout + first.stderr



@pytest.mark.skipif(not NVCC, reason='no CUDA toolkit (nvcc) installed')
def test_a_curand_header_nothing_installed_holds_is_named_with_its_wheel(tmp_path):
    if any(os.path.isfile(os.path.join(d, 'curand.h')) for d in cuda.header_dirs(HOME)):
        pytest.skip('this machine has curand.h (%s, or pip\'s wheels)' % HOME)
    write_files(tmp_path, {
        'rng_kernel.cu': RNG_KERNEL,
        'rng.c': '''\
            #include <stdio.h>
            #include <curand.h>
            int rng_ok(curandStatus_t status) { return status == CURAND_STATUS_SUCCESS; }
            ''',
        'Makefile': '''\
            all:
            \tnvcc -I/usr/local/cuda/include -Xcompiler -fPIC -c rng_kernel.cu -o rng_kernel.o
            ''',
        'build.sh': 'gcc -I/usr/local/cuda/include -fPIC -c rng.c -o rng.o\n'})
    for step, compiler in (['make'], 'nvcc'), (['bash', 'build.sh'], 'gcc'):
        out = _run(['run'] + step, tmp_path)
        assert out.returncode != 0
        assert 'fatal error: curand.h: No such file or directory' in out.stderr
        assert said(out.stderr) == ['thffi run: %s: curand.h comes with pip install '
                                    'nvidia-curand (or thffi[cuda])' % compiler]


@pytest.mark.slow  # deselected by default (conftest.py)
@pytest.mark.skipif(not NVCC, reason='no CUDA toolkit (nvcc) installed')
def test_a_cub_copy_included_by_a_relative_path_compiles_as_the_toolkits(tmp_path):
    """`#include "../third_party/cub-1.4/cub/cub.cuh"`, no -I: the toolkit's
    CUB serves the kernel's names, so the include is compiled as
    <cub/cub.cuh>, as port writes it; the file stays as it was."""
    kernel = '''\
        #include "../third_party/cub-1.4/cub/cub.cuh"

        __global__ void block_sum(const float *in, float *out)
        {
          typedef cub::BlockReduce<float, 128> BlockReduce;
          __shared__ typename BlockReduce::TempStorage temp;
          float sum = BlockReduce(temp).Sum(in[threadIdx.x]);
          if (threadIdx.x == 0) *out = sum;
        }
        '''
    write_files(tmp_path, {
        'third_party/cub-1.4/cub/cub.cuh':
            '#error "CUB 1.4: CUB requires a definition of CUB_NS_QUALIFIER"\n',
        'third_party/cub-1.4/cub/version.cuh': '#define CUB_VERSION 100400\n',
        'src/sum_kernel.cu': kernel,
        'Makefile': 'all:\n\tcd src && nvcc -c sum_kernel.cu -o sum_kernel.cu.o '
                    '-Xcompiler -fPIC\n'})
    out = _run(['run', 'make'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert said(out.stderr) == [
        'thffi run: nvcc: src/sum_kernel.cu:1: #include "../third_party/cub-1.4/cub/cub.cuh": '
        "compiled as <cub/cub.cuh>, the toolkit's (CUDA ships CUB; the CUB 1.4 copy is no longer "
        'compiled), as port writes it']
    assert (tmp_path / 'src' / 'sum_kernel.cu.o').stat().st_size > 0
    assert (tmp_path / 'src' / 'sum_kernel.cu').read_text() == textwrap.dedent(kernel)
