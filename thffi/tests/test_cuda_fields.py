"""Fields of the CUDA runtime's structs that today's toolkits renamed
(toolchain/cuda_fields.py): 2018's cudaPointerAttributes::memoryType is
compiled as .type under `thffi run` (the files unchanged) and written so by
port, after which the step compiles plainly.  The source is ours, in
2018's idiom."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, write_files
from thffi.port import port
from thffi.toolchain import cuda_fields
from thffi.toolchain import cuda_toolkit as cuda

ENV = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5',
           PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ['PATH']]))
HOME = cuda.find_cuda_home()

KERNEL = '''\
    #include <cuda_runtime.h>
    #include <stdio.h>

    /* 1 when ptr is device memory: the kernels below need it there */
    int is_on_device(const void *ptr)
    {
      cudaPointerAttributes attributes;
      if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess)
        return 0;
      /* attributes.memoryType: cudaMemoryTypeHost or cudaMemoryTypeDevice */
      return attributes.memoryType == cudaMemoryTypeDevice;
    }
    '''
STEP = ['sh', '-c', 'nvcc -c src/ptr_kernel.cu -o src/ptr_kernel.o']


def _run(cwd, run=False):
    return subprocess.run([sys.executable, '-m', 'thffi', 'run', '--'] * run + STEP,
                          cwd=str(cwd), env=ENV, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(HOME is None, reason='needs the CUDA toolkit (nvcc)')
def test_memory_type_under_run_and_after_port(tmp_path):
    write_files(tmp_path, {'src/ptr_kernel.cu': KERNEL})
    before = _run(tmp_path)
    assert before.returncode != 0 and 'memoryType' in before.stdout + before.stderr
    out = _run(tmp_path, run=True)
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stderr.splitlines() if line.startswith('thffi run:')]
    assert said == ['thffi run: nvcc: cudaPointerAttributes::memoryType (src/ptr_kernel.cu:11): '
                    'compiled as .type, as port writes it (%s)' % cuda_fields.FIELDS[0].why]
    assert (tmp_path / 'src' / 'ptr_kernel.cu').read_text() == textwrap.dedent(KERNEL)
    os.remove(tmp_path / 'src' / 'ptr_kernel.o')

    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == [os.path.join('src', 'ptr_kernel.cu')]
    text = (tmp_path / 'src' / 'ptr_kernel.cu').read_text()
    assert 'return attributes.type == cudaMemoryTypeDevice;' in text
    assert '/* attributes.memoryType: ' in text  # a comment is the author's
    assert [(f.line, f.fixed) for f in findings if 'memoryType' in f.message] == [(11, True)]
    out = _run(tmp_path)
    assert out.returncode == 0, out.stderr


@pytest.mark.skipif(HOME is None, reason='needs the CUDA toolkit (nvcc)')
@pytest.mark.parametrize('include, flags', [('"../common/ptr.cuh"', ''),
                                            ('"common/ptr.cuh"', ' -I..')])
def test_memory_type_in_a_header_above_the_steps_folder_under_run(tmp_path, include, flags):
    """A header the .cu includes from the folder above the step's (`cd
    pytorch; make`), beside it or through the command's -I: compiled as
    .type too."""
    write_files(tmp_path, {'common/ptr.cuh': KERNEL.replace('int is_on_device',
                                                            'static inline int is_on_device'),
                           'pytorch/ptr_kernel.cu': '''\
                               #include %s

                               int device_check(const void *p) { return is_on_device(p); }
                               ''' % include})
    step = ['sh', '-c', 'nvcc -c ptr_kernel.cu -o ptr_kernel.o' + flags]
    plain = subprocess.run(step, cwd=str(tmp_path / 'pytorch'), env=ENV, capture_output=True,
                           text=True, timeout=600)
    assert plain.returncode != 0 and 'memoryType' in plain.stdout + plain.stderr
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--'] + step,
                         cwd=str(tmp_path / 'pytorch'), env=ENV, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert 'cudaPointerAttributes::memoryType (common/ptr.cuh:11)' in out.stderr, out.stderr
    assert 'attributes.memoryType ==' in (tmp_path / 'common' / 'ptr.cuh').read_text()


def test_a_struct_of_its_own_is_left_alone():
    text = 'struct buffer { int memoryType; };\nint kind(struct buffer *b) { return b->memoryType; }\n'
    assert cuda_fields.rewrite(text) == (text, [])
