"""Work only for what is linked: in an extension built without CUDA, an
object make.sh failed to build (or an old toolkit built) is compiled again
by nvcc only when the extension's C calls it; whose C calls nothing of it
builds with no nvcc run and no CUDA runtime linked.
The repository is tests/legacy_shift, ours, in the 2018 idiom."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import copy_legacy_shift, hooked_env
from thffi import find_cuda_home

HOME = find_cuda_home()
needs_toolkit = pytest.mark.skipif(HOME is None, reason='no CUDA toolkit (nvcc) installed')
NOT_COMPILED = ('thffi: src/cuda/shift_kernel.cu.o (extra_objects) does not exist: make.sh:4 '
                '(`nvcc -c -o shift_kernel.cu.o shift_kernel.cu -x cu -Xcompiler -fPIC '
                '-arch=sm_52`; today\'s nvcc rejects sm_52) was to build it: not compiled, as '
                'the extension is built without CUDA and its C calls nothing that is missing\n')


def _make_sh(folder):
    """Runs make.sh as a user with thffi installed would, on a machine
    without a GPU (build.py's gate then leaves with_cuda False)."""
    env = hooked_env(folder)
    with open(folder / 'sitecustomize.py', 'a') as f:
        f.write('import torch\ntorch.cuda.is_available = lambda: False\n')
    return subprocess.run(['bash', 'make.sh'], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


def _library(folder):
    library = next((folder / '_ext' / 'shift').glob('_shift*.so'))
    needed = subprocess.run(['readelf', '-d', str(library)], capture_output=True,
                            text=True).stdout
    symbols = subprocess.run(['nm', str(library)], capture_output=True, text=True).stdout
    return needed, symbols


@needs_toolkit
def test_a_c_only_extension_beside_a_failed_nvcc_step_runs_no_nvcc(tmp_path):
    copy_legacy_shift(tmp_path)
    out = _make_sh(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Unsupported gpu architecture 'sm_52'" in out.stderr  # make.sh's nvcc failed
    assert not (tmp_path / 'src/cuda/shift_kernel.cu.o').exists()
    assert NOT_COMPILED in out.stdout, out.stdout
    # verbose=True (the legacy default) prints every command the build
    # runs: gcc's, and nvcc's had it run one.
    nvcc = os.path.join(HOME, 'bin', 'nvcc')
    assert not [line for line in out.stdout.splitlines() if line.startswith(nvcc)], out.stdout
    assert 'gcc' in out.stdout and 'compiling src/cuda/shift_kernel.cu' not in out.stdout
    # and nothing says it builds with CUDA: no CUDA code was compiled
    assert 'with CUDA' not in out.stdout, out.stdout
    needed, symbols = _library(tmp_path)
    assert 'libcudart' not in needed and 'shift_launcher' not in symbols, needed
    ran = subprocess.run([sys.executable, '-c', textwrap.dedent('''\
        import torch
        from _ext import shift
        t = torch.zeros(3)
        shift.shift_cpu(t, 1.5)
        print(t.tolist())
        ''')], cwd=tmp_path, env=hooked_env(tmp_path), capture_output=True, text=True,
                         timeout=300)
    assert ran.stdout == '[1.5, 1.5, 1.5]\n', ran.stdout + ran.stderr


@needs_toolkit
def test_an_object_the_c_calls_is_compiled_when_the_link_needs_it(tmp_path):
    """Without CUDA too: the CPU op's C calls the launcher (a host
    fallback that hands the data to the kernel's launcher), so the link
    leaves its name undefined, and nvcc then compiles the .cu."""
    copy_legacy_shift(tmp_path)
    shift = tmp_path / 'src' / 'shift.c'
    shift.write_text(shift.read_text() + textwrap.dedent('''
        /* The kernel's launcher, kept linked for the GPU build's own tests. */
        typedef struct CUstream_st *cudaStream_t;
        int shift_launcher(float *data, int n, float by, cudaStream_t stream);
        int (*shift_kernel_launcher)(float *, int, float, cudaStream_t) = shift_launcher;
        '''))
    out = _make_sh(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('was to build it: compiling src/cuda/shift_kernel.cu with nvcc for architectures'
            in out.stdout), out.stdout
    assert 'not compiled' not in out.stdout
    needed, symbols = _library(tmp_path)
    assert ' t shift_launcher\n' in symbols and 'libcudart' in needed, symbols
