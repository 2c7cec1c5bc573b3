"""C++ as 2018's g++ compiled it by default (toolchain/cc.py's
OLD_CXX_DEFAULTS): a source naming no standard that today's g++ refuses
under its default is compiled with the first of gnu++14 and gnu++98 the
compiler accepts it under, saying so in one line; by create_extension and
under `thffi run`.  And a .cpp that g++ cannot compile and nvcc can (thrust's
device headers) compiled by nvcc, in a build with CUDA.  The sources are
ours, written for g++ 5 and CUDA 9."""

import os
import subprocess
import sys

import pytest

from support import ROOT, write_files
from thffi import BuildError, create_extension
from thffi.toolchain import cuda_toolkit

ENV = dict(os.environ, PYTHONPATH=ROOT)
# g++ 5's gnu++98 took an in-class initialiser of a static const float
# (a GNU extension); C++11 and later need constexpr.
GRID_CPP = '''\
    #include <TH/TH.h>

    class Grid {
     public:
      static const float gap = 0.25;
      explicit Grid(int n) : n_(n) {}
      float span() const { return n_ * gap; }
     private:
      int n_;
    };

    extern "C" float grid_span(THFloatTensor *points)
    {
      Grid grid((int)THFloatTensor_size(points, 0));
      return grid.span();
    }
    '''
GRID_H = 'float grid_span(THFloatTensor *points);\n'
# The same class in C++ of its own, as a library built apart by make.
GRID_PLAIN_CPP = GRID_CPP.replace('#include <TH/TH.h>\n', '').replace(
    'THFloatTensor *points', 'int n').replace('(int)THFloatTensor_size(points, 0)', 'n')


def test_a_class_constant_of_gnu98_builds_as_gnu98_saying_so(tmp_path, capfd):
    write_files(tmp_path, {'src/grid.h': GRID_H, 'src/grid.cpp': GRID_CPP})
    create_extension('_ext.grid', headers=['src/grid.h'], sources=['src/grid.cpp'],
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    err = capfd.readouterr().err
    assert err.count('compiled as gnu++98') == 1, err
    assert "grid.cpp: compiled as gnu++98 (g++ 5's default): today's g++ refuses it under " \
           "its default standard" in err
    assert 'constexpr' not in err  # today's refusal is not shown: it did not stop the build
    out = subprocess.run([sys.executable, '-c', 'import torch\nfrom _ext import grid\n'
                          'print(grid.grid_span(torch.zeros(6, 2)))'], cwd=tmp_path, env=ENV,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == '1.5'


def test_a_standard_the_build_names_is_kept_and_its_verdict_final(tmp_path, capfd):
    write_files(tmp_path, {'src/grid.h': GRID_H, 'src/grid.cpp': GRID_CPP})
    ffi = create_extension('_ext.grid', headers=['src/grid.h'], sources=['src/grid.cpp'],
                           extra_compile_args=['-std=c++11'],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    with pytest.raises(BuildError):
        ffi.build()
    err = capfd.readouterr().err
    assert 'constexpr' in err and 'compiled as gnu++' not in err


def test_code_no_standard_accepts_shows_todays_messages_once(tmp_path, capfd):
    write_files(tmp_path, {'src/grid.h': GRID_H,
                           'src/grid.cpp': GRID_CPP.replace('return grid.span();',
                                                            'return grid.spun();')})
    ffi = create_extension('_ext.grid', headers=['src/grid.h'], sources=['src/grid.cpp'],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    with pytest.raises(BuildError):
        ffi.build()
    err = capfd.readouterr().err
    assert err.count('no member named') == 1, err
    assert 'constexpr' in err and 'compiled as gnu++' not in err


def test_a_make_step_under_thffi_run(tmp_path):
    write_files(tmp_path, {
        'src/grid.cpp': GRID_PLAIN_CPP,
        'Makefile': '''\
            grid.o: src/grid.cpp
            \tg++ -O2 -fPIC -c src/grid.cpp -o grid.o
            '''})
    plain = subprocess.run(['make'], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                           timeout=300)
    assert plain.returncode != 0 and 'constexpr' in plain.stderr
    run = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', 'make'], cwd=tmp_path,
                         env=ENV, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert [line for line in run.stderr.splitlines() if line.startswith('thffi run:')] == [
        "thffi run: g++: src/grid.cpp: compiled as gnu++98 (g++ 5's default): today's g++ "
        "refuses it under its default standard"]
    assert os.path.isfile(tmp_path / 'grid.o')


@pytest.mark.slow  # deselected by default (conftest.py)
@pytest.mark.skipif(cuda_toolkit.find_cuda_home() is None, reason='no CUDA toolkit (nvcc)')
def test_a_cpp_including_thrusts_device_headers_is_compiled_by_nvcc(tmp_path, capfd):
    # 2018: a .cpp beside the .cu files, using thrust on device pointers;
    # g++ meets CUDA's device intrinsics in thrust's headers and fails.
    write_files(tmp_path, {
        'src/count.h': 'int count_positive(THCudaTensor *t);\n',
        'src/count.cpp': '''\
            #include <THC/THC.h>
            #include <thrust/device_ptr.h>
            #include <thrust/count.h>

            extern THCState *state;

            struct positive {
              __host__ __device__ bool operator()(float x) const { return x > 0; }
            };

            extern "C" int count_positive(THCudaTensor *t)
            {
              thrust::device_ptr<float> p(THCudaTensor_data(state, t));
              return (int)thrust::count_if(p, p + THCudaTensor_nElement(state, t), positive());
            }
            '''})
    create_extension('_ext.count', headers=['src/count.h'], sources=['src/count.cpp'],
                     with_cuda=True, relative_to=str(tmp_path / 'build.py'),
                     verbose=False).build()
    err = capfd.readouterr().err
    assert 'count.cpp: compiled by nvcc as CUDA (-x cu): g++ cannot compile it, nvcc can' in err
    out = subprocess.run([sys.executable, '-c', 'import torch\nfrom _ext import count\n'
                          'if torch.cuda.is_available():\n'
                          '    print(count.count_positive(torch.tensor([1., -2, 3], '
                          'device="cuda")))\n'
                          'else:\n    print(2)'], cwd=tmp_path, env=ENV,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == '2'


@pytest.mark.parametrize('written', ['make.sh', 'Makefile'])
def test_port_writes_the_standard_the_compilers_verdict_asks_for(tmp_path, written):
    from thffi.port import port
    script = {'make.sh': '#!/bin/sh\nset -e\ng++ -O2 -fPIC -shared src/grid.cpp -o libgrid.so\n'
                         'g++ -O2 -fPIC -c src/fine.cpp -o fine.o\n',
              'Makefile': 'libgrid.so: src/grid.cpp\n\t@g++ -O2 -fPIC -shared src/grid.cpp -o '
                          '$@\n\tg++ -O2 -fPIC -c src/fine.cpp -o fine.o\n'}[written]
    write_files(tmp_path, {'src/grid.cpp': GRID_PLAIN_CPP, 'src/fine.cpp': 'int fine() { return 1; }\n'})
    (tmp_path / written).write_text(script)
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == [written]
    said = [f for f in findings if f.path == written and 'gnu++' in f.message]
    assert [(f.line, f.fixed) for f in said] == [(3 if written == 'make.sh' else 2, True)]
    assert said[0].message == ("src/grid.cpp: compiled as gnu++98 (g++ 5's default): today's "
                               "g++ refuses it under its default standard; now -std=gnu++98")
    text = (tmp_path / written).read_text()
    assert 'g++ -std=gnu++98 -O2 -fPIC -shared src/grid.cpp' in text
    assert 'g++ -O2 -fPIC -c src/fine.cpp' in text  # today's default takes it: no change
    made = subprocess.run(['sh', 'make.sh'] if written == 'make.sh' else ['make'], cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    assert os.path.isfile(tmp_path / 'libgrid.so')
