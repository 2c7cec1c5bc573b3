"""How much of PyTorch 0.3.1's and 0.4.1's TH/THC API thffi provides.

tools/th_surface/surface.tsv lists every function, macro and type the
releases' public TH/THC headers declared (tools/th_surface/extract.py made
it).  An entry is provided when

- a function: thffi's headers declare it (or define a macro of that name,
  as THCudaMalloc's choice by argument count) and thffi's library defines
  the symbol, or the macro stands for it;
- a macro, type or variable: thffi's headers define or declare the name
  (a type of 0.3 that 0.4 made a macro, THFloatTensor, is either);
- a generator header: thffi has that header;
- a name of a C++ header (*.cuh): thffi has that header and its text
  names it (for THCNumerics<T>::f, the specialization and f).

thffi's headers are read as tools/check_legacy_api.py reads them (the C
preprocessor over <TH/TH.h> and <THC/THC.h>, plus THCHalf.h and
THTensorDimApply.h); its library is a probe extension built here with
create_extension (with CUDA when thffi.cuda_enabled()), or --library PATH.

    python tools/th_coverage.py                  the table; exit 1 when an entry
                                                 of tools/th_surface/provided.txt
                                                 is no longer provided
    python tools/th_coverage.py --record         rewrite provided.txt (only adds
                                                 and removes what changed)
    python tools/th_coverage.py --doc            also rewrite the table in
                                                 docs/th_coverage.md
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
from thffi import builder  # noqa: E402
from thffi.toolchain import cuda_toolkit as cuda  # noqa: E402

SURFACE = os.path.join(ROOT, 'tools', 'th_surface', 'surface.tsv')
PROVIDED = os.path.join(ROOT, 'tools', 'th_surface', 'provided.txt')
DOC = os.path.join(ROOT, 'docs', 'th_coverage.md')
RELEASES = ('0.3.1', '0.4.1')
FAMILIES = ('structure', 'math', 'random', 'lapack', 'blas', 'general', 'generator',
            'apply', 'device')
# The headers thffi's <TH/TH.h> and <THC/THC.h> need not include but the
# listing has.
EXTRA_HEADERS = ['TH/THTensorDimApply.h', 'THC/THCHalf.h']
_BEGIN, _END = '<!-- th_coverage: begin -->', '<!-- th_coverage: end -->'


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


def header_text(header):
    for folder in builder.include_dirs():
        path = os.path.join(folder, header)
        if os.path.isfile(path):
            with open(path) as f:
                return f.read()
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
        elif e['header'].endswith('.cuh'):
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
            ok = name in macros or (name in names and name in symbols)
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


def report(entries, status):
    parts = ['### By release', '',
             render(table(entries, status, lambda e: 'all'), 'entries'), '',
             '### By kind', '',
             render(table(entries, status, lambda e: e['kind']), 'kind'), '',
             '### By family', '',
             render(table(entries, status, lambda e: e['family']), 'family'), '',
             '### By header', '',
             render(table(entries, status, lambda e: e['header']), 'header')]
    return '\n'.join(parts) + '\n'


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


def write_doc(text, path=DOC):
    with open(path) as f:
        doc = f.read()
    start, end = doc.index(_BEGIN) + len(_BEGIN), doc.index(_END)
    with open(path, 'w') as f:
        f.write(doc[:start] + '\n' + text + doc[end:])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--library', help='a library built by thffi, instead of a probe')
    parser.add_argument('--record', action='store_true', help='rewrite provided.txt')
    parser.add_argument('--provided', help='the record to check against (default %s)'
                        % os.path.relpath(PROVIDED, ROOT))
    parser.add_argument('--doc', action='store_true', help='rewrite docs/th_coverage.md')
    parser.add_argument('--lib', choices=['TH', 'THC'], action='append',
                        help='check only these (THC needs a library built with CUDA)')
    args = parser.parse_args(argv)
    entries = read_surface()
    if args.lib:
        entries = [e for e in entries if e['lib'] in args.lib]
    status = provided(entries, library_symbols(args.library))
    text = report(entries, status)
    sys.stdout.write(text)
    before = {k for k in read_provided(args.provided) if k.split(' ', 1)[0] in (args.lib or ['TH', 'THC'])}
    lost = sorted(k for k in before if not status.get(k))
    if args.record:
        write_provided(status, args.provided)
    if args.doc:
        write_doc(text)
    if lost and not args.record:
        print('\n%d entries of %s are no longer provided:' % (len(lost), args.provided or PROVIDED))
        for k in lost:
            print('  ' + k)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
