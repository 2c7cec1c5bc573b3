"""Checks docs/legacy_api_survey.md against thffi's TH/THC headers.

The survey lists every TH/THC name and header that ffi-era projects used,
with the number of repositories using each, whether thffi provides it, and
why not where it does not.  This script finds what thffi provides by
running the C preprocessor over <TH/TH.h> and <THC/THC.h> with thffi's
include folders: a name is provided when thffi's headers define it as a
macro, declare it (function, type, variable), use it in a macro they
define (the variables a macro such as TH_TENSOR_DIM_APPLY3 declares), or
test it in #if/#ifdef (a macro the user defines, such as THC_GENERIC_FILE);
a header is provided when it is found in thffi's include folders.

    python tools/check_legacy_api.py            print the coverage; exit 1 when
                                                the table's Provided column is
                                                stale, or a name or header used
                                                by 2+ repositories is missing
                                                with no reason given
    python tools/check_legacy_api.py --update   rewrite the Provided column
                                                from thffi's headers first
"""

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from thffi import builder  # noqa: E402
from thffi.toolchain import cuda_toolkit as cuda  # noqa: E402

SURVEY = os.path.join(ROOT, 'docs', 'legacy_api_survey.md')
# An entry missing from thffi must have a reason when this many
# repositories or more use it.
THRESHOLD = 2
_IDENT = re.compile(r'\b[A-Za-z_]\w*\b')
_LINEMARK = re.compile(r'^# \d+ "([^"]*)"')
_DEFINE = re.compile(r'^#define (\w+)(\([^)]*\))?\s?(.*)$')
# The generic forms the table writes as NAME_(NAME), e.g. THTensor_(NAME):
# provided when the macro NAME_ is.
_GENERIC = re.compile(r'^(\w+_)\(NAME\)$')
_CONDITIONAL = re.compile(r'^\s*#\s*(?:if|ifdef|ifndef|elif)\b(.*)$', re.M)


class Table:
    """One markdown table of the survey: its header row and its rows, as
    lists of cell strings, with where they lie in the file's lines."""

    def __init__(self, lines, start):
        self.start = start
        self.header = _cells(lines[start])
        self.rows = []
        i = start + 2  # past the |---| line
        while i < len(lines) and lines[i].startswith('|'):
            self.rows.append(_cells(lines[i]))
            i += 1
        self.end = i

    def column(self, name):
        return self.header.index(name)

    def render(self):
        widths = [max(len(r[c]) for r in [self.header] + self.rows)
                  for c in range(len(self.header))]
        line = lambda cells: '| ' + ' | '.join(  # noqa: E731
            cell.ljust(w) for cell, w in zip(cells, widths)).rstrip() + ' |'
        return ([line(self.header), '|' + '|'.join('-' * (w + 2) for w in widths) + '|']
                + [line(r) for r in self.rows])


def _cells(line):
    return [c.strip().replace('\\|', '|') for c in line.strip().strip('|').split(' | ')]


def read_survey(path=SURVEY):
    """(lines, {'Names': Table, 'Headers': Table}) of the survey file."""
    with open(path) as f:
        lines = f.read().split('\n')
    tables, section = {}, None
    i = 0
    while i < len(lines):
        if lines[i].startswith('## '):
            section = lines[i][3:].strip()
        if lines[i].startswith('|') and section in ('Names', 'Headers') and section not in tables:
            tables[section] = Table(lines, i)
            i = tables[section].end
            continue
        i += 1
    missing = {'Names', 'Headers'} - set(tables)
    if missing:
        raise SystemExit('%s: no %s table' % (path, ' or '.join(sorted(missing))))
    return lines, tables


def _cuda_includes(tmp):
    """The CUDA toolkit's include folder, or (preprocessing needs only the
    files to exist) a folder of empty stand-ins for the runtime headers."""
    home = cuda.find_cuda_home()
    if home:
        return os.path.join(home, 'include')
    for name in ('cuda_runtime_api.h', 'cuda_runtime.h', 'cuda.h', 'driver_types.h'):
        open(os.path.join(tmp, name), 'w').close()
    return tmp


@functools.lru_cache(maxsize=None)
def thffi_provides(extra=()):
    """(names, macros): every identifier thffi's TH and THC headers declare,
    define, use in their macros or test in #if, and the macros they define;
    `extra` names headers to read besides <TH/TH.h> and <THC/THC.h> (those
    thffi has)."""
    include_dirs = [os.path.realpath(d) for d in builder.include_dirs()]
    tmp = tempfile.mkdtemp(prefix='thffi-check-')
    try:
        probe = os.path.join(tmp, 'probe.c')
        with open(probe, 'w') as f:
            f.write('#include <TH/TH.h>\n#include <THC/THC.h>\n' + ''.join(
                '#include <%s>\n' % h for h in extra if header_provided(h)))
        compiler = os.environ.get('CC') or shutil.which('gcc') or 'cc'
        cmd = ([compiler, '-E', '-dD', '-std=c99', probe]
               + ['-I' + d for d in include_dirs] + ['-I' + _cuda_includes(tmp)])
        out = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if out.returncode != 0:
        raise SystemExit('preprocessing thffi\'s headers failed:\n%s' % out.stderr)
    names, macros, ours = set(), set(), False
    for line in out.stdout.split('\n'):
        mark = _LINEMARK.match(line)
        if mark:
            path = os.path.realpath(mark.group(1))
            ours = any(path.startswith(d + os.sep) for d in include_dirs)
            continue
        if not ours:
            continue
        define = _DEFINE.match(line)
        if define:
            macros.add(define.group(1))
            names.update(_IDENT.findall(define.group(3)))
        elif not line.startswith('#'):
            names.update(_IDENT.findall(line))
    for d in include_dirs:
        for folder, _, files in os.walk(d):
            for name in files:
                if name.endswith('.h'):
                    with open(os.path.join(folder, name)) as f:
                        for condition in _CONDITIONAL.findall(f.read()):
                            names.update(_IDENT.findall(condition))
    return frozenset(names | macros), frozenset(macros)


def header_provided(header):
    return any(os.path.isfile(os.path.join(d, header)) for d in builder.include_dirs())


def name_provided(name, names, macros):
    generic = _GENERIC.match(name)
    return generic.group(1) in macros if generic else name in names


def check(update=False, path=SURVEY, out=sys.stdout):
    """Prints the coverage of the survey's names and headers; returns the
    problems found (an empty list when the survey holds)."""
    lines, tables = read_survey(path)
    names, macros = thffi_provides()
    problems = []
    for section, first in (('Names', 'Name'), ('Headers', 'Header')):
        table = tables[section]
        col_name, col_repos = table.column(first), table.column('Repositories')
        col_prov, col_why = table.column('Provided'), table.column('Why not')
        provided, missing = 0, []
        for row in table.rows:
            entry = row[col_name].strip('`')
            has = (header_provided(entry) if section == 'Headers'
                   else name_provided(entry, names, macros))
            stated = row[col_prov] == 'yes'
            if update:
                row[col_prov] = 'yes' if has else 'no'
                if has:
                    row[col_why] = ''
            elif has != stated:
                problems.append('%s %s: the table says provided=%s, thffi\'s headers say %s '
                                '(run python tools/check_legacy_api.py --update)'
                                % (first.lower(), entry, row[col_prov], 'yes' if has else 'no'))
            if has:
                provided += 1
                continue
            missing.append(entry)
            if int(row[col_repos]) >= THRESHOLD and not row[col_why]:
                problems.append('%s %s: used by %s repositories, not provided by thffi and '
                                'no reason given' % (first.lower(), entry, row[col_repos]))
        out.write('%s: %d entries, %d provided by thffi, %d not%s\n'
                  % (section.lower(), len(table.rows), provided, len(missing),
                     (': ' + ', '.join(missing)) if missing else ''))
    if update:
        for table in sorted(tables.values(), key=lambda t: -t.start):
            lines[table.start:table.end] = table.render()
        with open(path, 'w') as f:
            f.write('\n'.join(lines))
    for problem in problems:
        out.write('PROBLEM: %s\n' % problem)
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--update', action='store_true',
                        help="rewrite the Provided column from thffi's headers first")
    parser.add_argument('--survey', default=SURVEY, help='the survey file (default: %(default)s)')
    args = parser.parse_args(argv)
    return 1 if check(update=args.update, path=args.survey) else 0


if __name__ == '__main__':
    sys.exit(main())
