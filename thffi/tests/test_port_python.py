"""python -m thffi port and the Python of 2017-2018: a package written for
Python 2.7 and NumPy 1.14 (thffi/tests/py2_package) runs after port; each Python 2
conversion (fissix), each removed Python/NumPy/SciPy/PyTorch name rewritten
or reported (thffi/toolchain/pyremoved.py), views handed to ffi functions,
and the report's exactness (committed binaries, computed source names,
size_average alone, continuation lines)."""

import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import torch

from support import TESTS, ROOT
from thffi.port import port
from thffi.port.c import scan_c
from thffi.port.python import Repository, rewrite_python
from thffi.toolchain import pyremoved

PACKAGE = os.path.join(TESTS, 'py2_package')
ENV = dict(os.environ, PYTHONPATH=ROOT)


def py(source, path='x.py', **kwargs):
    """(new source, findings) of one file, checking that the result
    compiles and that a second run changes nothing."""
    new, findings = rewrite_python(textwrap.dedent(source), path, **kwargs)
    compile(new, path, 'exec')
    assert rewrite_python(new, path, **kwargs)[0] == new
    return new, findings


def messages(findings, fixed=None):
    return [str(f) for f in findings if fixed is None or f.fixed == fixed]


def _python2():
    """A Python 2.7 interpreter: pyenv's (its shim answers for any version),
    else one on PATH."""
    found = sorted(glob.glob(os.path.expanduser('~/.pyenv/versions/2.7*/bin/python')))
    return found[-1] if found else shutil.which('python2.7')


# -- the Python 2 package, end to end ------------------------------------------

@pytest.fixture(scope='module')
def ported(tmp_path_factory):
    """A copy of thffi/tests/py2_package after `port --write`: (folder, findings,
    changed files)."""
    folder = tmp_path_factory.mktemp('py2') / 'pkg'
    shutil.copytree(PACKAGE, folder, ignore=shutil.ignore_patterns('__pycache__', '*.pyc'))
    _, findings, _, changed = port(str(folder), write=True)
    return folder, findings, changed


def test_the_package_is_python_2_as_written():
    """Every file of the fixture compiles under Python 2.7; those with print
    statements and `except E, e` do not under Python 3."""
    python2 = _python2()
    if python2 is None:
        pytest.skip('no Python 2.7 here to compile the fixture with (pyenv has one on the '
                    "project's machines)")
    files = sorted(glob.glob(os.path.join(PACKAGE, '**', '*.py'), recursive=True))
    out = subprocess.run([python2, '-c', 'import sys, py_compile\nfor f in sys.argv[1:]: '
                          'py_compile.compile(f, cfile="/dev/null", doraise=True)'] + files,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert [os.path.relpath(f, PACKAGE) for f in files if not _compiles(f)] == [
        os.path.join('rowpool', 'build.py'), os.path.join('rowpool', 'layers.py'), 'run.py']


def _compiles(path):
    try:
        with open(path) as f:
            compile(f.read(), path, 'exec')
    except SyntaxError:
        return False
    return True


def test_port_converts_the_package_and_reports_each_change(ported):
    folder, findings, changed = ported
    assert sorted(changed) == [os.path.join('rowpool', name) for name in (
        '__init__.py', 'build.py', 'convsp.py', 'layers.py')] + ['run.py']
    fixed = messages(findings, True)
    layers = os.path.join('rowpool', 'layers.py')
    # Python 2 is decided file by file, each named with the line that shows it.
    assert [str(f) for f in findings if 'as this line shows' in f.message] == [
        'run.py:16: Python 2, as this line shows (Missing parentheses in call to \'print\'. '
        'Did you mean print(...)?, a SyntaxError in Python 3): the file is converted by 2to3\'s '
        'fixers',
        os.path.join('rowpool', 'build.py') + ':6: Python 2, as this line shows (Missing '
        'parentheses in call to \'print\'. Did you mean print(...)?, a SyntaxError in Python '
        '3): the file is converted by 2to3\'s fixers',
        os.path.join('rowpool', 'convsp.py') + ':5: Python 2, as this line shows '
        '(`basestring`, which only Python 2 has): the file is converted by 2to3\'s fixers',
        layers + ':22: Python 2, as this line shows (multiple exception types must be '
        'parenthesized, a SyntaxError in Python 3): the file is converted by 2to3\'s fixers']
    for expected in [
            os.path.join('rowpool', '__init__.py') + ':2: Python 2 `import sibling / from '
            'sibling import x, in a package`: now `from . import sibling / from .sibling import '
            "x` (Python 3's imports are absolute: a ModuleNotFoundError); also on lines 3",
            os.path.join('rowpool', '__init__.py') + ":4: Python 2 `exec('from sibling import "
            "*'), in a package`: now `exec('from .sibling import *')` (the same import, in a "
            'string)',
            layers + ':19: Python 2 integer division input.size(1) / window: now // (Python '
            "2's / of two integers floored; Python 3's gives a float)",
            layers + ':20: Python 2 `except E, e:`: now `except E as e:` (a SyntaxError in '
            'Python 3)',
            layers + ':38: collections.Iterable: gone since Python 3.10 (the ABCs live in '
            'collections.abc); now collections.abc.Iterable',
            layers + ':48: Python 2 `d.iteritems(), d.itervalues(), d.iterkeys(); d.keys() as '
            'a list`: now `d.items(), d.values(), d.keys(); list(d.keys())` (Python 3 has no '
            'iter* methods; keys(), values() and items() are views)',
            layers + ':49: Python 2 `d.has_key(k)`: now `k in d` (gone in Python 3)',
            layers + ':55: numpy.float: gone since NumPy 1.24 (the alias of the builtin float '
            'is gone); now float',
            layers + ':56: Python 2 `xrange(n); range(n) as a list`: now `range(n); '
            "list(range(n))` (Python 3's range is what xrange was)",
            layers + ':58: np.asscalar(w.sum()): gone since NumPy 1.23; now w.sum().item()',
            os.path.join('rowpool', 'convsp.py') + ':7: Python 2 integer division int(length) '
            "/ int(window): now // (Python 2's / of two integers floored; Python 3's gives a "
            'float)',
            'run.py:15: Python 2 integer division len(outs) / 2: now // (Python 2\'s / of two '
            "integers floored; Python 3's gives a float)",
            'run.py:16: Python 2 `print x, y / print >>f, x`: now `print(x, y) / print(x, '
            'file=f)` (print is a function in Python 3); also on lines 17']:
        assert expected in fixed, expected
    assert os.path.join('rowpool', 'convsp.py') + ':12: Python 2 division weight / len(windows): ' \
        "now old_div(...) (thffi.runtime.python2: floor division where both sides are integers as it " \
        "runs, as Python 2's /; else true division)" in fixed
    left = messages(findings, False)
    # rowpool.c reads sizes but never strides: a layout bug waiting for a view.
    assert left[0].startswith(os.path.join('rowpool', 'src', 'rowpool.c') + ':5: '
                              'rowpool_forward() indexes tensor memory without checking its '
                              'layout')
    assert len(left) == 2
    text = (folder / 'rowpool' / '__init__.py').read_text()
    assert text.splitlines()[1:] == ['from . import _ext', 'from .layers import *',
                                     "exec('from .convsp import *')"]


def test_the_ported_files_compile_and_a_second_run_changes_nothing(ported):
    folder, _, changed = ported
    for rel in changed:
        out = subprocess.run([sys.executable, '-m', 'py_compile', str(folder / rel)],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
    diff, _, _, again = port(str(folder), write=False)
    assert diff == '' and again == []


@pytest.mark.slow  # deselected by default (conftest.py)
def test_the_ported_package_builds_and_runs_as_it_did(ported):
    """Built with thffi and run under today's Python, it computes what
    Python 2.7 and PyTorch 0.3 did (here: plain PyTorch and Python 2's
    integer division, by hand)."""
    folder, _, _ = ported
    build = subprocess.run([sys.executable, os.path.join('rowpool', 'build.py')], cwd=folder,
                           env=ENV, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    run = subprocess.run([sys.executable, 'run.py'], cwd=folder, env=ENV, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == 'half=1, windows=2'
    got = json.loads(lines[-1])
    x = torch.arange(28, dtype=torch.float32).view(4, 7)
    assert got['outs'] == [x[:, :6].reshape(4, 3, 2).sum(2).tolist(),
                           x[:, :6].reshape(4, 2, 3).sum(2).tolist()]
    assert got['grad'] == [[2.0] * 6 + [0.0]] * 4
    assert got['total'] == 2 * x[:, :6].sum().item()
    assert got['weights'] == [1.0, 0.5, 1 / 3, 0.25]
    assert got['weight_sum'] == pytest.approx(25 / 12)
    assert (got['half'], got['pooled'], got['fraction']) == (1, 3, 0.5)


# -- Python 2, conversion by conversion ------------------------------------------

@pytest.mark.parametrize('before, after', [
    ('print "a", 1\n', 'print("a", 1)\n'),
    ('import sys\nprint >>sys.stderr, "x"\n', 'import sys\nprint("x", file=sys.stderr)\n'),
    ('try:\n    pass\nexcept ValueError, e:\n    pass\n',
     'try:\n    pass\nexcept ValueError as e:\n    pass\n'),
    ('d = {}\nfor k, v in d.iteritems():\n    pass\n',
     'd = {}\nfor k, v in d.items():\n    pass\n'),
    ('d = {}\nvalues = d.itervalues()\nfirst = d.keys()[0]\n',
     'd = {}\nvalues = iter(d.values())\nfirst = list(d.keys())[0]\n'),
    ('d = {}\nok = d.has_key(1)\n', 'd = {}\nok = 1 in d\n'),
    ('for i in xrange(3):\n    pass\nr = range(3) + [3]\n',
     'for i in range(3):\n    pass\nr = list(range(3)) + [3]\n'),
    ('n = long(3)\nu = unicode("a")\n', 'n = int(3)\nu = str("a")\n'),
    ('exec "x = 1"\n', 'exec("x = 1")\n'),
    ('raise ValueError, "bad"\n', 'raise ValueError("bad")\n'),
    ('import cPickle\n', 'import pickle\n'),
    ('if True:\n    print "no newline at the end"', 'if True:\n    print("no newline at the end")'),
    ('total = reduce(lambda a, b: a + b, [1, 2])\n',
     'from functools import reduce\ntotal = reduce(lambda a, b: a + b, [1, 2])\n'),
])
def test_each_python_2_idiom_is_converted(before, after):
    new, findings = py(before)
    assert new == after
    assert findings and all(f.fixed for f in findings)
    assert all(f.message.startswith('Python 2') for f in findings)


def test_python_2_integer_division_where_both_sides_are_integers():
    new, findings = py('''\
        def halves(xs, t, scale):
            n = len(xs)
            rows = t.size(0) / 2
            cols = n / int(scale)
            mean = float(sum(xs)) / n
            part = scale / n
            ratio = scale / 2.0
            n /= 2
            print "%d %d" % (rows, cols)
            return mean, part, ratio
        ''')
    assert new.splitlines()[4:10] == [
        '    rows = t.size(0) // 2', '    cols = n // int(scale)',
        '    mean = float(sum(xs)) / n', '    part = old_div(scale, n)',
        '    ratio = scale / 2.0', '    n //= 2']
    assert new.splitlines()[0] == 'from thffi.runtime.python2 import old_div'
    assert [(f.line, f.fixed) for f in findings if 'division' in f.message] == [
        (3, True), (4, True), (6, True), (8, True)]
    assert messages(findings, False) == []
    # From __future__ import division: Python 2 divided truly already.
    new, findings = py('from __future__ import division\nprint "a"\nh = len(x) / 2\n')
    assert new.endswith('h = len(x) / 2\n') and not any('division' in f.message
                                                        for f in findings)
    # Python 3's files are not touched.
    assert py('h = len(x) / 2\n')[0] == 'h = len(x) / 2\n'


def test_a_python_2_file_that_parses_as_python_3_is_found_by_its_names():
    """iteritems, xrange... that the file does not define itself; a file
    defining `xrange = range` for both Pythons is not Python 2."""
    new, findings = py('for i in xrange(2):\n    print(len([1]) / 2)\n')
    assert new == 'for i in range(2):\n    print(len([1]) // 2)\n'
    both = 'try:\n    xrange\nexcept NameError:\n    xrange = range\nh = len(x) / 2\n'
    assert py(both)[0] == both


def test_implicit_relative_imports_inside_a_package(tmp_path):
    """A package's modules and the ones its build creates (_ext before it is
    built); not in a script, not for an absolute import."""
    package = tmp_path / 'net'
    (package / 'layers').mkdir(parents=True)
    (package / 'layers' / '__init__.py').write_text('')
    (package / 'convsp.py').write_text('X = 1\n')
    (package / 'build.py').write_text("from torch.utils.ffi import create_extension\n"
                                      "ffi = create_extension('_ext.conv', headers=[], "
                                      "sources=[], relative_to=__file__)\n")
    init = ('import os\nimport _ext\nimport _ext.conv as conv\nfrom layers import *\n'
            "exec('from convsp import *')\nimport convsp, layers\n")
    (package / '__init__.py').write_text(init)
    # Scripts: Python 3 runs them with their folder on sys.path, so they
    # find their siblings as they are (a __main__ block; the top folder).
    script = "import convsp\nif __name__ == '__main__':\n    print(convsp.X)\n"
    (package / 'train.py').write_text(script)
    (tmp_path / '__init__.py').write_text('')
    (tmp_path / 'demo.py').write_text('import layers\n')
    (tmp_path / 'layers.py').write_text('')
    # A Python 2 file beside them decides nothing for them.
    (package / 'old.py').write_text('print "a Python 2 file: converted alone"\n')
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert (package / '__init__.py').read_text() == (
        'import os\nfrom . import _ext\nfrom ._ext import conv as conv\nfrom .layers import *\n'
        "exec('from .convsp import *')\nfrom . import convsp, layers\n")
    assert (package / 'train.py').read_text() == script
    assert (tmp_path / 'demo.py').read_text() == 'import layers\n'
    assert (package / 'old.py').read_text() == 'print("a Python 2 file: converted alone")\n'
    # A dotted name is written by hand: `from . import a.b` is no Python.
    new, findings = py('import _ext.conv\n', path=str(package / '__init__.py'),
                       filename=str(package / '__init__.py'),
                       repository=Repository(built=frozenset({str(package / '_ext')})))
    assert new == 'import _ext.conv\n'
    assert messages(findings, False) == [
        package.joinpath('__init__.py').as_posix() + ':1: Python 2: not converted: implicit '
        'relative import of a dotted name: write `from ._ext import conv` and use that name']


def test_a_file_that_parses_as_neither_python_is_left_and_reported():
    new, findings = rewrite_python('print "a" if\n', 'bad.py')
    assert new == 'print "a" if\n'
    assert messages(findings) == ["bad.py:1: does not parse (line 1: Missing parentheses in call "
                                  "to 'print'. Did you mean print(...)?): not changed"]


# -- what Python, NumPy, SciPy and PyTorch removed ----------------------------------

@pytest.mark.parametrize('before, after', [
    ('import collections\nok = isinstance([], collections.Iterable)\n',
     'import collections.abc\n\nok = isinstance([], collections.abc.Iterable)\n'),
    ('import os\nimport errno\ne = os.errno.ENOENT\n', 'import errno\ne = errno.ENOENT\n'),
    ('from collections import OrderedDict, Mapping, Sequence as S\n',
     'from collections import OrderedDict\nfrom collections.abc import Mapping, Sequence as S\n'),
    ('import numpy as np\na = np.zeros(2, dtype=np.float)\nb = np.array([1], np.int)\n'
     'c = np.ones(1, dtype=np.bool)\nd = np.object\ne = np.long(1)\nf = np.str(2)\n',
     'import numpy as np\na = np.zeros(2, dtype=float)\nb = np.array([1], int)\n'
     'c = np.ones(1, dtype=bool)\nd = object\ne = int(1)\nf = str(2)\n'),
    ('import numpy\nv = numpy.asscalar(numpy.ones(1) * 2)\n',
     'import numpy\nv = (numpy.ones(1) * 2).item()\n'),
    ('import numpy as np\nv = np.NaN + np.float_(1) + np.Inf\n',
     'import numpy as np\nv = np.nan + np.float64(1) + np.inf\n'),
    ('import imp\nimport os\nimp.reload(os)\n', 'import os\nimport importlib\n\n'
     'importlib.reload(os)\n'),
    ('import imp\nimport os\n', 'import os\n'),
    ('from distutils.core import setup, Extension\nfrom distutils.command.build_ext import '
     'build_ext\n',
     'from setuptools import setup, Extension\nfrom setuptools.command.build_ext import '
     'build_ext\n'),
    ('import inspect\ndef f(a, b=1, **kw): pass\nnames = inspect.getargspec(f).args\n'
     'kw = inspect.getargspec(f).keywords\na, v, k, d = inspect.getargspec(f)\n'
     'first = inspect.getargspec(f)[0]\n',
     'import inspect\ndef f(a, b=1, **kw): pass\nnames = inspect.getfullargspec(f).args\n'
     'kw = inspect.getfullargspec(f).varkw\na, v, k, d = inspect.getfullargspec(f)[:4]\n'
     'first = inspect.getfullargspec(f)[0]\n'),
    ('import inspect\ndef f(a, **kw): pass\nspec = inspect.getargspec(f)\n'
     'names, kw = spec.args, spec.keywords\n',
     'import inspect\ndef f(a, **kw): pass\nspec = inspect.getfullargspec(f)\n'
     'names, kw = spec.args, spec.varkw\n'),
    ('import time\nt = time.clock()\n', 'import time\nt = time.process_time()\n'),
    ('import fractions\ng = fractions.gcd(12, 18)\n', 'import math\n\ng = math.gcd(12, 18)\n'),
    ('import unittest\nclass T(unittest.TestCase):\n    def test(self):\n'
     '        self.assertEquals(1, 1)\n        self.assertItemsEqual([], [])\n',
     'import unittest\nclass T(unittest.TestCase):\n    def test(self):\n'
     '        self.assertEqual(1, 1)\n        self.assertItemsEqual([], [])\n'),
])
def test_removed_names_are_rewritten(before, after):
    new, findings = py(before)
    assert new == after
    assert findings and all(f.fixed for f in findings)
    exec(compile(new, 'x.py', 'exec'), {})  # and today's Python runs what was written


def test_what_the_rewritten_numpy_and_inspect_compute_is_what_the_old_names_did():
    # NumPy 1.14's np.float was the builtin float: the same dtype, the same type.
    assert np.zeros(2, dtype=float).dtype == np.float64
    import inspect

    def f(a, b=1, *args, **kw):
        pass
    assert inspect.getfullargspec(f)[:4] == (['a', 'b'], 'args', 'kw', (1,))


@pytest.mark.parametrize('source, expected', [
    ('import imp\nm = imp.load_source("m", "m.py")\n', [
        'x.py:1: import imp: gone since Python 3.12 (imp is gone); write importlib',
        'x.py:2: imp.load_source: gone since Python 3.12 (imp is gone); write spec = '
        'importlib.util.spec_from_file_location(name, path); module = '
        'importlib.util.module_from_spec(spec); spec.loader.exec_module(module)']),
    ('from distutils.version import LooseVersion\n', [
        'x.py:1: from distutils.version import LooseVersion: gone since Python 3.12 (where '
        'setuptools is installed, `import distutils` after `import setuptools` finds '
        "setuptools's copy); write packaging.version.Version(s) (ordered like StrictVersion; "
        'LooseVersion also took any string)']),
    ('import scipy.misc\nimg = scipy.misc.imfilter(a, "blur")\nturned = scipy.misc.imrotate('
     'img, 90)\n', [
         'x.py:2: scipy.misc.imfilter: gone since SciPy 1.3; write PIL.Image',
         'x.py:3: scipy.misc.imrotate: gone since SciPy 1.3; write PIL.Image']),
    ('import torch.legacy.nn as lnn\nnet = lnn.Sequential()\n', [
        'x.py:1: import torch.legacy.nn: gone since PyTorch 1.0 (torch.legacy is gone); write '
        'torch.nn (the Lua-style modules have torch.nn counterparts: nn.Linear, '
        'nn.Sequential...)']),
    ('import torch\nnet = torch.legacy.nn.Linear(2, 3)\n', [
        'x.py:2: torch.legacy.nn.Linear (torch.legacy): gone since PyTorch 1.0 (torch.legacy '
        'is gone); write torch.nn (the Lua-style modules have torch.nn counterparts: '
        'nn.Linear, nn.Sequential...)']),
    ('from torch.utils.serialization import load_lua\nm = load_lua("m.t7")\n', [
        'x.py:1: from torch.utils.serialization import load_lua: gone since PyTorch 1.0 '
        '(load_lua is gone); write torchfile.load(path) (pip install torchfile), then '
        'torch.from_numpy on the arrays it returns']),
    ('from torch.utils.trainer import Trainer\n', [
        'x.py:1: from torch.utils.trainer import Trainer: gone since PyTorch 1.0 '
        '(torch.utils.trainer is gone); write a training loop of your own (or pytorch/tnt, '
        'ignite)']),
    ('import inspect\nspec = inspect.getargspec(f)\nprint(spec)\n', [
        "x.py:2: inspect.getargspec(f): gone since Python 3.11 (getfullargspec's result has 7 "
        "fields, the first four getargspec's with keywords named varkw); write "
        'inspect.getfullargspec(f) (not changed here, where the result is kept whole)']),
])
def test_removed_names_without_an_equivalent_are_reported(source, expected):
    new, findings = py(source)
    assert new == source
    assert messages(findings) == expected and not any(f.fixed for f in findings)


def test_a_removed_module_is_reported_in_every_file_that_imports_it(tmp_path):
    """Directly, through a package __init__, through two files."""
    (tmp_path / 'models').mkdir()
    (tmp_path / 'models' / 'lua.py').write_text('import torch.legacy.nn as lnn\n'
                                                'net = lnn.Sequential()\n')
    (tmp_path / 'models' / '__init__.py').write_text('from .lua import net\n')
    (tmp_path / 'models' / 'other.py').write_text('import os\n')
    (tmp_path / 'train.py').write_text('import os\nimport models\n')
    (tmp_path / 'evaluate.py').write_text('from train import os\nfrom models.other import os\n')
    _, findings, _, _ = port(str(tmp_path))
    lua = os.path.join('models', 'lua.py')
    init = os.path.join('models', '__init__.py')
    assert messages(findings, False) == [
        lua + ':1: import torch.legacy.nn: gone since PyTorch 1.0 (torch.legacy is gone); write '
        'torch.nn (the Lua-style modules have torch.nn counterparts: nn.Linear, '
        'nn.Sequential...)',
        'evaluate.py:1: imports train.py, which fails to import (train.py:2 imports %s; %s:1 '
        'imports %s; %s:1 imports torch.legacy.nn (gone since PyTorch 1.0)): so does this file '
        'until that is ported' % (init, init, lua, lua),
        init + ':1: imports %s, which fails to import (%s:1 imports torch.legacy.nn (gone since '
        'PyTorch 1.0)): so does this file until that is ported' % (lua, lua),
        'train.py:2: imports %s, which fails to import (%s:1 imports %s; %s:1 imports '
        'torch.legacy.nn (gone since PyTorch 1.0)): so does this file until that is ported'
        % (init, init, lua, lua)]


def test_every_row_of_the_table_is_well_formed():
    """PYTHON2's fixers load; each REMOVED rename names what exists today
    (where its package is here), and its old form is gone."""
    from thffi.port import py2
    assert py2._Tool([row.fix for row in pyremoved.PYTHON2]).get_fixers()
    assert len({row.old for row in pyremoved.REMOVED}) == len(pyremoved.REMOVED)
    for row in pyremoved.REMOVED:
        assert row.fix in ('rename', 'value', 'call', 'getargspec', 'method', None) and \
            row.removed, row
        if row.fix == 'method':  # a function that takes the object first
            module, _, name = row.new.rpartition('.')
            assert callable(getattr(__import__(module, fromlist=['*']), name)), row
        if row.fix != 'rename' or row.old.startswith(('.', 'self.')) or row.old.endswith('=)'):
            continue
        module, _, name = row.new.rpartition('.')
        if not module and name not in dir(__import__('builtins')):
            module, name = name, None  # a module: os.errno -> errno
        try:
            target = __import__(module or 'builtins', fromlist=['*'])
        except ImportError:
            continue  # scipy: not everywhere
        assert name is None or hasattr(target, name), row
        old_module, _, old_name = row.old.rpartition('.')
        # NumPy 2 brought np.bool and np.long back, as NumPy's own types.
        if old_module in ('numpy', 'collections') and old_name not in ('bool', 'long'):
            with warnings.catch_warnings():  # np.object: 'will be defined' one day
                warnings.simplefilter('ignore', FutureWarning)
                assert not hasattr(__import__(old_module), old_name), row


# -- views handed to C ----------------------------------------------------------------

ROI = '''\
    from ._ext import roi_pooling


    def roi_forward(features, rois, output):
        x = features.permute(0, 2, 3, 1)
        roi_pooling.roi_pooling_forward(7, 7, x, rois, output)
        roi_pooling.roi_pooling_forward(7, 7, features.permute(0, 2, 3, 1).contiguous(),
                                        rois, output)
        flat = x.contiguous()
        roi_pooling.roi_pooling_forward(7, 7, flat, rois[:, 1:], output)
        roi_pooling.roi_pooling_forward(7, 7, features[0], rois.t().float(), output[1:3])
        roi_pooling.roi_pooling_forward(7, 7, features.narrow(0, 1, 2), rois.select(1, 0),
                                        output.expand(2, 3))
    '''
ROI_C = '''\
    #include <TH/TH.h>
    int roi_pooling_forward(int h, int w, THFloatTensor *features, THFloatTensor *rois,
                            THFloatTensor *output)
    {
      int n = THFloatTensor_size(rois, 0);  /* sizes, not strides */
      float *data = THFloatTensor_data(features);
      THFloatTensor_data(output)[0] = data[n];
      return 1;
    }
    '''


def test_views_passed_to_an_ffi_function_are_reported(tmp_path):
    """With the line, the argument and where the view was made; not when
    .contiguous() is taken, nor for what stays contiguous (x[0], a narrow or
    select of dim 0, a slice of the first dimension)."""
    (tmp_path / 'lib').mkdir()
    (tmp_path / 'lib' / '__init__.py').write_text('')
    (tmp_path / 'lib' / 'roi.py').write_text(textwrap.dedent(ROI))
    (tmp_path / 'src').mkdir()
    (tmp_path / 'src' / 'roi_pooling.c').write_text(textwrap.dedent(ROI_C))
    (tmp_path / 'lib' / 'build.py').write_text(
        "from torch.utils.ffi import create_extension\nffi = create_extension("
        "'_ext.roi_pooling', headers=['../src/roi_pooling.h'], "
        "sources=['../src/roi_pooling.c'], relative_to=__file__)\n")
    _, findings, _, _ = port(str(tmp_path))
    roi = os.path.join('lib', 'roi.py')
    c = ('its C (%s, roi_pooling_forward()) indexes the memory as if contiguous (no _stride, '
         'isContiguous or newContiguous)' % os.path.join('src', 'roi_pooling.c'))
    assert [m for m in messages(findings, False) if m.startswith(roi)] == [
        '%s:6: roi_pooling_forward(...): argument 3, x (made by features.permute(0, 2, 3, 1) '
        'on line 5), is a view that may not be contiguous, and %s: pass x.contiguous()'
        % (roi, c),
        '%s:10: roi_pooling_forward(...): argument 4, rois[:, 1:], is a view that may not be '
        'contiguous, and %s: pass rois[:, 1:].contiguous()' % (roi, c),
        '%s:11: roi_pooling_forward(...): argument 4, rois.t().float() (made by rois.t()), is '
        'a view that may not be contiguous, and %s: pass rois.t().float().contiguous()'
        % (roi, c),
        '%s:12: roi_pooling_forward(...): argument 4, rois.select(1, 0), is a view that may not '
        'be contiguous, and %s: pass rois.select(1, 0).contiguous()' % (roi, c),
        '%s:12: roi_pooling_forward(...): argument 5, output.expand(2, 3), is a view that may '
        'not be contiguous, and %s: pass output.expand(2, 3).contiguous()' % (roi, c)]
    # The C reads sizes only: reported as not checking layout, as the views are.
    assert any(m.startswith(os.path.join('src', 'roi_pooling.c') + ':4: roi_pooling_forward() '
                            'indexes tensor memory without checking its layout')
               for m in messages(findings, False))
    # C that asks for a contiguous copy, or reads strides, takes any view.
    for check in ('features = THFloatTensor_newContiguous(features);',
                  'int s = THFloatTensor_stride(features, 0);'):
        (tmp_path / 'src' / 'roi_pooling.c').write_text(textwrap.dedent(ROI_C).replace(
            '/* sizes, not strides */', check))
        _, findings, _, _ = port(str(tmp_path))
        assert not any(m.startswith(roi) for m in messages(findings, False)), check
        assert not any('roi_pooling_forward() indexes' in m for m in messages(findings))


def test_a_size_call_is_not_a_layout_check():
    body = ('int f(THFloatTensor *t) { int n = THFloatTensor_size(t, 0); '
            'return THFloatTensor_data(t)[n - 1]; }\n')
    assert [f.message.split(':')[0] for f in scan_c(body, 'k.c')] == [
        'f() indexes tensor memory without checking its layout (no _stride, isContiguous or '
        'newContiguous; sizes say nothing of it)']
    assert scan_c(body.replace('_size(t, 0)', '_stride(t, 0)'), 'k.c') == []
    assert scan_c(body.replace('int n', 'THArgCheck(THFloatTensor_isContiguous(t), 1, "c"); '
                               'int n'), 'k.c') == []


# -- the report, exact --------------------------------------------------------------

def test_sources_named_by_a_format_string_or_a_loop_count_as_compiled(tmp_path):
    """Their findings are listed, not summarised as vendored code's are; so
    are those of a .cu whose object (x.cu.o, from make.sh) a script links."""
    (tmp_path / 'aten' / 'TH').mkdir(parents=True)
    (tmp_path / 'src').mkdir()
    (tmp_path / 'vendor').mkdir()
    exits = 'int %s(void) { exit(1); }\n'
    for name in ('General', 'Storage'):
        (tmp_path / 'aten' / 'TH' / ('TH%s.c' % name)).write_text(exits % name)
    (tmp_path / 'src' / 'nms.c').write_text(exits % 'nms')
    (tmp_path / 'src' / 'nms_cuda.cu').write_text(exits % 'nms_cuda')
    (tmp_path / 'src' / 'cuda').mkdir()
    (tmp_path / 'src' / 'cuda' / 'nms_kernel.cu').write_text(exits % 'nms_kernel')
    (tmp_path / 'vendor' / 'unused.c').write_text(exits % 'unused')
    (tmp_path / 'build.py').write_text(textwrap.dedent('''\
        import os
        from torch.utils.ffi import create_extension
        here = os.path.dirname(__file__)
        sources = ['aten/TH/TH{}.c'.format(f) for f in ['General', 'Storage']]
        sources += [os.path.join('src', f + '.c') for f in ['nms']]
        sources += [os.path.join(here, 'src', '%s_cuda.cu' % f) for f in ['nms']]
        ffi = create_extension('_ext.nms', headers=[], sources=sources,
                               extra_objects=['src/cuda/nms_kernel.cu.o'])
        '''))
    _, findings, _, _ = port(str(tmp_path))
    assert sorted(f.path for f in findings if not f.fixed) == [
        os.path.join('aten', 'TH', 'THGeneral.c'), os.path.join('aten', 'TH', 'THStorage.c'),
        os.path.join('src', 'cuda', 'nms_kernel.cu'), os.path.join('src', 'nms.c'),
        os.path.join('src', 'nms_cuda.cu'), os.path.join('vendor', 'unused.c')]


def test_size_average_alone_is_reported_as_such():
    new, findings = py('import torch.nn as nn\ncrit = nn.MSELoss(size_average=False)\n'
                       'other = nn.L1Loss(reduce=False)\n')
    assert new.splitlines()[1:] == ["crit = nn.MSELoss(reduction='sum')",
                                    "other = nn.L1Loss(reduction='none')"]
    assert messages(findings) == ["x.py:2: size_average=False: now reduction='sum'",
                                  "x.py:3: reduce=False: now reduction='none'"]


def test_continuation_lines_stay_aligned_after_a_rewrite():
    new, _ = py('''\
        import numpy as np
        import torch
        import torch.nn.functional as F
        from torch.autograd import Variable
        up = F.upsample(x, scale_factor=2,
                        mode='nearest')
        w = Variable(torch.zeros(3,
                                 4))
        a = np.zeros((2, 3), dtype=np.float) + foo(1,
                                                   2)
        loss = F.nll_loss(out, target, weight=w,
                          size_average=False)
        hanging = F.upsample(
            x, scale_factor=2)
        print "%d %d" % (1,
                         2)
        ''')
    assert new.splitlines()[3:] == [
        'up = F.interpolate(x, scale_factor=2,',
        "                   mode='nearest')",
        'w = torch.zeros(3,',
        '                4)',
        'a = np.zeros((2, 3), dtype=float) + foo(1,',
        '                                        2)',
        'loss = F.nll_loss(out, target, weight=w,',
        "                  reduction='sum')",
        'hanging = F.interpolate(',
        '    x, scale_factor=2)',
        'print("%d %d" % (1,',
        '                 2))']
