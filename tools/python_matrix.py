"""The Python matrix: this repository under each Python release, as a new
user would try it, in one table (PyTorch: the newest release the package index has for that
Python within requirements.txt's range).

For each Python (default 3.12 and 3.13; 3.11 is the suite's own): its
interpreter from pyenv (~/.pyenv/versions/X.Y*) or PATH, a virtual
environment with requirements.txt's packages (torch from the package index:
its CUDA build, several GB, ~1-3 min), a copy of this working
tree, then in the copy
- build:   `python build.py`
- test.py: `python test.py`
- core:    CORE below: version_matrix.py's core (the demo, the wrapped
           calls, the legacy Function base, the ops, port, the import hook)
           and port's Python 2 and removed-names tests, which use fissix

    python tools/python_matrix.py [3.12 3.13] [--dir DIR] [--keep]

An environment already in DIR (venv-X.Y, with torch in it) is used again;
--keep keeps those it makes.  Not a CI job: `pytest -m python_matrix`
(tests/test_python_matrix.py) runs it."""

import argparse
import datetime
import glob
import os
import platform
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import version_matrix  # noqa: E402

ROOT = version_matrix.ROOT
CORE = version_matrix.CORE + ['thffi/tests/test_port_python.py']
COLUMNS = ['Python', 'torch', 'build', 'test.py', 'core tests']


def interpreter(version):
    """The path of a Python `version` ('3.12') interpreter, or None: pyenv's
    newest X.Y.*, else pythonX.Y on PATH (pyenv's shims answer only for the
    versions pyenv has selected)."""
    found = sorted(glob.glob(os.path.expanduser('~/.pyenv/versions/%s.*/bin/python' % version)),
                   key=lambda p: [int(n) for n in p.split('/')[-3].split('.') if n.isdigit()])
    if found:
        return found[-1]
    on_path = shutil.which('python' + version)
    return on_path if on_path and '/shims/' not in on_path else None


def make_venv(version, where, log):
    """(its python, torch release) of the venv for Python `version` in
    where (made unless one with torch is there); raises RuntimeError."""
    venv = os.path.join(where, 'venv-' + version)
    python = os.path.join(venv, 'bin', 'python')
    if os.path.exists(python):
        code, out = version_matrix.run([python, '-c', 'import torch; print(torch.__version__)'],
                                       where, log)
        if code == 0:
            return python, out.strip().splitlines()[-1]
    base = interpreter(version)
    if base is None:
        raise RuntimeError('no Python %s here' % version)
    shutil.rmtree(venv, ignore_errors=True)
    code, out = version_matrix.run([base, '-m', 'venv', venv], where, log)
    if code == 0:
        with open(os.path.join(ROOT, 'requirements.txt')) as f:
            torch = next(l.strip() for l in f if l.startswith('torch'))
        code, out = version_matrix.run([python, '-m', 'pip', 'install', '-q', torch, 'numpy'] +
                                       version_matrix.requirements(), where, log)
    if code != 0:
        raise RuntimeError('pip: ' + (out.strip().splitlines() or ['venv'])[-1])
    code, out = version_matrix.run([python, '-c', 'import torch; print(torch.__version__)'],
                                   where, log)
    return python, out.strip().splitlines()[-1]


def row_passes(row):
    return version_matrix.row_passes(dict(row, compile='-'))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('versions', nargs='*', default=['3.12', '3.13'],
                        help='Python releases, e.g. 3.12 3.13')
    parser.add_argument('--dir', default=None, help='where venvs, copies and logs go')
    parser.add_argument('--keep', action='store_true', help='keep the environments it makes')
    args = parser.parse_args(argv)
    where = args.dir or tempfile.mkdtemp(prefix='thffi-python-matrix-')
    os.makedirs(where, exist_ok=True)
    print('environments, copies and logs in %s' % where, flush=True)
    rows = []
    for version in args.versions:
        log = os.path.join(where, 'python-%s.log' % version)
        row = {'Python': version}
        made = not os.path.exists(os.path.join(where, 'venv-' + version))
        try:
            python, row['torch'] = make_venv(version, where, log)
            row['Python'] = subprocess.run([python, '-c', 'import platform; print('
                                            'platform.python_version())'],
                                           capture_output=True, text=True).stdout.strip()
            tree = version_matrix.copy_tree(where, 'tree-' + version)
            row.update(version_matrix.check(python, tree, log, core=CORE))
        except RuntimeError as e:
            row['build'] = 'FAIL (%s)' % e
        rows.append(row)
        print(version_matrix.table([row], COLUMNS).splitlines()[-1], flush=True)
        shutil.rmtree(os.path.join(where, 'tree-' + version), ignore_errors=True)
        if made and not args.keep:
            shutil.rmtree(os.path.join(where, 'venv-' + version), ignore_errors=True)
    print('\n%s, %s, %d cores; core tests: %s\n' % (
        datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        platform.machine(), os.cpu_count(), ' '.join(os.path.basename(t) for t in CORE)))
    print(version_matrix.table(rows, COLUMNS))
    return 0 if rows and all(row_passes(r) for r in rows) else 1


if __name__ == '__main__':
    sys.exit(main())
