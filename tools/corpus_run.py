"""Builds and checks the compatibility corpus and writes the records tools/compat_table.py reads.

    python tools/corpus_run.py CHECKOUTS RESULTS [--thffi ROOT] [--levels A R B C]
                               [--only KEY ...] [--scratch DIR] [--repositories FILE]
    python tools/corpus_run.py --fetch-commands CHECKOUTS

The corpus is the list in tools/corpus/repositories.toml (one entry a repository: its pinned
commit and submodules, the build steps as its README types them, the environment, and per
extension whether it has CPU code, where its build leaves the library, and the check of ours
that runs it). Fetching is the user's: CHECKOUTS holds one clone a repository, named
`owner+name`, at the pinned commit, with its submodules checked out at theirs;
`--fetch-commands` prints the git commands that make it. Nothing of a repository enters
this project: the checks are ours, and the hand edits of level C are substitutions of ours.

For each repository and level the runner copies the pristine checkout into SCRATCH/<level>/<key>,
makes a virtual environment there (`python -m venv --system-site-packages`, then
`pip install --no-deps ROOT/thffi`, so the torch.utils.ffi hook is active in it and nowhere
else), and runs, with that environment first on PATH:

    A  the build steps, nothing changed (the hook alone);
    R  the same steps, each through `python -m thffi run -- bash -c STEP` (`cd DIR` steps as
       they are), and the check through `python -m thffi run --`, as the repository's own
       scripts would run; where ROOT's thffi has no `run` command, the records say so
       (`skipped`);
    B  `python -m thffi port --write .`, then the steps;
    C  B plus the repository's hand edits (only for the extensions an edit is for).

Every step runs, in order, whether or not one before it failed (a README's steps build
extensions apart; a failure is the record of the extensions it leaves unbuilt: those its
`steps` name, or all where it names none, each recording the first and last error of its own
steps). An extension is built when its `built` paths exist after the steps (or, without any,
when its steps succeeded) or its wrapper imports (`built_elsewhere` then says the list's paths
are wrong); its
check runs in the environment (tools/corpus/checks/<file> EXTENSION, from
the folder the extension's wrapper is imported from). A check prints `CORPUS-CHECK imported`
once the wrapper is imported and exits 0 when the results match the plain-PyTorch reference
(1e-4 relative, float32) or, for CUDA-only code, when every entry point is present.

RESULTS receives one record a repository x extension x level (`<key>__<ext>__<level>.json`,
replacing the repository's records at that level from an earlier run),
`run.json` (the run's date, machine and thffi commit) and logs/<key>__<level>.log (the whole
output of the steps and checks). tools/compat_table.py RESULTS writes docs/compatibility.md.
"""

import argparse
import datetime
import glob
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time

try:
    import tomllib
except ImportError:  # Python < 3.11: the same parser under its own name
    import tomli as tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REPOSITORIES = os.path.join(HERE, 'corpus', 'repositories.toml')
CHECKS = os.path.join(HERE, 'corpus', 'checks')   # corpus_check, the checks' shared module
LEVELS = ('A', 'R', 'B', 'C')
MARK = 'CORPUS-CHECK imported'
STEP_TIMEOUT_S = 3600
CHECK_TIMEOUT_S = 900


# -- the list -------------------------------------------------------------------------------

def load_repositories(path):
    """The repositories of the list at `path`, each a dict with `key` (owner+name) added and
    each check's path made absolute (checks are named relative to the list's folder)."""
    with open(path, 'rb') as f:
        data = tomllib.load(f)
    folder = os.path.dirname(os.path.abspath(path))
    repos = []
    for order, repo in enumerate(data.get('repository', [])):
        for field in ('repo', 'commit', 'steps', 'extension'):
            if field not in repo:
                raise ValueError('%s: repository %d (%s) has no %r' % (
                    path, order, repo.get('repo', '?'), field))
        repo = dict(repo, key=repo['repo'].replace('/', '+'), order=order)
        for ext in repo['extension']:
            if 'check' not in ext or 'cpu_code' not in ext:
                raise ValueError('%s: %s extension %r needs `check` and `cpu_code`' % (
                    path, repo['repo'], ext.get('name')))
            ext['check'] = os.path.join(folder, ext['check'])
            if not all(isinstance(i, int) and 0 <= i < len(repo['steps'])
                       for i in ext.get('steps', [])):
                raise ValueError('%s: %s extension %r: `steps` are indices of the repository\'s '
                                 'steps (0 to %d)' % (path, repo['repo'], ext['name'],
                                                      len(repo['steps']) - 1))
        repos.append(repo)
    return repos


def fetch_commands(repos, checkouts):
    """The git commands that make CHECKOUTS: the user's to run (the runner never fetches)."""
    lines = []
    for repo in repos:
        into = shlex.quote(os.path.join(checkouts, repo['key']))
        lines += ['git clone https://github.com/%s %s' % (repo['repo'], into),
                  'git -C %s checkout %s' % (into, repo['commit'])]
        for sub in repo.get('submodule', []):
            path = shlex.quote(os.path.join(checkouts, repo['key'], sub['path']))
            lines += ['rm -rf %s' % path,
                      'git clone https://github.com/%s %s' % (sub['repo'], path),
                      'git -C %s checkout %s' % (path, sub['commit'])]
    return lines


# -- one checkout ---------------------------------------------------------------------------

def git_head(path):
    ran = subprocess.run(['git', '-C', path, 'rev-parse', 'HEAD'], capture_output=True, text=True)
    return ran.stdout.strip() if ran.returncode == 0 else None


def pristine(checkouts, repo):
    """The checkout of `repo` and its commits {'': repo's, path: submodule's}; a checkout
    missing or at another commit than the list's raises, naming what to run."""
    path = os.path.join(checkouts, repo['key'])
    commits = {}
    for sub_path, want in [('', repo['commit'])] + [
            (s['path'], s['commit']) for s in repo.get('submodule', [])]:
        head = git_head(os.path.join(path, sub_path))
        if head is None:
            raise FileNotFoundError('corpus_run: %s is not a git checkout of %s (see '
                                    '--fetch-commands)' % (os.path.join(path, sub_path), repo['repo']))
        if not head.startswith(want):
            raise ValueError('corpus_run: %s is at %s, the list pins %s' % (
                os.path.join(path, sub_path), head[:12], want))
        commits[sub_path] = head
    return path, commits


def copy_checkout(source, into):
    if os.path.isdir(into):
        shutil.rmtree(into)
    shutil.copytree(source, into, symlinks=True, ignore=shutil.ignore_patterns('.git'))


# -- the environment ------------------------------------------------------------------------

def make_venv(venv, thffi_root, log):
    """A virtual environment seeing this Python's packages, with thffi (and so its
    torch.utils.ffi hook) installed from a copy of ROOT/thffi (pip writes beside its source)."""
    if os.path.isdir(venv):
        shutil.rmtree(venv)
    subprocess.run([sys.executable, '-m', 'venv', '--system-site-packages', '--without-pip', venv],
                   check=True)
    python = os.path.join(venv, 'bin', 'python')
    # pip is this Python's (the environment sees it); a shim makes `pip` in a step install
    # into the environment, never into the system.
    shim = os.path.join(venv, 'bin', 'pip')
    with open(shim, 'w') as f:
        f.write('#!/bin/sh\nexec "%s" -m pip "$@"\n' % python)
    os.chmod(shim, 0o755)
    source = os.path.join(venv, 'thffi-source')
    shutil.copytree(os.path.join(thffi_root, 'thffi'), source,
                    ignore=shutil.ignore_patterns('build', '*.egg-info', '__pycache__'))
    ran = subprocess.run([python, '-m', 'pip', 'install', '-q', '--no-deps', '--no-index',
                          '--no-build-isolation', source], capture_output=True, text=True)
    log.write('$ pip install --no-deps %s/thffi\n%s%s' % (thffi_root, ran.stdout, ran.stderr))
    if ran.returncode:
        raise RuntimeError('corpus_run: pip install of %s/thffi failed:\n%s' % (
            thffi_root, ran.stderr[-2000:]))
    return python


def step_env(venv, repo):
    env = dict(os.environ)
    env.update({k: str(v) for k, v in repo.get('env', {}).items()})
    env['PATH'] = os.path.join(venv, 'bin') + os.pathsep + env.get('PATH', '')
    env['VIRTUAL_ENV'] = venv
    env['PYTHONNOUSERSITE'] = '1'
    env.pop('PYTHONPATH', None)
    return env


def has_run_command(python):
    """Whether this thffi has `python -m thffi run` (by its usage text: decided by feature);
    asked from the environment's folder, where no thffi/ folder hides the installed one."""
    ran = subprocess.run([python, '-m', 'thffi', '--help'], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(python)))
    return 'thffi run' in ran.stdout + ran.stderr


# -- running and reading --------------------------------------------------------------------

# make's own failures are `make: *** No rule to make target...` (a line of asterisks alone, a
# banner setuptools prints around its deprecation notices, is not an error).
ERROR = re.compile(r'\berror\b|\bError\b|fatal|No such file|not found|Permission denied'
                   r'|\*\*\* \w', re.I)
# Not errors of the build: git asked for a version stamp in the copy, which the runner makes
# without .git (a clone has one), and the build went on.
NOT_BUILD_ERRORS = re.compile(r'fatal: not a git repository\b')
EXCEPTION = re.compile(r'^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b')
TRACEBACK = 'Traceback (most recent call last)'


def errors(text):
    """The error lines of a build or check output, in order: the exception line of each Python
    traceback, and each line a compiler, make, CMake or shell prints as an error."""
    found = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(TRACEBACK):
            i += 1
            while i < len(lines) and (not lines[i] or lines[i][0].isspace()):
                i += 1
            if i < len(lines):
                found.append(lines[i].strip())
        elif line.startswith('CMake Error'):
            # CMake says what is wrong on the lines after its heading, up to a blank line.
            said = [line.strip()]
            while i + 1 < len(lines) and lines[i + 1].strip() and len(said) < 5:
                i += 1
                said.append(lines[i].strip())
            found.append(' / '.join(said))
        elif (ERROR.search(line) and not line.lstrip().startswith(('warning', '#'))
              and not NOT_BUILD_ERRORS.match(line)):
            found.append(line.strip())
        i += 1
    return found


def exception_line(text):
    """The exception a check ended with: its traceback's last line."""
    tracebacks = [l for l in text.splitlines() if EXCEPTION.match(l)]
    found = errors(text)
    return (tracebacks or found or [text.strip().splitlines()[-1] if text.strip() else None])[-1]


def run_shell(command, cwd, env, log, timeout):
    log.write('$ %s\n' % command)
    log.flush()
    try:
        ran = subprocess.run(['bash', '-c', command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors='replace',
                             timeout=timeout)
        out, code = ran.stdout, ran.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b'').decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        out += '\nTimeoutError: %s ran past %d s\n' % (command, timeout)
        code = 124
    log.write(out)
    log.write('[exit %d]\n' % code)
    return code, out


def steps_script(steps, level):
    """The README's steps as the commands a level runs: through `thffi run` at level R."""
    if level != 'R':
        return list(steps)
    return [step if re.fullmatch(r'cd(\s+\S+)?', step.strip())
            else 'python -m thffi run -- bash -c %s' % shlex.quote(step) for step in steps]


def run_steps(steps, copy, env, log):
    """Runs each step in one shell state (a `cd` holds for the steps after it); returns
    {index of a failing step: its error lines}."""
    cwd = copy
    failures = {}
    for index, step in enumerate(steps):
        target = re.fullmatch(r'\s*cd(?:\s+(\S+))?\s*', step)
        if target:
            log.write('$ %s\n' % step)
            cwd = os.path.normpath(os.path.join(cwd, os.path.expanduser(target.group(1) or '~')))
            if not os.path.isdir(cwd):
                failures[index] = ['bash: cd: %s: No such file or directory' % target.group(1)]
                cwd = copy
            continue
        code, out = run_shell(step, cwd, env, log, STEP_TIMEOUT_S)
        if code:
            failures[index] = errors(out) or ['%s: exit status %d' % (step, code)]
    return failures


def failures_of(ext, failures):
    """(its steps succeeded, the first error, the last error) of the steps that build ext
    (its `steps`, else all): another extension's failing step is not its error."""
    found = [line for index, lines in sorted(failures.items())
             if index in ext.get('steps', [index]) for line in lines]
    if found:
        return False, found[0], found[-1]
    return True, None, None


def is_built(ext, copy, venv, steps_ok):
    paths = ext.get('built')
    if not paths:
        return steps_ok
    site = sysconfig.get_path('purelib', vars={'base': venv, 'platbase': venv})
    return all(glob.glob(os.path.join(copy, p.replace('{site}', site)), recursive=True)
               for p in paths)


def check_command(python, ext, level):
    """The shell command running the extension's check: through `thffi run` at level R."""
    command = '%s %s %s' % (shlex.quote(python), shlex.quote(ext['check']), shlex.quote(ext['name']))
    if level == 'R':
        return '%s -m thffi run -- %s' % (shlex.quote(python), command)
    return command


def run_check(ext, copy, env, python, log, level):
    """(imported, correct, error) of the extension's check: correct is None where the code is
    CUDA-only and its entry points are present, or where the import failed.  At level R the
    check runs through `python -m thffi run --`, as the repository's own scripts would: what
    thffi run gives back in flight (removed names, Python 2 converted) is the wrapper's there."""
    cwd = os.path.join(copy, ext.get('cwd', '.'))
    # The wrapper imports from cwd, as from `python` started there; corpus_check from the project.
    env = dict(env, PYTHONPATH=os.pathsep.join([cwd, os.path.dirname(ext['check']), CHECKS]))
    # What checks/entry_points.py imports and looks for (CUDA-only code: no results to compare).
    for field in ('wrapper', 'module'):
        if field in ext:
            env['CORPUS_%s' % field.upper()] = ext[field]
    if 'entry_points' in ext:
        env['CORPUS_ENTRY_POINTS'] = ','.join(ext['entry_points'])
    code, out = run_shell(check_command(python, ext, level), cwd, env, log, CHECK_TIMEOUT_S)
    imported = MARK in out
    if code == 0 and imported:
        return True, (True if ext['cpu_code'] else None), None
    return imported, (False if imported else None), exception_line(out)


def apply_edits(edits, copy, log):
    """Level C's hand edits (substitutions of ours: `old` replaced by `new` in `file`, or the
    file's permission bits set to `mode`); an edit without either is one not made (code still
    to be written)."""
    for edit in edits:
        path = os.path.join(copy, edit['file'])
        if 'mode' in edit:
            os.chmod(path, int(edit['mode'], 8))
            log.write('hand edit: %s: %s\n' % (edit['file'], edit['what']))
        if 'old' not in edit:
            continue
        with open(path) as f:
            text = f.read()
        if text.count(edit['old']) != edit.get('count', 1):
            raise ValueError('corpus_run: hand edit of %s: %r found %d times, expected %d' % (
                edit['file'], edit['old'], text.count(edit['old']), edit.get('count', 1)))
        with open(path, 'w') as f:
            f.write(text.replace(edit['old'], edit['new']))
        log.write('hand edit: %s: %s\n' % (edit['file'], edit['what']))


# -- one repository at one level ------------------------------------------------------------

def machine_folders(copy, venv, scratch):
    """(folder, what it is) for the folders of this machine a record's text may name, longest
    first: the records say what failed, not where this machine keeps things."""
    folders = {copy: '<checkout>', venv: '<venv>', scratch: '<scratch>',
               sys.base_prefix: '<python>', sys.prefix: '<python>',
               os.path.expanduser('~'): '~'}
    for key in ('purelib', 'platlib'):
        folders[sysconfig.get_paths()[key]] = '<site-packages>'
    pairs = {(path, name) for f, name in folders.items() if f and f != os.sep
             for path in (os.path.abspath(f), os.path.realpath(f))}
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def without_folders(text, folders):
    """text with each folder of `folders` (machine_folders()) named by what it is."""
    if not text:
        return text
    for folder, name in folders:
        text = re.sub(re.escape(folder) + r'(?=[/\s\'"):,]|$)', name, text)
    return text


def record_of(repo, ext, level, commits, **fields):
    rec = {'repo': repo['repo'], 'key': repo['key'], 'commit': commits.get(''),
           'extension': ext['name'], 'cpu_code': ext['cpu_code'], 'level': level,
           'built': False, 'imported': False, 'correct': None, 'error': None,
           'stopped_by': None, 'hand_edits': [], 'notes': repo.get('notes', '').strip(),
           'order': repo['order'], 'ext_order': repo['extension'].index(ext),
           'submodules': {p: c for p, c in commits.items() if p}}
    rec.update(fields)
    return rec


def public(edit):
    return {k: edit[k] for k in ('file', 'what', 'why', 'lang') if k in edit}


def run_level(repo, level, source, commits, scratch, thffi_root, log):
    """The records of one repository at one level."""
    exts = repo['extension']
    edits = repo.get('hand_edit', [])
    if level == 'C':
        exts = [e for e in exts if any(d['extension'] == e['name'] for d in edits)]
        unmade = {d['extension'] for d in edits if 'old' not in d and 'mode' not in d}
        if all(e['name'] in unmade for e in exts):  # nothing to build (or no extension at all)
            return [record_of(repo, e, level, commits, checked=False, error='hand edit not made '
                              'here', hand_edits=[public(d) for d in edits
                                                  if d['extension'] == e['name']])
                    for e in exts]
    copy = os.path.join(scratch, level, repo['key'])
    copy_checkout(source, copy)
    venv = os.path.join(scratch, 'venv', level, repo['key'])
    python = make_venv(venv, thffi_root, log)
    env = step_env(venv, repo)
    if level == 'R' and not has_run_command(python):
        why = 'skipped: the thffi at this root has no `python -m thffi run`'
        return [record_of(repo, e, level, commits, skipped=why, error=why) for e in exts]
    started = time.time()
    if level in ('B', 'C'):
        code, out = run_shell('python -m thffi port --write .', copy, env, log, STEP_TIMEOUT_S)
        if code:
            error = exception_line(out)
            return [record_of(repo, e, level, commits, error='port: %s' % error) for e in exts]
    if level == 'C':
        apply_edits(edits, copy, log)
    failures = run_steps(steps_script(repo['steps'], level), copy, env, log)
    elapsed = round(time.time() - started, 1)
    records = []
    for ext in exts:
        mine = [public(d) for d in edits if d['extension'] == ext['name']]
        if level == 'C' and ext['name'] in unmade:
            records.append(record_of(repo, ext, level, commits, checked=False, hand_edits=mine,
                                     error='hand edit not made here'))
            continue
        # A library found elsewhere than the list says still counts once its wrapper imports
        # (the record says so); one neither found nor importable was not built.
        steps_ok, first, last = failures_of(ext, failures)
        built = is_built(ext, copy, venv, steps_ok)
        imported, correct, error = run_check(ext, copy, env, python, log, level)
        # B lists the edits C makes (the table's "hand edits left" where C did not run).
        fields = {'built': built or imported, 'imported': imported, 'correct': correct,
                  'error': error, 'build_elapsed_s': elapsed,
                  'hand_edits': mine if level in ('B', 'C') else []}
        if imported and not built:
            fields['built_elsewhere'] = 'not at %s' % ', '.join(ext.get('built', []))
        if not built and not imported:
            fields.update(error=first or 'not built: %s missing' % ', '.join(ext.get('built', [])),
                          stopped_by=last if last != first else None)
        records.append(record_of(repo, ext, level, commits, **fields))
    folders = machine_folders(copy, venv, scratch)
    for rec in records:
        for field in ('error', 'stopped_by'):
            rec[field] = without_folders(rec[field], folders)
    return records


# -- the run --------------------------------------------------------------------------------

def machine():
    import torch
    parts = ['%s, %d cores' % (platform.machine(), os.cpu_count() or 0), 'torch %s' % torch.__version__]
    for tool, pattern in (('nvcc', r'release ([\d.]+)'), ('gcc', r'\) ([\d.]+)')):
        try:
            out = subprocess.run([tool, '--version'], capture_output=True, text=True).stdout
            found = re.search(pattern, out)
            parts.append('%s %s' % (tool, found.group(1) if found else '?'))
        except OSError:
            parts.append('no %s' % tool)
    parts.append('Python %s' % platform.python_version())
    parts.append('GPU' if torch.cuda.is_available() else 'no GPU')
    if os.environ.get('TORCH_CUDA_ARCH_LIST'):
        parts.append('TORCH_CUDA_ARCH_LIST=%s' % os.environ['TORCH_CUDA_ARCH_LIST'])
    return ', '.join(parts)


def write_run(results, thffi_root, elapsed):
    """run.json; a run adding records to a folder of the same thffi commit adds its time."""
    path = os.path.join(results, 'run.json')
    commit = (git_head(thffi_root) or '?')[:7]
    run = {'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%MZ'),
           'machine': machine(), 'thffi_commit': commit, 'elapsed_s': round(elapsed)}
    if os.path.exists(path):
        with open(path) as f:
            before = json.load(f)
        if before.get('thffi_commit') == commit:
            run['elapsed_s'] += before.get('elapsed_s', 0)
    with open(path, 'w') as f:
        json.dump(run, f, indent=1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('checkouts', help='folder of the checkouts, one `owner+name` a repository')
    parser.add_argument('results', nargs='?', help='folder for the records (made if missing)')
    parser.add_argument('--thffi', default=ROOT, help='the thffi project root to install '
                        '(its thffi/ folder; default: this one)')
    parser.add_argument('--levels', nargs='+', default=['A', 'R', 'B', 'C'], choices=LEVELS)
    parser.add_argument('--only', nargs='+', metavar='KEY', help='these repositories only '
                        '(owner+name, or owner/name)')
    parser.add_argument('--scratch', help='where the copies and environments go (default: '
                        'RESULTS/scratch)')
    parser.add_argument('--repositories', default=REPOSITORIES, help='the list (TOML)')
    parser.add_argument('--fetch-commands', action='store_true',
                        help='print the git commands that fetch the list into CHECKOUTS, and stop')
    args = parser.parse_args(argv)
    repos = load_repositories(args.repositories)
    if args.fetch_commands:
        print('\n'.join(fetch_commands(repos, args.checkouts)))
        return
    if not args.results:
        parser.error('RESULTS is required')
    if args.only:
        wanted = {k.replace('/', '+') for k in args.only}
        unknown = wanted - {r['key'] for r in repos}
        if unknown:
            parser.error('--only: not in the list: %s' % ', '.join(sorted(unknown)))
        repos = [r for r in repos if r['key'] in wanted]
    thffi_root = os.path.abspath(args.thffi)
    if not os.path.isfile(os.path.join(thffi_root, 'thffi', 'pyproject.toml')):
        parser.error('--thffi: %s has no thffi/pyproject.toml' % thffi_root)
    results = os.path.abspath(args.results)
    scratch = os.path.abspath(args.scratch or os.path.join(results, 'scratch'))
    os.makedirs(os.path.join(results, 'logs'), exist_ok=True)
    started = time.time()
    for repo in repos:
        source, commits = pristine(os.path.abspath(args.checkouts), repo)
        for level in args.levels:
            log_path = os.path.join(results, 'logs', '%s__%s.log' % (repo['key'], level))
            with open(log_path, 'w') as log:
                began = time.time()
                records = run_level(repo, level, source, commits, scratch, thffi_root, log)
            # This run's records replace the repository's at this level, those of an extension
            # since renamed or dropped from the list included.
            for stale in glob.glob(os.path.join(results, '%s__*__%s.json' % (
                    glob.escape(repo['key']), level))):
                os.remove(stale)
            for rec in records:
                name = '%s__%s__%s.json' % (rec['key'], rec['extension'], rec['level'])
                with open(os.path.join(results, name), 'w') as f:
                    json.dump(rec, f, indent=1)
            print('corpus_run: %s %s (%.0f s): %s' % (
                repo['key'], level, time.time() - began,
                ', '.join('%s %s' % (r['extension'], verdict(r)) for r in records) or 'nothing'),
                flush=True)
    write_run(results, thffi_root, time.time() - started)


def verdict(rec):
    if rec.get('skipped'):
        return 'skipped'
    if rec.get('checked') is False:
        return 'edit not made'
    if not rec['built']:
        return 'not built'
    if not rec['imported']:
        return 'not imported'
    return {True: 'ok', None: 'ok' if not rec['cpu_code'] else '?', False: 'wrong'}[rec['correct']]


if __name__ == '__main__':
    main()
