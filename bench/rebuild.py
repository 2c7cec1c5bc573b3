"""The demo's edit-rebuild loop: one line of src/my_lib.c changed, then
`python build.py`, with and without CUDA, against the whole first build:
the numbers behind docs/cold_builds.md's "Rebuilds".

    python bench/rebuild.py                  # this tree's thffi, 3 rounds
    python bench/rebuild.py --against main   # and another revision's, beside it

Each tree's demo is a fresh copy (bench/cold_cuda.py's project()), built
once untimed in each configuration so that thffi's own objects are in the
user's cache, as they are after a user's first build.  Each round then
times, for each tree and configuration, the first build (nothing built in
the copy: `_ext/` removed) and an edit's rebuild (a comment line appended
to src/my_lib.c, whose content then differs from the last build's), then
one with nothing changed (the whole process when nothing is compiled).
Rounds run in alternating order, so that the slow stretches of a shared
machine fall on both trees; each figure is the median of the rounds, in
wall seconds and in CPU seconds (of the process and the compilers it runs:
the steadier figure on a shared machine).  The
after tree's last lines of a first build and a rebuild (where their time
went) are printed too.
Prints markdown."""

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench  # noqa: E402
from cold_cuda import ROOT, project, thffi_at  # noqa: E402

CONFIGS = {'with CUDA': '1', 'without CUDA': '0'}


def build(path, cuda):
    """((wall seconds, CPU seconds), stdout) of `python build.py` in path:
    the CPU seconds (user and system, of it and the compilers it runs)
    are the steadier figure on a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds, out = bench.run_timed([sys.executable, 'build.py'], path,
                                   {'THFFI_WITH_CUDA': cuda})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime), out


def first_build(path, cuda):
    shutil.rmtree(os.path.join(path, '_ext'), ignore_errors=True)
    return build(path, cuda)


def edit_rebuild(path, cuda, n):
    with open(os.path.join(path, 'src', 'my_lib.c'), 'a') as f:
        f.write('/* edit %d */\n' % n)
    return build(path, cuda)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--against', help='a git revision to compare with')
    parser.add_argument('--rounds', type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        trees = {'after': project(workdir, 'after', os.path.join(ROOT, 'thffi'))}
        if args.against:
            trees['before'] = project(workdir, 'before', thffi_at(args.against, workdir))
        cases = [(config, tree) for config in CONFIGS for tree in trees]
        for config, tree in cases:  # thffi's own objects into the cache, untimed
            first_build(trees[tree], CONFIGS[config])
        samples = {(kind, case): [] for kind in ('first', 'edit', 'none') for case in cases}
        lines = {}
        for r in range(args.rounds):
            for config, tree in cases if r % 2 == 0 else reversed(cases):
                path, cuda = trees[tree], CONFIGS[config]
                seconds, first = first_build(path, cuda)
                samples['first', (config, tree)].append(seconds)
                seconds, edit = edit_rebuild(path, cuda, r)
                samples['edit', (config, tree)].append(seconds)
                lines[config, tree] = [line.split(' -> ')[0] for out in (first, edit)
                                       for line in out.splitlines() if 'thffi: built' in line]
                samples['none', (config, tree)].append(build(path, cuda)[0])
                print('round %d, %s, %s: first %.2f s, edit %.2f s (wall)'
                      % (r + 1, config, tree, samples['first', (config, tree)][-1][0],
                         seconds[0]), flush=True)
    for unit, which in (('wall', 0), ('CPU', 1)):
        table(args, {case: statistics.median(pair[which] for pair in v)
                     for case, v in samples.items()}, unit)
    print('\nWhere the after tree\'s last first build and rebuild spent their time (wall):\n')
    for config in CONFIGS:
        for line in lines[config, 'after']:
            print('- %s: `%s`' % (config, line))


def table(args, median, unit):
    """The markdown table of the medians, in `unit` seconds."""
    before = 'before (%s)' % args.against if args.against else None
    print('\nThe demo\'s builds, whole `python build.py` process, %s seconds, median of %d '
          'rounds\n' % (unit, args.rounds))
    print('| build | %safter | edit / first%s |\n|---|%s---|---|%s'
          % (before + ' | ' if before else '', ' | after / before' if before else '',
             '---|' if before else '', '---|' if before else ''))
    for config in CONFIGS:
        for kind, row in (('first', 'first build (thffi\'s objects cached)'),
                          ('edit', 'edit src/my_lib.c, rebuild'),
                          ('none', 'nothing changed (up to date)')):
            after = median[kind, (config, 'after')]
            cells = ['%s, %s' % (row, config)]
            if before:
                cells.append('%.2f' % median[kind, (config, 'before')])
            cells += ['%.2f' % after, '%.2f' % (after / median['first', (config, 'after')])]
            if before:
                cells.append('%.2f' % (after / median[kind, (config, 'before')]))
            print('| %s |' % ' | '.join(cells))


if __name__ == '__main__':
    sys.exit(main())
