"""`python -m thffi port` and scripts' imports (thffi/port/running.py,
py2.py): a script keeps its imports as Python runs them, a package's
module gets explicit ones, and a module that nothing shows how it runs
keeps its imports and is reported, its statement quoted without the
comments before it.  The repository is ours, in the 2017-2018 idiom of a
kernel folder with a baseline beside it and a test script its README runs."""

import os
import subprocess
import sys

from support import ROOT, write_files
from thffi.port import port

README = '''\
    # Highway LSTM

    Build the kernels, then check them against the baseline:

        cd lstm_ext
        sh make.sh
        python test.py
    '''
REPOSITORY = {
    'lstm_ext/__init__.py': '',
    'lstm_ext/make.sh': '#!/usr/bin/env bash\necho "Compiling kernels..."\n',
    'lstm_ext/baseline/__init__.py': '',
    'lstm_ext/baseline/cells.py': '''\
        class Cell(object):
            def __init__(self, i):
                self.i = i

            def step(self, x):
                return x + self.i
        ''',
    'lstm_ext/baseline/lstm.py': '''\
        import cells


        class LSTM(object):
            def __init__(self, size):
                self.cells = [cells.Cell(i) for i in xrange(size)]

            def run(self, xs):
                return [c.step(x) for c, x in zip(self.cells, xs)]
        ''',
    'lstm_ext/test.py': '''\
        import sys
        # the baseline to compare against
        import baseline.lstm
        from baseline.lstm import LSTM

        lstm = LSTM(3)
        print 'baseline:', lstm.run([1, 2, 3])
        print 'same class:', baseline.lstm.LSTM is LSTM
        ''',
}
IMPORTS = 'import sys\n# the baseline to compare against\nimport baseline.lstm\n' \
          'from baseline.lstm import LSTM\n'
OUTPUT = 'baseline: [1, 3, 5]\nsame class: True\n'


def _python(args, cwd, **env):
    return subprocess.run([sys.executable] + args, cwd=str(cwd), capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT, **env), timeout=300)


def left(findings, path):
    return [str(f) for f in findings if not f.fixed and f.path == path]


def test_a_script_a_readme_runs_keeps_its_imports(tmp_path):
    """README: `cd lstm_ext`, `python test.py`: test.py is a script, its
    folder first on sys.path; baseline.lstm is a package's module."""
    write_files(tmp_path, dict(REPOSITORY, **{'README.md': README}))
    _, findings, _, changed = port(str(tmp_path), write=True)
    test = os.path.join('lstm_ext', 'test.py')
    lstm = os.path.join('lstm_ext', 'baseline', 'lstm.py')
    assert sorted(changed) == sorted([test, lstm])
    assert (tmp_path / test).read_text().startswith(IMPORTS)
    assert (tmp_path / lstm).read_text().startswith('from . import cells\n')
    assert left(findings, test) == []
    out = _python([os.path.join('lstm_ext', 'test.py')], tmp_path)  # where it is too
    assert (out.returncode, out.stdout) == (0, OUTPUT), out.stderr
    out = _python(['test.py'], tmp_path / 'lstm_ext')
    assert (out.returncode, out.stdout) == (0, OUTPUT), out.stderr


def test_a_module_nothing_imports_nor_runs_keeps_its_imports_and_says_so(tmp_path):
    """No README: nothing shows whether test.py runs as a script or as a
    module of the lstm_ext package.  Its imports stay, each reported with
    what either way needs; the quoted statement leaves its comment out."""
    write_files(tmp_path, REPOSITORY)
    _, findings, _, changed = port(str(tmp_path), write=True)
    test = os.path.join('lstm_ext', 'test.py')
    assert (tmp_path / test).read_text().startswith(IMPORTS)
    kept = ('Python 2: not converted: the implicit relative import `%s` is kept: no file of the '
            'repository imports this module nor runs it, so how it runs is not known: run as a '
            'script (`python test.py`), it needs the import as it is; imported as part of its '
            'package, write `%s`')
    assert left(findings, test) == [
        test + ':3: ' + kept % ('import baseline.lstm', 'from .baseline import lstm'),
        test + ':4: ' + kept % ('from baseline.lstm import LSTM',
                                'from .baseline.lstm import LSTM')]
    out = _python(['test.py'], tmp_path / 'lstm_ext')
    assert (out.returncode, out.stdout) == (0, OUTPUT), out.stderr


def test_thffi_run_runs_the_script_as_it_is(tmp_path):
    """Before any port: the README's step through thffi run."""
    write_files(tmp_path, dict(REPOSITORY, **{'README.md': README}))
    out = _python(['-m', 'thffi', 'run', 'cd lstm_ext && python test.py'], tmp_path,
                  THFFI_CACHE_DIR=str(tmp_path / 'cache'))
    assert (out.returncode, out.stdout) == (0, OUTPUT), out.stderr
    assert (tmp_path / 'lstm_ext' / 'test.py').read_text().startswith(IMPORTS)


def test_an_exec_d_import_follows_how_its_module_runs(tmp_path):
    """A Python 2 script's exec'd import stays as its code's do; a package's
    module whose loop names its own modules and a top-level one is
    reported, not half converted."""
    write_files(tmp_path, {
        'layers/__init__.py': '''\
            for name in ['conv', 'os']:
                exec('from %s import *' % name)
            ''',
        'layers/conv.py': 'def conv():\n    return 1\n',
        'layers/demo.py': '''\
            exec('from conv import *')
            if __name__ == '__main__':
                print conv()
            ''',
    })
    _, findings, _, changed = port(str(tmp_path), write=True)
    init = os.path.join('layers', '__init__.py')
    demo = os.path.join('layers', 'demo.py')
    assert changed == [demo]
    assert (tmp_path / demo).read_text().startswith("exec('from conv import *')\n")
    assert left(findings, init) == [
        init + ":2: Python 2: not converted: `exec('from %s import *' % name)`: the import in "
        "the string names this package's modules (conv) and others (os): Python 2 found each "
        "where it is, Python 3 looks only at the top level; import this package's with `from "
        ".%s import *`"]
    out = _python(['demo.py'], tmp_path / 'layers')
    assert (out.returncode, out.stdout) == (0, '1\n'), out.stderr
