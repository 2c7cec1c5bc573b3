"""CUDA from pip's wheels lying in two site-packages folders: PyTorch's CUDA
build in a base interpreter (the runtime and the libraries in its
site-packages/nvidia/cu13) and `pip install 'thffi[cuda]'` in a venv made
over it with --system-site-packages (nvcc, crt and nvvm in the venv's).
thffi finds each part where it lies (thffi/toolchain/cuda_toolkit.py): by its
own search, and through NVIDIA's cuda.pathfinder where that is installed.
Both folders are stand-ins of the test's own; the machine's wheels are
hidden."""

import os

import pytest

from support import only_these_cuda_wheels
from test_cuda_wheels import NVCC_WHEELS, _touch, fake_wheels, shared_library
from thffi import create_extension
from thffi.toolchain import cuda_toolkit as cuda


@pytest.fixture
def venv_and_base(tmp_path, monkeypatch):
    """(the venv's nvidia/cu13, the base's nvidia/cu13): nvcc, crt and nvvm
    in the first; the runtime, cuSPARSE and the nvJitLink it loads in the
    second, beside nvidia/nccl.  No CUDA_HOME, CUDA_PATH or CONDA_PREFIX; PyTorch's CUDA 13."""
    for var in ('CUDA_HOME', 'CUDA_PATH', 'CONDA_PREFIX'):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(cuda, 'torch_cuda_version', lambda: '13.2')
    venv = fake_wheels(tmp_path / 'venv' / 'site-packages', wheels=NVCC_WHEELS[:3],
                       libraries=())
    base = fake_wheels(tmp_path / 'base' / 'site-packages', version='13.2.86',
                       wheels=NVCC_WHEELS[3:], libraries=())
    for name in ('cudart.so.13', 'cusparse.so.12', 'nvJitLink.so.13'):
        shared_library(base / 'lib' / ('lib' + name))
    _touch(base / 'include' / 'cusparse.h', '')
    # A wheel of no CUDA major of its own (PyTorch's NCCL), not CUDA 13's.
    _touch(base.parent / 'nccl' / 'include' / 'nccl.h', '')
    return venv, base


def _site(cu13):
    return cu13.parent.parent


def test_thffis_own_search_finds_each_part_where_it_lies(venv_and_base, tmp_path, monkeypatch):
    venv, base = venv_and_base
    only_these_cuda_wheels(monkeypatch, _site(venv), _site(base))
    toolkit = cuda.find_toolkit()
    assert toolkit == (str(venv), "pip's wheels")
    # The version is the runtime's, read from the base's headers.
    assert cuda.describe(toolkit) == "CUDA 13.2 in %s (pip's wheels)" % venv
    assert cuda.wheel_problems(str(venv)) == []
    assert cuda.runtime_include(str(venv)) == str(base / 'include')
    assert cuda.header_dirs(str(venv)) == [str(venv / 'include'), str(base / 'include')]
    lib = str(base / 'lib')
    assert cuda.find_library('cudart', str(venv)) == (
        lib, lib + '/libcudart.so.13', ':libcudart.so.13')
    assert cuda.find_library('cusparse', str(venv)).file == lib + '/libcusparse.so.12'
    # A build with_cuda: nvcc the venv's, headers and libraries the base's,
    # thffi's own CUDA code compiled against the base's runtime headers.
    _touch(tmp_path / 'src' / 'sparse.h', 'int sparse_nnz(THCudaTensor *t);\n')
    _touch(tmp_path / 'src' / 'sparse.c', '')
    ffi = create_extension('_ext.sparse', headers=['src/sparse.h'], sources=['src/sparse.c'],
                           with_cuda=True, libraries=['cusparse'], verbose=False,
                           relative_to=str(tmp_path / 'build.py'))
    assert ffi.plan.nvcc == str(venv / 'bin' / 'nvcc')
    assert ffi.kwargs['include_dirs'][-2:] == [str(venv / 'include'), str(base / 'include')]
    assert [n for n in ffi.kwargs['libraries'] if n.startswith(':')] == [
        ':libcusparse.so.12', ':libcudart.so.13']
    assert lib in ffi.kwargs['runtime_library_dirs']
    kernels = next(job.command for job in ffi.plan.jobs if job.source.endswith('THCTensor.cu'))
    assert '-I' + str(base / 'include') in kernels
    # Without the base interpreter's folder, what the venv lacks is named.
    only_these_cuda_wheels(monkeypatch, _site(venv))
    assert cuda.wheel_problems(str(venv)) == ['nvidia-cuda-runtime (it is missing)']
    assert cuda.find_cuda_home() != str(venv)
    monkeypatch.setenv('CUDA_HOME', str(tmp_path / 'none'))
    assert ("pip's wheels in %s lack nvidia-cuda-runtime (it is missing); pip install "
            "'thffi[cuda]' brings CUDA 13's)" % venv) in cuda.missing_toolkit_message('thffi')


@pytest.fixture
def through_pathfinder(venv_and_base, tmp_path, monkeypatch):
    """cuda.pathfinder (where it is installed) looking in the two stand-in
    folders alone, as the interpreter's site-packages folders, in this
    process and in the child that asks it for a library's file; thffi's
    own search seeing nothing."""
    pathfinder = pytest.importorskip('cuda.pathfinder')
    folders = [str(_site(cu13)) for cu13 in venv_and_base]
    only_these_cuda_wheels(monkeypatch)
    monkeypatch.setattr(cuda, 'pathfinder', lambda: pathfinder)
    monkeypatch.setattr('site.getsitepackages', lambda prefixes=None: list(folders))
    monkeypatch.setattr('site.ENABLE_USER_SITE', False)
    (tmp_path / 'child').mkdir()
    (tmp_path / 'child' / 'sitecustomize.py').write_text(
        'import site\nsite.getsitepackages = lambda prefixes=None: %r\n'
        'site.ENABLE_USER_SITE = False\n' % folders)
    monkeypatch.setenv('PYTHONPATH', str(tmp_path / 'child'))
    # Their answers are cached for the process (functools.cache).
    caches = [pathfinder.find_nvidia_binary_utility, pathfinder.locate_nvidia_header_directory,
              cuda._loaded_in_child]
    for cache in caches:
        cache.cache_clear()
    yield venv_and_base
    for cache in caches:
        cache.cache_clear()


def test_cuda_pathfinder_finds_each_part_where_it_lies(through_pathfinder):
    venv, base = (os.path.realpath(cu13) for cu13 in through_pathfinder)
    toolkit = cuda.find_toolkit()
    assert (os.path.realpath(toolkit.home), toolkit.origin) == (venv, "pip's wheels")
    assert os.path.realpath(cuda.runtime_include(toolkit.home)) == os.path.join(base, 'include')
    assert cuda.toolkit_version(toolkit.home) == (13, 2)
    found = cuda.find_library('cudart', toolkit.home)
    assert (os.path.realpath(found.file), found.link) == (
        os.path.join(base, 'lib', 'libcudart.so.13'), ':libcudart.so.13')
    # cuSPARSE, which pathfinder loads after the nvJitLink it needs.
    assert os.path.realpath(cuda.find_library('cusparse', toolkit.home).file) == os.path.join(
        base, 'lib', 'libcusparse.so.12')
    assert os.path.join(base, 'include') in map(os.path.realpath, cuda.header_dirs(toolkit.home))
