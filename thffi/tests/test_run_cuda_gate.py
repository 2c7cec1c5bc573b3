"""`python -m thffi run` and a build script's CUDA gate
(thffi/run/cuda_gate.py): in a process that builds (its code calls
create_extension), `torch.cuda.is_available()` answers whether CUDA code
can be built here, as port's cuda_enabled() does in the file; everywhere
else it answers the truth.  The build scripts are test_port_cuda_gate.py's,
ours in the 2017-2018 idiom, run on a machine without a GPU (as 2018 build
machines often were: CUDA_VISIBLE_DEVICES='')."""

import os
import subprocess
import sys

import pytest

from support import ROOT, write_files
from test_port_cuda_gate import BUILD, CPU, CUDA
from thffi.toolchain import cuda_toolkit as cuda

TOOLKIT = cuda.find_cuda_home()
ENV = dict(os.environ, PYTHONPATH=ROOT, CUDA_VISIBLE_DEVICES='')
ENV.pop('THFFI_WITH_CUDA', None)
ANSWERS_TRUE = ('thffi run: build.py:10: torch.cuda.is_available() answers True in this build: '
                'a CUDA toolkit is found (%s): building CUDA code needs that, not a GPU (port '
                'writes cuda_enabled() here; THFFI_WITH_CUDA=0 says otherwise); elsewhere it '
                'answers the truth' % TOOLKIT)
CALL = ('import torch\nfrom _ext import x\nout = torch.FloatTensor()\n'
        'assert x.x_twice(torch.arange(6.0).view(2, 3), out) == 1\n'
        'assert torch.equal(out, 2 * torch.arange(6.0).view(2, 3)), out\n'
        'print(hasattr(x, "x_twice_cuda"))\n')


def thffi_run(args, cwd, env=ENV):
    return subprocess.run([sys.executable, '-m', 'thffi', 'run'] + args, cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=900)


def said(stderr):
    return [line for line in stderr.splitlines() if line.startswith('thffi run:')]


def _sources(folder):
    return {p.name: p.read_bytes() for p in folder.rglob('*') if p.is_file()}


@pytest.mark.skipif(not TOOLKIT, reason='no CUDA toolkit: the gate answers False here, as the '
                                        'truth, and no CUDA code is built')
def test_a_gated_build_builds_its_cuda_code_under_thffi_run(tmp_path):
    """nvcc, no GPU: the branch is taken, with_cuda with it, the .cu is
    compiled by nvcc; the script is not changed; said once."""
    write_files(tmp_path, dict({'build.py': BUILD}, **CPU, **CUDA))
    before = _sources(tmp_path)
    out = thffi_run(['--', 'python', 'build.py'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert 'Including CUDA code.' in out.stdout
    assert [line for line in said(out.stderr) if 'is_available' in line] == [ANSWERS_TRUE]
    assert all(_sources(tmp_path)[name] == text for name, text in before.items())
    library = next((tmp_path / '_ext' / 'x').glob('_x*.so'))
    sections = subprocess.run(['readelf', '-S', '-W', str(library)], capture_output=True,
                              text=True, check=True).stdout
    assert '.nv_fatbin' in sections  # the kernel, compiled by nvcc
    called = subprocess.run([sys.executable, '-c', CALL], cwd=str(tmp_path), env=ENV,
                            capture_output=True, text=True, timeout=300)
    assert called.returncode == 0, called.stderr
    assert called.stdout.split()[-1] == 'True'


def test_a_branch_naming_files_never_committed_gets_the_truth(tmp_path):
    """The CUDA branch names files that do not exist: port keeps that gate,
    and so does thffi run; the build works, without CUDA, as without it."""
    write_files(tmp_path, dict({'build.py': BUILD}, **CPU))
    out = thffi_run(['--', 'python', 'build.py'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert 'Including CUDA code.' not in out.stdout
    gate = [line for line in said(out.stderr) if 'is_available' in line]
    assert gate == ([
        'thffi run: build.py:10: torch.cuda.is_available() answers the truth (False), as port '
        'keeps this gate: the CUDA branch names files that do not exist: src/x_cuda.c (line '
        '12), src/x_kernel.cu (line 12), src/x_cuda.h (line 13); so torch.cuda.is_available() '
        'is kept (line 10): cuda_enabled() would take the branch wherever a CUDA toolkit '
        'exists, GPU or not, and the build would fail there; commit what is missing (or take '
        'it out of the branch), then write cuda_enabled()'] if TOOLKIT else [])
    called = subprocess.run([sys.executable, '-c', CALL], cwd=str(tmp_path), env=ENV,
                            capture_output=True, text=True, timeout=300)
    assert (called.returncode, called.stdout.split()[-1]) == (0, 'False'), called.stderr


def test_setup_py_with_cffi_modules_asks_the_build_script(tmp_path):
    """setuptools' cffi_modules runs build.py inside `python setup.py ...`
    (before any command): the process builds, for build.py's own calls."""
    write_files(tmp_path, dict({'build.py': BUILD, 'setup.py': '''\
        from setuptools import setup

        setup(name='x_ext', version='0.1', cffi_modules=['build.py:ffi'])
        '''}, **CPU, **CUDA))
    out = thffi_run(['--', 'python', 'setup.py', '--name'], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == 'x_ext'
    assert ('Including CUDA code.' in out.stdout) == bool(TOOLKIT)
    assert [line for line in said(out.stderr) if 'is_available' in line] == (
        [ANSWERS_TRUE] if TOOLKIT else [])


@pytest.mark.slow  # deselected by default (conftest.py)
def test_is_available_stays_the_truth_where_nothing_builds(tmp_path):
    """A training script that imports a built extension (whose generated
    __init__.py imports torch.utils.ffi), and a build process's calls from
    outside the repository, get the truth; nothing is said."""
    ask = 'import torch\nprint(torch.cuda.is_available())\n'
    truth = subprocess.run([sys.executable, '-c', ask], env=ENV, capture_output=True, text=True,
                           timeout=300).stdout
    write_files(tmp_path, {
        'repo/_ext/__init__.py': '',
        'repo/_ext/x/__init__.py': 'from torch.utils.ffi import _wrap_function\n',
        'repo/train.py': '''\
            import torch
            import _ext.x
            print(torch.cuda.is_available())
            ''',
        'repo/build.py': '''\
            import torch
            from torch.utils.ffi import create_extension
            import probe
            print(probe.asked())
            ffi = create_extension('_ext.y', headers=[], sources=[])
            ''',
        'elsewhere/probe.py': '''\
            import torch


            def asked():
                return torch.cuda.is_available()
            ''',
    })
    env = dict(ENV, PYTHONPATH=os.pathsep.join([str(tmp_path / 'elsewhere'), ROOT]))
    for script in ('train.py', 'build.py'):
        out = thffi_run(['--', 'python', script], tmp_path / 'repo', env)
        assert (out.returncode, out.stdout, said(out.stderr)) == (0, truth, []), out.stderr
