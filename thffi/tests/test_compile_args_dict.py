"""extra_compile_args in torch.utils.cpp_extension's form, a dict {'cxx':
[...], 'nvcc': [...]}, as 2018 projects passed it to create_extension for
BuildExtension's compile of ffi.distutils_extension(): the 'cxx' list
reaches the C and C++ sources, the 'nvcc' list the .cu ones, in build()
and in the Extension distutils_extension() gives setuptools; and
extra_link_args so given, its 'cxx' list the link."""

import os
import subprocess
import sys

import pytest
import torch
from support import hooked_env, import_built, load_build_script, write_files

from thffi import BuildError, create_extension, find_cuda_home

# A 2018 project: one op whose C scales by a macro its build gives it.
PROJECT = {
    'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension(
            '_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
            relative_to=__file__,
            extra_compile_args={'cxx': ['-DSCALE=3'], 'nvcc': ['-DSCALE_ON_GPU=2']},
            extra_link_args={'cxx': ['-Wl,--as-needed']})

        if __name__ == '__main__':
            ffi.build()
        ''',
    'src/scale.h': 'int scale_forward(THFloatTensor *input, THFloatTensor *output);\n',
    'src/scale.c': '''\
        #include <TH/TH.h>

        int scale_forward(THFloatTensor *input, THFloatTensor *output)
        {
          THFloatTensor_mul(output, input, SCALE);
          return 1;
        }
        ''',
    'setup.py': '''\
        from setuptools import setup
        from build import ffi

        setup(name='scale', version='0.1', ext_modules=[ffi.distutils_extension()])
        ''',
}


def test_the_cxx_list_reaches_the_c_in_build(tmp_path):
    write_files(tmp_path, PROJECT)
    load_build_script(str(tmp_path / 'build.py')).ffi.build()
    _check(tmp_path)


def test_the_cxx_list_reaches_the_c_in_setuptools(tmp_path):
    write_files(tmp_path, PROJECT)
    done = subprocess.run([sys.executable, 'setup.py', 'build_ext', '--inplace'],
                          cwd=tmp_path, env=hooked_env(tmp_path), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    assert done.returncode == 0, done.stdout
    _check(tmp_path)


def _check(folder):
    out = torch.zeros(3)
    assert import_built(folder, '_ext.scale').scale_forward(torch.ones(3), out) == 1
    assert out.tolist() == [3.0, 3.0, 3.0]


@pytest.mark.skipif(find_cuda_home() is None, reason='needs a CUDA toolkit (nvcc)')
def test_the_nvcc_list_reaches_the_cu(tmp_path):
    write_files(tmp_path, dict(PROJECT, **{'src/scale_kernel.cu': '__global__ void k() {}\n'}))
    ffi = create_extension(
        '_ext.scale', headers=['src/scale.h'], sources=['src/scale.c', 'src/scale_kernel.cu'],
        relative_to=str(tmp_path / 'build.py'), with_cuda=True,
        extra_compile_args={'cxx': ['-DSCALE=3'], 'nvcc': ['-DSCALE_ON_GPU=2']})
    commands = {os.path.basename(source): command for source, _, command, own in ffi.jobs
                if not own}
    assert '-DSCALE_ON_GPU=2' in commands['scale_kernel.cu']
    assert not {'-DSCALE=3', 'cxx', 'nvcc'} & set(commands['scale_kernel.cu'])
    assert ffi.plan.kwargs['extra_compile_args'][-1:] == ['-DSCALE=3']


def test_other_keys_are_refused(tmp_path):
    write_files(tmp_path, PROJECT)
    with pytest.raises(BuildError, match=r"create_extension\('_ext.scale'\): extra_link_args: "
                       r"a dict takes the keys 'cxx' \(torch.utils.cpp_extension's form\), "
                       r"got 'nvcc'"):
        create_extension('_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
                         relative_to=str(tmp_path / 'build.py'),
                         extra_link_args={'nvcc': ['-lcudart']})
