"""Writes docs/compatibility.md from a folder of compatibility-corpus records.

    python tools/compat_table.py RESULTS [--out docs/compatibility.md] [--checkouts DIR]

The corpus (../shared/CORPUS.md's ffi-era repositories) is fetched, built and checked outside this
repository: its code is never part of the project. That run leaves, in RESULTS, one JSON file
per repository x extension x level (`*__A.json`, `*__R.json`, `*__B.json`, `*__C.json`) and
`run.json` naming the run (tools/corpus_run.py makes them from a folder of checkouts):

    run.json   {"date": "2026-11-24T17:28Z", "machine": "...", "thffi_commit": "9eeb333",
                "elapsed_s": 420}                                   # elapsed_s optional
    record     {"repo": "owner/name", "commit": "<sha>", "extension": "roi_align",
                "cpu_code": true, "level": "A" | "R" | "B" | "C",
                "checked": false,                    # level C only: the edit was not made
                "skipped": "why" | absent,           # level R only: thffi had no `run`
                "built": bool, "imported": bool,
                "correct": true | false | null,      # null: no CPU code, or not reached
                "error": "first blocking error, verbatim" | null,
                "stopped_by": "the last error of that build, where it differs" | null,
                "hand_edits": [{"file", "what", "why", "lang": "C" | "Python" | "shell"}],
                "notes": "how it was run", "build_elapsed_s": 12.0,
                "order": 0, "ext_order": 0,                         # optional
                "submodules": {"third_party/kenlm": "<sha>"}}       # optional (or kenlm_commit)

Level A is the repository's own build steps with thffi installed (the torch.utils.ffi hook
alone); level R, the same steps each run through `python -m thffi run --` (its column shows
when some R record was not skipped); level B is the same steps after `python -m thffi port --write .`; level C, where B
fails, is B plus the fewest hand edits (its record lists them in `hand_edits`), built and
checked the same way, or `checked: false` for an edit not made (code still to be written). A record whose
commit is missing takes it from the checkout DIR/<level>/<key> (git), when there is one.
This script reads only; it runs offline.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = ('A', 'R', 'B')   # the table's columns (R where it ran); C says what the hand edits give
ALL_LEVELS = LEVELS + ('C',)
NAMES = {'A': 'hook alone', 'R': 'through `thffi run`', 'B': 'after port'}


def load(results, checkouts=None):
    """The run's identity and its records, grouped {(repo, extension): {level: record}}, in
    the corpus's order."""
    with open(os.path.join(results, 'run.json')) as f:
        run = json.load(f)
    rows = {}
    for path in sorted(glob.glob(os.path.join(results, '*__*__*.json'))):
        with open(path) as f:
            rec = json.load(f)
        if rec.get('level') not in ALL_LEVELS:
            raise ValueError('%s: level must be A, R, B or C, not %r' % (path, rec.get('level')))
        if not rec.get('commit') and checkouts and rec.get('key'):
            rec['commit'] = checkout_commit(os.path.join(checkouts, rec['level'], rec['key']))
        rows.setdefault((rec['repo'], rec['extension']), {})[rec['level']] = rec
    order = sorted(rows, key=lambda k: (_first(rows[k], 'order', 999), k[0],
                                        _first(rows[k], 'ext_order', 999), k[1]))
    return run, [(k, rows[k]) for k in order]


def checkout_commit(path):
    try:
        return subprocess.run(['git', '-C', path, 'rev-parse', 'HEAD'], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _first(levels, field, default=None):
    for level in LEVELS:
        if level in levels and levels[level].get(field) is not None:
            return levels[level][field]
    return default


def ran(rec):
    """A record of a level that ran (level R is skipped where thffi had no `run`)."""
    return bool(rec and not rec.get('skipped'))


def works(rec):
    """Built, imported, and (where checked) right."""
    return bool(ran(rec) and rec['built'] and rec['imported'] and rec.get('correct') is not False)


def outcome(rec):
    """One level's cell: where it stopped."""
    if rec is None:
        return 'not run'
    if rec.get('skipped'):
        return 'skipped'
    if not rec['built']:
        return '✗ build'
    if not rec['imported']:
        return '✗ import'
    if rec.get('correct') is False:
        return '✗ run' if rec.get('cpu_code') else '✗ entry points'
    return '✓'


def checked(levels):
    """CPU results against the PyTorch reference, at the best level reached."""
    rec = levels.get('B') or levels.get('A')
    if not _first(levels, 'cpu_code', False):
        return '— (CUDA only: built, imported, entry points)'
    if any(levels[l].get('correct') is True for l in LEVELS if l in levels):
        return '✓ (1e-4)'
    if rec and rec['imported'] and rec.get('correct') is False:
        return '✗ differs or raises'
    return 'not reached'


def edits_cell(levels):
    b = levels.get('B')
    if works(b):
        return 'none'
    edits = hand_edits(levels)
    if not edits:
        return 'not determined'
    langs = sorted({e.get('lang', '?') for e in edits})
    return '%d (%s)%s: see below' % (len(edits), ', '.join(langs), edited_outcome(levels.get('C')))


def hand_edits(levels):
    """The edits level C made (or listed), else those a B or A record lists."""
    for level in ('C', 'B', 'A'):
        if (levels.get(level) or {}).get('hand_edits'):
            return levels[level]['hand_edits']
    return []


def edited_outcome(c):
    """What the hand edits gave, when level C ran."""
    if c is None:
        return ''
    if c.get('checked') is False:
        return ', not made here'
    return ', then ✓' if works(c) else ', then %s' % outcome(c)


def edited_result(c):
    if c is None:
        return 'not tried'
    if c.get('checked') is False:
        return 'not made here'
    if works(c):
        return '✓ built, imported, matches' if c.get('cpu_code') else '✓ built, imported'
    return '%s — `%s`' % (outcome(c), cell(c.get('error') or 'no error recorded'))


def short(sha):
    return (sha or '?')[:7]


def in_checkout(text, rec):
    """text with the path of the run's copy of the repository (a folder of the machine that
    ran it: SCRATCH/<level>/<key>) written as <checkout>."""
    if not rec.get('key'):
        return text
    return re.sub(r'(?<![\w.-])/\S*?/%s/%s(?![\w.+-])' % (rec['level'], re.escape(rec['key'])),
                  '<checkout>', text)


def cell(text):
    return str(text).replace('|', '\\|').replace('\n', ' ')


def render(run, rows):
    repos = sorted({repo for (repo, _), _ in rows})
    out = ['# Compatibility: %d ffi-era repositories on today\'s PyTorch' % len(repos), '',
           'Run of %s on %s; thffi %s%s.' % (
               run.get('date', '?'), run.get('machine', '?'), run.get('thffi_commit', '?'),
               '; the run took %.0f min' % (run['elapsed_s'] / 60) if run.get('elapsed_s') else ''), '']
    total = len(rows)
    with_r = any(ran(levels.get('R')) for _, levels in rows)
    count = {l: sum(works(levels.get(l)) for _, levels in rows) for l in LEVELS}
    edited = sum(works(levels.get('C')) for _, levels in rows if not works(levels.get('B')))
    out += ['%d extensions in %d repositories: %d work with the `torch.utils.ffi` hook alone, '
            '%s%d after `python -m thffi port`, with no file edited by hand%s.'
            % (total, len(repos), count['A'],
               '%d with its steps run through `python -m thffi run`, ' % count['R'] if with_r else '',
               count['B'],
               '; %d more after `port` and the hand edits listed below' % edited if edited else ''),
            '',
            'The corpus: %d public repositories written for `torch.utils.ffi` in 2017-2018, '
            % len(repos) +
            'chosen for the spread of their idioms (make.sh and nvcc, setuptools packages, CMake '
            'libraries, generic TH/THC code, C++ bindings, CUDA-only code). Each is cloned at the '
            'commit shown (fetching is the user\'s; nothing of it enters this repository) and built by the steps '
            'its README gives, (A) with thffi installed and nothing else changed, (B) in a second '
            'pristine copy after `python -m thffi port --write .`%s. ✓: built, imported and, where '
            % (', and (R) with each step run through `python -m thffi run --`, nothing changed'
               if with_r else '') +
            'there is CPU code, its own Python wrapper gave the same results (forward, and '
            'backward where it has one) as a reference written in plain PyTorch, to 1e-4 '
            'relative in float32; for CUDA-only code (no GPU here), built, imported, and its '
            'entry points present. ✗ build / import / run / entry points: where it stopped. '
            'Where B fails, the fewest hand edits are made in a third copy (C) and it is built '
            'and checked the same way; "hand edits left" says how many and what they gave. '
            'This page is '
            'generated by `tools/compat_table.py` from the run\'s records.', '',
            '| repository @ commit | extension | CPU code | hook alone (A) | %safter `port` (B) '
            '| hand edits left | CPU results vs PyTorch |' % ('`thffi run` (R) | ' if with_r else ''),
            '|---|---|---|---|---|---|---|' + ('---|' if with_r else '')]
    for (repo, ext), levels in rows:
        cells = [outcome(levels.get('A'))] + ([outcome(levels.get('R'))] if with_r else []) + [
            outcome(levels.get('B'))]
        out.append('| %s @ %s | %s | %s | %s | %s | %s |' % (
            repo, short(_first(levels, 'commit')), ext,
            'yes' if _first(levels, 'cpu_code', False) else 'no',
            ' | '.join(cells), edits_cell(levels), checked(levels)))
    out += ['', '## What failed and why', '']
    by_repo = {}
    for (repo, ext), levels in rows:
        by_repo.setdefault(repo, []).append((ext, levels))
    for repo in [r for r in dict.fromkeys(repo for (repo, _), _ in rows)]:
        exts = by_repo[repo]
        failing = [(ext, l, levels[l]) for ext, levels in exts for l in LEVELS
                   if ran(levels.get(l)) and not works(levels[l])]
        notes = _first(dict(exts[0][1]), 'notes', '')
        head = '### %s @ %s' % (repo, short(_first(exts[0][1], 'commit')))
        subs = _first(dict(exts[0][1]), 'submodules') or {}
        if _first(dict(exts[0][1]), 'kenlm_commit'):
            subs = {'kenlm': _first(dict(exts[0][1]), 'kenlm_commit')}
        if subs:
            head += ' (%s)' % ', '.join('%s @ %s' % (os.path.basename(p), short(c))
                                        for p, c in sorted(subs.items()))
        out += [head, '']
        if notes:
            out += [notes, '']
        if not failing:
            out += ['Every extension builds, imports and (where checked) matches at every level.', '']
            continue
        for ext, level, rec in failing:
            what = NAMES[level]
            line = '- `%s`, %s: %s — `%s`' % (ext, what, outcome(rec), cell(
                in_checkout(rec.get('error') or 'no error recorded', rec)))
            if rec.get('stopped_by') and rec['stopped_by'] != rec.get('error'):
                line += '; then `%s`' % cell(in_checkout(rec['stopped_by'], rec))
            out.append(line)
        edits = [(ext, e, levels.get('C')) for ext, levels in exts
                 if not works(levels.get('B')) for e in hand_edits(levels)]
        if edits:
            out += ['', 'Hand edits after `port` (level C: made in a third copy, then the same '
                    'build and check):', '',
                    '| extension | file | what | why | kind | result |', '|---|---|---|---|---|---|']
            out += ['| %s | %s | %s | %s | %s | %s |' % (
                ext, cell(e.get('file', '?')), cell(e.get('what', '?')), cell(e.get('why', '?')),
                e.get('lang', '?'), edited_result(c)) for ext, e, c in edits]
        out.append('')
    return '\n'.join(out).rstrip('\n') + '\n'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('results', help='folder of the run: run.json and the *__A/B.json records')
    parser.add_argument('--out', default=os.path.join(ROOT, 'docs', 'compatibility.md'))
    parser.add_argument('--checkouts', help='folder of the checkouts (<level>/<key>), for '
                        'records without a commit')
    args = parser.parse_args(argv)
    run, rows = load(args.results, args.checkouts)
    if not rows:
        sys.exit('compat_table: no records (*__A.json, *__R.json, *__B.json) in %s' % args.results)
    text = render(run, rows)
    with open(args.out, 'w') as f:
        f.write(text)
    print('compat_table: %d rows -> %s' % (len(rows), args.out))


if __name__ == '__main__':
    main()
