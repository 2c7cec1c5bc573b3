"""Every kind of 2018 build file, with today's nvcc: Makefiles, nvcc run from
build.py, commands typed from a README (port rewrites or reports them), and
the builder's fallback compile of an object a build file failed to make,
with the flags of the command that was to make it.  Each repository here is
ours, written in the 2017-2018 idiom."""

import os
import py_compile
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, copy_legacy_shift, hooked_env, write_files as _write
from thffi.toolchain import cuda_toolkit as cuda
from thffi.port import port
from thffi.port.cmake import rewrite_cmake
from thffi.port import readers
from thffi.port.docs import report_commands
from thffi.port.make import rewrite_make
from thffi.port.pynvcc import rewrite_nvcc_calls
from thffi.port.shell import rewrite_shell

NVCC13 = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}
CUDA_HOME = cuda.find_cuda_home()
needs_nvcc = pytest.mark.skipif(CUDA_HOME is None, reason='needs the CUDA toolkit (nvcc)')
needs_make = pytest.mark.skipif(shutil.which('make') is None, reason='needs GNU make')


def _run(folder, *command, gpu=False):
    """gpu: with torch.cuda.is_available() True, as on a machine with a GPU
    (build.py's gate then builds with CUDA, whose C calls the kernel)."""
    env = hooked_env(folder)
    if gpu:
        with open(folder / 'sitecustomize.py', 'a') as f:
            f.write('import torch\ntorch.cuda.is_available = lambda: True\n')
    return subprocess.run(list(command), cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600)


def _symbols(folder):
    library = next((folder / '_ext' / 'scale').glob('_scale*.so'))
    return subprocess.run(['nm', '-C', '--defined-only', str(library)], capture_output=True,
                          text=True).stdout


MAKE_SH = '''\
    #!/usr/bin/env bash
    cd src/cuda
    echo "Compiling scale kernels by nvcc..."
    nvcc -c -o scale_kernel.cu.o scale_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52 \\
        --expt-extended-lambda -std=c++11 -I ../../include -DSCALE_FACTOR=2
    cd ../../
    python build.py
    '''

# thffi/tests/legacy_shift's repository as a scale op whose kernel has a __device__
# lambda (2018: nvcc 9 with --expt-extended-lambda -std=c++11), its block
# size from include/, its factor a -D of make.sh's command; the CPU op scales
# by the same factor.
SCALE = {
    'include/scale_config.h': '#define THREADS 128\n',
    'src/cuda/scale_kernel.cu': '''\
        #include <stdio.h>
        #include "scale_config.h"
        #include "scale_kernel.h"

        template <typename F>
        __global__ void apply_kernel(float *data, int n, F f)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n)
                data[i] = f(data[i]);
        }

        #ifdef __cplusplus
        extern "C" {
        #endif
        int scale_launcher(float *data, int n, float by, cudaStream_t stream)
        {
            auto f = [=] __device__ (float x) { return x * by * SCALE_FACTOR; };
            apply_kernel<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(data, n, f);
            return cudaGetLastError() == cudaSuccess;
        }
        #ifdef __cplusplus
        }
        #endif
        ''',
    'src/scale.c': '''\
        #include <TH/TH.h>

        int scale_cpu(THFloatTensor *data, float by)
        {
            float *p = THFloatTensor_data(data);
            long i, n = THFloatTensor_nElement(data);
            for (i = 0; i < n; i++)
                p[i] *= 2 * by;
            return 1;
        }
        ''',
    'test.py': '''\
        import torch
        from _ext import scale

        t = torch.ones(4)
        scale.scale_cpu(t, 1.5)
        print(t.tolist())
        ''',
    'make.sh': MAKE_SH,
}


def _scale_repository(folder, files=None):
    copy_legacy_shift(folder, op='scale', files=dict(SCALE, **(files or {})))


# The Makefile of the same project (make, then python build.py), with the
# include lookup through torch.utils.ffi's _setup_wrapper of 2018.
MAKEFILE = '''\
    # Builds the CUDA kernel; then run: python build.py
    CUDA_PATH ?= /usr/local/cuda
    NVCC = nvcc
    TORCH_INC := $(shell python -c 'import torch.utils.ffi as ffi; print("-I" + " -I".join(ffi._setup_wrapper(True)[1]))')
    NVCC_FLAGS = -arch=sm_61 -std=c++11 --expt-extended-lambda -Xcompiler -fPIC
    GENCODE = -gencode=arch=compute_30,code=sm_30 \\
              -gencode=arch=compute_35,code=sm_35
    GENCODE += -gencode arch=compute_52,code=sm_52
    INCLUDES = -I include $(TORCH_INC)
    KERNEL = src/cuda/scale_kernel

    all: $(KERNEL).cu.o

    $(KERNEL).cu.o: $(KERNEL).cu include/scale_config.h
    \t$(NVCC) -c -o $@ $< -x cu $(NVCC_FLAGS) $(GENCODE) $(INCLUDES) -DSCALE_FACTOR=2

    clean:
    \trm -f $(KERNEL).cu.o

    .PHONY: all clean
    '''
README = '''\
    # scale

    Needs PyTorch 0.3 and CUDA 8.

        $ nvcc -c -o src/cuda/scale_kernel.cu.o src/cuda/scale_kernel.cu -x cu \\
            -Xcompiler -fPIC -arch=sm_52 --expt-extended-lambda -std=c++11 -I include
        $ python build.py

    Or run `./make.sh`.
    '''


def _lambda_object_symbols(folder):
    """The extension holds the launcher and the kernel instantiated for the
    __device__ lambda (nvcc's wrapper type for extended lambdas)."""
    symbols = _symbols(folder)
    assert re.search(r' [tT] scale_launcher\n', symbols)
    assert ' t void apply_kernel<__nv_dl_wrapper_t<' in symbols


def _cpu_op_runs(folder):
    out = _run(folder, sys.executable, 'test.py')
    assert out.stdout == '[3.0, 3.0, 3.0, 3.0]\n', out.stdout + out.stderr


@needs_nvcc
def test_thffis_own_flags_alone_do_not_compile_the_lambda_kernel(tmp_path):
    """Why the fallback must take the command's flags: nvcc 13 with an
    architecture it takes, C++17 and the include folder, but not
    --extended-lambda, refuses the kernel."""
    _scale_repository(tmp_path)
    out = subprocess.run([os.path.join(CUDA_HOME, 'bin', 'nvcc'), '-c',
                          'src/cuda/scale_kernel.cu', '-o', 'k.o', '-arch=sm_75', '-std=c++17',
                          '-Iinclude', '-DSCALE_FACTOR=2'], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode != 0 and 'requires --extended-lambda' in out.stderr, out.stderr


@pytest.mark.slow  # deselected by default (conftest.py)
@needs_nvcc
def test_a_lambda_kernel_whose_make_sh_fails_builds_with_its_flags(tmp_path):
    _scale_repository(tmp_path)
    # The hook alone: make.sh's nvcc fails, build.py compiles the kernel with
    # make.sh's flags made today's (with CUDA, as on a machine with a GPU:
    # without it a C that calls nothing of the kernel leaves it uncompiled).
    out = _run(tmp_path, 'bash', 'make.sh', gpu=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Unsupported gpu architecture 'sm_52'" in out.stderr
    assert not (tmp_path / 'src/cuda/scale_kernel.cu.o').exists()
    assert ('thffi: src/cuda/scale_kernel.cu.o (extra_objects) does not exist: make.sh:4 (`nvcc'
            in out.stdout), out.stdout
    assert ('was to build it: compiling src/cuda/scale_kernel.cu with nvcc for '
            'architectures 7.5 instead, with its flags: -x cu '
            '-Xcompiler -fPIC -gencode=arch=compute_75,code=sm_75 --extended-lambda -std=c++17 '
            '-I include -DSCALE_FACTOR=2 [--expt-extended-lambda became --extended-lambda] '
            '[-std=c++11 became -std=c++17] [-arch=sm_52 became '
            '-gencode=arch=compute_75,code=sm_75]'
) in out.stdout, out.stdout
    _lambda_object_symbols(tmp_path)
    _cpu_op_runs(tmp_path)

    # After port: make.sh's own nvcc builds the kernel.
    shutil.rmtree(tmp_path / '_ext')
    port(str(tmp_path), write=True)
    assert subprocess.run(['bash', '-n', 'make.sh'], cwd=tmp_path).returncode == 0
    out = _run(tmp_path, 'bash', 'make.sh')
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / 'src/cuda/scale_kernel.cu.o').is_file()
    assert 'does not exist' not in out.stdout
    _lambda_object_symbols(tmp_path)
    _cpu_op_runs(tmp_path)


def test_nvcc_flags_in_make_sh_and_cmake_and_what_stays():
    new, findings = rewrite_shell(textwrap.dedent('''\
        NVCC_FLAGS="-std=c++11 --expt-extended-lambda -Xcompiler -fPIC,-std=c++11"
        CXXFLAGS="-std=c++11"
        nvcc -c k.cu -o k.o $NVCC_FLAGS -std c++14 -ccbin=gcc-5 --expt-relaxed-constexpr
        g++ -std=c++11 -c a.cpp $CXXFLAGS
        '''), 'make.sh', NVCC13)
    assert new == textwrap.dedent('''\
        NVCC_FLAGS="-std=c++17 --extended-lambda -Xcompiler -fPIC,-std=c++17"
        CXXFLAGS="-std=c++11"
        nvcc $(python -m thffi --cccl-legacy) -c k.cu -o k.o $NVCC_FLAGS -std c++17 --expt-relaxed-constexpr
        g++ -std=c++11 -c a.cpp $CXXFLAGS
        ''')
    assert rewrite_shell(new, 'make.sh', NVCC13)[0] == new
    assert [f.line for f in findings if f.fixed] == [1, 3, 3]
    assert '-ccbin=gcc-5 goes (names a host compiler that is not installed' in \
        findings[1].message
    new, findings = rewrite_cmake(textwrap.dedent('''\
        cmake_minimum_required(VERSION 3.5)
        find_package(CUDA REQUIRED)
        set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -std=c++11 --expt-extended-lambda")
        set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -std=c++11")
        cuda_add_library(k SHARED k.cu OPTIONS -std=c++14)
        '''), 'CMakeLists.txt', NVCC13)
    assert new.splitlines()[2:] == [
        'set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -std=c++17 --extended-lambda")',
        'set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -std=c++11")',
        'cuda_add_library(k SHARED k.cu OPTIONS -std=c++17)']
    assert [f.line for f in findings] == [3, 5]


def test_findings_about_nvcc_in_python_keep_the_lines_of_the_file_as_it_was(tmp_path):
    """The Python rewrite runs first and may remove lines (here `import
    torch`, unused once the gate is cuda_enabled())."""
    (tmp_path / 'build.py').write_text(textwrap.dedent('''\
        import os
        import torch
        from torch.utils.ffi import create_extension

        with_cuda = torch.cuda.is_available()
        os.system('nvcc -c k.cu -o k.cu.o -arch=sm_52')
        '''))
    findings = port(str(tmp_path))[1]
    assert [(f.line, f.message.split(':')[0]) for f in findings if f.path == 'build.py'] == [
        (3, 'torch.utils.ffi import'), (5, 'torch.cuda.is_available() in a build script'),
        (6, 'nvcc architecture flags')]


def test_makefile_rewrite():
    new, findings = rewrite_make(textwrap.dedent(MAKEFILE), 'Makefile', NVCC13)
    assert new == textwrap.dedent(MAKEFILE).replace(
        '''$(shell python -c 'import torch.utils.ffi as ffi; print("-I" + " -I".join(ffi._setup_wrapper(True)[1]))')''',
        '$(shell python -m thffi --includes)').replace(
        '-arch=sm_61 -std=c++11 --expt-extended-lambda',
        '$(shell python -m thffi --arch-flags) -std=c++17 --extended-lambda').replace(
        '''-gencode=arch=compute_30,code=sm_30 \\
          -gencode=arch=compute_35,code=sm_35
GENCODE += -gencode arch=compute_52,code=sm_52
''', '$(shell python -m thffi --arch-flags)\n')
    assert rewrite_make(new, 'Makefile', NVCC13) == (new, [])
    assert [(f.line, f.fixed) for f in findings] == [(4, True), (5, True), (5, True),
                                                     (6, True), (8, True)]
    assert findings[0].message == ("torch's include folders asked of Python (torch.utils.ffi "
                                   "is gone, and TH/THC with it); now "
                                   "$(shell python -m thffi --includes)")
    assert findings[2].message.startswith('nvcc flags: -std=c++11 becomes -std=c++17')


def test_makefile_torch_folders_libraries_and_what_stays():
    source = textwrap.dedent('''\
        TORCH := $(shell python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')
        INC = -I$(TORCH)/lib/include -I $(TORCH)/lib/include/TH -I$(TORCH)/lib/include/THC -Isrc
        DIRS = $(TORCH)/lib/include $(TORCH)/lib/include/THC
        TORCH_DIRS := $(shell python3 -c "import torch.utils.ffi as f; print(' '.join(f._setup_wrapper(False)[1]))")
        LIBS = -L$(TORCH)/lib -lTH -lTHC
        CXXFLAGS = -std=c++11 -O2
        ifeq ($(DEBUG),1)
        \tNVCCFLAGS += -G -gencode arch=compute_30,code=sm_30
        endif
        lib.so: a.o k.cu.o
        \t$(CXX) $(CXXFLAGS) -shared -o $@ $^ $(LIBS)
        k.cu.o: k.cu
        \t@cd src && /usr/local/cuda/bin/nvcc -c $< -o $@ $(NVCCFLAGS) -std c++14 -arch=sm_80
        ''')
    new, findings = rewrite_make(source, 'kernels.mk', NVCC13)
    assert new.splitlines() == [
        "TORCH := $(shell python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')",
        'INC = $(shell python3 -m thffi --includes) -Isrc',
        'DIRS = $(patsubst -I%,%,$(shell python3 -m thffi --includes))',
        'TORCH_DIRS := $(patsubst -I%,%,$(shell python3 -m thffi --includes))',
        'LIBS = -L$(TORCH)/lib $(shell python3 -m thffi --libs)',
        'CXXFLAGS = -std=c++11 -O2',  # g++'s, not nvcc's: left
        'ifeq ($(DEBUG),1)',
        '\tNVCCFLAGS += -G $(shell python3 -m thffi --arch-flags)',
        'endif',
        'lib.so: a.o k.cu.o',
        '\t$(CXX) $(CXXFLAGS) -shared -o $@ $^ $(LIBS)',
        'k.cu.o: k.cu',
        # sm_80 is taken: the architectures stay; the standard does not.
        '\t@cd src && /usr/local/cuda/bin/nvcc -c $< -o $@ $(NVCCFLAGS) -std c++17 -arch=sm_80']
    assert rewrite_make(new, 'kernels.mk', NVCC13)[0] == new
    assert sum(f.fixed for f in findings) == len(findings) == 6


def test_makefile_words_read_as_make_expands_them():
    # make's quiet prefix through a variable, and architectures in one
    source = textwrap.dedent('''\
        Q ?= @
        ARCH = sm_61
        CUDA_ARCH := -gencode arch=compute_$(subst sm_,,$(ARCH)),code=$(ARCH)
        kernel.cu.o: kernel.cu
        \t$(Q)nvcc -c $< -o $@ -std=c++11 -arch=$(ARCH) -Xcompiler -fPIC
        other.cu.o: other.cu
        \t$(Q)nvcc -c $< -o $@ $(CUDA_ARCH)
        host.o: host.cpp
        \t$(Q)g++ -std=c++11 -c $< -o $@
        ''')
    new, findings = rewrite_make(source, 'Makefile', NVCC13)
    assert new.splitlines()[4] == ('\t$(Q)nvcc -c $< -o $@ -std=c++17 '
                                   '$(shell python -m thffi --arch-flags) -Xcompiler -fPIC')
    assert new.splitlines()[2] == 'CUDA_ARCH := $(shell python -m thffi --arch-flags)'
    assert new.splitlines()[8] == '\t$(Q)g++ -std=c++11 -c $< -o $@'  # g++'s: left
    assert [(f.line, f.message.split(':')[0]) for f in findings] == [
        (3, 'nvcc architecture flags'), (5, 'nvcc architecture flags'), (5, 'nvcc flags')]
    assert rewrite_make(new, 'Makefile', NVCC13) == (new, [])


def test_the_nvcc_commands_of_a_makefile():
    source = textwrap.dedent('''\
        NVCC ?= nvcc
        SRC = kernels/roi.cu kernels/nms.cu
        OBJ = $(SRC:.cu=.cu.o)
        FLAGS := -O2 -Iinclude
        FLAGS += -DN=4

        all: $(OBJ)

        kernels/nms.cu.o: kernels/nms.cu
        \t$(NVCC) -c $< -o $@ $(FLAGS) -DNMS

        %.cu.o: %.cu
        \tcd kernels && $(NVCC) -c $(notdir $<) -o $(notdir $@) $(FLAGS) $(shell echo -DX)
        ''')
    def make_commands(target=None):
        return readers.commands('Makefile', source, target)

    roi = make_commands('kernels/roi.cu.o')
    assert [(c.args, c.cwd, c.line) for c in roi] == [(['nvcc', '-c', 'roi.cu', '-o', 'roi.cu.o', '-O2', '-Iinclude', '-DN=4',
                     '$(shell echo -DX)'], 'kernels', 13)]
    # The explicit rule, as make chooses.
    assert [c.args[-1] for c in make_commands('kernels/nms.cu.o')] == ['-DNMS']
    assert make_commands('other.o') == []
    assert sorted(c.args[4] for c in make_commands()) == [
        'kernels/nms.cu.o', 'nms.cu.o', 'roi.cu.o']


def test_the_nvcc_commands_of_a_shell_script():
    commands = readers.commands('make.sh', textwrap.dedent('''\
        #!/bin/bash
        ARCH="-gencode arch=compute_52,code=sm_52"
        FLAGS="-x cu -Xcompiler -fPIC"
        cd src/cuda
        nvcc -c -o a.cu.o a.cu $FLAGS $ARCH -I "$TORCH/include" -I ../include
        cd ../..
        pushd lib/kernels
        $CUDA_PATH/bin/nvcc -c b.cu -o b.o
        popd
        '''))
    assert [(c.args, c.cwd, c.line) for c in commands] == [
        (['nvcc', '-c', '-o', 'a.cu.o', 'a.cu', '-x', 'cu', '-Xcompiler', '-fPIC', '-gencode',
          'arch=compute_52,code=sm_52', '-I', '$TORCH/include', '-I', '../include'],
         'src/cuda', 5),
        (['nvcc', '-c', 'b.cu', '-o', 'b.o'], 'lib/kernels', 8)]


# A 2018 build.py that runs nvcc itself: a string built with %, a list, and
# what each form of string building does.
BUILD_PY_NVCC = '''\
    import os
    import sys
    import subprocess
    import torch
    from torch.utils.ffi import create_extension

    this_file = os.path.dirname(os.path.realpath(__file__))
    kernel = os.path.join(this_file, 'src', 'cuda', 'scale_kernel.cu')

    # Compile the CUDA kernels first (nvcc), then the extension.
    cmd = 'nvcc -c %s -o %s.o -x cu -Xcompiler -fPIC -arch=sm_50 -std=c++11 ' \\
          '--expt-extended-lambda -I%s -DSCALE_FACTOR=2' % (
              kernel, kernel, os.path.join(this_file, 'include'))
    print(cmd)
    if os.system(cmd) != 0:
        sys.exit('nvcc failed on ' + kernel)

    offset = os.path.join(this_file, 'src', 'cuda', 'offset_kernel.cu')
    ret = subprocess.call(['nvcc', '-c', offset, '-o', offset + '.o', '-x', 'cu',
                           '-Xcompiler', '-fPIC',
                           '-gencode', 'arch=compute_52,code=sm_52',
                           '-std', 'c++11'])
    if ret != 0:
        sys.exit(ret)

    ffi = create_extension(
        '_ext.scale',
        headers=['src/scale.h'],
        sources=['src/scale.c'],
        relative_to=__file__,
        extra_objects=[kernel + '.o', offset + '.o'])

    if __name__ == '__main__':
        ffi.build()
    '''
OFFSET_CU = '''\
    extern "C" int offset_launcher(float *data, int n, float by)
    {
        return n > 0 && data != 0 && by != 0;
    }
    '''


def test_nvcc_run_from_python_is_rewritten():
    source = textwrap.dedent('''\
        import os, subprocess
        flags = '-O2 -Xcompiler -fPIC -std=c++11'
        os.system('nvcc -c a.cu -o a.o -arch=sm_52 ' + flags)
        os.system('nvcc -c ' + src + ' -o ' + obj + ' -gencode arch=compute_30,code=sm_30'
                  ' -O2')
        subprocess.call("nvcc -c b.cu -o b.o -arch=sm_52 -std=c++11".split())
        subprocess.call('nvcc -c {} -o {} -arch=sm_35 -ccbin=gcc-5'.format(s, o), shell=True)
        os.system(f'nvcc -c {s} -o {o} -arch=sm_61 --expt-extended-lambda')
        cmd = ['nvcc', '-c', s, '-o', o,
               '-gencode', 'arch=compute_30,code=sm_30',
               '-gencode=arch=compute_35,code=sm_35',
               '-std', 'c++14', '-ccbin', 'gcc-5', '-DX']
        subprocess.check_call(cmd)
        os.system('nvcc -arch=sm_%d -c c.cu' % arch)
        extra_compile_args = ['-std=c++11']
        ''')
    new, findings = rewrite_nvcc_calls(source, 'build.py', NVCC13)
    assert new == textwrap.dedent('''\
        import os, subprocess
        from thffi import nvcc_arch_flags

        flags = '-O2 -Xcompiler -fPIC -std=c++17'
        os.system('nvcc -c a.cu -o a.o ' + ' '.join(nvcc_arch_flags()) + ' ' + flags)
        os.system('nvcc -c ' + src + ' -o ' + obj + ' ' + ' '.join(nvcc_arch_flags()) + ' -O2')
        subprocess.call(("nvcc -c b.cu -o b.o " + " ".join(nvcc_arch_flags()) + " -std=c++17").split())
        subprocess.call(('nvcc -c {} -o {} ' + ' '.join(nvcc_arch_flags())).format(s, o), shell=True)
        os.system(f'nvcc -c {s} -o {o} {" ".join(nvcc_arch_flags())} --extended-lambda')
        cmd = ['nvcc', '-c', s, '-o', o,
               *nvcc_arch_flags(),
               '-std', 'c++17', '-DX']
        subprocess.check_call(cmd)
        os.system('nvcc -arch=sm_%d -c c.cu' % arch)
        extra_compile_args = ['-std=c++11']
        ''')
    assert rewrite_nvcc_calls(new, 'build.py', NVCC13)[0] == new
    compile(new, 'build.py', 'exec')
    left = [(f.line, f.message.split(':')[0]) for f in findings if not f.fixed]
    assert left == [(14, 'nvcc architecture computed by the script (nvcc -arch=sm_%d -c c.cu)')]
    # extra_compile_args is gcc's: left.
    assert all(f.line != 15 for f in findings)


# A 2018 build.py that compiles its kernel and its CPU code by shell
# command lines: nvcc after `cd`, then g++ with a C++11 of its own, a list
# running g++, and nvcc in a pipeline.
BUILD_PY_COMMAND_LINES = '''\
    import os
    import subprocess
    import torch
    from torch.utils.ffi import create_extension

    torch_dir = os.path.dirname(torch.__file__)

    if torch.cuda.is_available():
        r = os.system(
            'cd src/cuda; nvcc pool_kernel.cu -c -o pool_kernel.cu.o -x cu -std=c++11'
            + ' -Xcompiler -fPIC -gencode arch=compute_52,code=sm_52 '
            + '-gencode arch=compute_61,code=sm_61 '
            + '-I' + torch_dir + '/lib/include')
        assert r == 0
    else:
        r = os.system(
            'cd src; g++ -std=c++11 -fPIC -c pool.cpp -o pool.cpp.o -I'
            + torch_dir + '/lib/include && echo built')
        assert r == 0
        subprocess.check_call(['g++', '-std=c++11', '-c', 'src/roi.cpp', '-o', 'src/roi.o'])
    os.system('cd src/cuda && nvcc -c nms.cu -o nms.cu.o -arch=sm_35 2>&1 | tee nms.log')
    '''


def test_each_command_of_a_command_line_in_python_gets_its_own_compilers_rules():
    source = textwrap.dedent(BUILD_PY_COMMAND_LINES)
    new, findings = rewrite_nvcc_calls(source, 'build.py', NVCC13)
    assert new == source.replace(
        'create_extension\n', 'create_extension\nfrom thffi import nvcc_arch_flags\n', 1).replace(
        "'cd src/cuda; nvcc pool_kernel.cu -c -o pool_kernel.cu.o -x cu -std=c++11'\n"
        "        + ' -Xcompiler -fPIC -gencode arch=compute_52,code=sm_52 '\n"
        "        + '-gencode arch=compute_61,code=sm_61 '\n",
        "'cd src/cuda; nvcc pool_kernel.cu -c -o pool_kernel.cu.o -x cu -std=c++17'\n"
        "        + ' -Xcompiler -fPIC ' + ' '.join(nvcc_arch_flags()) + ' '\n").replace(
        "'cd src/cuda && nvcc -c nms.cu -o nms.cu.o -arch=sm_35 2>&1 | tee nms.log'",
        "'cd src/cuda && nvcc -c nms.cu -o nms.cu.o ' + ' '.join(nvcc_arch_flags()) + "
        "' 2>&1 | tee nms.log'")
    # g++'s -std=c++11 (its own and in its list) stays.
    assert new.count("g++ -std=c++11") == 1 and "['g++', '-std=c++11'," in new
    assert rewrite_nvcc_calls(new, 'build.py', NVCC13)[0] == new
    compile(new, 'build.py', 'exec')
    assert sorted((f.line, f.message.split(':')[0]) for f in findings) == [
        (10, 'nvcc flags'), (11, 'nvcc architecture flags'), (21, 'nvcc architecture flags')]
    # The builder reads the same commands, in the folders the cd's give.
    commands = readers.commands('build.py', source)
    assert [(c.args[:2], c.cwd, c.line) for c in commands] == [
        (['nvcc', 'pool_kernel.cu'], 'src/cuda', 9), (['nvcc', '-c'], 'src/cuda', 21)]


def test_the_nvcc_commands_of_a_python_script():
    commands = readers.commands('build.py', textwrap.dedent(BUILD_PY_NVCC))
    assert [(c.args, c.cwd, c.line) for c in commands] == [
        (['nvcc', '-c', './src/cuda/scale_kernel.cu', '-o', './src/cuda/scale_kernel.cu.o',
          '-x', 'cu', '-Xcompiler', '-fPIC', '-arch=sm_50', '-std=c++11',
          '--expt-extended-lambda', '-I./include', '-DSCALE_FACTOR=2'], '', 15),
        (['nvcc', '-c', './src/cuda/offset_kernel.cu', '-o', './src/cuda/offset_kernel.cu.o',
          '-x', 'cu', '-Xcompiler', '-fPIC', '-gencode', 'arch=compute_52,code=sm_52', '-std',
          'c++11'], '', 19)]


def test_the_command_that_was_to_build_an_object(tmp_path):
    _write(tmp_path, {'make.sh': MAKE_SH, 'Makefile': MAKEFILE,
                      'build.py': BUILD_PY_NVCC, 'src/cuda/scale_kernel.cu': ''})
    obj = str(tmp_path / 'src/cuda/scale_kernel.cu.o')
    command = readers.command_building(obj, str(tmp_path))
    assert (os.path.basename(command.file), command.line, command.folder) == (
        'Makefile', 15, str(tmp_path))
    os.remove(tmp_path / 'Makefile')
    command = readers.command_building(obj, str(tmp_path))
    assert (os.path.basename(command.file), command.line) == ('build.py', 15)
    os.remove(tmp_path / 'build.py')
    command = readers.command_building(obj, str(tmp_path))
    assert (os.path.basename(command.file), command.folder) == (
        'make.sh', str(tmp_path / 'src/cuda'))
    assert command.sources == ['scale_kernel.cu'] and command.output == 'scale_kernel.cu.o'
    assert readers.command_building(str(tmp_path / 'src/cuda/other.cu.o'), str(tmp_path)) is None


@pytest.mark.slow  # deselected by default (conftest.py)
@needs_nvcc
@needs_make
def test_a_makefile_project_builds_with_the_hook_and_after_port(tmp_path):
    _scale_repository(tmp_path, {'make.sh': None, 'Makefile': MAKEFILE})
    # The hook alone: make stops at nvcc; build.py compiles the kernel with
    # the Makefile rule's flags, as make expands them: its $(TORCH_INC) asks
    # torch.utils.ffi, which is thffi's under the hook.
    out = _run(tmp_path, 'make')
    assert out.returncode != 0 and 'Unsupported gpu architecture' in out.stderr, out.stderr
    out = _run(tmp_path, sys.executable, 'build.py', gpu=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert 'does not exist: Makefile:15 (`nvcc' in out.stdout, out.stdout
    torch_inc = ' '.join('-I' + os.path.join(ROOT, 'thffi', 'include', *sub)
                         for sub in ((), ('TH',), ('THC',)))
    assert ('was to build it: compiling src/cuda/scale_kernel.cu with nvcc for architectures '
            '7.5 instead, with its flags: -x cu -gencode=arch=compute_75,code=sm_75 -std=c++17 '
            '--extended-lambda -Xcompiler -fPIC -I include %s -I%s/include -DSCALE_FACTOR=2'
            % (torch_inc, os.path.realpath(cuda.find_cuda_home()))) in out.stdout, out.stdout
    _lambda_object_symbols(tmp_path)
    _cpu_op_runs(tmp_path)

    # After port: make builds the kernel itself, with thffi's architectures
    # and include folders.
    shutil.rmtree(tmp_path / '_ext')
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert 'Makefile' in changed
    dry = _run(tmp_path, 'make', '-n')
    assert dry.returncode == 0, dry.stderr
    assert '-gencode=arch=compute_75,code=sm_75' in dry.stdout
    assert '-I%s' % os.path.join(ROOT, 'thffi', 'include', 'TH') in dry.stdout
    assert '-std=c++17 --extended-lambda' in dry.stdout
    out = _run(tmp_path, 'make')
    assert out.returncode == 0, out.stdout + out.stderr
    out = _run(tmp_path, sys.executable, 'build.py')
    assert out.returncode == 0 and 'does not exist' not in out.stdout, out.stdout + out.stderr
    _lambda_object_symbols(tmp_path)
    _cpu_op_runs(tmp_path)
    assert port(str(tmp_path))[0] == ''


@pytest.mark.slow  # deselected by default (conftest.py)
@needs_nvcc
def test_build_py_running_nvcc_itself_builds_after_port(tmp_path):
    _scale_repository(tmp_path, {'make.sh': None, 'build.py': BUILD_PY_NVCC,
                                 'src/cuda/offset_kernel.cu': OFFSET_CU})
    # The hook alone cannot help: build.py's nvcc fails and it exits before
    # create_extension, the only step thffi takes part in.
    out = _run(tmp_path, sys.executable, 'build.py')
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Unsupported gpu architecture 'sm_50'" in out.stderr
    assert out.stderr.rstrip().endswith('nvcc failed on %s' % (
        tmp_path / 'src/cuda/scale_kernel.cu'))

    _, findings, _, changed = port(str(tmp_path), write=True)
    assert 'build.py' in changed
    py_compile.compile(str(tmp_path / 'build.py'), doraise=True)
    text = (tmp_path / 'build.py').read_text()
    assert 'from thffi import nvcc_arch_flags, create_extension\n' in text
    assert "-Xcompiler -fPIC ' + ' '.join(nvcc_arch_flags()) + ' -std=c++17 '" in text
    assert "'-Xcompiler', '-fPIC',\n                       *nvcc_arch_flags(),\n" in text
    out = _run(tmp_path, sys.executable, 'build.py')
    assert out.returncode == 0, out.stdout + out.stderr
    assert '-gencode=arch=compute_75,code=sm_75 -std=c++17 --extended-lambda' in out.stdout
    _lambda_object_symbols(tmp_path)
    assert re.search(r' [tT] offset_launcher\n', _symbols(tmp_path))
    _cpu_op_runs(tmp_path)
    assert port(str(tmp_path))[0] == ''


@needs_nvcc
@pytest.mark.slow  # deselected by default (conftest.py)
def test_the_fallback_takes_the_flags_of_the_nvcc_command_build_py_ran(tmp_path):
    """A build.py that does not stop when its nvcc fails: with the hook
    alone the builder compiles the kernel with that command's flags."""
    build = textwrap.dedent(BUILD_PY_NVCC)
    build = build[:build.index("offset = ")] + build[build.index('ffi = create_extension'):]
    # with_cuda=True: built without CUDA, a C that calls nothing of the
    # kernel leaves it uncompiled (tests/test_linked_only.py).
    build = build.replace("if os.system(cmd) != 0:\n    sys.exit('nvcc failed on ' + kernel)",
                          'os.system(cmd)').replace(", offset + '.o'", '').replace(
        'relative_to=__file__,', 'relative_to=__file__,\n    with_cuda=True,')
    _scale_repository(tmp_path, {'make.sh': None, 'build.py': build})
    out = _run(tmp_path, sys.executable, 'build.py')
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Unsupported gpu architecture 'sm_50'" in out.stderr
    assert 'does not exist: build.py:15 (`nvcc -c ./src/cuda/scale_kernel.cu' in out.stdout
    assert ('was to build it: compiling '
            'src/cuda/scale_kernel.cu with nvcc for architectures 7.5 instead, with its flags: -x cu -Xcompiler -fPIC '
            '-gencode=arch=compute_75,code=sm_75 -std=c++17 --extended-lambda -Iinclude '
            '-DSCALE_FACTOR=2 [-std=c++11 became -std=c++17] [--expt-extended-lambda became '
            '--extended-lambda] [-arch=sm_50 became -gencode=arch=compute_75,code=sm_75]'
            ) in out.stdout, out.stdout
    _lambda_object_symbols(tmp_path)
    _cpu_op_runs(tmp_path)


def test_readme_commands_are_reported_with_the_line_to_type():
    findings = report_commands(textwrap.dedent(README), 'README.md', NVCC13)
    assert [str(f) for f in findings] == [
        'README.md:5: a command to type: `nvcc -c -o src/cuda/scale_kernel.cu.o '
        'src/cuda/scale_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52 --expt-extended-lambda '
        '-std=c++11 -I include`; type instead: `nvcc $(python -m thffi --cccl-legacy) -c -o '
        'src/cuda/scale_kernel.cu.o '
        'src/cuda/scale_kernel.cu -x cu -Xcompiler -fPIC $(python -m thffi --arch-flags) '
        '--extended-lambda -std=c++17 -I include` (nvcc architecture flags: sm_52 rejected by '
        'the installed nvcc; now $(python -m thffi --arch-flags) (TORCH_CUDA_ARCH_LIST when '
        'set); nvcc flags: --expt-extended-lambda becomes --extended-lambda (renamed in CUDA '
        '11, the old name kept as an alias); -std=c++11 becomes -std=c++17 (CUDA 13\'s '
        'thrust, CUB and libcu++ need C++17: #error Thrust requires at least C++17, also when '
        '-Xcompiler gives the host compiler an older standard); what CUDA 13\'s thrust removed '
        'that 2018 code used (thrust::binary_function, unary_function), given back by thffi\'s '
        'cccl_legacy.h, as `thffi run` includes it; now $(python -m thffi --cccl-legacy))']
    assert not findings[0].fixed


def test_port_of_every_build_file_is_valid_and_idempotent(tmp_path):
    _scale_repository(tmp_path, {'Makefile': MAKEFILE, 'tools/build_kernels.py': BUILD_PY_NVCC,
                                 'README.md': README, 'INSTALL': '    gcc -c x.c\n'})
    diff, findings, read, changed = port(str(tmp_path), write=True)
    assert sorted(changed) == ['Makefile', 'build.py', 'make.sh', 'tools/build_kernels.py']
    assert (tmp_path / 'README.md').read_text() == textwrap.dedent(README)
    assert [f.line for f in findings if f.path == 'README.md'] == [5]
    assert not any(f.path == 'INSTALL' for f in findings)  # nothing to type differently
    for name in changed:
        path = str(tmp_path / name)
        if name.endswith('.py'):
            py_compile.compile(path, doraise=True)
        elif name.endswith('.sh'):
            assert subprocess.run(['bash', '-n', path]).returncode == 0
    if shutil.which('make'):
        dry = _run(tmp_path, 'make', '-n')
        assert dry.returncode == 0, dry.stderr
    assert port(str(tmp_path)) [0] == ''


def test_nvcc_command_strings_built_in_an_if_or_while_test_are_rewritten():
    source = textwrap.dedent('''\
        import os
        import subprocess as sp

        def compile_kernel(name):
            a, b = name + '.cu.o', name + '.cu'
            if sp.call(("nvcc -c -o %s %s -x cu -arch=sm_52" % (a, b)).split()) != 0:
                raise RuntimeError('nvcc failed on ' + b)
            if os.system('nvcc -c -o {} {} -std=c++11'.format(a, b)):
                raise RuntimeError('nvcc failed')
            elif os.system(f'nvcc -c -o {a} {b} --expt-extended-lambda'):
                raise RuntimeError('nvcc failed')
            while os.system('nvcc -c ' + b + ' -gencode arch=compute_30,code=sm_30'):
                break
        ''')
    new, findings = rewrite_nvcc_calls(source, 'build.py', NVCC13)
    assert new == textwrap.dedent('''\
        import os
        import subprocess as sp
        from thffi import nvcc_arch_flags

        def compile_kernel(name):
            a, b = name + '.cu.o', name + '.cu'
            if sp.call((("nvcc -c -o %s %s -x cu " + " ".join(nvcc_arch_flags())) % (a, b)).split()) != 0:
                raise RuntimeError('nvcc failed on ' + b)
            if os.system('nvcc -c -o {} {} -std=c++17'.format(a, b)):
                raise RuntimeError('nvcc failed')
            elif os.system(f'nvcc -c -o {a} {b} --extended-lambda'):
                raise RuntimeError('nvcc failed')
            while os.system('nvcc -c ' + b + ' ' + ' '.join(nvcc_arch_flags())):
                break
        ''')
    assert [f.line for f in findings] == [6, 8, 10, 12]
    assert rewrite_nvcc_calls(new, 'build.py', NVCC13)[0] == new
    # The builder reads the command the test runs, as the script builds it.
    [first, *_] = readers.commands('build.py', source)
    assert (first.line, first.args[-1]) == (6, '-arch=sm_52')


def test_shell_variables_over_several_lines_are_rewritten_whole():
    source = textwrap.dedent('''\
        #!/usr/bin/env bash
        CUDA_ARCH="-gencode arch=compute_30,code=sm_30 \\
                   -gencode arch=compute_35,code=sm_35 \\
                   -gencode arch=compute_61,code=sm_61"
        NVCC_FLAGS="-x cu -Xcompiler -fPIC
                    -std=c++11"
        cd src
        nvcc -c -o k.cu.o k.cu $NVCC_FLAGS $CUDA_ARCH
        ''')
    new, findings = rewrite_shell(source, 'make.sh', NVCC13)
    assert new == textwrap.dedent('''\
        #!/usr/bin/env bash
        CUDA_ARCH="$(python -m thffi --arch-flags)"
        NVCC_FLAGS="-x cu -Xcompiler -fPIC
                    -std=c++17"
        cd src
        nvcc $(python -m thffi --cccl-legacy) -c -o k.cu.o k.cu $NVCC_FLAGS $CUDA_ARCH
        ''')
    assert rewrite_shell(new, 'make.sh', NVCC13)[0] == new
    assert subprocess.run(['bash', '-n'], input=new, text=True).returncode == 0


@pytest.mark.parametrize('runs', ['python3', '$PYTHON', '${PYTHON:-python3}'])
def test_thffi_is_asked_with_the_interpreter_the_script_runs(tmp_path, runs):
    _write(tmp_path, {'make.sh': '''\
        #!/usr/bin/env bash
        set -e
        cd src
        nvcc -c -o k.cu.o k.cu -x cu -arch=sm_52
        cd ..
        %s build.py
        ''' % runs, 'build.py': 'print("build.py ran")\n', 'src/k.cu': ''})
    _, findings, _, changed = port(str(tmp_path), write=True)
    script = (tmp_path / 'make.sh').read_text()
    assert 'nvcc $(%s -m thffi --cccl-legacy) -c -o k.cu.o k.cu -x cu $(%s -m thffi ' \
           '--arch-flags)\n' % (runs, runs) in script
    # Where only python3 is on PATH (no `python`), the step runs: nvcc is
    # echoed here, with the flags thffi gives.
    (tmp_path / 'make.sh').write_text(script.replace('nvcc $(', 'echo nvcc $('))
    (tmp_path / 'bin').mkdir()
    os.symlink(sys.executable, tmp_path / 'bin' / 'python3')
    out = subprocess.run(['bash', 'make.sh'], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHON='python3', PYTHONPATH=ROOT,
                                               PATH='%s:/usr/bin:/bin' % (tmp_path / 'bin')))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith('nvcc -include %s -c -o k.cu.o k.cu -x cu -gencode=arch=compute_'
                                 % os.path.join(ROOT, 'thffi', 'include', 'cccl_legacy.h')
                                 ), out.stdout
    assert out.stdout.endswith('build.py ran\n')


def test_a_makefile_asks_thffi_with_the_python_its_recipes_run():
    new, _ = rewrite_make(textwrap.dedent('''\
        all: k.cu.o
        \tpython3 build.py

        k.cu.o: k.cu
        \tnvcc -c -o $@ $< -arch=sm_52
        '''), 'Makefile', NVCC13)
    assert '\tnvcc -c -o $@ $< $(shell python3 -m thffi --arch-flags)\n' in new
