"""`port` writes into a makefile what `thffi run` does in flight, rule for
rule (port/make_run.py): each makefile here is built both ways, under
`thffi run` and by plain make after `port --write`, and the two builds must
agree, in what they say and in the objects they leave.  make's own forms:
`$(CXX)` in a pattern rule, make's implicit rule for a .cpp (no recipe at
all), `$(Q)nvcc` with `-std=c++11`; the rules: g++ 5's gnu++98 for a class
constant, cccl_legacy.h for thrust::binary_function, `-x cu` for a .cpp
that includes thrust's device headers.  The sources are ours, written in
the 2017-2018 idiom."""

import os
import shutil
import subprocess
import sys

import pytest

from support import ROOT, write_files
from thffi.port import port
from thffi.toolchain import cuda_toolkit as cuda

ENV = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5')
needs_make = pytest.mark.skipif(shutil.which('make') is None, reason='needs GNU make')

# g++ 5's gnu++98 took an in-class initialiser of a static const float (a
# GNU extension); C++11 and later need constexpr.
GRID_CPP = '''\
    class Grid {
     public:
      static const float gap = 0.25;
      explicit Grid(int n) : n_(n) {}
      float span() const { return n_ * gap; }
     private:
      int n_;
    };

    float grid_span(int n) { Grid grid(n); return grid.span(); }
    '''
# C++11, which gnu++98 refuses: built as it is, beside grid.o.
FINE_CPP = 'int fine_count() { auto n = 3; return n; }\n'
# thrust's device headers in a .cpp (CUDA 13's g++ side cannot compile them)
# and a functor on thrust::binary_function (gone from CUDA 13's thrust): one
# source, for one nvcc compile each way (each takes ~10 s).
TOTAL_CPP = '''\
    #include <thrust/device_vector.h>
    #include <thrust/transform_reduce.h>

    struct scaled : public thrust::unary_function<float, float> {
        const float a;
        scaled(float a_) : a(a_) {}
        __host__ __device__ float operator()(const float &x) const { return a * x; }
    };

    extern "C" float scaled_total(const float *x, int n, float a)
    {
        thrust::device_vector<float> v(x, x + n);
        return thrust::transform_reduce(v.begin(), v.end(), scaled(a), 0.0f,
                                        thrust::plus<float>());
    }
    '''
GNU98 = "grid.cpp: compiled as gnu++98 (g++ 5's default): today's g++ refuses it"
AS_CUDA = 'total.cpp: compiled by nvcc as CUDA (-x cu): g++ cannot compile it, nvcc can'
FIXTURES = {
    # make's implicit rule: $(CXX) $(CXXFLAGS) -c, no recipe written.
    'implicit rule': ({'Makefile': 'CXXFLAGS = -O2 -fPIC\nall: grid.o fine.o\n',
                       'grid.cpp': GRID_CPP, 'fine.cpp': FINE_CPP},
                      ['grid.o', 'fine.o'], [GNU98], []),
    # $(CXX) in a pattern rule, quiet by $(Q).
    '$(CXX)': ({'Makefile': 'Q = @\nCXXFLAGS = -O2 -fPIC\nall: libgrid.so\n'
                            'libgrid.so: grid.o\n\t$(Q)$(CXX) -shared $^ -o $@\n'
                            '%.o: %.cpp\n\t$(Q)$(CXX) $(CXXFLAGS) -c $< -o $@\n',
                'grid.cpp': GRID_CPP}, ['grid.o', 'libgrid.so'], [GNU98], []),
    # $(Q)nvcc with C++11 compiling thrust in a .cpp.
    '$(Q)nvcc': ({'Makefile': 'Q = @\nNVCCFLAGS = -std=c++11 -Xcompiler -fPIC\n'
                              'all: total.o\n'
                              'total.o: total.cpp\n\t$(Q)nvcc $(NVCCFLAGS) -c total.cpp -o $@\n',
                  'total.cpp': TOTAL_CPP},
                 ['total.o'], [AS_CUDA], ['-x cu', 'cccl_legacy.h', '-std=c++17']),
}


def _defined(path):
    out = subprocess.run(['nm', '--defined-only', '-P', str(path)], capture_output=True,
                         text=True, check=True).stdout
    return sorted(line.split()[0] for line in out.splitlines() if ' T ' in line)


@needs_make
# The nvcc fixture compiles thrust five times (over a minute on 2 cores):
# slow, deselected by default (conftest.py).
@pytest.mark.parametrize('fixture', [pytest.param(name, marks=pytest.mark.slow)
                                     if name == '$(Q)nvcc' else name for name in FIXTURES])
def test_a_makefile_builds_alike_under_run_and_after_port(tmp_path, fixture, monkeypatch):
    files, built, lines, flags = FIXTURES[fixture]
    if 'nvcc' in fixture and cuda.find_cuda_home() is None:
        pytest.skip('needs the CUDA toolkit (nvcc)')
    monkeypatch.setenv('PYTHONPATH', ROOT)  # the makefile's `python -m thffi`: this thffi
    ran, ported = tmp_path / 'run', tmp_path / 'port'
    for folder in (ran, ported):
        write_files(folder, files)
    if 'nvcc' not in fixture:  # (nvcc's refusals: test_cccl_legacy.py, test_cxx_dialect.py)
        plain = subprocess.run(['make'], cwd=ported, env=ENV, capture_output=True, text=True,
                               timeout=900)
        assert plain.returncode != 0  # today's g++ refuses the makefile as it is
        for name in os.listdir(ported):
            if name.endswith(('.o', '.so')):
                os.unlink(ported / name)

    under_run = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', 'make'], cwd=ran,
                               env=ENV, capture_output=True, text=True, timeout=900)
    assert under_run.returncode == 0, under_run.stdout + under_run.stderr
    for line in lines:
        assert under_run.stderr.count(line) == 1, under_run.stderr

    _, findings, _, changed = port(str(ported), write=True)
    assert changed == ['Makefile'], findings
    for line in lines:
        assert [f.fixed for f in findings if line in f.message] == [True], findings
    text = (ported / 'Makefile').read_text()
    for flag in flags:
        assert flag in subprocess.run(['make', '-n', '-B'], cwd=ported, env=ENV,
                                      capture_output=True, text=True).stdout
    after_port = subprocess.run(['make'], cwd=ported, env=ENV, capture_output=True, text=True,
                                timeout=900)
    assert after_port.returncode == 0, text + after_port.stdout + after_port.stderr
    for name in built:
        assert _defined(ran / name) == _defined(ported / name) != []
    # Ported once: a second port changes nothing.
    assert port(str(ported), write=True)[3] == []
    assert (ported / 'Makefile').read_text() == text



# Four nvcc compiles of thrust (run's, port's verdict twice, the ported
# script's): slow, deselected by default (conftest.py).
@pytest.mark.slow
def test_a_make_sh_compiling_thrust_in_a_cpp_builds_alike_under_run_and_after_port(
        tmp_path, monkeypatch):
    """A script's nvcc gets what a makefile's does (port/shell.py): `-x cu`
    for the .cpp nvcc compiles only as CUDA, and cccl_legacy.h."""
    if cuda.find_cuda_home() is None:
        pytest.skip('needs the CUDA toolkit (nvcc)')
    monkeypatch.setenv('PYTHONPATH', ROOT)
    files = {'make.sh': '#!/bin/bash\nset -e\n'
                        'nvcc -std=c++11 -Xcompiler -fPIC -c total.cpp -o total.o\n',
             'total.cpp': TOTAL_CPP}
    ran, ported = tmp_path / 'run', tmp_path / 'port'
    for folder in (ran, ported):
        write_files(folder, files)
    under_run = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', 'bash', 'make.sh'],
                               cwd=ran, env=ENV, capture_output=True, text=True, timeout=900)
    assert under_run.returncode == 0, under_run.stdout + under_run.stderr
    assert under_run.stderr.count(AS_CUDA) == 1, under_run.stderr

    _, findings, _, changed = port(str(ported), write=True)
    assert changed == ['make.sh'], findings
    assert [f.fixed for f in findings if AS_CUDA in f.message] == [True], findings
    text = (ported / 'make.sh').read_text()
    assert 'nvcc $(python -m thffi --cccl-legacy) -x cu -std=c++17 ' in text, text
    after_port = subprocess.run(['bash', 'make.sh'], cwd=ported, env=ENV, capture_output=True,
                                text=True, timeout=900)
    assert after_port.returncode == 0, text + after_port.stdout + after_port.stderr
    assert _defined(ran / 'total.o') == _defined(ported / 'total.o') != []
    assert port(str(ported), write=True)[3] == []


@needs_make
def test_every_cuda_compile_make_runs_includes_cccl_legacy_after_port(tmp_path, monkeypatch):
    """As `thffi run` includes it in each: `$(Q)nvcc`, `@nvcc`, `$(NVCC)` of
    .cu sources (no compile is needed to decide it)."""
    monkeypatch.setenv('PYTHONPATH', ROOT)
    write_files(tmp_path, {
        'Makefile': 'Q = @\nNVCC = nvcc\nall: a.o b.o c.o\n'
                    'a.o: a.cu\n\t$(Q)nvcc -c $< -o $@\n'
                    'b.o: b.cu\n\t@nvcc -c $< -o $@\n'
                    '%.o: %.cu\n\t$(NVCC) -c $< -o $@\n',
        'a.cu': '', 'b.cu': '', 'c.cu': ''})
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == ['Makefile']
    assert [f.line for f in findings if 'cccl_legacy.h' in f.message and f.fixed] == [5, 7, 9]
    dry = subprocess.run(['make', '-n', '-B'], cwd=tmp_path, env=ENV, capture_output=True,
                         text=True).stdout.splitlines()
    assert len(dry) == 3 and all('-include ' in line and line.split('-include ')[1].split()[0]
                                 .endswith('/include/cccl_legacy.h') for line in dry), dry
    assert port(str(tmp_path), write=True)[3] == []
