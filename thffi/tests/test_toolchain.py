"""thffi/toolchain: the rows that know 2018's compilers and today's."""

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from thffi.toolchain import cuda_toolkit as cuda
from thffi.toolchain import nvcc

NEW_ARCH = ['-gencode=arch=compute_75,code=sm_75']


@pytest.mark.parametrize('old, new', [
    (['-std=c++11'], ['-std=c++17']),
    (['--std=c++14'], ['--std=c++17']),
    (['-std', 'c++11'], ['-std', 'c++17']),
    (['-std=c++1y'], ['-std=c++17']),
    (['-Xcompiler', '-std=c++11'], ['-Xcompiler', '-std=c++17']),
    (['-Xcompiler', '-fPIC -std=gnu++11'], ['-Xcompiler', '-fPIC -std=gnu++17']),
    (['-Xcompiler=-fPIC,-std=c++14,-O2'], ['-Xcompiler=-fPIC,-std=c++17,-O2']),
    (['--expt-extended-lambda'], ['--extended-lambda']),
    (['-expt-extended-lambda'], ['--extended-lambda']),
    (['-ccbin', 'gcc-4.9-not-here', '-O3'], ['-O3']),
    (['-ccbin=/opt/gcc-5/bin/g++', '-O3'], ['-O3']),
    (['-ccbin', 'gcc'], ['-ccbin', 'gcc']),
    (['--expt-relaxed-constexpr', '-D_FORCE_INLINES'], ['--expt-relaxed-constexpr',
                                                       '-D_FORCE_INLINES']),
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


def test_text_rules_keep_quotes_and_the_form_written():
    text = 'NVCC_FLAGS="-std=c++11 -Xcompiler \'-fPIC -std=c++11\'" -std c++14 -ccbin=g++-5 x'
    new, changes = nvcc.modern_flags(text)
    assert new == 'NVCC_FLAGS="-std=c++17 -Xcompiler \'-fPIC -std=c++17\'" -std c++17 x'
    assert [c.old for c in changes] == ['-std=c++11', '-std=c++11', '-std c++14',
                                        '-ccbin=g++-5']
    # Not a flag: part of a longer word.
    assert nvcc.modern_flags('my-std=c++11 -std=c++111')[0] == 'my-std=c++11 -std=c++111'


def test_the_architectures_are_replaced_always_when_asked():
    assert nvcc.modernize(['-arch=sm_80', '-O3'], NEW_ARCH, {75, 80}, always=True)[0] == \
        NEW_ARCH + ['-O3']
    assert nvcc.modernize(['-O3'], NEW_ARCH, {75, 80}, always=True)[0] == ['-O3'] + NEW_ARCH


def test_carried_flags():
    args = ['nvcc', '-c', '-o', 'k.cu.o', 'k.cu', '-x', 'cu', '-Xcompiler', '-fPIC',
            '-I', '../include', '-I$TORCH/lib/include', '-Iinc', '-I', '$(TORCH)/x', '-DN=4',
            '-D', 'FAST', '-Xcompiler', '$(CFLAGS)', '-lineinfo', '-lcudart', '-L/usr/lib',
            '-MD', '-MF', 'k.d', '-arch=sm_52', '-std=c++11', '--expt-extended-lambda']
    assert nvcc.carried_flags(args, '/p/src') == [
        '-x', 'cu', '-Xcompiler', '-fPIC', '-I', '/p/include', '-I/p/src/inc', '-DN=4', '-D',
        'FAST', '-lineinfo', '-arch=sm_52', '-std=c++11', '--expt-extended-lambda']


# 2018 nvcc flags CUDA 13 refuses (each compiled as written fails; after
# modernize() it compiles), and flags it still takes (left as they are).
REFUSED = [['-arch=sm_61'], ['-gencode=arch=compute_30,code=sm_30'],
           ['-gencode', 'arch=compute_52,code=sm_52'], ['-arch=compute_30', '-code=sm_30'],
           ['-code=compute_30', '-arch=compute_30'], ['--gpu-architecture=sm_52'],
           ['-arch', 'sm_35', '--gpu-code', 'sm_35,compute_35'],
           ['-arch=sm_70', '-gencode', 'arch=compute_72,code=sm_72'],
           ['-arch=sm_75', '-std=c++11'], ['-arch=sm_75', '-std', 'c++11'],
           ['-arch=sm_75', '--std=c++14'], ['-arch=sm_75', '-std=c++1y'],
           ['-arch=sm_75', '-Xcompiler', '-std=c++11'],
           ['-arch=sm_75', '-Xcompiler', '-fPIC,-std=c++14'],
           ['-arch=sm_75', '-Xcompiler', '-std=gnu++11'],
           ['-arch=sm_75', '-ccbin', 'gcc-5'], ['-arch=sm_75', '-ccbin=/usr/bin/g++-4.9']]
TAKEN = [['-arch=sm_75', '--expt-relaxed-constexpr'], ['-arch=sm_75', '-D_FORCE_INLINES'],
         ['-arch=sm_75', '-Xcompiler', '-fPIC'], ['-arch=sm_75', '-use_fast_math'],
         ['-arch=sm_75', '-lineinfo'], ['-arch=sm_75', '-x', 'cu'],
         ['-arch=sm_75', '-Wno-deprecated-gpu-targets'], ['-arch=sm_75', '-std=c++17'],
         ['-arch=sm_75', '-ccbin', 'gcc'], ['-gencode', 'arch=compute_80,code=sm_80'],
         ['-arch=sm_75', '--default-stream', 'per-thread'], ['-arch=sm_75', '-m64']]


@pytest.mark.slow  # deselected by default (conftest.py)
@pytest.mark.skipif(cuda.find_cuda_home() is None, reason='needs nvcc')
def test_each_refused_flag_compiles_after_modernize_and_taken_flags_stay(tmp_path):
    """Checked against the installed nvcc: a kernel including thrust (which
    checks the C++ standard) and, for the lambda option, a __device__
    lambda."""
    assert shutil.which('gcc-5') is None and not os.path.exists('/usr/bin/g++-4.9')
    (tmp_path / 'k.cu').write_text('#include <thrust/version.h>\n'
                                   '__global__ void k(float *x) { x[0] = THRUST_VERSION; }\n')
    (tmp_path / 'l.cu').write_text('template <typename F> __global__ void k(float *x, F f) '
                                   '{ x[0] = f(x[0]); }\n'
                                   'void run(float *x) { k<<<1, 1>>>(x, [] __device__ (float v) '
                                   '{ return v * 2; }); }\n')
    accepted = nvcc.accepted_architectures()
    home = cuda.find_cuda_home()

    def compiles(job):
        i, source, flags = job
        return subprocess.run([home + '/bin/nvcc', '-c', source, '-o', '%d.o' % i] + flags,
                              cwd=tmp_path, capture_output=True, text=True).returncode == 0

    cases = ([(source, flags, nvcc.modernize(flags, ['-arch=sm_75'], accepted)[0])
              for source, flags in [('k.cu', f) for f in REFUSED + TAKEN]
              + [('l.cu', ['-arch=sm_75', '--expt-extended-lambda'])]])
    # Each old form and its new form; a form left as it is, once.
    jobs = [(2 * i + k, source, flags) for i, (source, old, new) in enumerate(cases)
            for k, flags in enumerate((old, new)) if k or new != old]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip([job[0] for job in jobs], pool.map(compiles, jobs)))
    for i, (source, old, new) in enumerate(cases):
        assert results[2 * i + 1], (old, new)
        if i < len(REFUSED):
            assert not results[2 * i] and new != old, old
        elif i < len(REFUSED) + len(TAKEN):
            assert new == old, old
    assert cases[-1][2] == ['-arch=sm_75', '--extended-lambda']


def test_gccs_linker_option_form_becomes_nvccs():
    # python -m thffi --libs prints gcc's -Wl,-rpath,DIR; a 2018 make rule
    # linking a library with nvcc --shared takes it after port and under run.
    from thffi.toolchain import nvcc
    args = ['nvcc', '--shared', '-o', 'libk.so', 'k.cu', '-L/c/lib', '-l:libthffi-1.so',
            '-Wl,-rpath,/c/lib', '-Xcompiler', '-fPIC']
    new, (change,) = nvcc.modernize(args, ['-gencode=arch=compute_75,code=sm_75'])
    assert new == args[:7] + ['-Xlinker', '-rpath', '-Xlinker', '/c/lib', '-Xcompiler', '-fPIC']
    assert "nvcc rejects it (Unknown option '-Wl,...')" in change.why
    # in a build file's text, in a variable gcc's commands may use too
    assert nvcc.modern_flags('LIBS = -Wl,-rpath,$(DIR) -Wl,--as-needed -lm')[0] == \
        'LIBS = -Xlinker -rpath -Xlinker $(DIR) -Xlinker --as-needed -lm'
