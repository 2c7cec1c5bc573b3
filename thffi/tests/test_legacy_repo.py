"""A repository written the 2018 way (thffi/tests/legacy_repo: a make.sh compiling
a .cu.o with nvcc flags of that time and $TORCH include paths, a build.py
with `import torch.utils.ffi` behind `torch.cuda.is_available()`, a legacy
autograd Function taking __init__ arguments, a test script with
torch.range, Variable and loss.data[0]) runs on today's PyTorch with zero
hand edits: pip install thffi; python -m thffi port --write; make.sh; test.py.
And how far the same repository gets with thffi installed but not ported.

thffi is pip-installed into a fresh virtual environment that sees this
Python's packages (torch, cffi, libcst), from a copy of thffi/."""

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import torch

from support import TESTS, ROOT
from thffi import cuda_enabled

LEGACY = os.path.join(TESTS, 'legacy_repo')
GPU = torch.cuda.is_available()
TINY_BUILD = textwrap.dedent('''\
    import os
    from torch.utils.ffi import create_extension

    ffi = create_extension('_ext.tiny', headers=['src/tiny.h'], sources=['src/tiny.c'],
                           relative_to=__file__)

    if __name__ == '__main__':
        ffi.build()
    ''')
def _tiny_project(folder):
    """A build script that says `from torch.utils.ffi import create_extension`."""
    (folder / 'src').mkdir(parents=True)
    (folder / 'build.py').write_text(TINY_BUILD)
    (folder / 'src' / 'tiny.h').write_text('int tiny_fill(THFloatTensor *output, float value);\n')
    (folder / 'src' / 'tiny.c').write_text(
        '#include <TH/TH.h>\n\nint tiny_fill(THFloatTensor *output, float value)\n{\n'
        '    THFloatTensor_fill(output, value);\n    return 1;\n}\n')


def _run(command, cwd, env, timeout=600):
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _install_thffi(tmp, *pip_args):
    """(python, environment) of a new virtual environment in tmp with thffi
    installed by pip from a copy of thffi/ (pip_args: e.g. -e); `python` on
    its PATH is the environment's, as for a user who activated it."""
    listed = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard',
                             'thffi'], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    for name in listed:
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.join(ROOT, name), tmp / name)
    subprocess.run([sys.executable, '-m', 'venv', '--system-site-packages', '--without-pip',
                    str(tmp / 'env')], check=True)
    python = str(tmp / 'env' / 'bin' / 'python')
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'THFFI_WITH_CUDA')}
    env['PATH'] = str(tmp / 'env' / 'bin') + os.pathsep + env.get('PATH', '')
    out = _run([python, '-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-deps',
                '--no-index', *pip_args, str(tmp / 'thffi')], tmp, env)
    assert out.returncode == 0, out.stdout + out.stderr
    return python, env


@pytest.fixture(scope='module')
def venv(tmp_path_factory):
    return _install_thffi(tmp_path_factory.mktemp('venv'))


PROBE = ('import json, sys; print(json.dumps([[m for m in ("thffi", "torch", "cffi") '
         'if m in sys.modules], [type(f).__name__ for f in sys.meta_path]]))')


@pytest.mark.slow  # deselected by default (conftest.py)
def test_pip_installs_thffi_and_torch_utils_ffi(venv, tmp_path):
    python, env = venv
    # The hook is there at every start, and costs neither thffi nor torch.
    loaded, finders = json.loads(_run([python, '-c', PROBE], tmp_path, env).stdout)
    # (after the finders already there: an editable install's may follow it)
    assert loaded == [] and "TorchUtilsFfiFinder" in finders
    off = json.loads(_run([python, '-c', PROBE], tmp_path,
                          dict(env, THFFI_TORCH_UTILS_FFI='0')).stdout)
    assert 'TorchUtilsFfiFinder' not in off[1]
    installed = _run([python, '-c', 'import importlib.metadata as m, thffi; print(m.version('
                      '"thffi"), thffi.__version__, thffi.__file__)'], tmp_path, env)
    version, thffi_version, thffi_file = installed.stdout.split()
    assert version == thffi_version
    # thffi/README.md is the distribution's page (its long description).
    described = _run([python, '-c', 'import importlib.metadata as m; '
                      'print(m.metadata("thffi").get_payload(), end="")'], tmp_path, env)
    with open(os.path.join(ROOT, 'thffi', 'README.md'), encoding='utf-8') as f:
        assert described.stdout.strip() == f.read().strip()
    assert thffi_file.startswith(os.path.dirname(os.path.dirname(python)))
    # torch.utils.ffi is the installed package file of the hook's.
    hooked = _run([python, '-c', 'import torch.utils.ffi as f; print(f.__file__)'], tmp_path, env)
    assert hooked.stdout.strip() == os.path.join(os.path.dirname(thffi_file), '_torch_utils_ffi',
                                                 '__init__.py'), hooked.stderr
    # An unmodified legacy build script builds with the installed thffi.
    _tiny_project(tmp_path / 'tiny')
    built = _run([python, 'build.py'], tmp_path / 'tiny', env)
    assert built.returncode == 0, built.stdout + built.stderr
    assert 'thffi: built _ext.tiny' in built.stdout
    assert "__all__ = ['tiny_fill']" in (tmp_path / 'tiny' / '_ext' / 'tiny' /
                                         '__init__.py').read_text()


def test_editable_install_has_the_hook(tmp_path):
    python, env = _install_thffi(tmp_path, '-e')
    loaded, finders = json.loads(_run([python, '-c', PROBE], tmp_path, env).stdout)
    # (after the finders already there: an editable install's may follow it)
    assert loaded == [] and "TorchUtilsFfiFinder" in finders
    where = _run([python, '-c', 'import thffi; print(thffi.__file__)'], tmp_path, env)
    assert where.stdout.strip() == str(tmp_path / 'thffi' / '__init__.py')


def test_python_m_thffi_runs_a_build_script_without_installing(tmp_path):
    _tiny_project(tmp_path / 'tiny')
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = _run([sys.executable, '-m', 'thffi', os.path.join('tiny', 'build.py')], tmp_path, env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert 'thffi: built _ext.tiny' in out.stdout
    assert list((tmp_path / 'tiny' / '_ext' / 'tiny').glob('_tiny_*.so'))


def _copy_legacy(destination):
    shutil.copytree(LEGACY, destination,
                    ignore=shutil.ignore_patterns('_ext', '*.o', '__pycache__'))
    return destination


def _reference():
    """What test.py computes, in pure PyTorch."""
    a = torch.arange(1, 13, dtype=torch.float32).view(3, 4)
    b = torch.arange(0, 12, dtype=torch.float32).view(3, 4) / 4
    output = 0.5 * a * b
    return output, 3 * 0.5 * b, 3 * 0.5 * a  # output, grads after 3 backward calls


def _printed(stdout):
    """test.py's lines 'name: value' as {name: value}."""
    return dict(line.split(': ', 1) for line in stdout.splitlines() if ': ' in line)


def test_port_then_make_sh_then_test_script(venv, tmp_path):
    python, env = venv
    repo = _copy_legacy(tmp_path / 'repo')
    sources = {p: p.read_bytes() for p in repo.rglob('*') if p.suffix in ('.c', '.h', '.cu')}
    ported = _run([python, '-m', 'thffi', 'port', '--write', '.'], repo, env)
    assert ported.returncode == 0, ported.stderr
    diff = ported.stdout
    for change in (
            ' import os\n-import torch\n-import torch.utils.ffi\n+import thffi\n',
            '-if torch.cuda.is_available():\n+if thffi.cuda_enabled():\n',
            '-ffi = torch.utils.ffi.create_extension(\n+ffi = thffi.create_extension(\n',
            '-    -gencode arch=compute_30,code=sm_30 \\\n',
            '+    $(python -m thffi --arch-flags) \\\n+    $(python -m thffi --includes)\n',
            '-from torch.autograd import Function\n+from thffi.legacy import Function\n',
            '+a = torch.arange(1, 13, dtype=torch.get_default_dtype()).view(3, 4)\n',
            '+input1 = a.detach().requires_grad_()\n',
            '+    total += loss.item()\n',
            "+    print('step %d, loss: %.4f' % (step, loss.item()))\n"):
        assert change in diff
    report = ported.stderr
    assert 'src/scale_mul_cuda.c:13: exit() becomes a RuntimeError on the thread' in report
    assert 'test.py:24: output.data[0] not changed' in report
    assert 'make.sh: no `set -e`' in report
    assert {p: p.read_bytes() for p in sources} == sources  # C and CUDA untouched
    again = _run([python, '-m', 'thffi', 'port', '.'], repo, env)
    assert again.returncode == 0 and again.stdout == ''

    made = _run(['bash', 'make.sh'], repo, env)
    assert made.returncode == 0, made.stdout + made.stderr
    assert ('Including CUDA code.' in made.stdout) == cuda_enabled()
    if cuda_enabled():  # the kernel compiled for sm_75 and linked
        assert (repo / 'src' / 'cuda' / 'scale_mul_kernel.cu.o').is_file()
        assert 'scale_mul_forward_cuda' in (repo / '_ext' / 'scale_mul' /
                                            '__init__.py').read_text()
    ran = _run([python, 'test.py'], repo, env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    printed = _printed(ran.stdout)
    output, grad1, grad2 = _reference()
    loss = '%.4f' % output.sum().item()
    assert [printed['step %d, loss' % i] for i in range(3)] == [loss] * 3
    assert printed['mean loss'] == loss
    assert ast.literal_eval(printed['first row']) == output[0].tolist()
    assert ast.literal_eval(printed['output']) == output.tolist()
    torch.testing.assert_close(torch.tensor(ast.literal_eval(printed['grad1'])), grad1)
    torch.testing.assert_close(torch.tensor(ast.literal_eval(printed['grad2'])), grad2)
    assert printed['gradcheck'] == 'True'
    assert ('cuda output' in printed) == GPU
    if GPU:
        assert ast.literal_eval(printed['cuda output']) == output.tolist()


def test_torch_utils_ffi_alone_without_port(venv, tmp_path):
    """How far the unported repository gets with thffi installed: make.sh's
    nvcc rejects the 2018 architectures and, without `set -e`, make.sh goes
    on to build.py, whose `import torch.utils.ffi` now works.  Without a GPU
    its torch.cuda.is_available() gate builds the C code alone; with one,
    the build stops at the missing .cu.o.  test.py then runs its legacy
    Function and stops at loss.data[0], an idiom PyTorch removed."""
    python, env = venv
    repo = _copy_legacy(tmp_path / 'repo')
    made = _run(['bash', 'make.sh'], repo, env)
    log = made.stdout + made.stderr
    assert ('Unsupported gpu architecture' in log) == cuda_enabled()
    assert 'No module named' not in log
    generated = repo / '_ext' / 'scale_mul' / '__init__.py'
    if GPU:
        assert made.returncode != 0 and not generated.exists()
        return
    assert made.returncode == 0, log
    assert 'Including CUDA code.' not in made.stdout
    assert 'scale_mul_forward_double' in generated.read_text()
    assert 'scale_mul_forward_cuda' not in generated.read_text()
    ran = _run([python, 'test.py'], repo, env)
    assert ran.returncode != 0
    # The legacy Function ran (the extension loaded thffi's runtime, which
    # accepts them); loss.data[0] is the first removed idiom.
    assert 'Legacy autograd function' not in ran.stderr
    assert 'total += loss.data[0]\n' in ran.stderr
    assert 'IndexError: invalid index of a 0-dim tensor' in ran.stderr
