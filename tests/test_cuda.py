"""The CUDA path: the build (runs everywhere a CUDA toolkit is installed) and
the THC layer and kernels on a GPU (skipped without one)."""

import os
import re
import shutil
import subprocess
import sys

import pytest
import torch

from demo_support import DEMO, ROOT
from thffi import BuildError, create_extension, cuda_enabled, find_cuda_home
from thffi.toolchain import cuda_toolkit as thffi_cuda

from _ext import my_lib
from functions.add import WITH_CUDA, MyAddFunction

HAVE_TOOLKIT = find_cuda_home() is not None
HAVE_GPU = torch.cuda.is_available() and WITH_CUDA
needs_toolkit = pytest.mark.skipif(not HAVE_TOOLKIT, reason='no CUDA toolkit (nvcc) installed')
needs_cuda_build = pytest.mark.skipif(not WITH_CUDA, reason='library built without CUDA')
needs_gpu = pytest.mark.skipif(not HAVE_GPU, reason='needs a CUDA GPU' + (
    '' if WITH_CUDA else ' and a library built with CUDA'))
needs_two_gpus = pytest.mark.skipif(not (HAVE_GPU and torch.cuda.device_count() >= 2),
                                    reason='needs two CUDA GPUs')


# -- building (no GPU needed) -----------------------------------------------

@needs_toolkit
def test_demo_is_built_with_cuda_when_a_toolkit_is_found():
    assert cuda_enabled() == (os.environ.get('THFFI_WITH_CUDA', '1') != '0')
    assert WITH_CUDA == cuda_enabled()


@needs_cuda_build
def test_library_links_the_shared_cuda_runtime_not_libtorch():
    if shutil.which('ldd') is None:
        pytest.skip('ldd is not installed')
    out = subprocess.run(['ldd', DEMO.library_path()], capture_output=True, text=True, check=True).stdout
    assert re.search(r'libcudart\.so\.\d+ => /', out), out
    assert not re.search(r'libtorch|libc10|cudart_static', out), out


@needs_cuda_build
def test_cuda_functions_refuse_cpu_tensors():
    with pytest.raises(TypeError, match=r'my_lib_add_forward_cuda\(\): argument 1 \(input1\): '
                                        r'expected THCudaTensor \(a torch.Tensor of dtype '
                                        r'torch.float32 on cuda\) or None, got torch.float32 '
                                        r'tensor on cpu'):
        my_lib.my_lib_add_forward_cuda(torch.ones(2), torch.ones(2), torch.empty(0))


@needs_cuda_build
def test_cuda_function_checks_null_before_touching_the_gpu():
    with pytest.raises(RuntimeError, match=r'my_lib_add_forward_cuda: invalid argument 1: '
                                           r'expected a tensor, got NULL'):
        my_lib.my_lib_add_forward_cuda(None, None, None)


def test_arch_flags():
    assert thffi_cuda.arch_flags('8.0;9.0a+PTX') == [
        '-gencode=arch=compute_80,code=sm_80',
        '-gencode=arch=compute_90a,code=sm_90a',
        '-gencode=arch=compute_90a,code=compute_90a']
    assert thffi_cuda.arch_flags('7.5 12.0') == [
        '-gencode=arch=compute_75,code=sm_75', '-gencode=arch=compute_120,code=sm_120']
    with pytest.raises(ValueError, match=r"CUDA architecture 'Hopper': expected a compute "
                                         r"capability"):
        thffi_cuda.arch_flags('8.0;Hopper')


def test_arch_list_sources(monkeypatch):
    monkeypatch.setenv('TORCH_CUDA_ARCH_LIST', '8.6+PTX')
    assert thffi_cuda.arch_list() == ('8.6+PTX', 'TORCH_CUDA_ARCH_LIST')
    monkeypatch.delenv('TORCH_CUDA_ARCH_LIST')
    monkeypatch.setattr(thffi_cuda, '_visible_gpu_archs', lambda: ['9.0'])
    assert thffi_cuda.arch_list() == ('9.0', 'the visible GPUs')
    monkeypatch.setattr(thffi_cuda, '_visible_gpu_archs', lambda: [])
    monkeypatch.setattr(thffi_cuda, 'torch_cuda_version', lambda: '13.0')
    assert thffi_cuda.arch_list() == (thffi_cuda.DEFAULT_ARCH_LIST, 'the default list')
    assert thffi_cuda.DEFAULT_ARCH_LIST.endswith('+PTX')
    monkeypatch.setattr(thffi_cuda, 'torch_cuda_version', lambda: None)
    assert thffi_cuda.arch_list() == ('7.5+PTX', 'the default for a PyTorch without CUDA')


@pytest.mark.parametrize('version_py, expected', [
    ("cuda: Optional[str] = '13.0'\n", '13.0'),
    ('cuda: Optional[str] = None\n', None),
    ("cuda = '12.8'\n", '12.8')])
def test_arch_list_reads_the_installed_torch_without_importing_it(tmp_path, version_py,
                                                                   expected):
    """No GPU, no TORCH_CUDA_ARCH_LIST: the list follows torch.version.cuda,
    read from torch/version.py; the build process does not import torch."""
    (tmp_path / 'torch').mkdir()
    (tmp_path / 'torch' / '__init__.py').write_text('raise ImportError("imported")\n')
    (tmp_path / 'torch' / 'version.py').write_text(
        'from typing import Optional\n__version__ = "2.13.0"\n' + version_py)
    env = {k: v for k, v in os.environ.items() if k != 'TORCH_CUDA_ARCH_LIST'}
    env['PYTHONPATH'] = os.pathsep.join([str(tmp_path), ROOT])
    out = subprocess.run(
        [sys.executable, '-c', 'import sys; from thffi.toolchain import cuda_toolkit as cuda; cuda._visible_gpu_archs = '
         'lambda: []; print(cuda.torch_cuda_version(), cuda.arch_list()[0], '
         '"torch" in sys.modules)'],
        env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(expected), '7.5+PTX' if expected is None
                   else thffi_cuda.DEFAULT_ARCH_LIST, 'False']


@needs_toolkit
def test_thc_offsets_loop_is_not_unrolled_for_blackwell(tmp_path):
    """nvcc 13 unrolled THCApply.cuh's offset loop to its 64 dimensions for
    compute_100/120, and ptxas then spent half of thffi's cold CUDA build on
    it: the loop stays one loop (a 64-bit division or two per copy of it)."""
    csrc = os.path.join(ROOT, 'thffi', 'csrc')
    ptx = tmp_path / 'THCTensor.ptx'
    subprocess.run([os.path.join(find_cuda_home(), 'bin', 'nvcc'), '-ptx', '-std=c++17',
                    '-arch=compute_100', '-I' + os.path.join(ROOT, 'thffi', 'include'),
                    '-I' + csrc, os.path.join(csrc, 'THCTensor.cu'), '-o', str(ptx)],
                   check=True)
    kernels = re.split(r'\.entry ', ptx.read_text())[1:]
    cadd = [k for k in kernels if 'cadd_kernel' in k.split('(')[0]]
    assert len(cadd) == 8  # the seven THC types and half
    # three strided tensors, a loop each (nvcc may duplicate one per layout)
    assert all(k.count('div.s64') <= 24 for k in cadd), [k.count('div.s64') for k in cadd]


def test_environment_switch_decides_both_ways(monkeypatch, tmp_path):
    monkeypatch.setenv('THFFI_WITH_CUDA', '0')
    assert cuda_enabled() is False
    monkeypatch.setenv('THFFI_WITH_CUDA', 'yes')
    assert cuda_enabled() is True
    monkeypatch.setenv('THFFI_WITH_CUDA', 'maybe')
    with pytest.raises(ValueError, match=r"THFFI_WITH_CUDA='maybe': expected 1 or 0"):
        cuda_enabled()
    monkeypatch.delenv('THFFI_WITH_CUDA')
    monkeypatch.setenv('CUDA_HOME', str(tmp_path))  # not a toolkit
    assert find_cuda_home() is None and cuda_enabled() is False


def test_forcing_cuda_without_a_toolkit_explains_what_to_install(tmp_path):
    env = dict(os.environ, THFFI_WITH_CUDA='1', CUDA_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, os.path.join(ROOT, 'build.py')], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert re.search(r"BuildError: create_extension\('_ext.my_lib', with_cuda=True\): no CUDA "
                     r"toolkit found .*Install the CUDA toolkit or set CUDA_HOME, or build "
                     r"without CUDA: THFFI_WITH_CUDA=0", out.stderr), out.stderr


def test_cuda_sources_need_with_cuda(tmp_path):
    (tmp_path / 'k.h').write_text('int f(void);\n')
    (tmp_path / 'k.cu').write_text('extern "C" int f(void) { return 1; }\n')
    with pytest.raises(BuildError, match=r'k\.cu is CUDA code; pass with_cuda=True'):
        create_extension('_k.lib', headers=['k.h'], sources=['k.cu'],
                         relative_to=str(tmp_path / 'build.py'))
    (tmp_path / 'g.h').write_text('int g(THCudaTensor *t);\n')
    with pytest.raises(BuildError, match=r'g takes CUDA tensors; pass with_cuda=True'):
        create_extension('_k.lib', headers=['g.h'], sources=[],
                         relative_to=str(tmp_path / 'build.py'))


@needs_toolkit
@pytest.mark.parametrize('compiler, suffix', [
    (['gcc', '-std=c99', '-Wall', '-Werror'], '.c'),
    (['g++', '-Wall', '-Werror'], '.cpp'),
    (['nvcc'], '.cu'),
])
def test_thc_header_compiles_as_c_cpp_and_cuda(tmp_path, compiler, suffix):
    src = tmp_path / ('use' + suffix)
    src.write_text('#include <THC/THC.h>\n'
                   'extern THCState *state;\n'
                   'int use(THCudaTensor *t, THCudaLongTensor *l) {\n'
                   '  THCudaCheck(cudaGetLastError());\n'
                   '  return (int)THCudaTensor_nElement(state, t) + l->nDimension\n'
                   '         + (THCState_getCurrentStream(state) != 0);\n'
                   '}\n')
    home = find_cuda_home()
    tool = compiler[0] if compiler[0] != 'nvcc' else os.path.join(home, 'bin', 'nvcc')
    out = subprocess.run([tool] + compiler[1:] + [
        '-c', str(src), '-o', str(tmp_path / 'use.o'),
        '-I' + os.path.join(ROOT, 'thffi', 'include'), '-I' + os.path.join(home, 'include')],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr


# -- on a GPU ---------------------------------------------------------------

@needs_gpu
def test_kernel_is_ordered_on_the_current_stream():
    # The inputs are produced on a side stream by slow work; the op must run
    # after it on that same stream, with no synchronisation by the caller.
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x = torch.randn(4096, 4096, device='cuda')
        for _ in range(4):
            x = x @ x / 64
        a = x[0].contiguous()
        b = x[1].contiguous()
        out = MyAddFunction.apply(a, b)
        expected = a + b
    side.synchronize()
    assert torch.equal(out, expected)


@needs_gpu
def test_current_stream_is_the_callers_at_call_time(thc_test):
    t = torch.empty(1, device='cuda')
    assert thc_test.current_stream(t) == torch.cuda.current_stream().cuda_stream
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        assert thc_test.current_stream(t) == side.cuda_stream
    assert thc_test.current_stream(t) == torch.cuda.current_stream().cuda_stream


@needs_gpu
def test_failing_launch_is_an_exception_and_the_next_call_works(thc_test):
    t = torch.zeros(8, device='cuda')
    with pytest.raises(RuntimeError, match=r'launch_invalid: cuda runtime error \(\d+\) : '
                                           r'invalid configuration argument at .*thc_test\.c'):
        thc_test.launch_invalid(t)
    thc_test.cuda_fill(t, 2.0)
    assert torch.equal(t, torch.full((8,), 2.0, device='cuda'))


@needs_gpu
@pytest.mark.parametrize('view', [lambda t: t, lambda t: t.t(), lambda t: t[1:, ::2],
                                  lambda t: t[2, 3], lambda t: t[:0]])
def test_thc_elementwise_ops_honour_strides(thc_test, view):
    base = torch.full((6, 5), -1.0, device='cuda')
    expected = base.clone()
    thc_test.cuda_fill(view(base), 3.5)
    view(expected).fill_(3.5)
    assert torch.equal(base, expected)

    src = torch.randn(6, 5, device='cuda')
    thc_test.cuda_copy(view(base), view(src))
    view(expected).copy_(view(src))
    assert torch.equal(base, expected)

    t = torch.randn(5, 6, dtype=torch.float64, device='cuda').t()
    s = torch.randn(6, 5, dtype=torch.float64, device='cuda')
    r = torch.empty(0, dtype=torch.float64, device='cuda')
    thc_test.cuda_cadd(r, view(t), -2.0, view(s))
    torch.testing.assert_close(r, view(t) - 2.0 * view(s), rtol=0, atol=0)


@needs_gpu
def test_thc_integer_types_and_metadata(thc_test):
    longs = torch.full((3, 4), 9, dtype=torch.int64, device='cuda')
    thc_test.cuda_zero_long(longs[:, 1:])
    assert longs.sum().item() == 27
    ints = torch.zeros(10, dtype=torch.int32, device='cuda')
    thc_test.cuda_fill_int(ints[::3], 7)
    assert ints.tolist() == [7, 0, 0, 7, 0, 0, 7, 0, 0, 7]

    t = torch.empty(0, device='cuda')
    thc_test.cuda_resize4d(t, 2, 3, 4, 5)
    assert t.shape == (2, 3, 4, 5) and t.is_cuda
    v = t.transpose(1, 3)
    assert [thc_test.cuda_size(v, d) for d in range(4)] == list(v.shape)
    assert [thc_test.cuda_stride(v, d) for d in range(4)] == list(v.stride())
    assert thc_test.cuda_ndim(v) == 4 and thc_test.cuda_nelement(v) == 120
    assert thc_test.cuda_same_size(v, torch.empty(2, 5, 4, 3, device='cuda'))
    assert thc_test.pointers_match(v[1])


@needs_gpu
def test_resize_from_c_uses_the_caching_allocator(thc_test):
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    t = torch.empty(0, device='cuda')
    thc_test.cuda_resize4d(t, 16, 16, 16, 16)
    assert torch.cuda.memory_allocated() - before >= 16 ** 4 * 4
    del t
    assert torch.cuda.memory_allocated() == before


@needs_two_gpus
def test_tensors_on_the_second_gpu(thc_test):
    a = torch.randn(1000, device='cuda:1')
    b = torch.randn(1000, device='cuda:1')
    torch.cuda.set_device(0)
    out = MyAddFunction.apply(a, b)
    assert out.device == torch.device('cuda:1')
    assert torch.equal(out, a + b)
    assert thc_test.current_device(a) == 1      # the call runs on its tensors' device
    assert torch.cuda.current_device() == 0     # and puts the caller's back
    with torch.cuda.device(1):
        assert thc_test.current_stream(a) == torch.cuda.current_stream(1).cuda_stream


@needs_two_gpus
def test_tensors_on_two_gpus_are_refused():
    with pytest.raises(RuntimeError, match=r'argument 2 \(input2\) is on cuda:1 but argument 1 '
                                           r'\(input1\) is on cuda:0; the CUDA tensors of a '
                                           r'call must be on one device'):
        my_lib.my_lib_add_forward_cuda(torch.ones(2, device='cuda:0'),
                                       torch.ones(2, device='cuda:1'),
                                       torch.empty(0, device='cuda:0'))


@needs_gpu
def test_cublas_and_cusparse_checks_name_the_status(thc_test):
    t = torch.empty(1, device='cuda')
    thc_test.library_checks(t, 0, 0)
    with pytest.raises(RuntimeError, match='cublas runtime error : resource allocation failed'):
        thc_test.library_checks(t, 3, 0)
    with pytest.raises(RuntimeError, match='cusparse runtime error : an invalid numeric value'):
        thc_test.library_checks(t, 0, 3)
