"""Nothing of the machine that ran `python -m thffi port` goes into the files
it writes, which their users commit and others clone: no interpreter,
environment, home folder, checkout, toolkit or PyTorch path.  Every writer
(shell, Makefile, CMake, Python, nvcc in Python) ports a 2018 build file of
ours here."""

import os
import site
import sys

import torch

from support import ROOT, copy_legacy_shift, write_files
from thffi import find_cuda_home
from thffi.port import port

# The build files a 2018 repository beside legacy_shift's make.sh and
# build.py held: a Makefile asking Python for torch's folders, a CMake
# library, a build script running nvcc itself, a script by another name.
BUILD_FILES = {
    'Makefile': '''\
        TORCH_INC = $(shell python -c 'import torch.utils.ffi as ffi; \\
            print("-I" + " -I".join(ffi._setup_wrapper(True)[1]))')
        ARCH = -arch=sm_52

        src/cuda/pool_kernel.cu.o: src/cuda/pool_kernel.cu
        \tnvcc -c -o $@ $< -x cu -Xcompiler -fPIC $(ARCH) $(TORCH_INC) -std=c++11
        ''',
    'lib/CMakeLists.txt': '''\
        cmake_minimum_required(VERSION 3.5)
        project(warp)
        find_package(CUDA REQUIRED)
        set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode arch=compute_30,code=sm_30 -std=c++11")
        include_directories(${TORCH_DIR}/lib/include ${TORCH_DIR}/lib/include/TH)
        cuda_add_library(warp SHARED warp.cu)
        target_link_libraries(warp ${TORCH_DIR}/lib/libTH.so ${CUDA_curand_LIBRARY})
        ''',
    'build_kernels.py': '''\
        import os
        import torch

        torch_dir = os.path.dirname(torch.__file__)
        os.system('cd src/cuda; nvcc -c roi_kernel.cu -o roi_kernel.cu.o -arch=sm_35 '
                  '-I' + torch_dir + '/lib/include/TH')
        ''',
    'README.md': '''\
        # Pooling

            bash compile.bash
            python build.py
        ''',
    'compile.bash': '''\
        TORCH=$(python -c "import os, torch; print(os.path.dirname(torch.__file__))")
        nvcc -c -o src/cuda/roi_kernel.cu.o src/cuda/roi_kernel.cu -arch=sm_50 -I $TORCH/lib/include
        ''',
}


def _machine():
    """The paths that name this machine: Python's, the environment's, the
    home folder, the checkout, PyTorch's, the CUDA toolkit's."""
    paths = {sys.executable, os.path.realpath(sys.executable), sys.prefix, sys.base_prefix,
             os.path.expanduser('~'), ROOT, os.path.dirname(torch.__file__)}
    paths |= set(site.getsitepackages()) | {site.getusersitepackages()}
    if find_cuda_home():
        paths.add(find_cuda_home())
    return {p for p in paths if p and p != os.sep} | {os.path.realpath(p) for p in paths if p}


def test_nothing_of_the_porting_machine_is_written(tmp_path):
    repo = tmp_path / 'repo'
    copy_legacy_shift(repo, op='pool')
    write_files(repo, BUILD_FILES)
    before = {}
    for folder, _, names in os.walk(repo):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, encoding='utf-8', errors='replace') as f:
                before[os.path.relpath(path, repo)] = f.read()
    _, _, _, changed = port(str(repo), write=True)
    # Every writer wrote: shell, make, CMake, Python, nvcc run from Python.
    assert set(changed) >= {'make.sh', 'Makefile', 'lib/CMakeLists.txt', 'build.py',
                            'build_kernels.py', 'compile.bash'}
    machine = _machine() | {str(tmp_path), os.path.realpath(str(tmp_path))}
    for rel in changed:
        text = (repo / rel).read_text()
        written = [p for p in machine if p in text and p not in before[rel]]
        assert not written, '%s holds %s' % (rel, written)
