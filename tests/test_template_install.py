"""The demo as a template: `pip install .` and `pip install -e .` leave the
folder's own build (`python build.py && python test.py`) working and ship
no path of the machine that built them; a broken _ext/ is built again; the
demo's files alone, copied into a project where thffi is installed, build
and import, and say which build.py to run before they are built.
(docs/install.md)"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from demo_support import HIDE_INSTALLED_THFFI, ROOT, copy_demo, load_build_script

# CPU builds: what is checked here is where files go, not CUDA (quicker).
CPU = {'THFFI_WITH_CUDA': '0'}

# The installed or copied demo, used as a project uses it: prints the file
# of the thffi module whose helpers it calls.
CHECK = textwrap.dedent('''
    import sys
    import torch
    from {package}.modules.add import MyAddModule
    from {package}.functions import c_function
    a, b = torch.randn(4, 3, requires_grad=True), torch.randn(3, 4).t()
    out = MyAddModule()(a, b)
    out.sum().backward()
    assert torch.equal(out, a + b) and torch.equal(a.grad, torch.ones(4, 3))
    print(sys.modules[c_function.__module__].__file__)
    ''')


def _run(command, cwd, env, timeout=600):
    out = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=timeout)
    assert out.returncode == 0, '%s:\n%s%s' % (' '.join(map(str, command)), out.stdout,
                                               out.stderr)
    return out.stdout


@pytest.fixture(scope='module')
def venv(tmp_path_factory):
    """(python, environment) of a virtual environment over this one with
    this checkout's thffi pip-installed (`pip install ./thffi`, without
    its prebuilt objects: quicker); its `python` first on PATH."""
    tmp = tmp_path_factory.mktemp('venv')
    listed = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard',
                             'thffi'], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    for name in listed:
        if not name.startswith('thffi/tests/'):
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(os.path.join(ROOT, name), tmp / name)
    subprocess.run([sys.executable, '-m', 'venv', '--system-site-packages', '--without-pip',
                    str(tmp / 'env')], check=True)
    python = str(tmp / 'env' / 'bin' / 'python')
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
    env.update(CPU, PATH=str(tmp / 'env' / 'bin') + os.pathsep + env.get('PATH', ''))
    _run([python, '-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-deps',
          '--no-index', '--no-compile', str(tmp / 'thffi')], tmp, dict(env, THFFI_PREBUILT='0'))
    site = _run([python, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
                tmp, env).strip()
    return python, env, site


def _digests(folder):
    """{path: sha256} of the files under folder."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), 'rb') as f:
                found[os.path.relpath(os.path.join(root, name), folder)] = \
                    hashlib.sha256(f.read()).hexdigest()
    return found


def _files_naming(folder, text):
    """The files under folder whose bytes hold text."""
    return [os.path.join(root, name) for root, _, files in os.walk(folder) for name in files
            if text.encode() in open(os.path.join(root, name), 'rb').read()]


def test_pip_install_leaves_the_folder_s_own_build_working(venv, tmp_path):
    python, env, site = venv
    source, elsewhere = tmp_path / 'source', tmp_path / 'elsewhere'
    copy_demo(source)
    elsewhere.mkdir()
    _run([python, 'build.py'], source, env)
    built = _digests(source / '_ext')
    pip = [python, '-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-deps',
           '--no-index', '--no-compile']

    _run(pip + ['.'], source, env)
    assert _digests(source / '_ext') == built  # pip wrote nothing there
    assert 'OK (cpu)' in _run([python, 'test.py'], source, env)
    assert 'thffi: _ext.my_lib is up to date' in _run([python, 'build.py'], source, env)
    installed = os.path.join(site, 'extension_ffi')
    assert not os.path.exists(os.path.join(installed, 'setup.py'))
    # The installed package calls the installed thffi, else its own copy.
    assert _run([python, '-c', CHECK.format(package='extension_ffi')], elsewhere,
                env).split()[-1] == os.path.join(site, 'thffi', 'ops.py')
    assert _run([python, '-c', HIDE_INSTALLED_THFFI + CHECK.format(package='extension_ffi')],
                elsewhere, env).split()[-1] == os.path.join(installed, 'thffi', 'ops.py')
    # No path of the machine that built it: not in the generated loader's
    # docstring (the headers), the library's debug information or the
    # place its errors name thffi's C files at.
    assert os.path.isfile(os.path.join(installed, '_ext', 'my_lib', '__init__.py'))
    assert _files_naming(installed, str(source)) == []

    _run(pip + ['-e', '.'], source, env)
    assert _digests(source / '_ext') == built
    assert 'OK (cpu)' in _run([python, 'test.py'], source, env)
    assert _run([python, '-c', CHECK.format(package='extension_ffi')], elsewhere,
                env).split()[-1] == os.path.join(site, 'thffi', 'ops.py')

    # What an older thffi's `pip install .` left: _ext/my_lib's loader
    # replaced by the package's (it imports _my_lib, whose init function
    # the folder's library does not define).  build.py builds again.
    loader = source / '_ext' / 'my_lib' / '__init__.py'
    shutil.copy(source / 'build' / 'thffi' / 'package' / '_ext' / 'my_lib' / '__init__.py',
                loader)
    assert 'from ._my_lib import ffi as _ffi, lib as _lib' in loader.read_text()
    rebuilt = _run([python, 'build.py'], source, env)
    assert 'thffi: built _ext.my_lib' in rebuilt and 'up to date' not in rebuilt
    assert 'OK (cpu)' in _run([python, 'test.py'], source, env)


def test_a_library_replaced_under_the_loader_is_built_again(tmp_path):
    (tmp_path / 'src').mkdir()
    (tmp_path / 'src' / 'fill.h').write_text('int fill(THFloatTensor *output, float value);\n')
    (tmp_path / 'src' / 'fill.c').write_text(
        '#include <TH/TH.h>\n\nint fill(THFloatTensor *output, float value)\n{\n'
        '    THFloatTensor_fill(output, value);\n    return 1;\n}\n')
    (tmp_path / 'build.py').write_text(textwrap.dedent('''\
        from thffi import create_extension

        ffi = create_extension('_ext.fill_replaced', headers=['src/fill.h'],
                               sources=['src/fill.c'], relative_to=__file__, verbose=False)
        '''))
    ffi = load_build_script(str(tmp_path / 'build.py'), '_template_install_fill').ffi
    assert ffi.build() and ffi.is_up_to_date()
    library = ffi.library_path()
    with open(library, 'ab') as f:  # another build's file, copied over it
        f.write(b'\0')
    assert not ffi.is_up_to_date()
    assert ffi.build() and ffi.is_up_to_date()


def test_the_demo_s_files_alone_in_a_project_with_thffi_installed(venv, tmp_path):
    python, env, site = venv
    project = tmp_path / 'project'
    ext = project / 'app' / 'ext'
    ext.mkdir(parents=True)
    # The files docs/install.md lists, as a project keeps them.
    with open(os.path.join(ROOT, 'docs', 'install.md')) as f:
        listed = re.search(r"copy only the demo's own files.*?```\n(.*?)\n```", f.read(),
                           re.S).group(1).split()
    assert 'functions/' in listed and 'thffi/' not in listed
    for name in (n.rstrip('/') for n in listed):
        if os.path.isdir(os.path.join(ROOT, name)):
            shutil.copytree(os.path.join(ROOT, name), ext / name,
                            ignore=shutil.ignore_patterns('__pycache__'))
        else:
            shutil.copy(os.path.join(ROOT, name), ext / name)
    (project / 'app' / '__init__.py').write_text('')
    # Before the build: which build.py to run, in both layouts.
    for cwd, module in ((project, 'app.ext.functions.add'), (ext, 'functions.add')):
        early = subprocess.run([python, '-c', 'import ' + module], cwd=cwd, env=env,
                               capture_output=True, text=True, timeout=300)
        assert early.returncode != 0
        assert ('not built yet: run python %s' % (ext / 'build.py')) in early.stderr, \
            early.stderr
    _run([python, 'app/ext/build.py'], project, env)
    assert _run([python, '-c', CHECK.format(package='app.ext')], project,
                env).split()[-1] == os.path.join(site, 'thffi', 'ops.py')
