"""thffi/toolchain: the rows that know 2018's compilers and today's."""

import subprocess

import pytest

from thffi import cuda
from thffi.toolchain import nvcc

NEW_ARCH = ['-gencode=arch=compute_75,code=sm_75']


@pytest.mark.parametrize('old, new', [
    (['-std=c++11'], ['-std=c++17']),
    (['--std=c++14'], ['-std=c++17']),
    (['-std', 'c++11'], ['-std=c++17']),
    (['-Xcompiler', '-std=c++11'], ['-Xcompiler=-std=c++17']),
    (['--expt-extended-lambda'], ['--extended-lambda']),
    (['-std=c++17', '-O3'], ['-std=c++17', '-O3']),
    (['-Xcompiler', '-fPIC'], ['-Xcompiler', '-fPIC']),
])
def test_flag_rules(old, new):
    assert nvcc.modernize(['-c', 'k.cu'] + old, NEW_ARCH, {75, 80})[0] == ['-c', 'k.cu'] + new


def test_old_architectures_become_the_given_flags_where_the_first_stood():
    args = ['-c', 'k.cu', '-gencode', 'arch=compute_30,code=sm_30', '-O3',
            '-arch=sm_52', '-code=sm_52']
    new, changes = nvcc.modernize(args, NEW_ARCH, {75, 80})
    assert new == ['-c', 'k.cu'] + NEW_ARCH + ['-O3']
    assert 'sm_30, sm_52' in changes[-1].why


def test_architectures_todays_nvcc_takes_stay():
    args = ['-gencode', 'arch=compute_80,code=sm_80', '-arch=sm_75']
    assert nvcc.modernize(args, NEW_ARCH, {75, 80}) == (args, [])
    assert nvcc.rejected([61, 75, 80], None) == [61]


@pytest.mark.skipif(cuda.find_cuda_home() is None, reason='needs nvcc')
def test_every_new_form_is_accepted_by_the_installed_nvcc(tmp_path):
    """Each rule's replacement compiles a kernel that includes thrust."""
    (tmp_path / 'k.cu').write_text('#include <thrust/device_vector.h>\n'
                                   '__global__ void k(float *x) { x[0] = 1; }\n')
    for rule in nvcc.FLAG_RULES:
        new = rule.new.replace(r'\1=\2', '-Xcompiler=').replace(r'\3', '')
        result = subprocess.run([cuda.find_cuda_home() + '/bin/nvcc', '-c', 'k.cu', '-o', 'k.o',
                                 '-arch=sm_75', new], cwd=tmp_path, capture_output=True,
                                text=True)
        assert result.returncode == 0, (rule, result.stderr[-2000:])
