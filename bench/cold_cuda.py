"""Cold CUDA builds of the demo, this tree's thffi against another revision's,
in one run: the numbers behind docs/cold_builds.md.

    python bench/cold_cuda.py --against main          # 3 rounds
    python bench/cold_cuda.py --against main --peer-python venv/bin/python

Each tree's thffi is first installed as README's first command installs
it: where it has builder/prebuilt.py, its own objects are prebuilt into its
folder (timed once, with CUDA, an empty cache: the install's cost).  Each
build is then `python build.py` of a fresh copy of the demo with an empty
THFFI_CACHE_DIR (nothing of thffi's cached), in two configurations: the
architectures thffi picks on this machine (TORCH_CUDA_ARCH_LIST unset), and
thffi's default five (what it builds for a CUDA PyTorch with no GPU
visible).  Rounds run in alternating order (before, after, then after,
before...) so that the slow stretches of a shared machine fall on both;
each figure is the median of the rounds.  --peer-python names a Python with
a CUDA build of PyTorch: the stable-ABI op (bench/stable_add.cpp and its
kernel) is then built cold by it for the same five architectures, in the same
rounds.  Then each of thffi's .cu files is compiled alone, serially, by
each tree's nvcc command: its CPU seconds (user + system, nvcc and the
tools it runs), for each configuration.  Prints markdown."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from thffi.toolchain import cuda_toolkit as thffi_cuda  # noqa: E402

DEMO = ('build.py', 'src', 'functions', 'modules', '__init__.py')
FIVE = {'TORCH_CUDA_ARCH_LIST': thffi_cuda.DEFAULT_ARCH_LIST}
# Run in a copy of the demo: the CPU seconds of each of thffi's own .cu
# compiles, one at a time (nvcc's --threads dropped: its threads would
# only share the same cores), as JSON {file: [cpu s, wall s]}.
PER_OBJECT = r'''
import json, os, resource, subprocess, sys, time
sys.path.insert(0, os.getcwd())
import build
out = {}
for src, obj, command, own in build.ffi.jobs:
    if not (own and src.endswith('.cu')):
        continue
    if '--threads' in command:
        i = command.index('--threads')
        command = command[:i] + command[i + 2:]
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out[os.path.basename(src)] = [after.ru_utime + after.ru_stime - before.ru_utime
                                  - before.ru_stime, time.perf_counter() - start]
print(json.dumps(out))
'''


def project(workdir, name, thffi):
    """A copy of the demo in workdir/name whose thffi/ is the folder `thffi`."""
    path = os.path.join(workdir, name)
    os.makedirs(path)
    for entry in DEMO:
        source = os.path.join(ROOT, entry)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(
            source, os.path.join(path, entry))
    shutil.copytree(thffi, os.path.join(path, 'thffi'), ignore=shutil.ignore_patterns(
        'prebuilt', 'prebuilt.new', 'build', '*.egg-info', '__pycache__'))
    return path


def thffi_at(revision, workdir):
    """thffi/ as it was at a git revision, extracted into workdir."""
    folder = os.path.join(workdir, 'rev')
    os.makedirs(folder)
    archive = subprocess.run(['git', '-C', ROOT, 'archive', revision, 'thffi'],
                             check=True, capture_output=True).stdout
    subprocess.run(['tar', '-x', '-C', folder], input=archive, check=True)
    return os.path.join(folder, 'thffi')


# Run in a copy of the demo: what installing its thffi compiles (setup.py).
PREBUILD = ('from thffi.builder import prebuilt\n'
            'prebuilt.build("thffi/prebuilt", with_cuda=True)\n')


def install(path, workdir):
    """Seconds of prebuilding the objects of path's thffi, None where that
    thffi has no prebuilt objects (an earlier revision)."""
    import bench
    if not os.path.isfile(os.path.join(path, 'thffi', 'builder', 'prebuilt.py')):
        return None
    cache = tempfile.mkdtemp(dir=workdir)
    seconds = bench.timed([sys.executable, '-c', PREBUILD], path,
                          dict(environment({}), THFFI_CACHE_DIR=cache))
    shutil.rmtree(cache)
    return seconds


def environment(env):
    """os.environ with CUDA on, no TORCH_CUDA_ARCH_LIST of the caller's, and env."""
    base = {k: v for k, v in os.environ.items() if k != 'TORCH_CUDA_ARCH_LIST'}
    return dict(base, THFFI_WITH_CUDA='1', **env)


def cold_build(path, workdir, env):
    """Seconds of `python build.py` in path, nothing built and nothing cached."""
    import bench
    shutil.rmtree(os.path.join(path, '_ext'), ignore_errors=True)
    cache = tempfile.mkdtemp(dir=workdir)
    seconds = bench.timed([sys.executable, 'build.py'], path,
                          dict(environment(env), THFFI_CACHE_DIR=cache))
    shutil.rmtree(cache)
    return seconds


def peer_build(python, workdir):
    """Whole-process seconds of the stable-ABI op's cold CUDA build by
    `python`, for the five architectures, with the toolkit thffi uses."""
    import bench
    build_dir = tempfile.mkdtemp(dir=workdir)
    script = ('import sys; sys.path.insert(0, %r); import bench; '
              'from torch.utils.cpp_extension import load; '
              'load(**bench.stable_load_args(%r, True))' % (HERE, build_dir))
    return bench.timed([python, '-c', script], build_dir,
                       dict(environment(FIVE), TORCH_EXTENSIONS_DIR=build_dir,
                            CUDA_HOME=thffi_cuda.find_cuda_home()))


def per_object(path, env):
    out = subprocess.run([sys.executable, '-c', PER_OBJECT], cwd=path, env=environment(env),
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--against', required=True, help='the git revision to compare with')
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--peer-python', help='a Python with a CUDA build of PyTorch')
    args = parser.parse_args()
    spec, source = thffi_cuda.arch_list()
    configs = {'ours: cold, with CUDA': {},
               'ours: cold, with CUDA, 5 architectures': FIVE}
    with tempfile.TemporaryDirectory() as workdir:
        trees = {'before': project(workdir, 'before', thffi_at(args.against, workdir)),
                 'after': project(workdir, 'after', os.path.join(ROOT, 'thffi'))}
        installs = {tree: install(path, workdir) for tree, path in trees.items()}
        cases = [(row, tree) for row in configs for tree in trees]
        if args.peer_python:
            cases.append(('stable-ABI: cold, with CUDA, 5 architectures', 'peer'))
        samples = {case: [] for case in cases}
        for r in range(args.rounds):
            for row, tree in cases if r % 2 == 0 else reversed(cases):
                seconds = (peer_build(args.peer_python, workdir) if tree == 'peer' else
                           cold_build(trees[tree], workdir, configs[row]))
                samples[row, tree].append(seconds)
                print('round %d: %s (%s): %.2f s' % (r + 1, row, tree, seconds), flush=True)
        objects = {(row, tree): per_object(trees[tree], configs[row])
                   for row in configs for tree in trees}

    median = {case: statistics.median(v) for case, v in samples.items()}
    print('\nCold builds, whole process, median of %d rounds (after: architectures %s from '
          '%s on this machine; before: the revision %s)\n' % (args.rounds, spec, source,
                                                              args.against))
    peer = median.get(('stable-ABI: cold, with CUDA, 5 architectures', 'peer'))
    print('| build | before | after | after / before | after / stable-ABI |\n'
          '|---|---|---|---|---|')
    shown = {tree: '-' if s is None else '%.2f' % s for tree, s in installs.items()}
    print('| installing thffi: its prebuilt objects (once) | %s | %s | | |'
          % (shown['before'], shown['after']))
    for row in configs:
        before, after = median[row, 'before'], median[row, 'after']
        print('| %s | %.2f | %.2f | %.2f | %s |' % (row, before, after, after / before,
                                                    '%.2f' % (after / peer) if peer and configs[row] == FIVE else ''))
    if peer:
        print('| stable-ABI: cold, with CUDA, 5 architectures | %.2f | %.2f | | 1 |'
              % (peer, peer))
    print('\nthffi\'s .cu files compiled alone, one at a time: CPU seconds (wall)\n')
    names = sorted({name for v in objects.values() for name in v})
    print('| build | tree | ' + ' | '.join(names) + ' | all |\n|---|---|'
          + '---|' * (len(names) + 1))
    for (row, tree), times in objects.items():
        print('| %s | %s | ' % (row, tree) + ' | '.join(
            '%.1f (%.1f)' % tuple(times[n]) if n in times else '-' for n in names)
            + ' | %.1f |' % sum(cpu for cpu, _ in times.values()))


if __name__ == '__main__':
    sys.exit(main())
