"""Standard headers 2018's compilers included for the code
(toolchain/std_headers.py): std::numeric_limits with only <algorithm>
included, std::string in a .cu without <string>.  Where the compiler says
the code forgot one, `thffi run` and thffi's build compile it again with
that header included first, saying so once; port writes the #include into
a C++ source g++ judges so, and reports the CUDA one.  The sources are
ours, in 2018's idiom."""

import os
import subprocess
import sys

import pytest
import torch

from support import ROOT, import_built, write_files
from thffi import create_extension
from thffi.port import port
from thffi.toolchain import cuda_toolkit as cuda
from thffi.toolchain import std_headers

ENV = dict(os.environ, PYTHONPATH=ROOT,
           PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ['PATH']]))
NVCC = cuda.find_cuda_home() and os.path.join(cuda.find_cuda_home(), 'bin', 'nvcc')

LIMITS = '''\
    #include <TH/TH.h>
    #include <algorithm>

    extern "C" int lowest_forward(THFloatTensor *output)
    {
      THFloatTensor_fill(output, std::numeric_limits<float>::lowest());
      return 1;
    }
    '''
NAME_CU = '''\
    #include <cstdio>

    __global__ void name_kernel(int *out) { *out = 3; }

    std::string kernel_name() { return std::string("name_kernel"); }
    '''


def _compile(cwd, run=False):
    steps = 'g++ -std=c++11 -I%s -c src/lowest.cpp -o src/lowest.o' % os.path.join(
        ROOT, 'thffi', 'include')
    if run and NVCC:
        steps += ' && nvcc -c src/name_kernel.cu -o src/name_kernel.o'
    return subprocess.run([sys.executable, '-m', 'thffi', 'run', '--'] * run + [
        'sh', '-c', steps], cwd=str(cwd), env=ENV, capture_output=True, text=True, timeout=600)


def test_run_includes_the_header_the_compiler_names_and_port_writes_it(tmp_path):
    write_files(tmp_path, {'src/lowest.cpp': LIMITS, 'src/name_kernel.cu': NAME_CU})
    before = _compile(tmp_path)
    assert before.returncode != 0 and 'numeric_limits' in before.stderr
    out = _compile(tmp_path, run=True)
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stderr.splitlines() if line.startswith('thffi run:')]
    assert said[0] == ('thffi run: g++: src/lowest.cpp: compiled with <limits> included first: '
                       'it names std::numeric_limits without including it (%s)'
                       % std_headers.WHY)
    if NVCC:
        assert said[1].startswith('thffi run: nvcc: src/name_kernel.cu: compiled with <string> '
                                  'included first: it names std::string')
        assert (tmp_path / 'src' / 'name_kernel.o').is_file()
    assert len(said) == 1 + bool(NVCC)
    os.remove(tmp_path / 'src' / 'lowest.o')

    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == [os.path.join('src', 'lowest.cpp')]
    assert (tmp_path / 'src' / 'lowest.cpp').read_text().startswith(
        '#include <limits>\n#include <TH/TH.h>\n#include <algorithm>\n')
    left = [f for f in findings if f.path == os.path.join('src', 'name_kernel.cu')]
    assert [(f.line, f.fixed) for f in left] == [(5, False)]
    assert left[0].message.startswith('names std::string and includes no <string>: ')
    assert left[0].message.endswith('add #include <string>')
    out = _compile(tmp_path)
    assert out.returncode == 0, out.stderr
    assert port(str(tmp_path))[0] == ''


def test_thffis_build_includes_it(tmp_path, capfd):
    write_files(tmp_path, {'src/lowest.h': 'int lowest_forward(THFloatTensor *output);\n',
                           'src/lowest.cpp': LIMITS})
    create_extension('_ext.lowest', headers=['src/lowest.h'], sources=['src/lowest.cpp'],
                     relative_to=str(tmp_path / 'build.py'), verbose=False,
                     extra_compile_args=['-std=c++11']).build()
    said = [line for line in capfd.readouterr().err.splitlines() if '<limits>' in line]
    assert said == ['thffi: %s: compiled with <limits> included first: it names '
                    'std::numeric_limits without including it (%s)'
                    % (tmp_path / 'src' / 'lowest.cpp', std_headers.WHY)]
    out = torch.zeros(2)
    assert import_built(tmp_path, '_ext.lowest').lowest_forward(out) == 1
    assert out.tolist() == [torch.finfo(torch.float32).min] * 2


@pytest.mark.parametrize('output, expected', [
    ("x.cpp:2:1: note: 'std::string' is defined in header '<string>'; did you forget to "
     "'#include <string>'?", [('string', 'string')]),
    ('x.cpp:3:23: error: \u2018numeric_limits\u2019 is not a member of \u2018std\u2019',
     [('limits', 'numeric_limits')]),
    ('x.cu(3): error: namespace "std" has no member "string"', [('string', 'string')]),
    ("x.cpp:3:8: error: no member named 'ostringstream' in namespace 'std'",
     [('sstream', 'ostringstream')]),
    ("x.cpp:3:8: error: 'vector' is not a member of 'std'", []),  # not in the table
])
def test_the_compilers_messages(output, expected):
    assert std_headers.forgotten(output) == expected
