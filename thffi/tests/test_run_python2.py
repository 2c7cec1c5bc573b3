"""`python -m thffi run` and Python 2 code run as it is (thffi/run/python2.py):
a package written for Python 2.7 (thffi/tests/py2_imports: implicit
relative imports, a sibling imported by an exec'd template, print
statements) runs through `thffi run -- python train.py`, its files
unchanged, as Python 2.7 ran it and as it runs after `port --write`; the
conversions are cached and said once.  The repositories are ours, in the
2017-2018 idiom."""

import os
import shutil
import subprocess
import sys

import pytest

from support import ROOT, TESTS, write_files
from test_port_python import _python2
from thffi.port import port

PACKAGE = os.path.join(TESTS, 'py2_imports')
# What Python 2.7 prints running train.py (stdout; 'done' goes to stderr).
EXPECTED = ("helper: the top-level helper\nops: scale, shift\nshifted: [2, 3, 4, 1]\n"
            "scaled: [2, 4, 6, 8]\n")
SAID = [
    "thffi run: train.py is Python 2 (line 8: Missing parentheses in call to 'print'. Did you "
    "mean print(...)?, a SyntaxError in Python 3): runs as `python -m thffi port` converts it, "
    "in memory (the file stays as it is)",
    "thffi run: shiftnet/__init__.py: its imports of its package's own modules (line 2) find "
    "them first, as in Python 2: runs as `python -m thffi port` converts it, in memory (the "
    "file stays as it is)",
    "thffi run: shiftnet/layers.py is Python 2 (line 7: invalid syntax, a SyntaxError in "
    "Python 3): runs as `python -m thffi port` converts it, in memory (the file stays as it is)",
    "thffi run: shiftnet/scaling.py is Python 2 (line 6: `basestring`, which only Python 2 "
    "has): runs as `python -m thffi port` converts it, in memory (the file stays as it is)"]


def _env(tmp_path, *first):
    """The environment of the tests' runs: thffi's cache in tmp_path,
    first (folders) before thffi on PYTHONPATH."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(first + (ROOT,)),
                THFFI_CACHE_DIR=str(tmp_path / 'cache'))


def thffi_run(args, cwd, env):
    return subprocess.run([sys.executable, '-m', 'thffi', 'run'] + args, cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=600)


def said(stderr):
    return [line for line in stderr.splitlines() if line.startswith('thffi run:')]


def _files(folder):
    """{relative path: bytes} of the files under folder, __pycache__ left out."""
    found = {}
    for at, dirs, names in os.walk(str(folder)):
        dirs[:] = [d for d in dirs if d != '__pycache__']
        for name in names:
            path = os.path.join(at, name)
            with open(path, 'rb') as f:
                found[os.path.relpath(path, str(folder))] = f.read()
    return found


@pytest.fixture
def repository(tmp_path):
    folder = tmp_path / 'repo'
    shutil.copytree(PACKAGE, str(folder), ignore=shutil.ignore_patterns('__pycache__', '*.pyc'))
    return folder


def test_the_package_is_what_python_2_ran():
    """The fixture as Python 2.7 runs it, where one is installed (the
    tests below assert the same output, written down)."""
    python2 = _python2()
    if python2 is None:
        pytest.skip('no Python 2.7 here: EXPECTED is what it printed where there was one')
    out = subprocess.run([python2, '-B', 'train.py'], cwd=PACKAGE, capture_output=True,
                         text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, EXPECTED, 'done\n')


def test_a_python_2_package_runs_through_thffi_run_unchanged_on_disk(repository, tmp_path):
    before = _files(repository)
    plain = subprocess.run([sys.executable, 'train.py'], cwd=str(repository),
                           env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert plain.returncode == 1 and 'SyntaxError' in plain.stderr

    out = thffi_run(['--', 'python', 'train.py'], repository, _env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPECTED
    assert said(out.stderr) == SAID  # each file once
    assert out.stderr.splitlines()[-1] == 'done'
    assert _files(repository) == before

    # The second run takes the conversions from thffi's cache: port's
    # converter (fissix) cannot even be imported, and is not needed.
    blocked = tmp_path / 'no-fissix'
    write_files(blocked, {'fissix/__init__.py': 'raise ImportError("the cache is not used")\n'})
    entries = list((tmp_path / 'cache' / 'python2').glob('[0-9a-f][0-9a-f]/*'))
    assert len(entries) == 6  # 4 converted, 2 as they are
    again = thffi_run(['--', 'python', 'train.py'], repository, _env(tmp_path, str(blocked)))
    assert again.returncode == 0, again.stderr
    assert (again.stdout, said(again.stderr)) == (EXPECTED, SAID)
    assert _files(repository) == before


def test_the_same_package_after_port_runs_the_same(repository, tmp_path):
    """port --write makes the same resolution of the imports; the result
    runs with plain Python, and through thffi run with nothing converted."""
    port(str(repository), write=True)
    init = (repository / 'shiftnet' / '__init__.py').read_text()
    assert 'from . import helper\nfrom .layers import *\n' in init
    assert "    exec('from .%s import *' % name)\n" in init
    assert (repository / 'shiftnet' / 'scaling.py').read_text().startswith(
        'from .helper import register\n')
    assert (repository / 'train.py').read_text().splitlines()[3] == 'import helper'
    plain = subprocess.run([sys.executable, 'train.py'], cwd=str(repository),
                           env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert (plain.returncode, plain.stdout, plain.stderr) == (0, EXPECTED, 'done\n')
    out = thffi_run(['--', 'python', 'train.py'], repository, _env(tmp_path))
    assert (out.returncode, out.stdout, out.stderr) == (0, EXPECTED, 'done\n')


def test_an_import_exec_d_with_a_name_known_only_at_run_time(tmp_path):
    """exec('from %s import *' % name) with name a function's argument:
    port reports it; thffi run makes the import in the string explicit as
    it runs, where it names the package's own module."""
    write_files(tmp_path, {
        'loader/__init__.py': '''\
            def load(name):
                exec('from %s import *' % name, globals())
                exec 'from %s import VALUE as SECOND' % name in globals()
            ''',
        'loader/convsp.py': 'VALUE = "convsp of loader"\n',
        'convsp.py': 'VALUE = "the top-level convsp"\n',
        'run.py': 'import loader\nloader.load("convsp")\nprint loader.VALUE, "/", '
                  'loader.SECOND\nloader.load("convsp")\n',
    })
    out = thffi_run(['python run.py && python run.py'], tmp_path, _env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == 'convsp of loader / convsp of loader\n' * 2
    assert said(out.stderr)[2:] == [
        "thffi run: loader/__init__.py:2: exec('from convsp import *') imports this package's "
        "own module, as Python 2 found it: runs as exec('from .convsp import *')",
        "thffi run: loader/__init__.py:3: exec('from convsp import VALUE as SECOND') imports "
        "this package's own module, as Python 2 found it: runs as exec('from .convsp import "
        "VALUE as SECOND')"]


def test_a_python_2_script_runs_as_python_runs_a_script(tmp_path):
    """`cd lib; python setup.py build` as a README types it: the converted
    script has its arguments, its path, its folder first on sys.path, and
    its exit status; an error's traceback names its file and line."""
    write_files(tmp_path, {
        'lib/setup.py': '''\
            import os
            import sys
            import rows
            print sys.argv[1:], os.path.basename(__file__), sys.path[0] == os.getcwd()
            print rows.NAME, __name__
            if sys.argv[1] == 'fail':
                raise ValueError, 'no such command'
            sys.exit(3)
            ''',
        'lib/rows.py': 'NAME = "rows beside setup.py"\n',
    })
    out = thffi_run(['cd lib; python -u setup.py build --quiet'], tmp_path, _env(tmp_path))
    assert out.returncode == 3, out.stderr
    assert out.stdout == "['build', '--quiet'] setup.py True\nrows beside setup.py __main__\n"
    failed = thffi_run(['cd lib; python setup.py fail'], tmp_path, _env(tmp_path))
    assert failed.returncode == 1
    assert failed.stderr.splitlines()[-3:] == [
        '  File "%s", line 7, in <module>' % (tmp_path / 'lib' / 'setup.py'),
        "    raise ValueError, 'no such command'",
        'ValueError: no such command']


def test_python_3_code_loads_as_it_is(tmp_path):
    """A Python 3 package (explicit relative imports, a module named like
    one at the top level) and script: nothing converted, nothing said, the
    cache holding only that."""
    write_files(tmp_path, {
        'net/__init__.py': 'from . import blocks\nfrom .blocks import width\n',
        'net/blocks.py': 'import os\n\n\ndef width():\n    return len(os.sep) * 4\n',
        'blocks.py': 'raise RuntimeError("the top-level blocks: never imported")\n',
        'train.py': 'import net\nprint(net.width(), net.blocks.__name__)\n',
    })
    out = thffi_run(['--', 'python', 'train.py'], tmp_path, _env(tmp_path))
    assert (out.returncode, out.stdout, out.stderr) == (0, '4 net.blocks\n', '')
    entries = list((tmp_path / 'cache' / 'python2').glob('[0-9a-f][0-9a-f]/*'))
    assert len(entries) == 3 and all(e.read_bytes() == b'=' for e in entries)


# A package of Python 2 code whose modules are not all Python 2: blend.py
# is valid Python 3 and imports its Python 2 sibling implicitly, as Python
# 2 let it; mix.py asked for absolute imports, and gets the top-level one.
MIXED = {
    'functions/__init__.py': '',
    'functions/checks.py': '''\
        def check_pair(a, b):
            if len(a) != len(b):
                print "sizes differ:", len(a), len(b)
                return False
            return True
        ''',
    'functions/blend.py': '''\
        from checks import check_pair


        def blend(a, b):
            assert check_pair(a, b)
            return [(x + y) / 2.0 for x, y in zip(a, b)]
        ''',
    'functions/mix.py': '''\
        from __future__ import absolute_import
        from checks import where


        def mix():
            return where
        ''',
    'checks.py': 'where = "top-level"\n',
    'main.py': '''\
        from functions.blend import blend
        from functions.mix import mix
        print(blend([1, 2], [3, 4]), mix())
        ''',
}


def test_a_python_3_module_among_python_2_ones_imports_its_sibling_first(tmp_path):
    folder = tmp_path / 'repo'
    write_files(folder, MIXED)
    python2 = _python2()
    if python2 is not None:  # what Python 2.7 ran, where one is installed
        out = subprocess.run([python2, '-B', 'main.py'], cwd=str(folder), capture_output=True,
                             text=True, timeout=60)
        assert out.stdout == "([2.0, 3.0], 'top-level')\n", out.stderr
    out = thffi_run(['--', 'python', 'main.py'], folder, _env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == "[2.0, 3.0] top-level\n"
    assert ("thffi run: functions/blend.py: its imports of its package's own modules (line 1) "
            "find them first, as in Python 2") in out.stderr
    assert 'functions/mix.py' not in out.stderr
    # port writes the same resolution
    port(str(folder), write=True)
    assert (folder / 'functions/blend.py').read_text().startswith('from .checks import check_pair')
    assert 'from checks import where' in (folder / 'functions/mix.py').read_text()
    out = subprocess.run([sys.executable, 'main.py'], cwd=str(folder), capture_output=True,
                         text=True, timeout=60)
    assert out.stdout == "[2.0, 3.0] top-level\n", out.stderr


# Python 2's `/`: ints floored, floats divided, by the operands' types.
DIVISIONS = '''\
def half(n):
    return n / 2


def shapes(t):
    n = len(t) / 2
    x = 7
    x /= 2
    print "shapes", n, x, 7.0 / 2, 7 / 2.0, -7 / 2, range(len(t) / 2)
    print "half", half(5), half(5.0), half(True)

shapes([1, 2, 3, 4, 5])
'''
DIVIDED = 'shapes 2 3 3.5 3.5 -4 [0, 1]\nhalf 2 2.5 0\n'


def test_python_2_division_by_the_operands_types(tmp_path):
    folder = tmp_path / 'repo'
    folder.mkdir()
    (folder / 'shapes.py').write_text(DIVISIONS)
    python2 = _python2()
    if python2 is not None:  # what Python 2.7 printed, where one is installed
        out = subprocess.run([python2, 'shapes.py'], cwd=str(folder), capture_output=True,
                             text=True, timeout=60)
        assert out.stdout == DIVIDED, out.stderr
    out = thffi_run(['--', 'python', 'shapes.py'], folder, _env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == DIVIDED
    # port writes // where both sides are provably ints, and old_div where
    # an operand's type is known only as it runs (half's n): what Python 2
    # printed, in plain Python 3
    findings = port(str(folder), write=True)[1]
    assert any(f.message.startswith('Python 2 division n / 2: now old_div(...)') and f.fixed
               for f in findings), [f.message for f in findings]
    assert 'return old_div(n, 2)' in (folder / 'shapes.py').read_text()
    out = subprocess.run([sys.executable, 'shapes.py'], cwd=str(folder), capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.stdout == DIVIDED, out.stderr


# A module edited with two editors: one indenting with 8 spaces, the other
# with a tab; Python 2 read the tab as 8 columns.
TABBED = 'def scaled(xs, k):\n        out = []\n\tfor x in xs:\n\t\tout.append(x * k)\n' \
         '        return out\n\nprint "scaled", scaled([1, 2], 3)\n' \
         'note = """a\ttab in a string\n\tstays"""\nprint repr(note)\n'
TABBED_OUT = "scaled [3, 6]\n'a\\ttab in a string\\n\\tstays'\n"


def test_tabs_and_spaces_mixed_as_python_2_read_them(tmp_path):
    folder = tmp_path / 'repo'
    folder.mkdir()
    (folder / 'tabbed.py').write_text(TABBED)
    python2 = _python2()
    if python2 is not None:
        out = subprocess.run([python2, 'tabbed.py'], cwd=str(folder), capture_output=True,
                             text=True, timeout=60)
        assert out.stdout == TABBED_OUT, out.stderr
    plain = subprocess.run([sys.executable, 'tabbed.py'], cwd=str(folder), capture_output=True,
                           text=True, timeout=60)
    assert 'TabError' in plain.stderr or 'SyntaxError' in plain.stderr
    out = thffi_run(['--', 'python', 'tabbed.py'], folder, _env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == TABBED_OUT
    findings = port(str(folder), write=True)[1]
    assert any(f.line == 3 and f.fixed and f.message.startswith(
        'Python 2 indentation of tabs and spaces mixed') for f in findings)
    written = (folder / 'tabbed.py').read_text()
    assert '\tfor' not in written and 'a\ttab in a string\n\tstays' in written
    out = subprocess.run([sys.executable, 'tabbed.py'], cwd=str(folder), capture_output=True,
                         text=True, timeout=60)
    assert out.stdout == TABBED_OUT, out.stderr


# thffi/tests/py2_implicit: nothing in it is Python 2 only, yet only Python
# 2 ran it: poolnet's modules import their siblings implicitly (pooling.py
# starts with a `#!` line, as every module of some 2018 packages did, and
# runs only as its package's), layers'
# `#!` __init__.py execs an import of each module a glob of its folder
# finds (a top-level shift.py that raises is never the one found: run and
# port both write 'from .%s import *'), and netv3, written for
# Python 3's imports (`from .blocks import width`), imports the top-level
# config.py although a netv3/config.py (that raises) is its namesake.
IMPLICIT = os.path.join(TESTS, 'py2_implicit')
IMPLICIT_OUT = ('pooled: [3, 7]\nshifted: [3, 4, 5, 1, 2]\nscaled: [3, 6, 9, 12, 15]\n'
                'width: 8\n')


def test_a_package_with_no_python_2_syntax_imports_as_python_2_did(tmp_path):
    folder = tmp_path / 'repo'
    shutil.copytree(IMPLICIT, str(folder), ignore=shutil.ignore_patterns('__pycache__'))
    before = _files(folder)
    plain = subprocess.run([sys.executable, 'train.py'], cwd=str(folder), capture_output=True,
                           text=True, timeout=60)
    assert "No module named 'scale'" in plain.stderr
    out = thffi_run(['--', 'python', 'train.py'], folder, _env(tmp_path))
    assert (out.returncode, out.stdout) == (0, IMPLICIT_OUT), out.stderr
    assert said(out.stderr) == [
        "thffi run: layers/__init__.py: its imports of its package's own modules (line 9) find "
        "them first, as in Python 2: runs as `python -m thffi port` converts it, in memory (the "
        "file stays as it is)",
        "thffi run: poolnet/__init__.py: its imports of its package's own modules (line 2) find "
        "them first, as in Python 2: runs as `python -m thffi port` converts it, in memory (the "
        "file stays as it is)",
        "thffi run: poolnet/pooling.py: its imports of its package's own modules (line 2) find "
        "them first, as in Python 2: runs as `python -m thffi port` converts it, in memory (the "
        "file stays as it is)"]
    assert _files(folder) == before
    # port writes what it can prove on disk: the exec'd names are the stems
    # of the files a glob of the package's own folder finds, each a sibling
    _, findings, _, changed = port(str(folder), write=True)
    assert sorted(changed) == [os.path.join('layers', '__init__.py'),
                               os.path.join('poolnet', '__init__.py'),
                               os.path.join('poolnet', 'pooling.py')]
    assert (folder / 'poolnet/pooling.py').read_text().startswith(
        '#!/usr/bin/env python\nfrom . import sizes\n')
    assert "        exec('from .%s import *' % name)\n" in (
        folder / 'layers/__init__.py').read_text()
    assert [(f.path, f.line, f.fixed) for f in findings if f.path.startswith('layers')] == [
        (os.path.join('layers', '__init__.py'), 9, True)]
    out = subprocess.run([sys.executable, 'train.py'], cwd=str(folder), capture_output=True,
                         text=True, timeout=60)
    assert out.stdout == IMPLICIT_OUT, out.stderr


def test_an_import_by_a_name_known_as_it_runs_finds_the_sibling(tmp_path):
    """In a package's module of Python 3 syntax with no static import of a
    sibling: exec('from %s import NAME' % name) and __import__(name,
    globals()) find the package's own module first, as in Python 2;
    __import__(name) stays absolute."""
    write_files(tmp_path, {
        'plugins/__init__.py': '''\
            def load(name):
                return __import__(name, globals(), locals(), ['NAME']).NAME


            def load_exec(name):
                exec('from %s import NAME' % name, globals())
                return NAME


            def load_top(name):
                return __import__(name).NAME
            ''',
        'plugins/relu.py': 'NAME = "plugins/relu.py"\n',
        'relu.py': 'NAME = "the top-level relu.py"\n',
        'main.py': 'import plugins\nprint(plugins.load("relu"), "/", plugins.load_exec("relu"), '
                   '"/", plugins.load_top("relu"))\n',
    })
    out = thffi_run(['--', 'python', 'main.py'], tmp_path, _env(tmp_path))
    assert (out.returncode, out.stdout) == (
        0, 'plugins/relu.py / plugins/relu.py / the top-level relu.py\n'), out.stderr
