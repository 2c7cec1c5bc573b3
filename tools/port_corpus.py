"""Runs `python -m thffi port --write` over the compatibility corpus
(tools/corpus/repositories.toml, the list tools/corpus_run.py builds) with two
thffi checkouts, say main's and a branch's, and prints a table comparing what
each leaves: files changed, changes made, lines "left for you", Python 2 files
left unconverted, the shell scripts the rewrite left invalid (`bash -n`) or
holding an empty quoted word, the seconds of wall time port took (one run,
before and after in turn, so that load falls on both alike) and the
PyTorch version port assumed.

    python tools/port_corpus.py CHECKOUTS BEFORE_THFFI_ROOT AFTER_THFFI_ROOT
                                [--scratch DIR] [--only KEY ...]

CHECKOUTS is the folder of checkouts tools/corpus_run.py reads (one
`owner+name` a repository at its pinned commit, submodules included;
`python tools/corpus_run.py --fetch-commands CHECKOUTS` prints the commands
that make it).  Each run ports a fresh copy.  Nothing is built: this measures
the port and its report (the builds are corpus_run.py's levels)."""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_run  # noqa: E402 (the list and the checkouts are corpus_run's)


def _port(thffi_root, pristine, work):
    """(exit status, report, the copy's shell scripts, seconds) of port
    --write on a copy."""
    corpus_run.copy_checkout(pristine, work)
    env = dict(os.environ, PYTHONPATH=thffi_root)
    started = time.monotonic()
    ran = subprocess.run([sys.executable, '-m', 'thffi', 'port', '--write', '.'], cwd=work,
                         env=env, capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - started
    scripts = [os.path.join(folder, f) for folder, _, files in os.walk(work) for f in files
               if f.endswith('.sh')]
    return ran.returncode, ran.stderr, scripts, seconds


def _summary(code, report, scripts, seconds):
    lines = report.splitlines()
    changed = re.search(r'changed (\d+)', lines[0]) if lines else None
    left_at = next((i for i, l in enumerate(lines) if l.startswith('left for you')), len(lines))
    left = [l for l in lines[left_at + 1:] if l.startswith('  ')]
    fixed = [l for l in lines[:left_at] if l.startswith('  ')]
    invalid = [s for s in scripts if subprocess.run(['bash', '-n', s],
                                                    capture_output=True).returncode]
    # An argument quoted empty ("" alone, not `objects=""`): what the old
    # rewrite of quoted include flags left.
    empty = [s for s in scripts if re.search(r"""(?<![\w"'=])""(?![\w"'])""",
                                             open(s, errors='replace').read())]
    assumed = re.search(r'PyTorch (0\.\d)', report)
    return {'exit': code, 'files': int(changed.group(1)) if changed else '?',
            'changes': len(fixed), 'left': len(left),
            'python2': sum('Python 2: not parsed' in l or 'Python 2 (' in l and 'not converted'
                           in l for l in left),
            'bad sh': len(invalid) + len(empty), 'seconds': '%.1f' % seconds,
            'version': assumed.group(1) if assumed else '-'}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('checkouts')
    parser.add_argument('before')
    parser.add_argument('after')
    parser.add_argument('--scratch', default=os.path.join(tempfile.gettempdir(),
                                                          'thffi-port-corpus'))
    parser.add_argument('--only', nargs='+', metavar='KEY')
    options = parser.parse_args()
    repos = corpus_run.load_repositories(corpus_run.REPOSITORIES)
    if options.only:
        wanted = {k.replace('/', '+') for k in options.only}
        repos = [r for r in repos if r['key'] in wanted]
    rows = []
    for repo in repos:
        pristine, _ = corpus_run.pristine(os.path.abspath(options.checkouts), repo)
        row = [repo['repo'].split('/', 1)[1]]
        for label, root in (('before', options.before), ('after', options.after)):
            summary = _summary(*_port(os.path.abspath(root), pristine,
                                      os.path.join(options.scratch, label, repo['key'])))
            row.append(summary)
            print('port_corpus: %s %s: %s' % (repo['key'], label, summary), file=sys.stderr,
                  flush=True)
        rows.append(row)
    keys = ['files', 'changes', 'left', 'python2', 'bad sh', 'seconds']
    print('| repository | ' + ' | '.join('%s before/after' % k for k in keys) +
          ' | version assumed |')
    print('|---' * (len(keys) + 2) + '|')
    for name, before, after in rows:
        print('| %s | ' % name + ' | '.join('%s / %s' % (before[k], after[k]) for k in keys) +
              ' | %s |' % after['version'])
    seconds = [(float(b['seconds']), float(a['seconds'])) for _, b, a in rows]
    print('\nIn all: %.0f s before, %.0f s after; median a repository %.1f s before, %.1f s after.'
          % (sum(b for b, _ in seconds), sum(a for _, a in seconds),
             statistics.median(b for b, _ in seconds), statistics.median(a for _, a in seconds)))


if __name__ == '__main__':
    main()
