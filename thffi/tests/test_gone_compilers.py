"""A compiler named by a path of 2018's machine that this one lacks
(toolchain/compilers.py): `thffi run` starts today's of its kind where the
step starts the old path (make, a shell), and port writes today's into the
build file, which then runs plainly.  The build files are ours, in the
idiom of 2018's (a Makefile and a make.sh of an Ubuntu 16.04, CUDA 8.0
machine)."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

from support import ROOT, write_files
from thffi.port import port
from thffi.toolchain import compilers
from thffi.toolchain import cuda_toolkit as cuda

ENV = dict(os.environ, PYTHONPATH=ROOT,
           PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ['PATH']]))
needs = pytest.mark.skipif(cuda.find_cuda_home() is None or not shutil.which('make'),
                           reason='needs the CUDA toolkit (nvcc) and GNU make')

FILES = {
    'Makefile': '''\
        # Ubuntu 16.04, CUDA 8.0: nvcc 8 takes gcc 5 at most
        CC := /usr/bin/gcc-5
        NVCC := /usr/local/cuda-8.0/bin/nvcc

        all: src/nms.o nvcc-version.txt

        src/nms.o: src/nms.c
        \t$(CC) -fPIC -std=c99 -c src/nms.c -o src/nms.o

        nvcc-version.txt:
        \t$(NVCC) --version > nvcc-version.txt
        ''',
    'make.sh': '''\
        #!/usr/bin/env bash
        set -e
        /usr/local/cuda-9.0/bin/nvcc --version > nvcc-version.txt
        /usr/bin/g++-4.9 -fPIC -c src/roi.cpp -o src/roi.o
        ''',
    'src/nms.c': 'int nms_count(int n) { return n; }\n',
    'src/roi.cpp': '#include <vector>\nint roi_count() { return std::vector<int>(3).size(); }\n',
}


def _run(args, cwd, run=False):
    return subprocess.run([sys.executable, '-m', 'thffi', 'run', '--'] * run + args,
                          cwd=str(cwd), env=ENV, capture_output=True, text=True, timeout=600)


def _built(folder, objects):
    assert all((folder / 'src' / o).is_file() for o in objects)
    assert 'Cuda compilation tools' in (folder / 'nvcc-version.txt').read_text()
    for path in ['nvcc-version.txt'] + ['src/' + o for o in objects]:
        (folder / path).unlink()


@needs
@pytest.mark.parametrize('step, objects', [(['make'], ['nms.o']),
                                           (['bash', 'make.sh'], ['roi.o'])])
def test_run_starts_todays_compiler_and_port_writes_it(tmp_path, step, objects):
    write_files(tmp_path, FILES)
    before = _run(step, tmp_path)
    assert before.returncode != 0 and 'No such file or directory' in before.stderr
    out = _run(step, tmp_path, run=True)
    assert out.returncode == 0, out.stderr
    said = sorted(line for line in out.stderr.splitlines() if line.startswith('thffi run:'))
    gone = {'make': ['gcc: /usr/bin/gcc-5', 'nvcc: /usr/local/cuda-8.0/bin/nvcc'],
            'bash': ['g++: /usr/bin/g++-4.9', 'nvcc: /usr/local/cuda-9.0/bin/nvcc']}[step[0]]
    assert [line.split(' is gone: ')[0] for line in said] == ['thffi run: ' + g for g in gone]
    assert said[0].endswith("today's %s in its place" % gone[0].split(':')[0])
    _built(tmp_path, objects)

    written = port(str(tmp_path), write=True)
    assert sorted(written[3]) == ['Makefile', 'make.sh']
    text = (tmp_path / 'Makefile').read_text()
    assert 'CC := gcc\n' in text
    assert 'NVCC := $(shell python -m thffi --cuda-home)/bin/nvcc\n' in text
    text = (tmp_path / 'make.sh').read_text()
    assert '$(python -m thffi --cuda-home)/bin/nvcc --version' in text
    assert '\ng++ -fPIC -c src/roi.cpp' in text
    out = _run(step, tmp_path)
    assert out.returncode == 0, out.stderr
    _built(tmp_path, objects)
    assert port(str(tmp_path))[0] == ''


def test_a_path_that_is_there_is_kept(tmp_path):
    """A row applies to no file alone (a machine with gcc-5 keeps it), and
    its `*` does not cross a '/'."""
    assert compilers.gone('/usr/local/cuda-8.0/bin/nvcc') == compilers.GONE[0]
    installed = glob.glob('/usr/bin/gcc-[0-9]*') + glob.glob('/usr/bin/g++-[0-9]*')
    assert [p for p in installed if compilers.gone(p)] == []
    assert compilers.gone('/usr/bin/gcc-ar-5') is None
    assert compilers.gone('/usr/local/cuda-8.0/extra/bin/nvcc') is None
    assert compilers.gone('/opt/gcc-5/bin/gcc') is None
