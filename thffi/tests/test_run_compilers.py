"""`python -m thffi run` reaches every compiler a step starts, by whatever
path or name and whatever starts it (thffi/run/intercept.c, shims.py), and
the include folders of PyTorch 0.4 become thffi's (toolchain/includes.py).
The build files, scripts and sources here are ours, written as 2017-2018
repositories wrote them; a fake compiler stands in where what matters is
what the compiler was given."""

import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, write_files
from thffi.toolchain import cuda_toolkit as cuda
from thffi.toolchain import includes

ENV = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5')
HOME = cuda.find_cuda_home()
NVCC = HOME and os.path.join(HOME, 'bin', 'nvcc')
NO_NVCC = 'no CUDA toolkit: the step compiles CUDA'
TORCH = os.path.dirname(importlib.util.find_spec('torch').origin)


def thffi_run(args, cwd, env=ENV):
    return subprocess.run([sys.executable, '-m', 'thffi', 'run'] + args, cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=900)


def plain(args, cwd, env=ENV):
    return subprocess.run(args, cwd=str(cwd), env=env, capture_output=True, text=True,
                          timeout=900)


def said(stderr):
    return [line for line in stderr.splitlines() if line.startswith('thffi run:')]


def fake_compiler(folder, name):
    """A program `name` in folder that says it is gcc 15 (C is C23 by
    default) and appends the arguments of each compile, as a line, to
    ./args where it runs."""
    write_files(folder, {name: '''\
        #!/bin/sh
        case "$*" in
          *-dM*) echo '#define __GNUC__ 15'; echo '#define __STDC_VERSION__ 202311L'; exit 0 ;;
          *-fsyntax-only*) exit 0 ;;
        esac
        echo "$@" >> args
        '''})
    os.chmod(os.path.join(str(folder), name), 0o755)
    return os.path.join(str(folder), name)


GCC_5_FLAGS = ['-Wno-error=implicit-function-declaration', '-Wno-error=implicit-int',
               '-Wno-error=int-conversion', '-Wno-error=incompatible-pointer-types',
               '-Wno-error=return-mismatch', '-Wno-error=declaration-missing-parameter-type',
               '-std=gnu11']
COMPILE = '-fPIC -c nms.c -o nms.o'


# -- every way a step starts a compiler ----------------------------------------------

# (how the step starts it, as a command line for bash): {compiler} is the
# name or path the step gives.
LAUNCHERS = {
    'bash, by name': '{compiler} %s' % COMPILE,
    'make, a recipe': "printf 'all:\\n\\t{compiler} %s\\n' > Makefile && make -s" % COMPILE,
    'make, $(CC)': "printf 'all:\\n\\t$(CC) %s\\n' > Makefile && make -s CC={compiler}"
                   % COMPILE,
    'os.system': "python -c \"import os; os.system('{compiler} %s')\"" % COMPILE,
    'subprocess': "python -c \"import subprocess; subprocess.check_call('{compiler} %s'.split())"
                  "\"" % COMPILE,
    'os.posix_spawnp': "python -c \"import os; a = '{compiler} %s'.split(); "
                       "os.waitpid(os.posix_spawnp(a[0], a, os.environ), 0)\"" % COMPILE,
    'os.execv': "python -c \"import os, shutil; a = '{compiler} %s'.split(); "
                "os.execv(shutil.which(a[0]), a)\"" % COMPILE,
    'env (execvp)': 'env {compiler} %s' % COMPILE,
    'xargs': 'echo %s | xargs {compiler}' % COMPILE,
}


@pytest.mark.parametrize('launcher', [
    pytest.param(name, marks=pytest.mark.skipif(
        name.startswith('make') and not shutil.which('make'), reason='no make'))
    for name in sorted(LAUNCHERS)])
@pytest.mark.parametrize('by_path', [False, True], ids=['by name', 'by path'])
def test_every_way_a_step_starts_a_c_compiler_reaches_the_rules(tmp_path, launcher, by_path):
    """A versioned, target-prefixed gcc (a fake gcc 15), started by name or
    by its full path by make, bash, os.system, subprocess, posix_spawn,
    exec and execvp: each compile is given what gcc 5 accepted."""
    program = fake_compiler(tmp_path / 'bin', 'x86_64-linux-gnu-gcc-15')
    env = dict(ENV, PATH=str(tmp_path / 'bin') + os.pathsep + ENV['PATH'])
    compiler = program if by_path else os.path.basename(program)
    out = thffi_run([LAUNCHERS[launcher].format(compiler=compiler)], tmp_path, env)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / 'args').read_text().split() == GCC_5_FLAGS + COMPILE.split()
    lines = said(out.stderr)
    assert len(lines) == 1 and lines[0].startswith(
        'thffi run: x86_64-linux-gnu-gcc-15: adds -Wno-error=implicit-function-declaration (')


def test_a_cxx_compiler_gets_no_c_rule_and_other_programs_are_left_alone(tmp_path):
    """g++ compiles a .c as C++: no C dialect rule is its; gcc-ar is no
    compiler.  A folder of PATH that does not hold the compiler (here one
    that does not exist) is passed over, as without thffi run."""
    bin_ = tmp_path / 'bin'
    fake_compiler(bin_, 'g++-15')
    write_files(bin_, {'gcc-ar': '#!/bin/sh\necho "gcc-ar $*" >> args\n'})
    os.chmod(str(bin_ / 'gcc-ar'), 0o755)
    env = dict(ENV, PATH=os.pathsep.join([str(tmp_path / 'empty'), str(bin_), ENV['PATH']]))
    out = thffi_run(['g++-15 %s && gcc-ar rcs libnms.a nms.o' % COMPILE], tmp_path, env)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / 'args').read_text().splitlines() == [COMPILE, 'gcc-ar rcs libnms.a nms.o']
    assert not said(out.stderr) and not out.stderr


def test_the_library_is_harmless_elsewhere(tmp_path):
    """A program that is no compiler runs as it would, says nothing; a
    compiler's name that is nowhere fails as it would (errno, status)."""
    script = '''\
        import errno, os, subprocess
        try:
            subprocess.run(['x86_64-linux-gnu-gcc-99', '--version'])
        except FileNotFoundError as e:
            print('missing', e.errno == errno.ENOENT)
        try:
            os.execv('/nonexistent/nvcc', ['nvcc'])
        except OSError as e:
            print('execv', e.errno == errno.ENOENT)
        print(subprocess.run(['sh', '-c', 'exit 7']).returncode)
        print(os.environ['LD_PRELOAD'].endswith('.so'), 'THFFI_RUN_PASS' in os.environ)
        '''
    write_files(tmp_path, {'check.py': script})
    out = thffi_run(['--', 'python', 'check.py'], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ['missing True', 'execv True', '7', 'True False']
    assert out.stderr == ''
    out = thffi_run(['nosuch-gcc-12 -c x.c; echo "status $?"'], tmp_path)
    assert out.stdout == 'status 127\n' and 'not found' in out.stderr and not said(out.stderr)


# -- nvcc by path ----------------------------------------------------------------------

KERNEL = '''\
    __global__ void shift_kernel(const float *in, float *out, int n, float by)
    {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = in[i] + by;
    }

    void shift_launch(const float *in, float *out, int n, float by)
    {
      shift_kernel<<<(n + 255) / 256, 256>>>(in, out, n, by);
    }
    '''


def _has_device_code(path):
    sections = subprocess.run(['readelf', '-S', str(path)], capture_output=True, text=True)
    return '.nv_fatbin' in sections.stdout


@pytest.mark.skipif(not NVCC, reason=NO_NVCC)
def test_nvcc_by_absolute_path_from_a_makefile(tmp_path):
    write_files(tmp_path, {'Makefile': '''\
        # GTX 980 (Maxwell)
        CUDA_PATH ?= /usr/local/cuda
        NVCC := $(CUDA_PATH)/bin/nvcc

        src/shift_kernel.cu.o: src/shift_kernel.cu
        \t$(NVCC) -c -o $@ $< -x cu -Xcompiler -fPIC -arch=sm_52
        ''', 'src/shift_kernel.cu': KERNEL})
    env = dict(ENV, CUDA_PATH=HOME)
    before = plain(['make'], tmp_path, env)
    assert before.returncode != 0 and "sm_52" in before.stderr + before.stdout
    out = thffi_run(['--', 'make'], tmp_path, env)
    assert out.returncode == 0, out.stderr
    assert said(out.stderr) == ['thffi run: nvcc: -arch=sm_52 becomes '
                                "-gencode=arch=compute_75,code=sm_75 (today's nvcc rejects sm_52)"]
    assert _has_device_code(tmp_path / 'src' / 'shift_kernel.cu.o')


@pytest.mark.slow  # deselected by default (conftest.py)
@pytest.mark.skipif(not NVCC or not shutil.which('cmake'), reason='no CUDA toolkit or no cmake')
def test_nvcc_recorded_by_cmakes_findcuda(tmp_path):
    """FindCUDA records the real nvcc's path at `cmake ..`; `make`, the
    README's next step, run apart, calls it with 2018's -gencode."""
    write_files(tmp_path, {'CMakeLists.txt': '''\
        cmake_minimum_required(VERSION 2.8)
        project(shift)
        find_package(CUDA REQUIRED)
        set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-gencode arch=compute_61,code=sm_61)
        cuda_add_library(shift SHARED src/shift_kernel.cu)
        ''', 'src/shift_kernel.cu': KERNEL})
    build = tmp_path / 'build'
    build.mkdir()
    env = dict(ENV, CUDA_PATH=HOME)
    out = thffi_run(['cmake ..'], build, env)
    assert out.returncode == 0, out.stdout + out.stderr
    recorded = [line for line in (build / 'CMakeCache.txt').read_text().splitlines()
                if line.startswith('CUDA_NVCC_EXECUTABLE:')]
    assert recorded == ['CUDA_NVCC_EXECUTABLE:FILEPATH=%s' % os.path.join(HOME, 'bin', 'nvcc')]
    before = plain(['make'], build, env)
    assert before.returncode != 0 and 'compute_61' in before.stdout + before.stderr
    out = thffi_run(['--', 'make'], build, env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert said(out.stderr) == [
        'thffi run: nvcc: -gencode arch=compute_61,code=sm_61 becomes '
        "-gencode=arch=compute_75,code=sm_75 (today's nvcc rejects sm_61)"]
    assert _has_device_code(build / 'libshift.so')


@pytest.mark.skipif(not NVCC, reason=NO_NVCC)
def test_nvcc_by_path_from_os_system_in_a_build_script(tmp_path):
    write_files(tmp_path, {'build.py': '''\
        import os

        CUDA_HOME = os.environ.get('CUDA_HOME', '/usr/local/cuda')
        nvcc = os.path.join(CUDA_HOME, 'bin', 'nvcc')
        if os.system('cd src; %s -c -o shift_kernel.cu.o shift_kernel.cu -x cu '
                     '-Xcompiler -fPIC -gencode arch=compute_61,code=sm_61' % nvcc) != 0:
            raise SystemExit('nvcc failed')
        print('built')
        ''', 'src/shift_kernel.cu': KERNEL})
    env = dict(ENV, CUDA_HOME=HOME)
    assert plain([sys.executable, 'build.py'], tmp_path, env).returncode != 0
    out = thffi_run(['--', 'python', 'build.py'], tmp_path, env)
    assert out.returncode == 0 and out.stdout == 'built\n', out.stderr
    assert said(out.stderr) == [
        'thffi run: nvcc: -gencode arch=compute_61,code=sm_61 becomes '
        "-gencode=arch=compute_75,code=sm_75 (today's nvcc rejects sm_61)"]
    assert _has_device_code(tmp_path / 'src' / 'shift_kernel.cu.o')


@pytest.mark.slow  # deselected by default (conftest.py)
@pytest.mark.skipif(not NVCC, reason=NO_NVCC)
def test_a_vendored_cub_on_the_include_path_is_set_aside(tmp_path):
    """-I naming a folder holding a copy of CUB (here ours, whose cub.cuh
    stops any compile, as a 1.x copy's does today beside thrust): the
    toolkit's CUB serves the kernel's names, so the copy's folder goes."""
    write_files(tmp_path, {
        'src/cub-1.7.4/cub/cub.cuh': '#error "CUB 1.7.4: CUB_NS_PREFIX defined empty"\n',
        'src/cub-1.7.4/cub/version.cuh': '#define CUB_VERSION 100704\n',
        'src/sum_kernel.cu': '''\
            #include <cub/cub.cuh>

            __global__ void block_sum(const float *in, float *out)
            {
              typedef cub::BlockReduce<float, 128> BlockReduce;
              __shared__ typename BlockReduce::TempStorage temp;
              float sum = BlockReduce(temp).Sum(in[threadIdx.x]);
              if (threadIdx.x == 0) *out = sum;
            }
            '''})
    step = 'cd src && nvcc -c sum_kernel.cu -o sum_kernel.cu.o -I cub-1.7.4 -Xcompiler -fPIC'
    before = plain(['bash', '-c', step], tmp_path, dict(ENV, PATH=os.path.join(HOME, 'bin')
                                                         + os.pathsep + ENV['PATH']))
    assert before.returncode != 0 and 'CUB_NS_PREFIX' in before.stdout + before.stderr
    out = thffi_run([step], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = said(out.stderr)
    assert len(lines) == 1 and lines[0].startswith(
        'thffi run: nvcc: -I cub-1.7.4 goes (a copy of CUB 1.7.4: CUDA 11+ ships CUB')
    assert lines[0].endswith("; <cub/...> now finds the toolkit's)")


# A CUDA 8 repository's kernel and the header it includes from include/:
# maskless shuffles and votes, inline PTX without .sync, and a compatibility
# macro of its own for one name.
WARP_SCAN = r"""
// warp/scan.cuh: a warp's inclusive scan (after moderngpu's)
#define __shfl_xor(v, m) __shfl_xor_sync(0xffffffff, v, m)

__device__ __forceinline__ int warp_scan(int x)
{
  int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d *= 2) {
    int y = __shfl_up(x, d);
    if (lane >= d) x += y;
  }
  return x + __shfl_xor(x, 1);
}

__device__ __forceinline__ int shfl_add(int x, int offset)
{
  int result = 0;
  asm volatile("{.reg .s32 r0;"
               ".reg .pred p;"
               "shfl.up.b32 r0|p, %1, %2, 0;"
               "@p add.s32 r0, r0, %3;"
               "mov.s32 %0, r0;}"
               : "=r"(result) : "r"(x), "r"(offset), "r"(x));
  return result;
}
"""
WARP_REDUCE = r"""
#include <cstdio>
#include <warp/scan.cuh>

__global__ void reduce_kernel(const float *x, float *out, int *flags)
{
  float v = x[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  unsigned int bits = __ballot(v > 0.0f);
  flags[threadIdx.x] = warp_scan(flags[threadIdx.x]) + shfl_add(1, 1) + __popc(bits);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
"""


@pytest.mark.skipif(not NVCC, reason=NO_NVCC)
def test_maskless_warp_intrinsics_compile_as_port_writes_them(tmp_path):
    """From a CMake-style build folder, nvcc compiles ../src/reduce.cu,
    which includes <warp/scan.cuh> through -I ../include: the compile reads
    copies with port's rewrite (toolchain/warp.py), the repository's files
    stay as they are, and the macro the header defines itself is left to
    it."""
    write_files(tmp_path, {'src/reduce.cu': WARP_REDUCE, 'include/warp/scan.cuh': WARP_SCAN})
    (tmp_path / 'build').mkdir()
    step = 'nvcc -c ../src/reduce.cu -o reduce.o -I ../include -arch=sm_75'
    env = dict(ENV, PATH=os.path.join(HOME, 'bin') + os.pathsep + ENV['PATH'],
               THFFI_CACHE_DIR=str(tmp_path / 'cache'))
    before = plain(['bash', '-c', step], tmp_path / 'build', env)
    assert before.returncode != 0 and 'identifier "__shfl_down" is undefined' in before.stderr
    out = thffi_run([step], tmp_path / 'build', env)
    assert out.returncode == 0, out.stdout + out.stderr
    header = os.path.join('include', 'warp', 'scan.cuh')
    kernel = os.path.join('src', 'reduce.cu')
    assert said(out.stderr) == [
        'thffi run: nvcc: __shfl_up (%s:9), PTX shfl.up.b32 (%s:20), __shfl_down (%s:9), '
        '__ballot (%s:10): each compiled as its _sync form with the full-warp mask 0xffffffff, '
        'as port writes it (maskless warp intrinsics: deprecated in CUDA 9 for their _sync '
        'forms, which take the mask of the lanes taking part, and declared only for GPUs older '
        'than sm_70, for which CUDA 13 compiles nothing); if only some lanes take part, pass '
        'their mask' % (header, header, kernel, kernel)]
    assert _has_device_code(tmp_path / 'build' / 'reduce.o')
    assert (tmp_path / 'src' / 'reduce.cu').read_text() == textwrap.dedent(WARP_REDUCE)
    assert (tmp_path / 'include' / 'warp' / 'scan.cuh').read_text() == textwrap.dedent(WARP_SCAN)
    # The compile read the rewritten copies, which name the repository's files.
    copies = list((tmp_path / 'cache' / 'cuda-sources').glob('*/**/scan.cuh'))
    assert len(copies) == 1
    copy = copies[0].read_text()
    assert copy.startswith('#line 1 "%s"\n' % (tmp_path / 'include' / 'warp' / 'scan.cuh'))
    assert '__shfl_up_sync(0xffffffff, x, d)' in copy and 'shfl.sync.up.b32' in copy
    assert 'return x + __shfl_xor(x, 1);' in copy


# -- PyTorch 0.4's include folders -----------------------------------------------------

def test_g_plus_plus_with_torchs_old_include_folders_from_os_system(tmp_path):
    write_files(tmp_path, {'setup.py': '''\
        import os
        import torch

        torch_dir = os.path.dirname(torch.__file__)
        torch_lib = os.path.join(torch_dir, 'lib')
        os.system('cd src; g++ -std=c++11 -fPIC -c sizes.cpp -o sizes.o -I' + torch_lib
                  + '/include -I ' + torch_lib + '/include/TH -isystem' + torch_lib
                  + '/include/THC')
        ''', 'src/sizes.cpp': '''\
        #include <TH/TH.h>
        #include "THTensor.h"

        extern "C" long sizes_numel(THFloatTensor *t)
        {
          return THFloatTensor_nElement(t);
        }
        '''})
    before = plain([sys.executable, 'setup.py'], tmp_path)
    assert 'TH/TH.h: No such file' in before.stderr
    assert not (tmp_path / 'src' / 'sizes.o').exists()
    out = thffi_run(['--', 'python', 'setup.py'], tmp_path)
    assert out.returncode == 0, out.stderr
    old = os.path.join(TORCH, 'lib', 'include')
    lines = said(out.stderr)
    assert len(lines) == 1 and lines[0].startswith(
        'thffi run: g++: -I%s -I %s/TH -isystem%s/THC becomes -I%s ' % (
            old, old, old, os.path.join(ROOT, 'thffi', 'include')))
    assert "PyTorch 0.4's TH and THC headers, gone since PyTorch 1.0" in lines[0]
    symbols = subprocess.run(['nm', str(tmp_path / 'src' / 'sizes.o')], capture_output=True,
                             text=True).stdout
    assert ' T sizes_numel' in symbols


@pytest.mark.parametrize('args, expected', [
    (['-c', 'x.c', '-I', '{t}/lib/include', '-I{t}/lib/include/TH', '-Isrc'],
     ['-c', 'x.c', '<new>', '-Isrc']),
    (['-isystem{t}/lib/include/THC/', '-O2', '--include-path={t}/include/TH'],
     ['<new>', '-O2']),
    (['-I', '/opt/lib/include/TH', '-I', 'lib/include'], None),  # no torch: not PyTorch's
    # nvcc's host options: the old folders come out, the rest stays
    (['-c', 'x.cu', '--compiler-options', '-fPIC -I {t}/lib/include/TH'],
     ['-c', 'x.cu', '--compiler-options', '-fPIC', '<new>']),
    (['-Xcompiler', '-fPIC,-I{t}/lib/include', '-c', 'x.cu'],
     ['-Xcompiler', '-fPIC', '<new>', '-c', 'x.cu']),
    (['-Xcompiler=-I{t}/lib/include/THC', '-c', 'x.cu'], ['<new>', '-c', 'x.cu']),
    (['-Xcompiler', '-fPIC,-Isrc', 'x.cu'], None),
])
def test_old_include_folders_in_any_spelling(args, expected):
    torch = '/usr/lib/python2.7/dist-packages/torch'
    args = [a.format(t=torch) for a in args]
    new, changes = includes.modernize(args, ['-I/thffi/include', '-I/thffi/include/TH'])
    if expected is None:
        assert new == args and changes == []
        return
    at = expected.index('<new>')
    assert new == expected[:at] + ['-I/thffi/include', '-I/thffi/include/TH'] + expected[at + 1:]
    assert len(changes) == 1 and changes[0].new == '-I/thffi/include -I/thffi/include/TH'


@pytest.mark.skipif(NVCC is None, reason=NO_NVCC)
def test_nvcc_given_the_old_folder_in_its_host_compilers_options(tmp_path):
    write_files(tmp_path, {'make.sh': '''\
        #!/bin/sh
        TORCH=$(python -c "import os, torch; print(os.path.dirname(torch.__file__))")
        cd src
        nvcc -c -o scale_kernel.cu.o scale_kernel.cu -x cu -arch=sm_75 \\
            --compiler-options "-fPIC -I $TORCH/lib/include/TH"
        ''', 'src/scale_kernel.cu': '''\
        #include <TH.h>

        __global__ void scale_kernel(float *x, int n, float a)
        {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if (i < n) x[i] *= a;
        }

        extern "C" void scale_launch(float *x, int n, float a)
        {
          scale_kernel<<<(n + 255) / 256, 256>>>(x, n, a);
        }
        '''})
    os.chmod(tmp_path / 'make.sh', 0o755)
    before = plain(['./make.sh'], tmp_path)
    assert 'TH.h: No such file' in before.stdout + before.stderr
    out = thffi_run(['--', './make.sh'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    (line,) = said(out.stderr)
    assert line.startswith('thffi run: nvcc: -I %s/lib/include/TH becomes -I' % TORCH)
    symbols = subprocess.run(['nm', str(tmp_path / 'src' / 'scale_kernel.cu.o')],
                             capture_output=True, text=True).stdout
    assert ' T scale_launch' in symbols


def test_a_response_file_is_read_as_the_compiler_reads_it(tmp_path):
    # make writes the flags to a file and passes it as @file (gcc) or
    # --options-file (nvcc): the old folders in it become thffi's too.
    write_files(tmp_path, {'src/sizes.cpp': '''\
        #include <TH.h>

        extern "C" long sizes_numel(THFloatTensor *t) { return THFloatTensor_nElement(t); }
        ''', 'build.sh': '''\
        #!/bin/sh
        TORCH=$(python -c "import os, torch; print(os.path.dirname(torch.__file__))")
        echo "-fPIC '-I$TORCH/lib/include/TH'" > flags.rsp
        g++ @flags.rsp -c src/sizes.cpp -o sizes.o
        '''})
    os.chmod(tmp_path / 'build.sh', 0o755)
    assert 'TH.h: No such file' in plain(['./build.sh'], tmp_path).stderr
    out = thffi_run(['--', './build.sh'], tmp_path)
    assert out.returncode == 0, out.stderr
    (line,) = said(out.stderr)
    assert line.startswith('thffi run: g++: -I%s/lib/include/TH becomes -I' % TORCH)
    from thffi.toolchain import nvcc as nvcc_rules
    (tmp_path / 'nvcc.rsp').write_text('-O2 "-DNAME=a b"\n')
    assert nvcc_rules.read_response_files(
        ['--options-file', 'nvcc.rsp', '-optf=nvcc.rsp', '@missing.rsp'], str(tmp_path)) == [
        '-O2', '-DNAME=a b', '-O2', '-DNAME=a b', '@missing.rsp']


def test_a_source_builds_folders_and_thcunns_by_bare_name():
    """A Makefile of a PyTorch 0.3 source build (its author's torch/lib/TH, THC, THCUNN): the
    THCUNN folder, whose headers code included by bare name ("common.h"), comes with thffi's
    flags where the command names it, and nowhere else."""
    lib = '/home/someone/pytorch/torch/lib'
    args = ['-c', 'k.cu', '-I%s/TH' % lib, '-I%s/THC' % lib, '-I%s/THCUNN' % lib,
            '-I%s/include' % lib, '-Isrc']
    new, changes = includes.modernize(args, ['-I/thffi/include', '-I/thffi/include/TH'],
                                      include_dir='/thffi/include')
    assert new == ['-c', 'k.cu', '-I/thffi/include', '-I/thffi/include/TH',
                   '-I/thffi/include/THCUNN', '-Isrc']
    assert len(changes) == 1 and changes[0].why.startswith("PyTorch 0.3's source tree")
    new, _ = includes.modernize(['-c', 'k.cu', '-I%s/TH' % lib], ['-I/thffi/include'],
                                include_dir='/thffi/include')
    assert new == ['-c', 'k.cu', '-I/thffi/include']


def test_an_existing_folder_is_someones_headers(tmp_path):
    """A folder that exists is not replaced, whatever its name."""
    kept = tmp_path / 'torch' / 'lib' / 'include' / 'TH'
    kept.mkdir(parents=True)
    assert includes.old_folder(str(kept)) is None
    assert includes.old_folder(str(tmp_path / 'torch' / 'lib' / 'include' / 'THC')).old == \
        'lib/include/THC'


@pytest.mark.skipif(not NVCC, reason=NO_NVCC)
def test_a_thcunn_style_kernel_of_a_source_build(tmp_path):
    """A kernel written beside THCUNN in 2017: "THCUNN.h" (THNN_(NAME) over THC's generic
    types), "common.h" and THC's .cuh by bare name, through the include folders of its
    author's PyTorch 0.3 source tree, as a Makefile's foreach wrote them."""
    write_files(tmp_path, {'Makefile': '''\
        PYTORCH_LIB_DIR := /home/someone/pytorch/torch/lib
        INCLUDE_DIRS := TH THC THCUNN include include/TH
        INCLUDE_FLAGS := $(foreach d, $(INCLUDE_DIRS), -I$(PYTORCH_LIB_DIR)/$d)

        scale_kernel.so: src/scale_kernel.cu
        \tnvcc -c -o $@ $< -x cu -Xcompiler -fPIC -shared $(INCLUDE_FLAGS) -Isrc -arch=sm_75
        ''', 'src/scale_kernel.cu': '''\
        #include "THCUNN.h"
        #include "common.h"
        #include "THCHalfAutoNumerics.cuh"
        #include "THCDeviceUtils.cuh"

        template <typename T>
        __global__ void scale_kernel(T *data, T by, int n) {
          CUDA_KERNEL_LOOP(i, n) { data[i] = data[i] * by; }
        }

        #include "generic/scale.cu"
        #include "THCGenerateFloatTypes.h"
        ''', 'src/generic/scale.cu': '''\
        #ifndef THC_GENERIC_FILE
        #define THC_GENERIC_FILE "generic/scale.cu"
        #else

        extern "C" void THNN_(Scale_updateOutput)(THCState *state, THCTensor *data, real by)
        {
          THCUNN_assertSameGPU(state, 1, data);
          int n = (int)THCTensor_(nElement)(state, data);
          scale_kernel<<<GET_BLOCKS(n), CUDA_NUM_THREADS, 0, THCState_getCurrentStream(state)>>>(
              THCTensor_(data)(state, data), by, n);
        }

        #endif
        '''})
    env = dict(ENV, PATH=os.path.join(HOME, 'bin') + os.pathsep + ENV['PATH'])
    before = plain(['make'], tmp_path, env)
    assert before.returncode != 0 and 'THCUNN.h: No such file' in before.stdout + before.stderr
    out = thffi_run(['--', 'make'], tmp_path, env)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = said(out.stderr)
    assert len(lines) == 1 and lines[0].startswith(
        'thffi run: nvcc: -I/home/someone/pytorch/torch/lib/TH -I/home/someone/pytorch/torch/'
        'lib/THC -I/home/someone/pytorch/torch/lib/THCUNN -I/home/someone/pytorch/torch/lib/'
        'include -I/home/someone/pytorch/torch/lib/include/TH becomes -I')
    assert lines[0].endswith("(PyTorch 0.3's source tree, where a source build's files found TH's,"
                             " THC's and THCUNN's headers (torch/lib/TH, THC, THCUNN), gone since "
                             "PyTorch 0.4 moved them to aten/src; PyTorch 0.4's TH and THC "
                             "headers, gone since PyTorch 1.0 moved them to torch/include and then "
                             "removed them; instead, thffi's TH/THC headers in the old layout "
                             "(python -m thffi --includes))")
    assert '/THCUNN (' in lines[0]
    symbols = subprocess.run(['nm', str(tmp_path / 'scale_kernel.so')], capture_output=True,
                             text=True).stdout
    for name in ('THNN_CudaScale_updateOutput', 'THNN_CudaDoubleScale_updateOutput'):
        assert ' T %s\n' % name in symbols, name


# -- one cache -----------------------------------------------------------------------

@pytest.mark.slow  # deselected by default (conftest.py)
def test_thffi_run_uses_the_objects_a_plain_build_cached(tmp_path):
    """thffi's own objects, compiled by a plain build into an empty cache,
    are taken from it by the same build through thffi run: the key names
    the compiler the build runs, not a path thffi run put in front."""
    write_files(tmp_path, {'src/my_lib.h': '''\
        int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2,
                               THFloatTensor *output);
        ''', 'src/my_lib.c': '''\
        #include <TH/TH.h>

        int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2,
                               THFloatTensor *output)
        {
          if (!THFloatTensor_isSameSizeAs(input1, input2))
            return 0;
          THFloatTensor_resizeAs(output, input1);
          THFloatTensor_cadd(output, input1, 1.0, input2);
          return 1;
        }
        ''', 'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.my_lib', headers=['src/my_lib.h'],
                               sources=['src/my_lib.c'], relative_to=__file__,
                               with_cuda=False)

        if __name__ == '__main__':
            ffi.build()
        '''})
    # The cache's route (not the objects prebuilt where thffi was installed)
    env = dict(ENV, THFFI_CACHE_DIR=str(tmp_path / 'cache'), THFFI_PREBUILT='0')
    first = plain([sys.executable, '-m', 'thffi', 'build.py'], tmp_path, env)
    assert first.returncode == 0, first.stderr
    own = [line for line in first.stdout.splitlines() if line.startswith('thffi: its own TH')]
    assert len(own) == 1 and ' compiled in ' in own[0]
    shutil.rmtree(str(tmp_path / '_ext'))
    again = thffi_run(['--', 'python', 'build.py'], tmp_path, env)
    assert again.returncode == 0, again.stderr
    own = [line for line in again.stdout.splitlines() if line.startswith('thffi: its own TH')]
    assert len(own) == 1 and ' compiled in ' not in own[0] and ' objects from the cache' in own[0]


# -- what a step that compiles nothing pays ------------------------------------------

def test_thffi_run_imports_no_build_machinery_at_start(tmp_path):
    out = subprocess.run([sys.executable, '-X', 'importtime', '-m', 'thffi', 'run', 'true'],
                         cwd=str(tmp_path), env=ENV, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    imported = {line.split('|')[-1].strip() for line in out.stderr.splitlines()
                if line.startswith('import time:')}
    assert 'thffi.run' in imported
    assert not {m for m in imported if m.startswith(('thffi.builder', 'cffi', 'pycparser',
                                                     'torch'))}


# -- the library ---------------------------------------------------------------------

def test_the_library_comes_after_what_ldpreload_holds_and_once(tmp_path):
    """A sanitizer's runtime must come first; a nested run adds nothing."""
    from thffi import run
    env = run.environment(str(tmp_path), {'PATH': '/usr/bin', 'LD_PRELOAD': '/x/libasan.so'},
                          library='/c/intercept-1.so')
    assert env['LD_PRELOAD'] == '/x/libasan.so:/c/intercept-1.so'
    assert env['THFFI_RUN_COMPILER'] == os.path.join(str(tmp_path), 'thffi-compiler')
    again = run.environment(str(tmp_path), env, library='/c/intercept-1.so')
    assert again['LD_PRELOAD'] == '/x/libasan.so:/c/intercept-1.so'


def test_where_the_library_cannot_be_built_the_run_says_why(tmp_path, monkeypatch):
    from thffi.run import intercept
    assert intercept.library([str(tmp_path / 'a b'), str(tmp_path / 'a:b')]) == (
        None, "no folder of thffi's cache to build it in whose path has no blank nor colon")
    monkeypatch.setattr(shutil, 'which', lambda name: None)
    assert intercept.library([str(tmp_path)]) == (
        None, 'no C compiler (cc) to build thffi/run/intercept.c')
    env = dict(ENV, THFFI_CACHE_DIR=str(tmp_path / 'cache'), PATH=os.path.dirname(sys.executable))
    out = thffi_run(['--', 'python', '-c', 'print("ran")'], tmp_path, env)
    assert out.returncode == 0 and out.stdout == 'ran\n', out.stderr
    assert said(out.stderr) == [
        'thffi run: no C compiler (cc) to build thffi/run/intercept.c: the compilers the step '
        'starts run as they are, but nvcc by name']
