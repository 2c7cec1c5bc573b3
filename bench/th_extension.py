"""What the TH benchmarks share: a small extension of C calling thffi's TH
layer, built in a scratch folder, and the median of a timed statement."""

import importlib
import os
import sys

import torch.utils.benchmark as benchmark

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from thffi import create_extension  # noqa: E402


def build(folder, name, header, source):
    """Builds header and source (C text) as the extension `name`.lib in
    folder and returns its lib."""
    for file, text in (('bench.h', header), ('bench.c', source)):
        with open(os.path.join(folder, file), 'w') as f:
            f.write(text)
    create_extension(name + '.lib', headers=[os.path.join(folder, 'bench.h')],
                     sources=[os.path.join(folder, 'bench.c')],
                     relative_to=os.path.join(folder, 'build.py'), verbose=False).build()
    sys.path.insert(0, folder)
    return importlib.import_module(name + '.lib')


def median_us(stmt, env):
    """The median time of stmt in µs (blocked_autorange, at least 0.5 s)."""
    return benchmark.Timer(stmt, globals=env).blocked_autorange(min_run_time=0.5).median * 1e6
