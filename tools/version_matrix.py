"""The version matrix: this repository on each PyTorch release, as a new
user would try it, in one table.

For each release: a fresh virtual environment (`python -m venv`, pip from
the package index: torch==RELEASE with requirements.txt's other packages,
numpy below 2 for the releases built against numpy 1), a copy of this working
tree, then in the copy
- build:   `python build.py`
- test.py: `python test.py`
- core:    a subset of the suite, CORE below (the demo, the wrapped calls,
           the legacy Function base, the ops, port and the import hook)
- compile: MyAddModule under torch.compile: `fullgraph` (the op traced),
           `graph break` (eager fallback), or why not
- call:    the wrapped C call at N=1 against torch.add(a, b, out=o) in the
           same process (bench/bench.py --call-row), below 1: faster
and with --cross, a library built under the first release run (test.py,
core) under the last one, and the reverse: no rebuild in between.

    python tools/version_matrix.py 2.0.1 2.4.1 2.15.0 [--cross] [--keep]

Each environment holds a CUDA build of torch (several GB; the package index
serves those): it is deleted after its row unless --keep (--cross keeps the
first and the last until the cross check is done).  Takes ~5 min a release
on two cores.  Not a CI job: CI keeps its pinned release."""

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = ['tests/test_add.py', 'tests/test_calls.py', 'thffi/tests/test_legacy_function.py',
        'tests/test_ops.py', 'tests/test_legacy_api.py', 'thffi/tests/test_port.py',
        # C that reshapes a Parameter leans on what Tensor.data's setter does;
        # TH calls on threads and the layout check on the generated calls.
        'thffi/tests/test_c_changes_arguments.py', 'thffi/tests/test_threads.py',
        'thffi/tests/test_check_layout.py']


def requirements():
    """requirements.txt's packages but torch and numpy (pinned per release
    here), and hypothesis (no core test uses it)."""
    with open(os.path.join(ROOT, 'requirements.txt')) as f:
        lines = [l.split('#')[0].strip() for l in f]
    return [l for l in lines if l and re.split(r'[<>=!~\[ ;]', l)[0].lower()
            not in ('torch', 'numpy', 'hypothesis')]


COLUMNS = ['torch', 'build', 'test.py', 'core tests', 'compile', 'call ratio (N=1)']
# What the compile column runs in the copy: MyAddModule compiled with
# fullgraph=True, else without (graph breaks allowed), checked against a + b.
COMPILE_CHECK = r'''
import sys, warnings
import torch
sys.path.insert(0, '.')
from modules.add import MyAddModule
a, b = torch.rand(5), torch.rand(5)
for fullgraph, name in ((True, 'fullgraph'), (False, 'graph break')):
    torch._dynamo.reset() if hasattr(torch, '_dynamo') else None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            out = torch.compile(MyAddModule(), fullgraph=fullgraph)(a, b)
    except Exception as e:
        why = (str(e).strip().splitlines() or [type(e).__name__])[0][:60]
        continue
    print('COMPILE:', name if torch.equal(out, a + b) else 'wrong result')
    break
else:
    print('COMPILE: no (%s)' % why)
'''


def needs_numpy_1(release):
    """torch 2.0-2.2 wheels were built against numpy 1 (they fail on 2)."""
    major, minor = (int(x) for x in release.split('.')[:2])
    return (major, minor) < (2, 3)


def run(command, cwd, log, timeout=1800, env=None):
    """Runs command, appending its output to log; (returncode, output)."""
    with open(log, 'a') as f:
        f.write('\n$ %s\n' % ' '.join(command))
    try:
        p = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        out, code = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, code = '%s\n(timed out after %d s)' % (e.stdout or '', timeout), 124
    with open(log, 'a') as f:
        f.write(out if isinstance(out, str) else out.decode('utf-8', 'replace'))
    return code, out


def make_venv(release, where, log):
    """A venv with torch==release; its python, or raises RuntimeError."""
    venv = os.path.join(where, 'torch-' + release)
    shutil.rmtree(venv, ignore_errors=True)
    code, out = run([sys.executable, '-m', 'venv', venv], where, log)
    python = os.path.join(venv, 'bin', 'python')
    numpy = 'numpy<2' if needs_numpy_1(release) else 'numpy'
    if code == 0:
        code, out = run([python, '-m', 'pip', 'install', '-q', '--no-cache-dir',
                         'torch==' + release, numpy] + requirements(), where, log)
    if code != 0:
        raise RuntimeError('pip: ' + out.strip().splitlines()[-1] if out.strip() else 'venv')
    return python


def copy_tree(where, name):
    """A copy of this working tree without builds and caches."""
    dest = os.path.join(where, name)
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
        '.git', '_ext', '__pycache__', '*.egg-info', 'build', '.pytest_cache'))
    return dest


def passed(out):
    """pytest's summary as 'N passed[, M failed...]', or the last line."""
    lines = [l for l in out.strip().splitlines() if re.search(r'\d+ (passed|failed|error)', l)]
    return (lines[-1] if lines else (out.strip().splitlines() or ['no output'])[-1]).strip('= ')


def check(python, tree, log, build=True, core=CORE):
    """The row's cells for the tree under python (build: run build.py;
    core: the tests to run)."""
    env = {'TORCH_CUDA_ARCH_LIST': '7.5'}  # no GPU needed: compile for one architecture
    row = {}
    if build:
        code, out = run([python, 'build.py'], tree, log, env=env)
        row['build'] = 'ok' if code == 0 else 'FAIL'
        if code:
            return row
    code, out = run([python, 'test.py'], tree, log, env=env)
    row['test.py'] = 'ok' if code == 0 and 'MISMATCH' not in out else 'FAIL'
    code, out = run([python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider'] + core, tree,
                    log, env=env)
    row['core tests'] = passed(out) + ('' if code == 0 else ' (FAIL)')
    return row


def measure(python, tree, log):
    row = {}
    code, out = run([python, '-c', COMPILE_CHECK], tree, log, env={
        'TORCHINDUCTOR_CACHE_DIR': os.path.join(tree, '.inductor-cache')})
    found = re.findall(r'^COMPILE: (.*)$', out, re.M)
    row['compile'] = found[-1] if found else 'FAIL (exit %d)' % code
    code, out = run([python, 'bench/bench.py', '--call-row'], tree, log)
    found = re.findall(r'ratio ([\d.]+)x', out)
    row['call ratio (N=1)'] = found[-1] + 'x' if found else 'FAIL'
    return row


def built_files(tree):
    """The built library's files with their sizes and times: a rebuild
    changes them."""
    ext = os.path.join(tree, '_ext')
    return sorted((os.path.relpath(os.path.join(d, f), ext), os.stat(os.path.join(d, f)).st_size,
                   os.stat(os.path.join(d, f)).st_mtime_ns)
                  for d, _, files in os.walk(ext) for f in files if f.endswith('.so'))


def table(rows, columns=COLUMNS):
    """rows (dicts) as a markdown table; a missing cell is '-'."""
    lines = ['| ' + ' | '.join(columns) + ' |', '|' + '---|' * len(columns)]
    lines += ['| ' + ' | '.join(str(r.get(c, '-')) for c in columns) + ' |' for r in rows]
    return '\n'.join(lines)


def row_passes(row):
    return (row.get('build') == 'ok' and row.get('test.py') == 'ok'
            and 'FAIL' not in row.get('core tests', 'FAIL') and 'failed' not in
            row.get('core tests', '') and 'error' not in row.get('core tests', '')
            and not row.get('compile', 'FAIL').startswith(('FAIL', 'wrong')))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('releases', nargs='+', help='torch releases, e.g. 2.0.1 2.15.0')
    parser.add_argument('--cross', action='store_true',
                        help='also run a build of the first release under the last, and back')
    parser.add_argument('--keep', action='store_true', help='keep the environments')
    parser.add_argument('--dir', default=None, help='where venvs, copies and logs go')
    args = parser.parse_args()
    where = args.dir or tempfile.mkdtemp(prefix='thffi-matrix-')
    os.makedirs(where, exist_ok=True)
    print('environments, copies and logs in %s' % where, flush=True)
    rows, kept = [], {}
    ends = {args.releases[0], args.releases[-1]} if args.cross else set()
    for release in args.releases:
        log = os.path.join(where, 'torch-%s.log' % release)
        row = {'torch': release}
        try:
            python = make_venv(release, where, log)
            tree = copy_tree(where, 'tree-' + release)
            row.update(check(python, tree, log))
            if row.get('build') == 'ok':
                row.update(measure(python, tree, log))
        except RuntimeError as e:
            row['build'] = 'FAIL (%s)' % e
        rows.append(row)
        print(table([row]).splitlines()[-1], flush=True)
        if release in ends and row.get('build') == 'ok':
            kept[release] = (python, tree)
        elif not args.keep:
            shutil.rmtree(os.path.join(where, 'torch-' + release), ignore_errors=True)
            shutil.rmtree(os.path.join(where, 'tree-' + release), ignore_errors=True)
    cross = []
    if args.cross and len(kept) == 2:
        first, last = args.releases[0], args.releases[-1]
        for built, ran in ((first, last), (last, first)):
            log = os.path.join(where, 'cross-%s-under-%s.log' % (built, ran))
            row = {'built under': built, 'run under': ran}
            before = built_files(kept[built][1])
            row.update(check(kept[ran][0], kept[built][1], log, build=False))
            row['rebuilt'] = 'no' if built_files(kept[built][1]) == before else 'YES (FAIL)'
            cross.append(row)
    if not args.keep:
        for release in kept:
            shutil.rmtree(os.path.join(where, 'torch-' + release), ignore_errors=True)
            shutil.rmtree(os.path.join(where, 'tree-' + release), ignore_errors=True)
    print('\n%s, %s, Python %s, %d cores; core tests: %s\n' % (
        datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        platform.machine(), platform.python_version(), os.cpu_count(), ' '.join(
            os.path.basename(t) for t in CORE)))
    print(table(rows))
    if cross:
        print('\n' + table(cross, ['built under', 'run under', 'rebuilt', 'test.py', 'core tests']))
    ok = all(row_passes(r) for r in rows) and all(
        r.get('test.py') == 'ok' and r.get('rebuilt') == 'no' and row_passes(
            dict(r, build='ok', compile='-')) for r in cross)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
