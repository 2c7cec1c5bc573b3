"""python -m thffi port changes only what today's stack breaks (issue 37
items 1-4 and 10): Python 2 decided file by file, guards written for both
Pythons kept, imports kept as the scripts run them, Python 3's `/` never
touched, and a report that lists only what changed.  Each repository here
is ours, in the 2017-2018 idiom; those port must not change are ported,
then run, and print what they printed before."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import ROOT
from thffi.port import port
from thffi.port import pyversion
from thffi.port.python import rewrite_python
from thffi.port.version import infer

ENV = dict(os.environ, PYTHONPATH=ROOT)


def write(folder, files):
    """Writes {relative path: text} under folder (text dedented)."""
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def snapshot(folder):
    """{relative path: text} of every file under folder."""
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob('*'))
            if p.is_file() and '__pycache__' not in p.parts}


def run(args, cwd):
    out = subprocess.run([sys.executable] + args, cwd=cwd, env=ENV, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def left(findings):
    return [str(f) for f in findings if not f.fixed]


def fixed(findings):
    return [str(f) for f in findings if f.fixed and f.path]


# -- 1. Python 2 is decided per file ----------------------------------------------

@pytest.mark.parametrize('source, kind, line, why', [
    ('x = 1\nprint "x", x\n', pyversion.PYTHON2, 2, "Missing parentheses in call to 'print'"),
    ('try:\n    pass\nexcept IOError, e:\n    pass\n', pyversion.PYTHON2, 3, 'parenthesized'),
    ('for i in xrange(3):\n    pass\n', pyversion.PYTHON2, 1, '`xrange`'),
    ('d = {}\nfor k, v in d.iteritems():\n    pass\n', pyversion.PYTHON2, 2, '`.iteritems()`'),
    ('s = raw_input()\n', pyversion.PYTHON2, 1, '`raw_input`'),
    ('import cPickle as pickle\n', pyversion.PYTHON2, 1, '`import cPickle`'),
    ('import sys\nprint >>sys.stderr, "x"\n', pyversion.PYTHON2, 2, '`print >>`'),
    # Bound by the file: its own name, not Python 2's builtin.
    ('xrange = range\nfor i in xrange(3):\n    pass\n', pyversion.PYTHON3, 0, ''),
    ('def long(x):\n    return x\ny = long(3)\n', pyversion.PYTHON3, 0, ''),
    # Guards: written for both Pythons.
    ('import sys\nif sys.version_info[0] == 2:\n    text = unicode\nelse:\n    text = str\n',
     pyversion.PYTHON3, 0, ''),
    ('import six\nif six.PY2:\n    r = xrange\n', pyversion.PYTHON3, 0, ''),
    ('import sys\nPY2 = sys.version_info[0] == 2\nstring_types = basestring if PY2 else str\n',
     pyversion.PYTHON3, 0, ''),
    ('d = {}\nif hasattr(d, "iteritems"):\n    items = d.iteritems()\n', pyversion.PYTHON3, 0,
     ''),
    ('try:\n    import cPickle as pickle\nexcept ImportError:\n    import pickle\n',
     pyversion.PYTHON3, 0, ''),
    ('try:\n    long\nexcept NameError:\n    long = int\n', pyversion.PYTHON3, 0, ''),
    ('try:\n    unicode\nexcept:\n    unicode = str\n', pyversion.PYTHON3, 0, ''),
    # A bare except guards nothing: Python 3 would swallow the AttributeError.
    ('d = {}\ntry:\n    items = d.iteritems()\nexcept:\n    items = []\n', pyversion.PYTHON2, 3,
     '`.iteritems()`'),
    # Python 3 that Python 2 could not run is Python 3 (nothing to decide).
    ('def f(*, a):\n    print(a, end="")\n', pyversion.PYTHON3, 0, ''),
    # Neither.
    ('def f(:\n    pass\n', pyversion.NEITHER, 1, 'invalid syntax'),
    ('print "a" if\n', pyversion.NEITHER, 1, 'print'),
])
def test_a_file_is_python_2_by_its_own_text(source, kind, line, why):
    verdict = pyversion.decide(source)
    assert (verdict.kind, verdict.line) == (kind, line)
    assert why in verdict.why


@pytest.fixture
def python3_repository(tmp_path):
    """A Python 3 repository (PyTorch 0.4) with one stray Python 2 script in
    tools/: its `/`, map(), d.keys() and implicit package imports are
    Python 3's, and it runs."""
    write(tmp_path, {
        'README.md': 'Needs Python 3.6.  Run `python train.py`.\n',
        'net/__init__.py': 'from .pool import pair_means, halves\n',
        'net/pool.py': '''\
            import torch


            def pair_means(items):
                assert len(items) / 2 == len(items) // 2 + 0.5 * (len(items) % 2)
                return [sum(p) / 2 for p in zip(items[::2], items[1::2])]


            def halves(d):
                keys = d.keys()
                return dict(zip(keys, map(lambda k: d[k] / 2, keys)))
            ''',
        'train.py': '''\
            import torch
            from net import pair_means, halves

            items = [1, 2, 3, 4, 5]
            print(len(items) / 2, pair_means(items), sep=' | ')
            print(sorted(halves({'a': 3, 'b': 4}).items()))
            with torch.no_grad():
                print(torch.empty(2).fill_(len(items) / 2).tolist())
            ''',
        'tools/plot_loss.py': '''\
            import sys
            losses = [float(l) for l in open(sys.argv[1])]
            print "%d losses, mean %f" % (len(losses), sum(losses) / len(losses))
            for i in xrange(len(losses) / 2):
                print i, losses[i]
            ''',
    })
    return tmp_path


def test_a_python_3_repository_keeps_its_code_but_for_the_stray_python_2_script(
        python3_repository):
    before = snapshot(python3_repository)
    printed = run(['train.py'], python3_repository)
    assert printed == '2.5 | [1.5, 3.5]\n[(\'a\', 1.5), (\'b\', 2.0)]\n[2.5, 2.5]\n'
    diff, findings, _, changed = port(str(python3_repository), write=True)
    script = os.path.join('tools', 'plot_loss.py')
    assert changed == [script]
    after = snapshot(python3_repository)
    assert {k: v for k, v in after.items() if k != script} == {
        k: v for k, v in before.items() if k != script}
    assert run(['train.py'], python3_repository) == printed
    # The script is converted as Python 2, named with the line that shows it.
    assert fixed(findings)[0] == (
        script + ":3: Python 2, as this line shows (Missing parentheses in call to 'print'. Did "
        "you mean print(...)?, a SyntaxError in Python 3): the file is converted by 2to3's "
        'fixers')
    # sum()'s type is known only as it runs: old_div, Python 2's / (a float here).
    assert after[script].splitlines()[1:] == [
        'from thffi.runtime.python2 import old_div', '', 'losses = [float(l) for l in open(sys.argv[1])]',
        'print("%d losses, mean %f" % (len(losses), old_div(sum(losses), len(losses))))',
        'for i in range(len(losses) // 2):', '    print(i, losses[i])']
    (python3_repository / 'losses.txt').write_text('1\n2\n3\n4\n')
    assert run([script, 'losses.txt'], python3_repository) == (
        '4 losses, mean 2.500000\n0 1.0\n1 2.0\n')
    # Nothing says which PyTorch: torch.no_grad and torch.empty are 0.4's.
    assert findings[0].message.startswith('assumed written for PyTorch 0.4 (train.py uses ')
    assert port(str(python3_repository))[3] == []


def test_a_file_that_parses_as_neither_python_says_where():
    new, findings = rewrite_python('import torch\n\ndef f(x:\n    return x\n', 'bad.py')
    assert new == 'import torch\n\ndef f(x:\n    return x\n'
    assert [str(f) for f in findings] == [
        "bad.py:3: does not parse (line 3: '(' was never closed): not changed"]


def test_advice_checks_what_a_name_is_bound_to():
    """fix_operator advises operator.mul for a bare repeat(x, n): only when
    repeat is operator's, never itertools'."""
    source = 'from itertools import repeat\nprint "x"\npair = tuple(repeat(3, 2))\n'
    new, findings = rewrite_python(source, 'x.py')
    assert new == 'from itertools import repeat\nprint("x")\npair = tuple(repeat(3, 2))\n'
    assert left(findings) == []
    new, findings = rewrite_python(source.replace('itertools', 'operator'), 'x.py')
    assert left(findings) == [
        "x.py:3: Python 2: not converted: You should use 'operator.mul(3, 2)' here."]


# -- 2. Guards and shims are kept -------------------------------------------------

SHIM = '''\
    import sys
    import six
    try:
        from StringIO import StringIO
    except ImportError:
        from io import BytesIO as StringIO
    try:
        long
    except NameError:
        long = int
    if sys.version_info[0] < 3:
        text_type = unicode
    else:
        text_type = str
    string_types = basestring if six.PY2 else str


    def items(d):
        if hasattr(d, 'iteritems'):
            return d.iteritems()
        return iter(d.items())


    def dump(values):
        out = StringIO()
        for v in values:
            out.write(b'%d,' % long(v))
        return out.getvalue()
    '''


@pytest.fixture
def shim_repository(tmp_path):
    """compat.py, written for both Pythons; main.py uses it."""
    write(tmp_path, {
        'compat.py': SHIM,
        'main.py': '''\
            from compat import dump, items, text_type, string_types
            print(dump([1, 2, 3]), sorted(items({'a': 1})), text_type(4),
                  isinstance('s', string_types))
            ''',
    })
    return tmp_path


def test_a_2_3_shim_is_kept_as_it_is(shim_repository):
    if not _has_six():
        pytest.skip('six is not installed')
    printed = run(['main.py'], shim_repository)
    assert printed == "b'1,2,3,' [('a', 1)] 4 True\n"
    before = snapshot(shim_repository)
    diff, findings, _, changed = port(str(shim_repository), write=True)
    assert (diff, changed, fixed(findings)) == ('', [], [])
    assert snapshot(shim_repository) == before
    assert run(['main.py'], shim_repository) == printed


def _has_six():
    try:
        import six  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_guards_of_a_python_2_file_stay_while_the_rest_is_converted():
    """A print statement makes the file Python 2: it is converted, and what
    it wrote for both Pythons is not (but for what Python 3 cannot parse)."""
    source = textwrap.dedent(SHIM) + textwrap.dedent('''\
        if sys.version_info[0] == 2:
            print "Python 2"
        print dump(xrange(3))
        ''')
    new, findings = rewrite_python(source, 'compat.py')
    # Outside the guards, the file's Python 2 meaning is kept: d.items()
    # was a list there.
    shim = textwrap.dedent(SHIM).replace('iter(d.items())', 'iter(list(d.items()))')
    assert new == shim + textwrap.dedent('''\
        if sys.version_info[0] == 2:
            print("Python 2")
        print(dump(range(3)))
        ''')
    compile(new, 'compat.py', 'exec')
    assert rewrite_python(new, 'compat.py')[0] == new


# -- 3. Imports as the code is run --------------------------------------------------

@pytest.fixture(params=['readme', 'shebang'])
def scripts_folder(tmp_path, request):
    """src/ is a package whose scripts are run from inside it (a README says
    cd src && python main.py, or main.py has a #! line); datasets.py, which
    main.py imports beside it, is Python 2 (xrange) and imports utils/ as a
    top-level package."""
    readme = 'Train:\n\n    cd src && python main.py\n' if request.param == 'readme' else \
        'Train with main.py.\n'
    shebang = '#!/usr/bin/env python\n' if request.param == 'shebang' else ''
    write(tmp_path, {
        'README.md': readme,
        'src/__init__.py': '',
        'src/utils/__init__.py': '',
        'src/utils/frame_utils.py': 'def frames(n):\n    return ["f%d" % i for i in range(n)]\n',
        'src/datasets.py': '''\
            import utils.frame_utils as frame_utils


            def dataset(n):
                return [frame_utils.frames(i) for i in xrange(n)]
            ''',
        'src/main.py': shebang + textwrap.dedent('''\
            import utils.frame_utils as frame_utils
            import datasets

            print(frame_utils.frames(2), datasets.dataset(3))
            '''),
    })
    return tmp_path


def test_a_scripts_folder_keeps_its_absolute_imports(scripts_folder):
    src = scripts_folder / 'src'
    main = (src / 'main.py').read_text()
    diff, findings, _, changed = port(str(scripts_folder), write=True)
    datasets = os.path.join('src', 'datasets.py')
    assert changed == [datasets]
    assert (src / 'main.py').read_text() == main
    assert (src / 'datasets.py').read_text().splitlines()[0] == (
        'import utils.frame_utils as frame_utils')
    assert left(findings) == [
        datasets + ':1: Python 2: not converted: the implicit relative import `import '
        'utils.frame_utils as frame_utils` is kept: scripts beside this module import it as a '
        'top-level module, where Python 3 finds it as it is (`from .` fails there); imported '
        'as part of its package too, it would need `try: from . ... except ImportError:` '
        'around both forms']
    assert run(['main.py'], src) == "['f0', 'f1'] [[], ['f0'], ['f0', 'f1']]\n"


def test_a_python_2_module_only_imported_as_part_of_its_package_gets_explicit_imports(
        tmp_path):
    write(tmp_path, {
        'run.py': 'from models import net\nprint(net.describe())\n',
        'models/__init__.py': '',
        'models/blocks.py': 'WIDTH = 4\n',
        'models/net.py': 'import blocks\n\ndef describe():\n    return "width %d" % '
                         'blocks.WIDTH\nprint "loaded"\n',
    })
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == [os.path.join('models', 'net.py')]
    assert (tmp_path / 'models' / 'net.py').read_text().splitlines()[0] == (
        'from . import blocks')
    assert run(['run.py'], tmp_path) == 'loaded\nwidth 4\n'


def test_an_import_in_a_string_is_made_explicit_where_its_module_is_known(tmp_path):
    """A loop over literals names the modules: made explicit, as Python 2
    resolved it.  A name known only at run time, and __import__ given the
    globals (Python 2 looked beside the importer first), are reported;
    __import__(name) is absolute in both Pythons and stays, unreported."""
    write(tmp_path, {
        'layers/__init__.py': '''\
            for name in ['conv', 'pool']:
                exec('from %s import *' % name)
            modules = [__import__(name) for name in ['conv', 'pool']]


            def load(name):
                exec('from %s import *' % name)
                return __import__(name, globals(), locals(), ['*'])
            ''',
        'layers/conv.py': 'def conv():\n    return 1\n',
        'layers/pool.py': 'def pool():\n    return 2\n',
    })
    _, findings, _, changed = port(str(tmp_path), write=True)
    init = os.path.join('layers', '__init__.py')
    assert changed == [init]
    assert (tmp_path / init).read_text().splitlines()[:3] == [
        "for name in ['conv', 'pool']:", "    exec('from .%s import *' % name)",
        "modules = [__import__(name) for name in ['conv', 'pool']]"]
    assert left(findings) == [
        init + ":7: Python 2: not converted: `exec('from %s import *' % name)`: an import in a "
        'string, of a top-level module in Python 3; if it names a module of this package, make '
        'the import in the string relative (`from .%s import *`)',
        init + ":8: Python 2: not converted: `__import__(name, globals(), locals(), ['*'])`: "
        "Python 2 looked for name among this package's modules first (given the globals), "
        'Python 3 only at the top level; if it names a module of this package, write '
        "`importlib.import_module('.' + name, __package__)` (it returns that module, not the "
        'top-level package)']


# -- 4. Python 3's `/` -------------------------------------------------------------

def test_integer_division_is_never_rewritten_in_a_python_3_file():
    source = 'items = [1, 2, 3]\nassert len(items) / 2 == 1.5\nn = len(items)\nn /= 2\n'
    new, findings = rewrite_python(source, 'x.py')
    assert (new, findings) == (source, [])
    exec(compile(new, 'x.py', 'exec'), {})
    # The same in a Python 2 file: Python 2 floored it.
    new, _ = rewrite_python('print "x"\n' + source.replace('1.5', '1'), 'x.py')
    assert 'assert len(items) // 2 == 1\n' in new and 'n //= 2' in new


# -- 10. Exact reports ----------------------------------------------------------------

def test_changed_lists_only_changes_made():
    """An import of a removed module its uses still need stays, and is not
    listed as changed (its uses are reported)."""
    source = ('import distutils.util\nfrom distutils.core import setup\n'
              "ok = distutils.util.strtobool('1')\n")
    new, findings = rewrite_python(source, 'setup.py')
    assert new.splitlines()[:2] == ['import distutils.util', 'from setuptools import setup']
    assert [f.line for f in findings if f.fixed] == [2]
    assert [f.line for f in findings if not f.fixed] == [3, 3]


@pytest.mark.parametrize('before, after', [
    ('y = Variable(x).detach()\n', 'y = x.detach()\n'),
    ('y = Variable(x.detach())\n', 'y = x.detach()\n'),
    ('y = Variable(x)\n', 'y = x.detach()\n'),
    ('y = Variable(x, requires_grad=True).detach()\n', 'y = x.detach()\n'),
    ('y = Variable(x, requires_grad=True)\n', 'y = x.detach().requires_grad_()\n'),
])
def test_variable_is_detached_once(before, after):
    source = 'from torch.autograd import Variable\n' + before
    new, findings = rewrite_python(source, 'x.py')
    assert new == after


@pytest.mark.parametrize('api', ['torch.empty(3)', 'torch.full((2,), 1)', 'x.new_zeros(2)',
                                 'torch.zeros_like(x)', 'torch.set_grad_enabled(False)'])
def test_the_pytorch_version_is_read_from_the_apis_used(tmp_path, api):
    (tmp_path / 'model.py').write_text('import torch\ny = %s\n' % api)
    version, reason = infer(str(tmp_path))
    assert version == '0.4' and reason.startswith('model.py uses ')
