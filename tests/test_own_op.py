"""README's "Add your own op", followed step by step on a copy of the demo
folder for two more ops, whose files are in tests/own_op/: output = input *
scale + bias, and output = input * input, whose backward reads the input
forward saved.  For each: its C for the CPU and CUDA, its Function with the
compile registration and its Module, and the check of step 5 (a pure-PyTorch
reference, gradcheck, opcheck, torch.compile(fullgraph=True))."""

import ast
import os
import shutil
import subprocess
import sys

import pytest
import torch

from demo_support import ROOT, copy_demo
from thffi import cuda_enabled

OWN_OP = os.path.join(ROOT, 'tests', 'own_op')
# Step 3: the lines of the demo's build.py that list its files, and the same
# lines listing the op's files too.
BUILD_PY_EDITS = [
    ("sources = ['src/my_lib.c']", "sources = ['src/my_lib.c', 'src/scale.c', 'src/square.c']"),
    ("headers = ['src/my_lib.h']", "headers = ['src/my_lib.h', 'src/scale.h', 'src/square.h']"),
    ("sources += ['src/my_lib_cuda.c', 'src/my_lib_kernel.cu']",
     "sources += ['src/my_lib_cuda.c', 'src/my_lib_kernel.cu',\n"
     "                'src/scale_cuda.c', 'src/scale_kernel.cu',\n"
     "                'src/square_cuda.c', 'src/square_kernel.cu']"),
    ("headers += ['src/my_lib_cuda.h']",
     "headers += ['src/my_lib_cuda.h', 'src/scale_cuda.h', 'src/square_cuda.h']"),
]


@pytest.fixture(scope='module')
def project(tmp_path_factory):
    """A copy of the demo with the scale and square ops added as README says, built."""
    project = tmp_path_factory.mktemp('own_op') / 'myext'
    copy_demo(project)
    # Steps 1, 2 and 4: the ops' headers, C and CUDA under src/, their
    # Functions under functions/, their Modules under modules/.
    shutil.copytree(OWN_OP, project, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns('__pycache__'))
    # Step 3: list the files in build.py, then run it.
    build_py = project / 'build.py'
    text = build_py.read_text()
    for line, listed in BUILD_PY_EDITS:
        assert text.count(line) == 1, 'build.py no longer has the line %r' % line
        text = text.replace(line, listed)
    build_py.write_text(text)
    built = subprocess.run([sys.executable, 'build.py'], cwd=project, capture_output=True,
                           text=True, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    return project


def _check(project, op, device):
    """Step 5: the copy's check_<op>.py; returns the op's C functions it lists."""
    ran = subprocess.run([sys.executable, 'check_%s.py' % op, device], cwd=project,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout.split()


def _code_lines(path):
    """Lines of a Python file that hold code: not blank, comments or docstrings."""
    with open(path) as f:
        source = f.read()
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, 'body', None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    return [line for number, line in enumerate(source.splitlines(), 1)
            if line.strip() and not line.strip().startswith('#') and number not in docstrings]


def test_the_python_of_an_op_is_about_30_lines():
    scale = [os.path.join(OWN_OP, 'functions', 'scale.py'),
             os.path.join(OWN_OP, 'modules', 'scale.py')]
    # (4 of them the Module's import, which works in both layouts)
    assert sum(len(_code_lines(path)) for path in scale) <= 32
    with open(os.path.join(ROOT, 'functions', 'add.py')) as f:
        assert len(f.read().splitlines()) <= 60  # the demo's, docstrings included


@pytest.mark.parametrize('op', ['scale', 'square'])
def test_own_op_on_the_cpu(project, op):
    # With a CUDA toolkit, the op's CUDA C and kernel were compiled and linked too.
    twins = ('', '_double') + (('_cuda', '_cuda_double') if cuda_enabled() else ())
    assert set(_check(project, op, 'cpu')) == {'my_lib_%s_%s%s' % (op, step, twin)
                                               for twin in twins
                                               for step in ('forward', 'backward')}


@pytest.mark.skipif(not (torch.cuda.is_available() and cuda_enabled()),
                    reason='needs a CUDA GPU and a CUDA toolkit')
@pytest.mark.parametrize('op', ['scale', 'square'])
def test_own_op_on_the_gpu(project, op):
    assert 'my_lib_%s_forward_cuda' % op in _check(project, op, 'cuda')


def _readme_listings():
    """The fenced code blocks of README's "Add your own op", in order."""
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        text = f.read()
    section = text.split('## Add your own op', 1)[1].split('\n## ', 1)[0]
    return [block.splitlines()[1:] for block in section.split('```')[1::2]]


def test_readmes_listings_are_the_own_ops_files():
    """Each listing of README's steps is the file it stands for, its lines
    in the file's order (a listing may leave lines out): the header, the C,
    the lines build.py gets (BUILD_PY_EDITS, which the build above uses) and
    the Function."""
    header, c, build_lines, function = _readme_listings()
    files = [os.path.join(OWN_OP, 'src', 'square.h'), os.path.join(OWN_OP, 'src', 'square.c'),
             None, os.path.join(OWN_OP, 'functions', 'square.py')]
    edited = [listed for _, listed in BUILD_PY_EDITS[:2]]
    assert build_lines == edited
    for listing, path in zip((header, c, function), (files[0], files[1], files[3])):
        with open(path) as f:
            lines = iter(f.read().splitlines())
        missing = [line for line in listing if line.strip() and line not in lines]
        assert not missing, '%s: README lists lines it lacks (or out of order): %s' % (
            os.path.relpath(path, ROOT), missing)
