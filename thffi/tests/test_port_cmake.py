"""python -m thffi port on CMake files: a library built apart in the 2018
idiom (cmake_minimum_required(VERSION 2.8), FindCUDA, CUDA_ADD_LIBRARY, the
2018 architectures in CUDA_NVCC_FLAGS, TH/THC headers and libraries from
torch's folder), ported, then configured and built for real."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, only_these_cuda_wheels_env
from thffi.toolchain import cuda_toolkit as cuda
from thffi.port import port
from thffi.port.cmake import FIND_PYTHON, MARKER, rewrite_cmake

NVCC13 = set(range(75, 130))

# A library of 2018: `python setup.py` ran cmake with the torch folder it
# found, as warp-ctc's and Encoding's build did.
CMAKELISTS = '''\
cmake_minimum_required(VERSION 2.8)
project(scale_gpu)

find_package(CUDA REQUIRED)
if(NOT TORCH_DIR)
  execute_process(COMMAND python -c "import os, torch; print(os.path.dirname(torch.__file__))"
                  OUTPUT_VARIABLE TORCH_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()

# sm_30 at least, for __shfl_down
set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode arch=compute_30,code=sm_30 -O2")
set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode arch=compute_35,code=sm_35")
if(CUDA_VERSION GREATER 7.6)
  set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode arch=compute_61,code=sm_61")
endif()
list(APPEND CUDA_NVCC_FLAGS -Xcompiler -fPIC)

cuda_include_directories(${TORCH_DIR}/lib/include ${TORCH_DIR}/lib/include/TH
                         "${TORCH_DIR}/lib/include/THC")
include_directories(${TORCH_DIR}/lib/include)
cuda_add_library(scale_gpu SHARED src/scale_gpu.cu)
'''

LINK = 'target_link_libraries(scale_gpu ${TORCH_DIR}/lib/libATen.so ${TORCH_DIR}/lib/libTHC.so)\n'

KERNEL = r'''
#include <THC.h>

__global__ void scale_gpu_kernel(float *x, float factor, long n)
{
  long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= factor;
}

extern "C" int scale_gpu_forward(THCState *state, THCudaTensor *x, float factor)
{
  long n = THCudaTensor_nElement(state, x);
  cudaStream_t stream = THCState_getCurrentStream(state);
  scale_gpu_kernel<<<(n + 255) / 256, 256, 0, stream>>>(THCudaTensor_data(state, x), factor, n);
  THCudaCheck(cudaGetLastError());
  return 1;
}
'''


def cmake(source):
    text, findings = rewrite_cmake(textwrap.dedent(source), 'CMakeLists.txt', NVCC13)
    return text, findings


def _env(**more):
    """The environment a user configures in: this Python first on PATH (the
    ported file runs the python3 on PATH), thffi importable."""
    return dict(os.environ, PYTHONPATH=ROOT, **more,
                PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ['PATH']]))


def test_architectures_include_folders_and_libraries_are_rewritten():
    new, findings = cmake(CMAKELISTS + LINK)
    assert 'compute_30' not in new and 'sm_61' not in new and '/lib/include' not in new
    assert 'libATen' not in new and 'libTHC' not in new
    # The first top-level setting of CUDA_NVCC_FLAGS takes thffi's
    # architectures (in the string: blank-separated); the others drop theirs.
    assert new.count('${THFFI_ARCH_FLAGS_STRING}') == 1
    assert 'set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS}")' not in new
    assert 'set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} ${THFFI_ARCH_FLAGS_STRING} -O2")' in new
    assert 'cuda_include_directories(${THFFI_INCLUDE_DIRS}\n)' in new
    assert 'include_directories(${THFFI_INCLUDE_DIRS})' in new
    assert 'target_link_libraries(scale_gpu ${THFFI_LIBRARIES})' in new
    # The block defining them comes after project(), runs the Python that
    # ran port, and only for what the file uses.
    head, block = new.split(MARKER)
    assert head == 'cmake_minimum_required(VERSION 2.8)\nproject(scale_gpu)\n\n'
    assert '\n'.join(FIND_PYTHON) in block and sys.executable not in new
    for option in ('--arch-flags', '--includes', '--libs'):
        assert ' %s)' % option in block
    lines = sorted((f.line, f.message.split(':')[0]) for f in findings)
    assert lines == [(1, 'cmake_minimum_required(VERSION 2.8)'),
                     (11, 'nvcc architecture flags (lines 11, 12, 14)'),
                     (18, '$TORCH/lib/include/TH(C)'), (20, '$TORCH/lib/include/TH(C)'),
                     (22, 'libATen/libTH/libTHC')]
    # CMake 4's refusal of 2.8 is left for the user (-DCMAKE_POLICY_VERSION_MINIMUM=3.5
    # needs no edit); the rest is changed.
    assert [f.fixed for f in sorted(findings, key=lambda f: f.line)] == [False] + [True] * 4
    assert 'write VERSION 2.8...3.5' in findings[0].message
    # A second run changes nothing.
    again, findings = cmake(new)
    assert again == new and [f.line for f in findings] == [1]


@pytest.mark.parametrize('source, expected', [
    # As two arguments, each command its own (inside if(): no earlier
    # top-level setting to rely on).
    ('if(WITH_GPU)\n  list(APPEND CUDA_NVCC_FLAGS -gencode arch=compute_52,code=sm_52)\n'
     'endif()\n',
     'if(WITH_GPU)\n  list(APPEND CUDA_NVCC_FLAGS ${THFFI_ARCH_FLAGS})\nendif()\n'),
    # A CUDA_ARCH-style variable, -arch=sm_XX.
    ('set(CUDA_ARCH -arch=sm_30)\n', 'set(CUDA_ARCH ${THFFI_ARCH_FLAGS})\n'),
    ('set(CUDA_ARCH "-gencode=arch=compute_35,code=sm_35 -gencode=arch=compute_75,code=sm_75")\n',
     'set(CUDA_ARCH "${THFFI_ARCH_FLAGS_STRING}")\n'),
    # -I flags in a string; -l flags.
    ('set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -I$ENV{TORCH_HOME}/lib/include/TH -O2")\n',
     'set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} ${THFFI_INCLUDE_FLAGS_STRING} -O2")\n'),
    ('target_link_libraries(ctc -lATen -lTH gomp)\n',
     'target_link_libraries(ctc ${THFFI_LIBRARIES} gomp)\n'),
    # FindCUDA's library variables: thffi's lookup in the toolkit and pip's
    # wheels, as a list of flags (a string inside quotes).
    ('target_link_libraries(ctc ${TH_LIBRARIES} ${CUDA_cusparse_LIBRARY})\n',
     'target_link_libraries(ctc ${THFFI_LIBRARIES} ${THFFI_CUDA_cusparse_LIBRARY})\n'),
    ('target_link_libraries(test_gpu warpctc ${CUDA_curand_LIBRARY} ${CUDA_CUBLAS_LIBRARIES})\n',
     'target_link_libraries(test_gpu warpctc ${THFFI_CUDA_curand_LIBRARY} '
     '${THFFI_CUDA_cublas_LIBRARY})\n'),
    ('set(EXTRA_LIBS "${CUDA_cufft_LIBRARY} -lm")\n',
     'set(EXTRA_LIBS "${THFFI_CUDA_cufft_LIBRARY_STRING} -lm")\n'),
])
def test_each_form(source, expected, tmp_path):
    new, findings = cmake(source)
    assert new.split('\n\n', 1)[1] == expected
    assert findings and cmake(new) == (new, [])
    # cmake parses it (script mode, under if(FALSE): parsed, not run).
    script = tmp_path / 'ported.cmake'
    script.write_text('if(FALSE)\n%sendif()\n' % new)
    parsed = subprocess.run(['cmake', '-P', str(script)], capture_output=True, text=True,
                            timeout=60)
    assert parsed.returncode == 0, parsed.stderr


def test_the_block_runs_thffi_and_a_failure_stops_the_configure(tmp_path):
    script = tmp_path / 'ported.cmake'
    env = _env(TORCH_CUDA_ARCH_LIST='7.5;8.0')
    source = 'set(CUDA_ARCH -arch=sm_30)\nmessage(STATUS "CUDA_ARCH=${CUDA_ARCH}")\n'
    script.write_text(cmake(source)[0])
    ran = subprocess.run(['cmake', '-P', str(script)], env=env, capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ('CUDA_ARCH=-gencode=arch=compute_75,code=sm_75;-gencode=arch=compute_80,'
            'code=sm_80\n') in ran.stdout
    # Another Python, given: one without thffi stops the configure.
    ran = subprocess.run(['cmake', '-DTHFFI_PYTHON=/bin/false', '-P', str(script)], env=env,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode != 0
    assert '/bin/false -m thffi --arch-flags failed: install thffi there, or set' in ran.stderr
    # No Python on PATH: the configure says how to name one.
    ran = subprocess.run([shutil.which('cmake'), '-P', str(script)],
                         env=dict(env, PATH=str(tmp_path)), capture_output=True, text=True,
                         timeout=60)
    assert ran.returncode != 0
    assert 'no python3 or python on PATH: configure with -DTHFFI_PYTHON=' in ran.stderr


def test_a_block_an_earlier_port_wrote_loses_that_machines_python():
    ported = cmake('set(CUDA_ARCH -arch=sm_30)\n')[0]
    earlier = ported.replace('\n'.join(FIND_PYTHON) + '\n', 'set(THFFI_PYTHON '
                             '"/home/someone/venv/bin/python" CACHE FILEPATH "the Python whose '
                             'thffi gives TH/THC and the GPU architectures")\n')
    assert earlier != ported
    new, findings = cmake(earlier)
    assert new == ported
    assert [(f.line, f.fixed) for f in findings] == [(2, True)]
    assert findings[0].message.startswith('THFFI_PYTHON: the path of the Python that ran an '
                                          'earlier port')
    assert cmake(new) == (new, [])


def test_the_block_finds_cuda_libraries_in_pips_wheels_or_says_what_to_install(tmp_path):
    from test_cuda_wheels import fake_toolkit, fake_wheels
    site = tmp_path / 'site-packages'
    lib = fake_wheels(site, libraries=('cudart.so.13', 'curand.so.10')) / 'lib'
    toolkit = fake_toolkit(tmp_path / 'cuda-13.0')  # a system toolkit without cuRAND
    project = tmp_path / 'project'
    project.mkdir()
    (project / 'CMakeLists.txt').write_text(cmake('''\
        cmake_minimum_required(VERSION 3.5)
        project(noise NONE)
        set(LIBS ${CUDA_curand_LIBRARY} ${CUDA_cusparse_LIBRARY})
        message(STATUS "LIBS=${LIBS}")
        get_directory_property(DIRS INCLUDE_DIRECTORIES)
        message(STATUS "DIRS=${DIRS}")
        ''')[0])
    (tmp_path / 'python').mkdir()
    env = dict(only_these_cuda_wheels_env(_env(), tmp_path / 'python', site),
               CUDA_HOME=str(toolkit))
    ran = subprocess.run(['cmake', '-S', str(project), '-B', str(project / 'build')], env=env,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    # cuRAND from the wheel, with its rpath; cuSPARSE nowhere: a warning
    # naming the wheel, and NOTFOUND, which a target linking it refuses.
    assert ('-- LIBS=-L{0};-l:libcurand.so.10;-Xlinker;-rpath={0};'
            'THFFI_CUDA_cusparse_LIBRARY-NOTFOUND\n'.format(lib)) in ran.stdout
    # The headers: the toolkit's, then the wheels'.
    assert '-- DIRS=%s/include;%s\n' % (toolkit, lib.parent / 'include') in ran.stdout
    warning = ' '.join(ran.stderr.split())  # as cmake wraps it
    assert 'CMake Warning at CMakeLists.txt:' in warning
    assert ('python -m thffi --cuda-libs cusparse: neither the CUDA toolkit in %s (%s/lib64) '
            "nor pip's CUDA wheels (site-packages/nvidia) hold libcusparse.so (cuSPARSE): pip "
            'install nvidia-cusparse' % (toolkit, toolkit)) in warning


def test_what_it_leaves():
    # Architectures the installed nvcc takes, other folders, a lookup it
    # does not rewrite (a file's path: reported with its line).
    source = ('set(CUDA_NVCC_FLAGS "-gencode arch=compute_75,code=sm_75")\n'
              'include_directories(${PROJECT_SOURCE_DIR}/include /usr/include/TH)\n'
              'find_file(THC_HEADER THC.h PATHS ${TORCH_DIR}/lib/include/THC)\n')
    new, findings = cmake(source)
    assert new == source
    assert [(f.line, f.fixed) for f in findings] == [(3, False)]
    assert '${THFFI_LIBRARIES}' in findings[0].message
    # A vendored library's CMake (nothing of torch or nvcc in it): nothing
    # to say, not even CMake 4's refusal of its 2.6.
    vendored = 'cmake_minimum_required(VERSION 2.6)\nadd_library(lm STATIC lm/model.cc)\n'
    assert cmake(vendored) == (vendored, [])


def test_ported_library_configures_and_builds(tmp_path):
    """The 2018 project, ported by `python -m thffi port --write`, is
    configured by cmake (FindCUDA) and built by nvcc: THC.h is thffi's, the
    architectures thffi's (TORCH_CUDA_ARCH_LIST of the tests), the library
    thffi's libthffi."""
    if shutil.which('cmake') is None or cuda.find_cuda_home() is None:
        pytest.fail('cmake and a CUDA toolkit are needed (both are on the project\'s '
                    'machines)')
    (tmp_path / 'CMakeLists.txt').write_text(CMAKELISTS + LINK)
    (tmp_path / 'src').mkdir()
    (tmp_path / 'src' / 'scale_gpu.cu').write_text(KERNEL)
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == ['CMakeLists.txt']
    env = _env()
    build = tmp_path / 'build'
    build.mkdir()
    configured = subprocess.run(['cmake', '-Wno-dev', '..'], cwd=build, env=env,
                                capture_output=True, text=True, timeout=120)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    made = subprocess.run(['make', 'VERBOSE=1'], cwd=build, env=env, capture_output=True,
                          text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    # THCudaTensor_nElement and the rest come from thffi's library, which
    # it links (no libATen/libTHC, no libtorch).
    needed = subprocess.run(['readelf', '-d', str(build / 'libscale_gpu.so')],
                            capture_output=True, text=True, check=True).stdout
    assert 'libthffi-' in needed and 'libATen' not in needed and 'libtorch' not in needed
    nvcc = [line for line in made.stdout.splitlines() if '-c ' in line and 'nvcc' in line]
    assert nvcc and all('compute_30' not in line for line in nvcc)
    assert ' '.join(cuda.arch_flags(os.environ['TORCH_CUDA_ARCH_LIST'])).split()[0] in nvcc[0]
    # Port again: nothing to change.
    assert port(str(tmp_path), write=True)[3] == []


@pytest.mark.parametrize('source, expected', [
    ('find_path(TH_INCLUDE_DIR TH/TH.h HINTS ${TORCH_DIR}/lib/include)',
     'set(TH_INCLUDE_DIR "${THFFI_INCLUDE_DIR}")'),
    ('find_path(THC_INCLUDE_DIR NAMES THC.h PATHS "${TORCH_DIR}/lib/include/THC")',
     'set(THC_INCLUDE_DIR "${THFFI_INCLUDE_DIR}/THC")'),
    ('find_library(TH_LIBRARY NAMES ATen TH libTH.so.1 HINTS ${TORCH_DIR}/lib)',
     'set(TH_LIBRARY ${THFFI_LIBRARIES})'),
    ('find_library(THC_LIBRARIES NAMES THC THC.1 PATHS ${TORCH_DIR}/lib)',
     'set(THC_LIBRARIES ${THFFI_LIBRARIES})'),
])
def test_lookups_of_torch_folder_get_thffis(source, expected):
    # What PyTorch 0.4's folder held, thffi's (toolchain/torch_folder.py);
    # the block defines THFFI_INCLUDE_DIR for a find_path alone.
    new, findings = cmake(source + '\n')
    assert new.endswith('\n' + expected + '\n')
    assert ('list(GET THFFI_INCLUDE_DIRS 0 THFFI_INCLUDE_DIR)' in new) == (
        source.startswith('find_path'))
    assert [f.fixed for f in findings] == [True]


def test_lookups_in_a_file_an_earlier_port_wrote_are_reported():
    # Its block defines neither THFFI_INCLUDE_DIR nor THFFI_LIBRARIES.
    ported, _ = cmake('set(CUDA_NVCC_FLAGS "-gencode arch=compute_30,code=sm_30")\n')
    source = ported + ('find_path(TH_INCLUDE_DIR TH/TH.h HINTS ${TORCH_DIR}/lib/include)\n'
                       'find_library(TH_LIBRARY NAMES ATen HINTS ${TORCH_DIR}/lib)\n')
    new, findings = cmake(source)
    assert new == source
    assert [f.fixed for f in findings] == [False, False]


def test_lookups_mixing_other_names_are_reported():
    source = 'find_path(TH_INCLUDE_DIR NAMES TH/TH.h THC.h)\nfind_library(L NAMES TH m)\n'
    new, findings = cmake(source)
    assert new == source
    assert [(f.line, f.fixed) for f in findings] == [(1, False), (2, False)]


def test_select_nvcc_arch_flags():
    # FindCUDA's function, with architectures today's nvcc rejects
    # (capabilities, a generation's name): thffi's; with accepted ones, as
    # it is; with CMake's own lists (Auto), reported.
    new, findings = cmake('CUDA_SELECT_NVCC_ARCH_FLAGS(ARCH_FLAGS 3.0 5.2+PTX)\n'
                          'cuda_select_nvcc_arch_flags(MAXWELL Maxwell)\n'
                          'cuda_select_nvcc_arch_flags(OK 7.5 "8.6(8.0)")\n'
                          'cuda_select_nvcc_arch_flags(AUTO Auto)\n')
    assert new.endswith('thffi_flags(THFFI_ARCH_FLAGS --arch-flags)\n\n'
                        'set(ARCH_FLAGS ${THFFI_ARCH_FLAGS})\nset(MAXWELL ${THFFI_ARCH_FLAGS})\n'
                        'cuda_select_nvcc_arch_flags(OK 7.5 "8.6(8.0)")\n'
                        'cuda_select_nvcc_arch_flags(AUTO Auto)\n')
    assert sorted((f.line, f.fixed) for f in findings) == [(1, True), (4, False)]
    assert 'sm_30, sm_50, sm_52 rejected' in next(f.message for f in findings if f.fixed)


def test_torch7s_find_package_is_reported():
    # Torch7's config (Torch_INSTALL_INCLUDE), not libtorch's (TORCH_LIBRARIES).
    source = ('find_package(Torch REQUIRED)\n'
              'include_directories(${Torch_INSTALL_INCLUDE} ${Torch_INSTALL_INCLUDE}/TH)\n')
    new, findings = cmake(source)
    assert new == source
    assert [(f.line, f.fixed) for f in findings] == [(1, False)]
    assert 'Torch7' in findings[0].message
    libtorch = 'find_package(Torch REQUIRED)\ntarget_link_libraries(op ${TORCH_LIBRARIES})\n'
    assert cmake(libtorch) == (libtorch, [])


def test_find_library_of_a_cuda_library(tmp_path):
    # A 2018 toolkit's folder in HINTS: what `--cuda-libs cufft` finds, in
    # the toolkit or pip's wheels; configured for real where either has it.
    source = ('cmake_minimum_required(VERSION 3.5)\nproject(fft C)\n'
              'find_library(CUFFT_LIBRARY cufft HINTS /usr/local/cuda-9.1/lib64)\n'
              'find_library(M_LIBRARY NAMES cufft m)\n'
              'message(STATUS "cufft: ${CUFFT_LIBRARY}")\n')
    new, findings = cmake(source)
    assert 'thffi_cuda_library(cufft)' in new
    assert 'set(CUFFT_LIBRARY ${THFFI_CUDA_cufft_LIBRARY})\n' in new
    assert 'find_library(M_LIBRARY NAMES cufft m)' in new
    assert [f.line for f in findings if 'cufft' in f.message] == [3]
    flags = subprocess.run([sys.executable, '-m', 'thffi', '--cuda-libs', 'cufft'],
                           capture_output=True, text=True, env=_env())
    (tmp_path / 'CMakeLists.txt').write_text(new)
    configured = subprocess.run(['cmake', '-Wno-dev', '.'], cwd=tmp_path, env=_env(),
                                capture_output=True, text=True, timeout=120)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    # Neither the toolkit nor the wheels have it: NOTFOUND, with thffi's warning.
    value = ';'.join(flags.stdout.split()) if flags.returncode == 0 else \
        'THFFI_CUDA_cufft_LIBRARY-NOTFOUND'
    assert '-- cufft: %s\n' % value in configured.stdout
