"""CMake files of 2018 that looked for PyTorch 0.4's TH in torch's folder
(the FindPyTorch idiom repositories copied: find_path(TH/TH.h HINTS
${TORCH_DIR}/lib/include), find_library(NAMES ATen TH HINTS
${TORCH_DIR}/lib)) and for the CUDA toolkit through FindCUDA: built
through `python -m thffi run`, and plainly after `python -m thffi port
--write`.  The projects are ours, in the 2018 idiom."""

import os
import shutil
import subprocess
import sys

import pytest
import torch

from support import hooked_env, import_built, write_files
from thffi.port import port
from thffi.toolchain import cuda_toolkit as cuda

pytestmark = pytest.mark.skipif(shutil.which('cmake') is None, reason='no cmake')

# A library of TH code built apart by CMake, then linked into the ffi
# extension by build.py, as 2018's README said: mkdir build; cd build;
# cmake ..; make; cd ..; python build.py.
FIND_PYTORCH = {
    'CMakeLists.txt': '''\
        cmake_minimum_required(VERSION 2.8)
        project(scale_cpu C)

        # FindPyTorch: TH's headers and library in the installed torch's folder.
        execute_process(COMMAND python -c "import torch, os; print(os.path.dirname(torch.__file__))"
                        OUTPUT_VARIABLE TORCH_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
        find_path(TH_INCLUDE_DIR TH/TH.h HINTS ${TORCH_DIR}/lib/include)
        find_library(TH_LIBRARY NAMES ATen TH libTH.so.1 HINTS ${TORCH_DIR}/lib)
        if(NOT TH_INCLUDE_DIR OR NOT TH_LIBRARY)
          message(FATAL_ERROR "TH not found in ${TORCH_DIR}/lib")
        endif()

        include_directories(${TH_INCLUDE_DIR} ${TH_INCLUDE_DIR}/TH)
        add_library(scale_cpu SHARED src/scale_cpu.c)
        target_link_libraries(scale_cpu ${TH_LIBRARY})
        ''',
    'src/scale_cpu.c': '''\
        #include <TH.h>

        int scale_cpu_forward(THFloatTensor *input, THFloatTensor *output, float factor)
        {
          THFloatTensor_resizeAs(output, input);
          THFloatTensor_mul(output, input, factor);
          return 1;
        }
        ''',
    'src/scale.h':
        'int scale_forward(THFloatTensor *input, THFloatTensor *output, float factor);\n',
    'src/scale.c': '''\
        #include <TH/TH.h>

        int scale_cpu_forward(THFloatTensor *input, THFloatTensor *output, float factor);

        int scale_forward(THFloatTensor *input, THFloatTensor *output, float factor)
        {
          return scale_cpu_forward(input, output, factor);
        }
        ''',
    'build.py': '''\
        import os
        import torch
        from torch.utils.ffi import create_extension

        this_file = os.path.dirname(os.path.realpath(__file__))
        ffi = create_extension(
            '_ext.scale',
            headers=['src/scale.h'],
            sources=['src/scale.c'],
            relative_to=__file__,
            with_cuda=torch.cuda.is_available(),
            extra_objects=[os.path.join(this_file, 'build', 'libscale_cpu.so')],
            runtime_library_dirs=[os.path.join(this_file, 'build')]
        )

        if __name__ == '__main__':
            ffi.build()
        ''',
}
STEPS = 'mkdir -p build && cd build && cmake .. && make && cd .. && python build.py'


def _env(tmp_path):
    env = hooked_env(tmp_path / 'site')
    env.pop('CMAKE_INCLUDE_PATH', None)
    env.pop('CMAKE_LIBRARY_PATH', None)
    return env


def _check_built(project):
    """The extension built from the project calls the library CMake built,
    which calls thffi's TH."""
    needed = subprocess.run(['readelf', '-d', str(project / 'build' / 'libscale_cpu.so')],
                            capture_output=True, text=True, check=True).stdout
    assert 'libthffi-' in needed and 'libATen' not in needed
    scale = import_built(project, '_ext.scale')
    x = torch.arange(4, dtype=torch.float32)
    out = torch.FloatTensor()
    assert scale.scale_forward(x, out, 2.5) == 1
    assert torch.equal(out, x * 2.5)


def test_find_pytorch_through_thffi_run(tmp_path):
    (tmp_path / 'site').mkdir()
    project = tmp_path / 'project'
    write_files(project, FIND_PYTORCH)
    env = _env(tmp_path)
    before = subprocess.run(['bash', '-c', 'mkdir -p b && cd b && cmake ..'], cwd=project,
                            env=env, capture_output=True, text=True, timeout=120)
    assert before.returncode != 0 and 'TH not found' in before.stderr
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run', STEPS], cwd=project, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    found = dict(line.split(':', 1) for line in
                 (project / 'build' / 'CMakeCache.txt').read_text().splitlines()
                 if line.startswith(('TH_INCLUDE_DIR:', 'TH_LIBRARY:')))
    assert found['TH_INCLUDE_DIR'].endswith('/lib/include'), found
    assert found['TH_LIBRARY'].endswith('/lib/libATen.so'), found
    assert '/torch-0.4' in found['TH_LIBRARY'], found
    _check_built(project)


def test_find_pytorch_after_port(tmp_path):
    (tmp_path / 'site').mkdir()
    project = tmp_path / 'project'
    write_files(project, FIND_PYTORCH)
    _, findings, _, changed = port(str(project), write=True)
    assert 'CMakeLists.txt' in changed
    text = (project / 'CMakeLists.txt').read_text()
    assert 'set(TH_INCLUDE_DIR "${THFFI_INCLUDE_DIR}")' in text
    assert 'set(TH_LIBRARY ${THFFI_LIBRARIES})' in text
    assert not any('find_' in f.message and not f.fixed for f in findings), findings
    out = subprocess.run(['bash', '-c', STEPS], cwd=project, env=_env(tmp_path),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    _check_built(project)
    assert port(str(project), write=True)[3] == []  # ported once


def test_a_makefile_linking_torchs_libaten_through_thffi_run(tmp_path):
    # The same library, built by make against torch's folder, as 2018's
    # Makefiles did (-I$(TORCH)/lib/include, -L$(TORCH)/lib -lATen).
    (tmp_path / 'site').mkdir()
    project = tmp_path / 'project'
    files = {k: v for k, v in FIND_PYTORCH.items() if k != 'CMakeLists.txt'}
    write_files(project, dict(files, Makefile='''\
        TORCH := $(shell python -c "import os, torch; print(os.path.dirname(torch.__file__))")

        build/libscale_cpu.so: src/scale_cpu.c
        \tmkdir -p build
        \tgcc -shared -fPIC -I$(TORCH)/lib/include/TH -o $@ $< -L$(TORCH)/lib -lATen
        '''))
    env = _env(tmp_path)
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run', 'make && python build.py'],
                         cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert '-lATen becomes `python -m thffi --libs`' in out.stderr
    _check_built(project)


# -- FindCUDA ----------------------------------------------------------------------

# CMake 3.0-3.9's FindCUDA took the toolkit for the folder of the first
# nvcc it found ($CUDA_PATH, $CUDA_BIN_PATH, then PATH), less `bin`; the
# CMake here asks nvcc instead (its `-v` TOP=), so the project does that
# search itself before find_package(CUDA), as one vendoring 3.5's module
# would.  A toolkit not found builds nothing, and make succeeds.
FIND_CUDA = {
    'CMakeLists.txt': '''\
        cmake_minimum_required(VERSION 2.8)
        project(scale_gpu)

        find_path(CUDA_TOOLKIT_ROOT_DIR NAMES nvcc PATHS ENV CUDA_PATH ENV CUDA_BIN_PATH
                  PATH_SUFFIXES bin NO_DEFAULT_PATH)
        find_path(CUDA_TOOLKIT_ROOT_DIR NAMES nvcc)
        string(REGEX REPLACE "/bin/?$" "" CUDA_TOOLKIT_ROOT_DIR "${CUDA_TOOLKIT_ROOT_DIR}")
        set(CUDA_TOOLKIT_ROOT_DIR "${CUDA_TOOLKIT_ROOT_DIR}" CACHE PATH "Toolkit location." FORCE)
        find_package(CUDA)

        if(CUDA_FOUND)
          CUDA_SELECT_NVCC_ARCH_FLAGS(ARCH_FLAGS 3.0 5.2)
          list(APPEND CUDA_NVCC_FLAGS ${ARCH_FLAGS} -Xcompiler -fPIC)
          cuda_add_library(scale_gpu SHARED src/scale_gpu.cu)
        endif()
        ''',
    'src/scale_gpu.cu': '''\
        __global__ void scale_kernel(float *x, float factor, int n)
        {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if (i < n) x[i] *= factor;
        }

        extern "C" void scale_gpu(float *x, float factor, int n)
        {
          scale_kernel<<<(n + 255) / 256, 256>>>(x, factor, n);
        }
        ''',
}
HOME = cuda.find_cuda_home()


def _cuda_env(tmp_path):
    env = _env(tmp_path)
    for var in ('CUDA_HOME', 'CUDA_PATH', 'CUDA_BIN_PATH', 'CUDA_TOOLKIT_ROOT'):
        env.pop(var, None)
    return dict(env, TORCH_CUDA_ARCH_LIST='7.5')


def _has_device_code(path):
    sections = subprocess.run(['readelf', '-S', str(path)], capture_output=True, text=True,
                              check=True).stdout
    return '.nv_fatbin' in sections


@pytest.mark.skipif(HOME is None, reason='no CUDA toolkit')
def test_findcuda_finds_the_toolkit_through_thffi_run(tmp_path):
    (tmp_path / 'site').mkdir()
    project = tmp_path / 'project'
    write_files(project, FIND_CUDA)
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run',
                          'mkdir -p build && cd build && cmake .. && make'], cwd=project,
                         env=_cuda_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    cache = (project / 'build' / 'CMakeCache.txt').read_text().splitlines()
    assert 'CUDA_TOOLKIT_ROOT_DIR:PATH=%s' % os.path.realpath(HOME) in cache
    assert _has_device_code(project / 'build' / 'libscale_gpu.so')
    assert "-gencode=arch=compute_75,code=sm_75 (today's nvcc rejects sm_30, sm_52)" in \
        out.stderr


@pytest.mark.skipif(HOME is None, reason='no CUDA toolkit')
def test_select_nvcc_arch_flags_after_port(tmp_path):
    (tmp_path / 'site').mkdir()
    project = tmp_path / 'project'
    write_files(project, FIND_CUDA)
    env = _cuda_env(tmp_path)
    steps = 'mkdir -p build && cd build && cmake .. && make'
    before = subprocess.run(['bash', '-c', steps], cwd=project, env=env, capture_output=True,
                            text=True, timeout=300)
    assert before.returncode != 0 and 'compute_30' in before.stdout + before.stderr
    port(str(project), write=True)
    assert 'set(ARCH_FLAGS ${THFFI_ARCH_FLAGS})' in (project / 'CMakeLists.txt').read_text()
    shutil.rmtree(project / 'build')
    out = subprocess.run(['bash', '-c', steps], cwd=project, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert _has_device_code(project / 'build' / 'libscale_gpu.so')
