"""The TH/THC functions and macros of PyTorch 0.3.1's and 0.4.1's headers
that thffi leaves out on purpose, each with the entry of
docs/porting/not_supported.md that says why and what to write instead.

th_left_out.tsv beside this file holds them (name, releases, what); it is
written by `python tools/th_coverage.py --doc` from the releases' headers
(tools/th_surface/surface.tsv) and the reasons (tools/th_surface/out.tsv),
and the tool's check fails when it is out of step with them.  The builder's
check of unresolved symbols reads it (builder/link.py): a name the table
has points to that page; any other TH name is thffi's to provide, or a
misspelling of one."""

import csv
import functools
import os

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'th_left_out.tsv')
FIELDS = ('name', 'releases', 'what')


@functools.lru_cache(maxsize=None)
def table():
    """{name: (releases, what)}: releases as '0.3.1,0.4.1'; what, the
    not_supported.md entry's title."""
    with open(TABLE, newline='') as f:
        rows = csv.DictReader((line for line in f if not line.startswith('#')),
                              delimiter='\t', quoting=csv.QUOTE_NONE)
        return {row['name']: (row['releases'], row['what']) for row in rows}


def reason(name):
    """Why thffi has no `name`, where a release had it and thffi leaves it
    out on purpose; else None."""
    found = table().get(name)
    if found is None:
        return None
    releases, what = found
    return ('PyTorch %s declared it and thffi leaves it out on purpose: '
            'docs/porting/not_supported.md ("%s") says why and what to write instead'
            % (' and '.join(releases.split(',')), what))
