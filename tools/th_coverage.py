"""How much of PyTorch 0.3.1's and 0.4.1's TH/THC API thffi provides.

tools/th_surface/surface.tsv lists every function, macro and type the
releases' public TH/THC headers declared, those of every TH, THC, THNN and
THCUNN header their wheels installed included (tools/th_surface/extract.py
made it).  An entry is provided when

- a function: thffi's headers declare it (or define a macro of that name,
  as THCudaMalloc's choice by argument count) and thffi's library defines
  the symbol, or the macro stands for it; one the release defined `static
  inline` in its header (TH_sigmoid) has no symbol: thffi's headers name it;
- a macro, type or variable: thffi's headers define or declare the name
  (a type of 0.3 that 0.4 made a macro, THFloatTensor, is either);
- a generator header: thffi has that header;
- a name of a C++ header (*.cuh, *.hpp): thffi has that header and its
  text, or that of a thffi header it includes, names it (for
  THCNumerics<T>::f, the specialization and f).

Every entry not provided must have its reason: a row of
tools/th_surface/out.tsv (by header and name) or of math_out.tsv
(tools/gen_thmath.py's); one without is listed and the check fails.
--doc writes the rows, with their counts, into
docs/porting/not_supported.md.

thffi's headers are read as tools/check_legacy_api.py reads them (the C
preprocessor over <TH/TH.h> and <THC/THC.h>, plus THCHalf.h and
THTensorDimApply.h); its library is a probe extension built here with
create_extension (with CUDA when thffi.cuda_enabled()), or --library PATH.

    python tools/th_coverage.py                  the table; exit 1 when an entry
                                                 of tools/th_surface/provided.txt
                                                 is no longer provided, or one
                                                 not provided has no reason
    python tools/th_coverage.py --record         rewrite provided.txt (only adds
                                                 and removes what changed)
    python tools/th_coverage.py --doc            also rewrite the table in
                                                 docs/th_coverage.md and the
                                                 list of what is left out in
                                                 docs/porting/not_supported.md
"""

import argparse
import collections
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import check_legacy_api  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, 'tools', 'th_surface'))
import extract  # noqa: E402
from thffi import builder  # noqa: E402
from thffi.toolchain import cuda_toolkit as cuda  # noqa: E402

SURFACE = os.path.join(ROOT, 'tools', 'th_surface', 'surface.tsv')
PROVIDED = os.path.join(ROOT, 'tools', 'th_surface', 'provided.txt')
OUT_REASONS = os.path.join(ROOT, 'tools', 'th_surface', 'out.tsv')
MATH_OUT = os.path.join(ROOT, 'tools', 'th_surface', 'math_out.tsv')
DOC = os.path.join(ROOT, 'docs', 'th_coverage.md')
NOT_SUPPORTED = os.path.join(ROOT, 'docs', 'porting', 'not_supported.md')
# The names the builder's link check points to NOT_SUPPORTED (thffi/toolchain/th_left_out.py).
LEFT_OUT_TABLE = os.path.join(ROOT, 'thffi', 'toolchain', 'th_left_out.tsv')
RELEASES = ('0.3.1', '0.4.1')
LIBS = ('TH', 'THC', 'THNN', 'THCUNN')
# The headers thffi's <TH/TH.h> and <THC/THC.h> need not include but the
# listing has (their releases' umbrella headers did not include them either).
EXTRA_HEADERS = ['TH/THTensorDimApply.h', 'THC/THCHalf.h', 'TH/THMath.h']
_BEGIN, _END = '<!-- th_coverage: begin -->', '<!-- th_coverage: end -->'
_OUT_BEGIN, _OUT_END = '<!-- th_coverage out: begin -->', '<!-- th_coverage out: end -->'
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def read_surface(path=SURFACE):
    with open(path) as f:
        rows = [line for line in f if not line.startswith('#')]
    return list(csv.DictReader(rows, delimiter='\t', quoting=csv.QUOTE_NONE))


def key(entry):
    return '%s %s %s' % (entry['lib'], entry['kind'], entry['name'])


def library_symbols(library=None):
    """The symbols thffi's library defines (its symbol table: thffi's own
    are hidden, linked into the library and local to it): those of
    `library`, or of a probe extension built in a temporary folder."""
    if library is None:
        from thffi import create_extension
        tmp = tempfile.mkdtemp(prefix='thffi-coverage-')
        with open(os.path.join(tmp, 'probe.h'), 'w') as f:
            f.write('int thffi_coverage_probe(void);\n')
        with open(os.path.join(tmp, 'probe.c'), 'w') as f:
            f.write('#include <TH/TH.h>\nint thffi_coverage_probe(void) { return 0; }\n')
        ffi = create_extension('_probe', headers=[os.path.join(tmp, 'probe.h')],
                               sources=[os.path.join(tmp, 'probe.c')],
                               with_cuda=cuda.cuda_enabled(), verbose=False,
                               relative_to=os.path.join(tmp, 'build.py'))
        ffi.build()
        library = glob.glob(os.path.join(tmp, '_probe', '*.so'))[0]
    out = subprocess.run(['nm', '--defined-only', library], capture_output=True,
                         text=True, check=True)
    return {line.split()[-1] for line in out.stdout.splitlines() if line.strip()}


def header_text(header, seen=None):
    """The text of thffi's `header` followed by that of each thffi header
    it includes, recursively (a forwarding header, THCDeviceTensor-inl.cuh,
    names what the one it includes defines); None when thffi has none."""
    seen = set() if seen is None else seen
    for folder in builder.include_dirs():
        path = os.path.realpath(os.path.join(folder, header))
        if os.path.isfile(path):
            if path in seen:
                return ''
            seen.add(path)
            with open(path) as f:
                text = f.read()
            included = [header_text(h, seen) for h in _INCLUDE.findall(text)]
            return '\n'.join([text] + [t for t in included if t])
    return None


def _tight(text):
    """text without the blanks next to punctuation."""
    return re.sub(r'\s*([^\w\s])\s*', r'\1', text)


def provided(entries, symbols):
    """{key: bool} for the entries."""
    names, macros = check_legacy_api.thffi_provides(tuple(EXTRA_HEADERS))
    texts = {}
    result = {}
    for e in entries:
        name, kind = e['name'], e['kind']
        if kind == 'header':
            ok = header_text(name) is not None
        elif e['header'].endswith(('.cuh', '.hpp')):
            text = texts.setdefault(e['header'], header_text(e['header']))
            # compared without blanks next to punctuation (AtomicAddIntegerImpl<T, 4>);
            # a name ending in '>' has no word boundary after it
            scope, _, member = _tight(name).rpartition('::')
            flat = _tight(text) if text is not None else None
            ok = flat is not None and re.search(
                r'(?<!\w)%s(?!\w)' % re.escape(member), flat) is not None
            if ok and scope:
                ok = scope in flat
        elif kind == 'function':
            inline = all(re.match(r'(inline static|static inline)\b', e['signature ' + r])
                         for r in e['releases'].split(','))
            ok = name in macros or (name in names and (inline or name in symbols))
        else:  # 'struct THGenerator': the tag
            ok = name.split()[-1] in names
        result[key(e)] = ok
    return result


def table(entries, status, by):
    """Rows (group, release, lib, declared, provided, out) grouped by `by`."""
    counts = collections.OrderedDict()
    for e in entries:
        for release in e['releases'].split(','):
            row = counts.setdefault((by(e), release, e['lib']), [0, 0])
            row[0] += 1
            row[1] += status[key(e)]
    return [(g, r, lib, n, p, n - p) for (g, r, lib), (n, p) in sorted(counts.items())]


def render(rows, group_title):
    lines = ['| %s | release | lib | declared | provided | out | provided %% |' % group_title,
             '|---|---|---|---:|---:|---:|---:|']
    for group, release, lib, declared, got, out in rows:
        lines.append('| %s | %s | %s | %d | %d | %d | %.1f |' % (
            group, release, lib, declared, got, out, 100.0 * got / declared))
    return '\n'.join(lines)


def listing(entry):
    """Which part of the listing declared the entry: the headers of legacy
    TH.h/THC.h that extension code used (extract.LISTED), or the rest of
    what the wheels installed."""
    return 'legacy TH.h/THC.h' if extract.LISTED.match(entry['header']) else 'rest of the wheel'


def report(entries, status):
    parts = ['### By release', '',
             render(table(entries, status, lambda e: 'all'), 'entries'), '',
             '### By listing', '',
             render(table(entries, status, listing), 'headers'), '',
             '### By kind', '',
             render(table(entries, status, lambda e: e['kind']), 'kind'), '',
             '### By family', '',
             render(table(entries, status, lambda e: e['family']), 'family'), '',
             '### By header', '',
             render(table(entries, status, lambda e: e['header']), 'header')]
    return '\n'.join(parts) + '\n'


def read_reasons():
    """The reasons entries are left out, in order: out.tsv's rows, then
    math_out.tsv's (one name each), as dicts of what, header, name (regular
    expressions matched whole; empty matches any), reason, instead."""
    with open(OUT_REASONS) as f:
        rows = list(csv.DictReader([line for line in f if not line.startswith('#')],
                                   delimiter='\t', quoting=csv.QUOTE_NONE))
    with open(MATH_OUT) as f:
        for row in csv.DictReader([line for line in f if not line.startswith('#')],
                                  delimiter='\t', quoting=csv.QUOTE_NONE):
            rows.append({'what': '`%s`' % row['name'], 'header': '', 'name': re.escape(row['name']),
                         'reason': row['reason'], 'instead': MATH_OUT_INSTEAD})
    return rows


# What to write instead of a math function tools/gen_thmath.py leaves out.
MATH_OUT_INSTEAD = 'compute it with torch in Python before or after the C call'


def reason_of(entry, reasons):
    for row in reasons:
        if re.fullmatch(row['header'] or '.*', entry['header']) and \
                re.fullmatch(row['name'] or '.*', entry['name']):
            return row
    return None


def left_out(entries, status, reasons):
    """([(row, {release: count})] for the rows that explain an entry, in
    the table's order; [entry] not provided that no row explains)."""
    counts, unexplained = collections.OrderedDict(), []
    for e in entries:
        if status[key(e)]:
            continue
        row = reason_of(e, reasons)
        if row is None:
            unexplained.append(e)
            continue
        per_release = counts.setdefault(id(row), (row, collections.Counter()))[1]
        for release in e['releases'].split(','):
            per_release[release] += 1
    ordered = [counts[id(r)] for r in reasons if id(r) in counts]
    return ordered, unexplained


def render_out(rows):
    """The Markdown list of what is left out, a row each: what, how many
    entries of each release, why, what instead."""
    lines = []
    for row, count in rows:
        lines.append('- %s (%s): %s. Instead: %s.' % (
            row['what'], ', '.join('%s: %d' % (r, count[r]) for r in RELEASES if count[r]),
            row['reason'], row['instead']))
    return '\n'.join(lines) + '\n'


def left_out_table(entries, status, reasons):
    """The text of thffi/toolchain/th_left_out.tsv: each function and macro
    not provided (the names a call of which the link check sees), with its
    releases and the title of its row's `what`."""
    names = collections.OrderedDict()
    for e in sorted(entries, key=lambda e: e['name']):
        if e['kind'] not in ('function', 'macro') or status[key(e)]:
            continue
        row = reason_of(e, reasons)
        if row is None:
            continue  # failed as unexplained
        # the entry's title, without the examples in parentheses
        releases, what = names.setdefault(e['name'], (set(), row['what'].split(' (')[0]))
        releases.update(e['releases'].split(','))
    lines = ['# The TH/THC functions and macros of PyTorch 0.3.1 and 0.4.1 thffi leaves out, by '
             'tools/th_coverage.py --doc;\n# what: their entry of '
             'docs/porting/not_supported.md (thffi/toolchain/th_left_out.py reads it).\n',
             'name\treleases\twhat\n']
    lines += ['%s\t%s\t%s\n' % (name, ','.join(sorted(releases)), what)
              for name, (releases, what) in names.items()]
    return ''.join(lines)


def read_provided(path=None):
    path = path or PROVIDED
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {line.rstrip('\n') for line in f if line.strip() and not line.startswith('#')}


def write_provided(status, path=None):
    with open(path or PROVIDED, 'w') as f:
        f.write('# The entries of surface.tsv thffi provides (lib kind name), written by '
                'tools/th_coverage.py --record;\n# the test fails when one of them is no '
                'longer provided.\n')
        for k in sorted(k for k, ok in status.items() if ok):
            f.write(k + '\n')


def write_doc(text, path=DOC, begin=_BEGIN, end=_END):
    with open(path) as f:
        doc = f.read()
    start, stop = doc.index(begin) + len(begin), doc.index(end)
    with open(path, 'w') as f:
        f.write(doc[:start] + '\n' + text + doc[stop:])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--library', help='a library built by thffi, instead of a probe')
    parser.add_argument('--record', action='store_true', help='rewrite provided.txt')
    parser.add_argument('--provided', help='the record to check against (default %s)'
                        % os.path.relpath(PROVIDED, ROOT))
    parser.add_argument('--doc', action='store_true', help='rewrite docs/th_coverage.md')
    parser.add_argument('--lib', choices=LIBS, action='append',
                        help='check only these (THC and THCUNN need a library built with CUDA)')
    args = parser.parse_args(argv)
    entries = read_surface()
    if args.lib:
        entries = [e for e in entries if e['lib'] in args.lib]
    status = provided(entries, library_symbols(args.library))
    text = report(entries, status)
    sys.stdout.write(text)
    out_rows, unexplained = left_out(entries, status, read_reasons())
    before = {k for k in read_provided(args.provided) if k.split(' ', 1)[0] in (args.lib or LIBS)}
    lost = sorted(k for k in before if not status.get(k))
    if args.record:
        write_provided(status, args.provided)
    table_text = left_out_table(entries, status, read_reasons())
    if args.doc:
        write_doc(text)
        write_doc(render_out(out_rows), NOT_SUPPORTED, _OUT_BEGIN, _OUT_END)
        with open(LEFT_OUT_TABLE, 'w') as f:
            f.write(table_text)
    failed = 0
    with open(LEFT_OUT_TABLE) as f:
        stale = not args.lib and not args.doc and f.read() != table_text
    if stale:
        print('\n%s is out of step with what thffi leaves out: run tools/th_coverage.py --doc'
              % os.path.relpath(LEFT_OUT_TABLE, ROOT))
        failed = 1
    if lost and not args.record:
        print('\n%d entries of %s are no longer provided:' % (len(lost), args.provided or PROVIDED))
        for k in lost:
            print('  ' + k)
        failed = 1
    if unexplained:
        print('\n%d entries are neither provided nor given a reason (%s):' % (
            len(unexplained), os.path.relpath(OUT_REASONS, ROOT)))
        for e in unexplained:
            print('  %s (%s)' % (key(e), e['header']))
        failed = 1
    return failed


if __name__ == '__main__':
    sys.exit(main())
