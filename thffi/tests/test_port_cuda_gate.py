"""`port` and a build script's CUDA gate: `torch.cuda.is_available()`
becomes cuda_enabled() only when every file its CUDA branch names exists
(thffi/port/gates.py).  A branch naming files never committed keeps the
gate, and the build works after `port` as with the hook alone; a branch
whose files exist is rewritten, and builds its CUDA code with nvcc where a
toolkit exists.  The repositories are ours, in the 2017-2018 idiom."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, write_files
from thffi.toolchain import cuda_toolkit as cuda
from thffi.port import port
from thffi.port.python import rewrite_python

BUILD = '''\
    import os
    import torch
    from torch.utils.ffi import create_extension

    sources = ['src/x.c']
    headers = ['src/x.h']
    defines = []
    with_cuda = False

    if torch.cuda.is_available():
        print('Including CUDA code.')
        sources += ['src/x_cuda.c', 'src/x_kernel.cu']
        headers += ['src/x_cuda.h']
        defines += [('WITH_CUDA', None)]
        with_cuda = True

    this_file = os.path.dirname(__file__)

    ffi = create_extension(
        '_ext.x',
        headers=headers,
        sources=sources,
        define_macros=defines,
        relative_to=__file__,
        with_cuda=with_cuda
    )

    if __name__ == '__main__':
        ffi.build()
    '''
CPU = {
    'src/x.h': 'int x_twice(THFloatTensor *input, THFloatTensor *output);\n',
    'src/x.c': '''\
        #include <TH/TH.h>

        int x_twice(THFloatTensor *input, THFloatTensor *output)
        {
          THFloatTensor_resizeAs(output, input);
          THFloatTensor_mul(output, input, 2);
          return 1;
        }
        ''',
}
CUDA = {
    'src/x_cuda.h': 'int x_twice_cuda(THCudaTensor *input, THCudaTensor *output);\n',
    'src/x_cuda.c': '''\
        #include <THC/THC.h>
        #include "x_kernel.h"

        extern THCState *state;

        int x_twice_cuda(THCudaTensor *input, THCudaTensor *output)
        {
          input = THCudaTensor_newContiguous(state, input);
          THCudaTensor_resizeAs(state, output, input);
          x_twice_launch(THCudaTensor_data(state, input), THCudaTensor_data(state, output),
                         THCudaTensor_nElement(state, input), THCState_getCurrentStream(state));
          THCudaTensor_free(state, input);
          return 1;
        }
        ''',
    'src/x_kernel.h': '''\
        #ifndef X_KERNEL_H
        #define X_KERNEL_H
        #include <cuda_runtime_api.h>
        #ifdef __cplusplus
        extern "C" {
        #endif
        void x_twice_launch(const float *input, float *output, long n, cudaStream_t stream);
        #ifdef __cplusplus
        }
        #endif
        #endif
        ''',
    'src/x_kernel.cu': '''\
        #include "x_kernel.h"

        __global__ void x_twice_kernel(const float *input, float *output, long n)
        {
          long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
          if (i < n) output[i] = 2 * input[i];
        }

        extern "C" void x_twice_launch(const float *input, float *output, long n,
                                       cudaStream_t stream)
        {
          x_twice_kernel<<<(n + 255) / 256, 256, 0, stream>>>(input, output, n);
        }
        ''',
}


def _repository(folder, files):
    write_files(folder, dict({'build.py': BUILD}, **files))
    return folder


def _build_and_call(folder, command):
    """Runs the build command in folder on a machine without a GPU (as a
    2018 build machine often was), then imports _ext.x and doubles a tensor
    with its C; returns (the build's output, whether it has the CUDA function)."""
    env = dict(os.environ, PYTHONPATH=ROOT, CUDA_VISIBLE_DEVICES='')
    built = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    check = ('import torch\nfrom _ext import x\nout = torch.FloatTensor()\n'
             'assert x.x_twice(torch.arange(6.0).view(2, 3), out) == 1\n'
             'assert torch.equal(out, 2 * torch.arange(6.0).view(2, 3)), out\n'
             'print(hasattr(x, "x_twice_cuda"))\n')
    called = subprocess.run([sys.executable, '-c', check], cwd=folder, env=env,
                            capture_output=True, text=True, timeout=300)
    assert called.returncode == 0, called.stdout + called.stderr
    return built.stdout, called.stdout.split()[-1] == 'True'


def test_a_branch_naming_files_never_committed_keeps_its_gate(tmp_path):
    """The CUDA branch names src/x_cuda.c, src/x_kernel.cu and src/x_cuda.h,
    never committed: the gate stays, the report names each missing file
    with its line, and the build works after port as with the hook alone."""
    hook = _repository(tmp_path / 'hook', CPU)
    ported = _repository(tmp_path / 'ported', CPU)
    diff, findings, _, changed = port(str(ported), write=True)
    build = (ported / 'build.py').read_text()
    assert 'from thffi import create_extension\n' in build
    assert 'if torch.cuda.is_available():' in build and 'cuda_enabled' not in build
    assert 'import torch\n' in build
    left = [str(f) for f in findings if not f.fixed and f.path == 'build.py']
    assert left == ['build.py:10: the CUDA branch names files that do not exist: '
                    'src/x_cuda.c (line 12), src/x_kernel.cu (line 12), src/x_cuda.h (line 13); '
                    'so torch.cuda.is_available() is kept (line 10): cuda_enabled() would take '
                    'the branch wherever a CUDA toolkit exists, GPU or not, and the build '
                    'would fail there; commit what is missing (or take it out of the branch), '
                    'then write cuda_enabled()']
    assert not any('torch.cuda.is_available() in a build script' in f.message
                   for f in findings)
    # Built and called alike: with the hook alone, and after port.
    out, has_cuda = _build_and_call(hook, [sys.executable, '-m', 'thffi', 'build.py'])
    assert 'Including CUDA code.' not in out and not has_cuda
    out, has_cuda = _build_and_call(ported, [sys.executable, 'build.py'])
    assert 'Including CUDA code.' not in out and not has_cuda
    # A second port changes nothing and says the same.
    assert port(str(ported))[3] == []


def test_a_branch_whose_files_exist_is_rewritten_and_builds_its_cuda(tmp_path):
    """All of the branch's files committed: the gate becomes cuda_enabled(),
    and where a CUDA toolkit exists the build compiles the branch's .cu
    with nvcc (no GPU needed)."""
    folder = _repository(tmp_path, dict(CPU, **CUDA))
    findings = port(str(folder), write=True)[1]
    build = (folder / 'build.py').read_text()
    assert 'from thffi import create_extension, cuda_enabled\n' in build
    assert 'if cuda_enabled():' in build and 'torch' not in build
    assert [f.line for f in findings if f.path == 'build.py'] == [3, 10]
    assert not [f for f in findings if not f.fixed and f.path == 'build.py']
    out, has_cuda = _build_and_call(folder, [sys.executable, 'build.py'])
    toolkit = cuda.find_toolkit() is not None
    assert has_cuda == toolkit and ('Including CUDA code.' in out) == toolkit
    if toolkit:
        library = next((folder / '_ext' / 'x').glob('_x*.so'))
        sections = subprocess.run(['readelf', '-S', '-W', str(library)], capture_output=True,
                                  text=True, check=True).stdout
        assert '.nv_fatbin' in sections  # the kernel, compiled by nvcc


def _source(*parts):
    return ''.join(textwrap.dedent(part) for part in parts)


def _py(folder, source, built_by_nvcc=()):
    (folder / 'build.py').write_text(textwrap.dedent(source))
    new, findings = rewrite_python(textwrap.dedent(source), 'build.py',
                                   filename=str(folder / 'build.py'),
                                   built_by_nvcc=built_by_nvcc)
    return new, [str(f) for f in findings if not f.fixed]


HEAD = '''\
    import glob
    import os
    import torch
    from torch.utils.ffi import create_extension
    this_file = os.path.dirname(os.path.realpath(__file__))
    sources, headers, extra_objects = ['src/a.c'], ['src/a.h'], []
    '''
TAIL = '''\
    ffi = create_extension('_ext.a', headers, sources=sources, extra_objects=extra_objects,
                           with_cuda=torch.cuda.is_available())
    '''


@pytest.mark.parametrize('branch, missing', [
    # os.path.join over __file__'s folder, a list comprehension, an object
    # make.sh's nvcc builds (exists once make.sh ran)
    ('''\
     with_cuda = torch.cuda.is_available()
     if with_cuda:
         extra_objects = ['src/cuda/a_kernel.cu.o', 'src/cuda/b_kernel.cu.o']
         extra_objects = [os.path.join(this_file, f) for f in extra_objects]
     ''', 'src/cuda/b_kernel.cu.o (line 9)'),
    # a glob that matches nothing; .append
    ('''\
     if torch.cuda.is_available():
         sources += glob.glob('src/cuda/*.c')
         headers.append(os.path.join(this_file, 'src', 'a_cuda.h'))
     ''', "src/cuda/*.c (line 8), %s (line 9)"),
    # str.format and %; an object whose .cu lies beside it (thffi's build
    # compiles it)
    ("""\
     if torch.cuda.is_available():
         sources += ['src/{}.c'.format(f) for f in ('a', 'b')]
         extra_objects += ['src/cuda/%s_kernel.cu.o' % 'c']
     """, 'src/b.c (line 8)'),
    # the branch of `if not`, and the files of an assert's block
    ('''\
     if not torch.cuda.is_available():
         pass
     else:
         sources = sources + ['src/b_cuda.c']
     ''', 'src/b_cuda.c (line 10)'),
    ('''\
     def build():
         assert torch.cuda.is_available()
         ffi = create_extension('_ext.b', ['src/b_cuda.h'], ['src/a.c'], with_cuda=True)
     ''', 'src/b_cuda.h (line 9)'),
])
def test_the_files_a_branch_names_are_read_as_python_reads_them(tmp_path, branch, missing):
    (tmp_path / 'src' / 'cuda').mkdir(parents=True)
    for name in ('a.c', 'a.h', 'cuda/a_kernel.cu.o', 'cuda/c_kernel.cu'):
        (tmp_path / 'src' / name).write_text('')
    missing = missing.replace('%s', os.path.join(os.path.realpath(tmp_path), 'src',
                                                  'a_cuda.h'))
    source = _source(HEAD, branch, TAIL)
    new, left = _py(tmp_path, source, {'a_kernel.cu.o'})
    assert new.count('torch.cuda.is_available()') == source.count('torch.cuda.is_available()')
    assert len(left) == 1 and ('files that do not exist: %s; so torch.cuda.is_available() is '
                               'kept' % missing) in left[0], left
    # Committed, they make the gates cuda_enabled().
    for written in missing.split(', '):
        name = written.split(' (')[0]
        path = tmp_path / name if not os.path.isabs(name) else name
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(str(path).replace('*', 'b'), 'w').close()
    new, left = _py(tmp_path, source, {'a_kernel.cu.o'})
    assert 'torch.cuda.is_available()' not in new and not any('kept' in f for f in left), left


def test_a_branch_whose_files_cannot_be_read_keeps_its_gate(tmp_path):
    source = _source(HEAD, '''\
        if torch.cuda.is_available():
            sources += [os.path.join(os.environ['CUDA_SRC'], 'a_cuda.c')]
        ''', TAIL)
    new, left = _py(tmp_path, source)
    assert new.count('torch.cuda.is_available()') == 2
    assert left == ['build.py:7: the CUDA branch names files that cannot be shown to exist '
                    '(line 8: the script does not spell them out); so torch.cuda.is_available() '
                    'is kept (lines 7, 10): cuda_enabled() would take the branch wherever a CUDA '
                    'toolkit exists, GPU or not, and the build would fail there; commit what is '
                    'missing (or take it out of the branch), then write cuda_enabled()']
    # A branch naming no files (or a gate with no branch) is rewritten.
    new, left = _py(tmp_path, _source(HEAD, 'if torch.cuda.is_available():\n    print(1)\n',
                                      TAIL))
    assert 'torch.cuda' not in new and not left
    # Not on disk, a branch naming files cannot be checked.
    source = _source(HEAD, 'if torch.cuda.is_available():\n    sources += ["src/a.c"]\n', TAIL)
    new, findings = rewrite_python(source, 'build.py')
    assert new.count('torch.cuda.is_available()') == 2
    assert '(line 8: the script is not on disk)' in str(findings[-1])
