"""What `python -m thffi run`'s Python 2 loader (thffi/run/python2.py)
costs code that needs none: the numbers behind docs/porting/run.md.

    python bench/run_imports.py [--modules 200] [--rounds 15]

A package of Python 3 modules of our own (each a few functions; half of
them import a sibling with `from . import`, as Python 3 code does) is
imported in a fresh interpreter under `python -m thffi run`, with the
loader (the step's folder holds the package) and without it (the same
command, THFFI_RUN_ROOT taken out of the interpreter's environment: the
rest of run's sitecustomize is the same), after one run that filled the
cache.  Each figure is the interpreter's own time (-X importtime's
cumulative figure) to import the package, and to run run's sitecustomize
at start: the fastest and the median of the rounds (the fastest is the
least disturbed by other work).  Prints markdown."""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _package(folder, count):
    package = os.path.join(folder, 'bigpkg')
    os.makedirs(package)
    with open(os.path.join(package, '__init__.py'), 'w') as f:
        f.write(''.join('from . import m%03d\n' % i for i in range(count)))
    for i in range(count):
        with open(os.path.join(package, 'm%03d.py' % i), 'w') as f:
            f.write(('from . import m%03d\n' % (i - 1) if i % 2 else 'import os\n') +
                    textwrap.dedent('''\
                        """Module %d."""


                        def scale(values, by=2):
                            return [v * by for v in values]


                        class Counter:
                            def __init__(self):
                                self.seen = {}

                            def add(self, key):
                                self.seen[key] = self.seen.get(key, 0) + 1
                                return self.seen[key]
                        ''' % i))


def _times(folder, hook, env):
    """(seconds to import the package, seconds run's sitecustomize took)
    in a fresh interpreter, by -X importtime's cumulative figures."""
    command = ([] if hook else ['env', '-u', 'THFFI_RUN_ROOT']) + [
        'python', '-X', 'importtime', '-c', 'import bigpkg']
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--'] + command, cwd=folder,
                         env=env, capture_output=True, text=True, check=True)
    found = dict((name, int(us) / 1e6) for us, name in re.findall(
        r'^import time:\s+\d+ \|\s+(\d+) \|\s+(bigpkg|sitecustomize)$', out.stderr, re.M))
    return found['bigpkg'], found['sitecustomize']


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--modules', type=int, default=200)
    parser.add_argument('--rounds', type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix='thffi-run-imports-') as folder:
        _package(folder, args.modules)
        env = dict(os.environ, PYTHONPATH=ROOT, THFFI_CACHE_DIR=os.path.join(folder, 'cache'))
        env.pop('PYTHONDONTWRITEBYTECODE', None)  # __pycache__ written, as on a user's machine
        for hook in (True, False):  # the cache and __pycache__ filled
            _times(folder, hook, env)
        rounds = {True: [], False: []}
        for _ in range(args.rounds):
            for hook in (True, False):
                rounds[hook].append(_times(folder, hook, env))
    imports = {h: [r[0] for r in rounds[h]] for h in rounds}
    starts = {h: [r[1] for r in rounds[h]] for h in rounds}
    print('| under `thffi run`, fastest and median of %d rounds | without run/python2.py and '
          'run/cuda_gate.py | with them | more |' % args.rounds)
    print('|---|---|---|---|')
    for what, figures, per in (('import of %d Python 3 modules' % args.modules, imports,
                                args.modules), ("run's sitecustomize, at each start", starts, 1)):
        low = {h: min(figures[h]) for h in figures}
        mid = {h: statistics.median(figures[h]) for h in figures}
        print('| %s | %.1f ms, %.1f ms | %.1f ms, %.1f ms | %s |' % (
            what, low[False] * 1e3, mid[False] * 1e3, low[True] * 1e3, mid[True] * 1e3,
            '%+.0f us a module' % ((low[True] - low[False]) / per * 1e6) if per > 1 else
            '%+.1f ms' % ((low[True] - low[False]) * 1e3)))

if __name__ == '__main__':
    main()
