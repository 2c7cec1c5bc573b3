"""Nothing silent: every road to an extension with no functions says so (the
build in each of its forms, and the built package when imported), and a
build whose headers stayed outside a gate its sources went behind says
which condition it was."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import ROOT


def _write(folder, files):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _run(folder, code):
    """Runs Python code in folder as a 2018 build.py ran: torch.utils.ffi
    resolving to thffi, and torch.cuda.is_available() False, as on a
    machine without a GPU (also where the tests have one)."""
    prelude = ('from thffi import _hook; _hook.install()\n'
               'import torch; torch.cuda.is_available = lambda: False\n')
    return subprocess.run([sys.executable, '-c', prelude + textwrap.dedent(code)], cwd=folder,
                          env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True,
                          timeout=300)


BUILD = 'import runpy\nrunpy.run_path("build.py", run_name="__main__")\n'
GATE = '''\
    if torch.cuda.is_available():
        print('Including CUDA code.')
        %s
        defines += [('WITH_CUDA', None)]
        with_cuda = True
    '''
CORR_FILES = {
    'src/corr.h': 'int corr_forward(THFloatTensor *input1, THFloatTensor *input2, '
                  'THFloatTensor *output);\n',
    'src/corr.c': '''\
        #include <TH/TH.h>
        int corr_forward(THFloatTensor *input1, THFloatTensor *input2, THFloatTensor *output)
        {
            THFloatTensor_cmul(output, input1, input2);
            return 1;
        }
        ''',
    'src/corr_cuda.h': 'int corr_forward_cuda(THCudaTensor *input1, THCudaTensor *input2, '
                       'THCudaTensor *output);\n',
    # One header for both, as some repositories had: the CUDA one behind
    # the macro the CUDA branch defines.
    'src/corr_all.h': '''\
        #include "corr.h"
        #ifdef WITH_CUDA
        #include "corr_cuda.h"
        #endif
        ''',
}


def _build_py(headers, sources, gated, extra=''):
    return textwrap.dedent('''\
        import torch
        from torch.utils.ffi import create_extension

        headers = %r
        sources = %r
        defines = []
        with_cuda = False
        ''' % (headers, sources)) + textwrap.dedent(GATE % gated) + textwrap.dedent('''\

        ffi = create_extension('_ext.corr', headers=headers, sources=sources,
                               define_macros=defines, relative_to=__file__,
                               with_cuda=with_cuda%s)

        if __name__ == '__main__':
            ffi.build()
        ''' % extra)


def test_headers_outside_the_gate_and_sources_inside_fail_saying_why(tmp_path):
    _write(tmp_path, dict(CORR_FILES, **{
        'build.py': _build_py(['src/corr.h'], [], "sources += ['src/corr.c']")}))
    out = _run(tmp_path, BUILD)
    assert out.returncode != 0
    assert ('corr_forward, declared in src/corr.h: no source or extra object defines it, and '
            'create_extension got no source (were they added behind a condition false on this '
            'machine, such as `if torch.cuda.is_available():`?)') in out.stderr, out.stderr


def test_a_cuda_header_outside_the_gate_says_which_condition_left_with_cuda_false(tmp_path):
    _write(tmp_path, dict(CORR_FILES, **{
        'build.py': _build_py(['src/corr_cuda.h'], [], "sources += ['src/corr_cuda.c']")}))
    out = _run(tmp_path, BUILD)
    assert out.returncode != 0
    assert ("create_extension('_ext.corr'): corr_forward_cuda takes CUDA tensors; pass "
            "with_cuda=True (a build script that sets it behind `if torch.cuda.is_available():` "
            "leaves it False on a machine without a GPU: `python -m thffi port` makes it depend "
            "on the CUDA toolkit instead)") in out.stderr, out.stderr


def test_a_header_that_only_includes_others_builds_empty_and_says_so_at_build_and_import(
        tmp_path):
    _write(tmp_path, dict(CORR_FILES, **{
        'build.py': _build_py(['src/corr_all.h'], ['src/corr.c'],
                              "headers += ['src/corr_cuda.h']")}))
    out = _run(tmp_path, BUILD + textwrap.dedent('''\
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            from _ext import corr
        print('import:', [str(w.message) for w in caught])
        try:
            corr.corr_forward
        except AttributeError as exc:
            print('use:', exc)
        '''))
    assert out.returncode == 0, out.stdout + out.stderr
    why = ('its headers declare none, and #include corr.h, corr_cuda.h, which thffi does not '
           'read (list them in headers; were they added behind a condition false on this '
           'machine, such as `if torch.cuda.is_available():`? `python -m thffi port` rewrites '
           'that gate to depend on the CUDA toolkit)')
    assert 'thffi: warning: _ext.corr has no functions: %s\n' % why in out.stderr, out.stderr
    assert "import: ['_ext.corr was built with no functions: %s']\n" % why in out.stdout
    assert ("use: module '_ext.corr' has no attribute 'corr_forward': _ext.corr was built with no "
            "functions: ") in out.stdout, out.stdout


@pytest.mark.skipif(__import__('thffi').find_cuda_home() is None,
                    reason='no CUDA toolkit: a missing object is left out without one')
def test_a_kernel_make_sh_failed_to_build_is_not_compiled_for_an_empty_extension(tmp_path):
    """A CUDA-only repository on a machine without a GPU: everything gated
    off but the kernel object, which make.sh's nvcc step failed to build.
    Nothing can call it: nvcc does not run (25 s for a 2018 kernel)."""
    build = _build_py([], [], "headers += ['src/corr_cuda.h']\n"
                      "        sources += ['src/corr_cuda.c']",
                      extra=", extra_objects=[os.path.join(this_file, 'src/corr_kernel.cu.o')]")
    build = build.replace('import torch\n', 'import os\nimport torch\n\n'
                          'this_file = os.path.dirname(os.path.realpath(__file__))\n', 1)
    _write(tmp_path, dict(CORR_FILES, **{
        'build.py': build,
        'src/corr_kernel.cu': '''\
            __global__ void corr_kernel(const float *a, const float *b, float *out, int n)
            {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n)
                    out[i] = a[i] * b[i];
            }
            '''}))
    out = _run(tmp_path, BUILD)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('thffi: src/corr_kernel.cu.o (extra_objects) does not exist, as a make.sh step that '
            'failed would leave it: not compiled again, as _ext.corr has no functions\n'
            ) in out.stderr, out.stderr
    assert 'with nvcc' not in out.stdout and not list(tmp_path.glob('_ext/corr/*_corr_kernel*'))
    assert 'thffi: warning: _ext.corr has no functions' in out.stderr


SETUP = '''\
    from setuptools import setup, find_packages

    setup(name='corr', version='0.1', packages=find_packages(exclude=['build']),
          ext_package='', cffi_modules=['build.py:ffi'])
    '''


def test_a_package_build_by_setuptools_with_every_header_gated_off_says_so(tmp_path):
    """setuptools' cffi_modules never calls build(): the warning comes from
    create_extension, and the package says it again when imported."""
    build = _build_py([], [], "headers += ['corr/src/corr_cuda.h']",
                      extra=", package=True").replace("'_ext.corr'", "'corr._ext.ffi'")
    _write(tmp_path, {'setup.py': SETUP, 'build.py': build, 'corr/__init__.py': '',
                      'corr/src/corr_cuda.h': CORR_FILES['src/corr_cuda.h']})
    out = _run(tmp_path, '''\
        import sys
        sys.argv = ['setup.py', '-q', 'build_ext', '--inplace']
        exec(open('setup.py').read())
        ''')
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('thffi: warning: corr._ext.ffi has no functions: create_extension got no header (were '
            'they added behind a condition false on this machine, such as `if '
            'torch.cuda.is_available():`? `python -m thffi port` rewrites that gate to depend on '
            'the CUDA toolkit)\n') in out.stderr, out.stderr
    found = _run(tmp_path, '''\
        import warnings
        warnings.simplefilter('error')
        try:
            import corr._ext.ffi
        except RuntimeWarning as exc:
            print(exc)
        ''')
    assert found.stdout.startswith('corr._ext.ffi was built with no functions: create_extension '
                                   'got no header'), found.stdout + found.stderr
