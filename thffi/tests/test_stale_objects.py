"""Objects a 2018 repository committed, or an old toolkit left, that today's
CUDA cannot use: thffi compiles them again from the .cu beside them, naming
what it rebuilt and why (and the make.sh step that was to build them), and
without a .cu it says the object is stale and what it lacks."""

import os
import struct
import subprocess
import sys
import textwrap

import pytest
import torch

from support import copy_legacy_shift, hooked_env, write_files as _write
from thffi import find_cuda_home
from thffi.builder import binaries as _link
from thffi.builder.configure import meant_command

needs_toolkit = pytest.mark.skipif(find_cuda_home() is None,
                                   reason='no CUDA toolkit (nvcc) installed')


def _run(command, folder, gpu=False):
    """Runs command in folder as a user with thffi installed; gpu: with
    torch.cuda.is_available() True, as on a machine with a GPU (build.py's
    gate then builds with CUDA, whose C calls the kernel's launcher)."""
    env = hooked_env(folder)
    if gpu:
        with open(folder / 'sitecustomize.py', 'a') as f:
            f.write('import torch\ntorch.cuda.is_available = lambda: True\n')
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=300)


# thffi/tests/legacy_shift's repository as a scale op, its C of its own: an output
# tensor the CPU op resizes, and the launcher the CUDA 9 object below defines.
SCALE_OP = {
    'src/scale.h': 'int scale_forward(THFloatTensor *input, float factor, '
                   'THFloatTensor *output);\n',
    'src/scale.c': '''\
        #include <TH/TH.h>

        int scale_forward(THFloatTensor *input, float factor, THFloatTensor *output)
        {
            long i, n = THFloatTensor_nElement(input);
            float *in, *out;
            THFloatTensor_resizeAs(output, input);
            in = THFloatTensor_data(input);
            out = THFloatTensor_data(output);
            for (i = 0; i < n; i++)
                out[i] = in[i] * factor;
            return 1;
        }
        ''',
    'src/scale_cuda.h': 'int scale_forward_cuda(THCudaTensor *data, float factor);\n',
    'src/scale_cuda.c': '''\
        #include <THC/THC.h>
        #include "cuda/scale_kernel.h"

        extern THCState *state;

        int scale_forward_cuda(THCudaTensor *data, float factor)
        {
            return ScaleForwardLaucher(THCudaTensor_data(state, data),
                                       THCudaTensor_nElement(state, data), factor,
                                       THCState_getCurrentStream(state));
        }
        ''',
    'src/cuda/scale_kernel.h': '''\
        #ifndef _SCALE_KERNEL
        #define _SCALE_KERNEL
        #ifdef __cplusplus
        extern "C" {
        #endif

        int ScaleForwardLaucher(float *data, int n, float factor, cudaStream_t stream);

        #ifdef __cplusplus
        }
        #endif
        #endif
        ''',
    'src/cuda/scale_kernel.cu': '''\
        #include <stdio.h>
        #include "scale_kernel.h"

        __global__ void ScaleForward(const int n, float *data, const float factor)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n)
                data[i] *= factor;
        }

        int ScaleForwardLaucher(float *data, int n, float factor, cudaStream_t stream)
        {
            const int threads = 512;
            cudaError_t err;
            ScaleForward<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, data, factor);
            err = cudaGetLastError();
            if (err != cudaSuccess) {
                fprintf(stderr, "cudaCheckError() failed : %s\\n", cudaGetErrorString(err));
                return 0;
            }
            return 1;
        }
        ''',
}


def _scale_repository(folder):
    copy_legacy_shift(folder, op='scale', files=SCALE_OP)

# What nvcc 9 made of scale_kernel.cu's host side, as the repository
# committed it: the <<<...>>> launch became cudaConfigureCall,
# cudaSetupArgument and cudaLaunch (CUDA 10.1 removed them; the names are
# declared here as CUDA 9's cuda_runtime_api.h declared them).
CUDA9_HOST_C = '''\
    #include <stddef.h>

    typedef struct { unsigned int x, y, z; } dim3;
    typedef struct CUstream_st *cudaStream_t;
    typedef int cudaError_t;
    cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                  cudaStream_t stream);
    cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
    cudaError_t cudaLaunch(const void *func);

    static void ScaleForward(const int n, float *data, const float factor)
    {
        (void)n; (void)data; (void)factor;  /* the device stub */
    }

    int ScaleForwardLaucher(float *data, int n, float factor, cudaStream_t stream)
    {
        dim3 grid = {(unsigned int)(n + 511) / 512, 1, 1}, block = {512, 1, 1};
        if (cudaConfigureCall(grid, block, 0, stream) != 0)
            return 0;
        cudaSetupArgument(&n, sizeof(n), 0);
        cudaSetupArgument(&data, sizeof(data), 8);
        cudaSetupArgument(&factor, sizeof(factor), 16);
        return cudaLaunch((const void *)ScaleForward) == 0;
    }
    '''


def _committed_2018_object(project):
    """Writes the repository with the object CUDA 9 built, as committed."""
    _scale_repository(project)
    (project / 'cuda9_host.c').write_text(textwrap.dedent(CUDA9_HOST_C))
    subprocess.run(['gcc', '-c', '-fPIC', '-o', 'src/cuda/scale_kernel.cu.o', 'cuda9_host.c'],
                   cwd=project, check=True)
    (project / 'cuda9_host.c').unlink()
    return project / 'src/cuda/scale_kernel.cu.o'


STALE_LINE = ('thffi: src/cuda/scale_kernel.cu.o (extra_objects) was built by an old CUDA '
              'toolkit: it calls cudaConfigureCall, cudaLaunch, cudaSetupArgument, which CUDA '
              '10.1 removed (the toolkit here is CUDA %s); make.sh:4 (`nvcc -c -o '
              'scale_kernel.cu.o scale_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52`; today\'s '
              'nvcc rejects sm_52) was to build it again: compiling src/cuda/scale_kernel.cu '
              'with nvcc for architectures 7.5 instead, with its flags: ')


def _toolkit_release():
    from thffi.toolchain import cuda_api
    return '%d.%d' % cuda_api.toolkit_version(find_cuda_home())


@needs_toolkit
def test_a_committed_cuda9_object_is_compiled_again_from_its_cu(tmp_path):
    obj = _committed_2018_object(tmp_path)
    committed = obj.read_bytes()
    made = _run(['bash', 'make.sh'], tmp_path, gpu=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Unsupported gpu architecture 'sm_52'" in made.stderr  # make.sh's step failed
    # The build's first line says what it rebuilt, why, and which step failed.
    first = made.stdout.split('Compiling scale kernels by nvcc...\n', 1)[1]
    first = first.split('Including CUDA code.\n', 1)[-1]
    assert first.startswith(STALE_LINE % _toolkit_release()), made.stdout
    assert obj.read_bytes() == committed  # the repository's file is left as it was
    library = next((tmp_path / '_ext' / 'scale').glob('_scale*.so'))
    symbols = subprocess.run(['nm', str(library)], capture_output=True, text=True).stdout
    assert ' t ScaleForwardLaucher\n' in symbols  # today's nvcc's object, linked in
    assert 'cudaConfigureCall' not in symbols and 'cudaLaunchKernel' in symbols
    found = _run([sys.executable, '-c', textwrap.dedent('''\
        import torch
        from _ext import scale
        x = torch.arange(6, dtype=torch.float32).view(2, 3)
        out = torch.empty(0)
        assert scale.scale_forward(x, 2.5, out) == 1
        print(out.tolist())
        if torch.cuda.is_available():
            y = torch.ones(1000, device='cuda')
            assert scale.scale_forward_cuda(y, 3.0) == 1
            print(float(y.sum()))
        ''')], tmp_path)
    assert found.stdout.startswith('[[0.0, 2.5, 5.0], [7.5, 10.0, 12.5]]\n'), (found.stdout
                                                                              + found.stderr)
    if torch.cuda.is_available():
        assert found.stdout.endswith('3000.0\n'), found.stdout + found.stderr


@needs_toolkit
def test_a_cuda9_object_without_its_cu_fails_naming_what_it_lacks(tmp_path):
    """Built with CUDA (its C calls the launcher), the link check no longer
    says "build with with_cuda=True" or "add 'cudart' to libraries": the
    object is stale."""
    _committed_2018_object(tmp_path)
    (tmp_path / 'src/cuda/scale_kernel.cu').unlink()
    out = _run([sys.executable, 'build.py'], tmp_path, gpu=True)
    assert out.returncode != 0
    assert ("BuildError: create_extension('_ext.scale'): src/cuda/scale_kernel.cu.o was built "
            "by an old CUDA toolkit: it calls cudaConfigureCall, cudaLaunch, cudaSetupArgument, "
            "which CUDA 10.1 removed") in out.stderr, out.stderr
    assert ('Compile it again from its .cu with today\'s nvcc (thffi does so itself when the .cu '
            'lies beside it, as scale_kernel.cu or scale_kernel_*.cu)') in out.stderr
    assert 'with_cuda=True' not in out.stderr and "add 'cudart'" not in out.stderr
    assert not (tmp_path / '_ext' / 'scale' / '__init__.py').exists()


def test_a_cuda9_object_a_build_without_cuda_never_calls_is_left_out_saying_so(tmp_path):
    """No GPU: build.py's gate leaves the CUDA C out, so nothing calls the
    committed object's launcher; the object, which today's toolkit cannot
    link, is left out of the link, as the rebuilt objects of such a build
    are."""
    _committed_2018_object(tmp_path)
    (tmp_path / 'src/cuda/scale_kernel.cu').unlink()
    out = _run([sys.executable, 'build.py'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('thffi: src/cuda/scale_kernel.cu.o (extra_objects) was built by an old CUDA toolkit: '
            'it calls cudaConfigureCall, cudaLaunch, cudaSetupArgument, which CUDA 10.1 removed'
            ) in out.stdout, out.stdout
    assert (': left out of the link, as the extension is built without CUDA and its C calls '
            'nothing it defines\n') in out.stdout
    library = next((tmp_path / '_ext' / 'scale').glob('_scale*.so'))
    symbols = subprocess.run(['nm', '-D', str(library)], capture_output=True, text=True).stdout
    assert 'ScaleForwardLaucher' not in symbols and 'cudaConfigureCall' not in symbols
    found = _run([sys.executable, '-c', textwrap.dedent('''\
        import torch
        from _ext import scale
        out = torch.empty(0)
        assert scale.scale_forward(torch.ones(2, 3), 2.0, out) == 1
        print(out.tolist())
        ''')], tmp_path)
    assert found.stdout == '[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]\n', found.stdout + found.stderr


def test_a_cuda9_object_the_c_of_a_build_without_cuda_calls_still_fails(tmp_path):
    """The CPU C calls the launcher the object defines: the object is
    needed, and cannot be linked; the error says which call needs it."""
    _committed_2018_object(tmp_path)
    (tmp_path / 'src/cuda/scale_kernel.cu').unlink()
    with open(tmp_path / 'src/scale.c', 'a') as f:
        f.write(textwrap.dedent('''\

            int ScaleForwardLaucher(float *data, int n, float factor, void *stream);

            int scale_forward_launched(THFloatTensor *data, float factor)
            {
                return ScaleForwardLaucher(THFloatTensor_data(data),
                                           THFloatTensor_nElement(data), factor, 0);
            }
            '''))
    with open(tmp_path / 'src/scale.h', 'a') as f:
        f.write('int scale_forward_launched(THFloatTensor *data, float factor);\n')
    out = _run([sys.executable, 'build.py'], tmp_path)
    assert out.returncode != 0
    assert ("BuildError: create_extension('_ext.scale'): src/cuda/scale_kernel.cu.o was built "
            "by an old CUDA toolkit: it calls cudaConfigureCall, cudaLaunch, cudaSetupArgument, "
            "which CUDA 10.1 removed") in out.stderr, out.stderr
    assert ', and the C calls ScaleForwardLaucher, which it defines. Compile it again from its ' \
        '.cu' in out.stderr, out.stderr
    assert not (tmp_path / '_ext' / 'scale' / '__init__.py').exists()


def _patch_fatbin_architecture(obj, old, new):
    """Rewrites the architecture of each machine-code entry of an object's
    fat binary from `old` to `new` (the object an older nvcc would have
    written for sm_<new>); returns how many it rewrote."""
    data = bytearray(obj.read_bytes())
    start = data.index(struct.pack('<I', 0xBA55ED50))
    _, _, header, size = struct.unpack_from('<IHHQ', data, start)
    entry, end, count = start + header, start + header + size, 0
    while entry < end:
        kind, _, entry_header, payload = struct.unpack_from('<HHIQ', data, entry)
        if kind == 2 and struct.unpack_from('<I', data, entry + 28)[0] == old:
            struct.pack_into('<I', data, entry + 28, new)
            count += 1
        entry += entry_header + payload
    obj.write_bytes(bytes(data))
    return count


@needs_toolkit
def test_device_code_reads_the_architectures_of_an_objects_fat_binary(tmp_path):
    (tmp_path / 'k.cu').write_text('__global__ void k(float *x) { x[0] = 1; }\n')
    nvcc = os.path.join(find_cuda_home(), 'bin', 'nvcc')
    subprocess.run([nvcc, '-c', 'k.cu', '-o', 'k.o', '-gencode', 'arch=compute_75,code=sm_75',
                    '-gencode', 'arch=compute_80,code=[sm_86,compute_80]'], cwd=tmp_path,
                   check=True)
    assert _link.device_code(str(tmp_path / 'k.o')) == [('compute', 80), ('sm', 75), ('sm', 86)]
    subprocess.run(['gcc', '-c', '-x', 'c', '-', '-o', 'c.o'], input='int f(void){return 0;}',
                   text=True, cwd=tmp_path, check=True)
    assert _link.device_code(str(tmp_path / 'c.o')) is None
    assert _link.device_code(str(tmp_path / 'k.cu')) is None  # not an ELF file


@needs_toolkit
@pytest.mark.slow  # deselected by default (conftest.py)
def test_an_object_with_gpu_code_only_for_old_architectures_is_compiled_again(tmp_path):
    """An object of CUDA 10-11 (today's launch sequence) holding sm_52 code
    alone: nothing today's GPUs run."""
    _scale_repository(tmp_path)
    nvcc = os.path.join(find_cuda_home(), 'bin', 'nvcc')
    subprocess.run([nvcc, '-c', '-o', 'scale_kernel.cu.o', 'scale_kernel.cu', '-Xcompiler',
                    '-fPIC', '-gencode', 'arch=compute_75,code=sm_75'], cwd=tmp_path / 'src/cuda',
                   check=True)
    obj = tmp_path / 'src/cuda/scale_kernel.cu.o'
    assert _patch_fatbin_architecture(obj, 75, 52) == 1
    assert _link.device_code(str(obj)) == [('sm', 52)]
    out = _run([sys.executable, 'build.py'], tmp_path, gpu=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('thffi: src/cuda/scale_kernel.cu.o (extra_objects) was built by an old CUDA toolkit: '
            'it holds GPU code only for sm_52 (no PTX), which the nvcc here cannot target; '
            'make.sh:4 (`nvcc -c -o scale_kernel.cu.o scale_kernel.cu -x cu -Xcompiler -fPIC '
            '-arch=sm_52`; today\'s nvcc rejects sm_52) was to build it again: compiling '
            'src/cuda/scale_kernel.cu with nvcc for architectures 7.5 instead, with its flags: '
            '-x cu -Xcompiler -fPIC -gencode=arch=compute_75,code=sm_75 [-arch=sm_52 became '
            '-gencode=arch=compute_75,code=sm_75]\n') in out.stdout
    library = next((tmp_path / '_ext' / 'scale').glob('_scale*.so'))
    assert ('sm', 75) in _link.device_code(str(library))

    # Without the .cu the object is linked as it is, with a warning.
    (tmp_path / 'src/cuda/scale_kernel.cu').unlink()
    out = _run([sys.executable, 'build.py'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('thffi: warning: src/cuda/scale_kernel.cu.o (extra_objects) was built by an old CUDA '
            'toolkit: it holds GPU code only for sm_52 (no PTX), which the nvcc here cannot '
            'target, and no .cu lies beside it to compile again: its kernels will not run on '
            'today\'s GPUs\n') in out.stderr


def test_a_missing_object_without_its_cu_names_the_step_that_was_to_build_it(tmp_path):
    _scale_repository(tmp_path)
    (tmp_path / 'src/cuda/scale_kernel.cu').unlink()
    out = _run([sys.executable, 'build.py'], tmp_path)
    assert out.returncode != 0
    assert ("create_extension('_ext.scale'): extra_objects: %s does not exist (make.sh:4 (`nvcc "
            "-c -o scale_kernel.cu.o scale_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52`; "
            "today's nvcc rejects sm_52) was to build it)"
            % (tmp_path / 'src/cuda/scale_kernel.cu.o')) in out.stderr, out.stderr


def test_the_build_step_that_writes_an_object_is_found_in_make_sh_or_a_makefile(tmp_path):
    _write(tmp_path, {
        'lib/make.sh': '''\
            #!/usr/bin/env bash
            CUDA_ARCH="-gencode arch=compute_30,code=sm_30"
            cd model/nms/src
            echo "Compiling nms kernels by nvcc..."
            nvcc -c -o nms_cuda_kernel.cu.o nms_cuda_kernel.cu \\
                 -D GOOGLE_CUDA=1 -x cu -Xcompiler -fPIC $CUDA_ARCH
            ''',
        'lib/model/roi/Makefile': '''\
            NVCC = nvcc
            # roi_kernel.cu.o: the kernels
            all: src/roi_kernel.cu.o

            src/roi_kernel.cu.o: src/roi_kernel.cu
            \t$(NVCC) -c $< -o $@ -x cu -Xcompiler -fPIC -arch=sm_61
            '''})
    base = tmp_path / 'lib' / 'model' / 'nms'
    base.mkdir(parents=True, exist_ok=True)
    found = meant_command(str(base / 'src' / 'nms_cuda_kernel.cu.o'), str(base))
    assert found[0] == str(tmp_path / 'lib' / 'make.sh') and found[1].line == 5
    assert found[1].args[:5] == ['nvcc', '-c', '-o', 'nms_cuda_kernel.cu.o', 'nms_cuda_kernel.cu']
    assert found[1].args[-2:] == ['-gencode', 'arch=compute_30,code=sm_30']  # $CUDA_ARCH
    roi = tmp_path / 'lib' / 'model' / 'roi'
    found = meant_command(str(roi / 'src' / 'roi_kernel.cu.o'), str(roi))
    assert found[0] == str(roi / 'Makefile') and found[1].line == 6
    assert found[1].args[-1] == '-arch=sm_61'
    assert meant_command(str(roi / 'src' / 'other.cu.o'), str(roi)) is None


@needs_toolkit
@pytest.mark.slow  # deselected by default (conftest.py)
def test_a_committed_object_whose_source_has_another_name_is_compiled_again_from_it(tmp_path):
    """make.sh names the source: interpolation_cuda_kernel.cu makes
    interpolate_cuda_kernel.o, which no name beside it says."""
    obj = _committed_2018_object(tmp_path)
    os.rename(obj, tmp_path / 'src/cuda/interpolate_cuda_kernel.o')
    os.rename(tmp_path / 'src/cuda/scale_kernel.cu',
              tmp_path / 'src/cuda/interpolation_cuda_kernel.cu')
    for name, old, new in (
            ('make.sh', '-o scale_kernel.cu.o scale_kernel.cu',
             '-o interpolate_cuda_kernel.o interpolation_cuda_kernel.cu'),
            ('build.py', 'src/cuda/scale_kernel.cu.o', 'src/cuda/interpolate_cuda_kernel.o')):
        text = (tmp_path / name).read_text()
        assert old in text
        (tmp_path / name).write_text(text.replace(old, new))
    made = _run([sys.executable, 'build.py'], tmp_path, gpu=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert ('thffi: src/cuda/interpolate_cuda_kernel.o (extra_objects) was built by an old CUDA '
            'toolkit: it calls cudaConfigureCall, cudaLaunch, cudaSetupArgument, which CUDA 10.1 '
            'removed (the toolkit here is CUDA %s); make.sh:4 (`nvcc -c -o '
            'interpolate_cuda_kernel.o interpolation_cuda_kernel.cu -x cu -Xcompiler -fPIC '
            '-arch=sm_52`; today\'s nvcc rejects sm_52) was to build it again: compiling '
            'src/cuda/interpolation_cuda_kernel.cu with nvcc' % _toolkit_release()) in made.stdout, \
        made.stdout
    library = next((tmp_path / '_ext' / 'scale').glob('_scale*.so'))
    symbols = subprocess.run(['nm', str(library)], capture_output=True, text=True).stdout
    assert 'cudaConfigureCall' not in symbols and 'cudaLaunchKernel' in symbols


@pytest.mark.slow  # deselected by default (conftest.py)
def test_a_committed_object_no_build_file_makes_is_compiled_from_the_cu_defining_its_functions(
        tmp_path):
    """No command writes interpolate_cuda_kernel.o and no name beside it says
    its source: the .cu there that defines the C functions the object
    defines (nm) is the one compiled again."""
    obj = _committed_2018_object(tmp_path)
    os.rename(obj, tmp_path / 'src/cuda/interpolate_cuda_kernel.o')
    os.rename(tmp_path / 'src/cuda/scale_kernel.cu',
              tmp_path / 'src/cuda/interpolation_cuda_kernel.cu')
    text = (tmp_path / 'build.py').read_text()
    (tmp_path / 'build.py').write_text(text.replace('src/cuda/scale_kernel.cu.o',
                                                    'src/cuda/interpolate_cuda_kernel.o'))
    made = _run([sys.executable, 'build.py'], tmp_path, gpu=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert ('thffi: src/cuda/interpolate_cuda_kernel.o (extra_objects) was built by an old CUDA '
            'toolkit: it calls cudaConfigureCall, cudaLaunch, cudaSetupArgument, which CUDA 10.1 '
            'removed (the toolkit here is CUDA %s): compiling '
            'src/cuda/interpolation_cuda_kernel.cu with nvcc' % _toolkit_release()) in made.stdout, \
        made.stdout
    library = next((tmp_path / '_ext' / 'scale').glob('_scale*.so'))
    symbols = subprocess.run(['nm', str(library)], capture_output=True, text=True).stdout
    assert 'cudaConfigureCall' not in symbols and 'cudaLaunchKernel' in symbols


def test_the_command_quoted_is_the_one_the_readme_runs(tmp_path):
    """lib/make.sh, which the README runs, builds every extension's kernel;
    the nms extension's own make.sh, from before, is run by nobody."""
    _write(tmp_path, {
        'README.md': '''\
            # Faster R-CNN

            Compile the CUDA code:

            ```
            cd lib
            sh make.sh
            ```
            ''',
        'lib/make.sh': '''\
            #!/usr/bin/env bash
            CUDA_ARCH="-gencode arch=compute_30,code=sm_30 \\
                       -gencode arch=compute_35,code=sm_35 \\
                       -gencode arch=compute_50,code=sm_50 \\
                       -gencode arch=compute_52,code=sm_52 \\
                       -gencode arch=compute_60,code=sm_60 \\
                       -gencode arch=compute_61,code=sm_61"
            cd model/nms/src
            nvcc -c -o nms_cuda_kernel.cu.o nms_cuda_kernel.cu \\
                 -D GOOGLE_CUDA=1 -x cu -Xcompiler -fPIC $CUDA_ARCH
            ''',
        'lib/model/nms/make.sh': '''\
            #!/usr/bin/env bash
            cd src
            nvcc -c -o nms_cuda_kernel.cu.o nms_cuda_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52
            ''',
        'lib/model/nms/src/nms_cuda_kernel.cu': ''})
    base = tmp_path / 'lib/model/nms'
    obj = str(base / 'src/nms_cuda_kernel.cu.o')
    path, command, folder = meant_command(obj, str(base))
    assert (path, command.line, folder) == (str(tmp_path / 'lib/make.sh'), 9,
                                            str(base / 'src'))
    assert command.args.count('-gencode') == 6 and 'GOOGLE_CUDA=1' in command.args
    # Run through a script the README runs, the same; run by nobody, the
    # nearest.
    _write(tmp_path, {'README.md': 'Run `./install.sh`.\n',
                      'install.sh': 'set -e\ncd lib && bash make.sh\npython setup.py install\n'})
    assert meant_command(obj, str(base))[0] == str(tmp_path / 'lib/make.sh')
    (tmp_path / 'README.md').write_text('Run setup.py.\n')
    assert meant_command(obj, str(base))[0] == str(base / 'make.sh')
