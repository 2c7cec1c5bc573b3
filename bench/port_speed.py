"""How fast `python -m thffi port` is on a 2018-style repository.

Generates repositories of 50, 200 and 1,000 Python modules in the shape
torch.utils.ffi-era repositories had (our own generated code, never a real
repository's): a build.py calling create_extension, a make.sh running nvcc,
C and CUDA sources under src/, a package of models, layers, data loaders and
scripts.  Most modules hold nothing port rewrites (model and utility
code, as most files of such a repository were: half of it Python 3 only,
with super() without arguments, the rest running on both Pythons); a
fifth hold what it does (Variable(...), volatile=True, loss.data[0],
torch.utils.ffi imports, legacy Functions, torch.range) and a few are
Python 2 (print statements, xrange, iteritems).  About 70 lines a module:
200 modules are some 14,000 lines, the size of the target below.

Then it runs port on each, as a user would (`python -m thffi port PATH`,
a fresh interpreter each time): a dry run, and --write on a fresh copy of
the repository, and prints a table: modules, files, lines, seconds of
wall time and of CPU time (user and system, worker processes included:
what load on a shared machine changes least), each the median of --repeat
runs, files per second and the ratio of the wall time to the target,
10 s wall for a 200-module, 14,000-line repository on 2 cores (scaled
linearly with the number of modules for the other sizes).

    python bench/port_speed.py                      # this checkout
    python bench/port_speed.py --thffi /work/wt/baseline --thffi .
                                                    # two checkouts, before
                                                    # and after, in one run
    python bench/port_speed.py --sizes 200 --repeat 5
    python bench/port_speed.py --repository /work/corpus/zijunwei+RRSVM_pytorch
                                                    # a real repository instead
                                                    # (a checkout; copied for
                                                    # each run)

The machine may be shared: compare checkouts measured in the same run
(their runs alternate, so load falls on both alike), and read the medians."""

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_SECONDS = 10.0   # for TARGET_MODULES modules, on 2 cores
TARGET_MODULES = 200
SEED = 2018

# -- the generated repository --------------------------------------------------
#
# A module is a header of imports and blocks of code drawn from the lists
# below, each block a format string over a few names (so that no two modules
# are alike).  PLAIN blocks hold nothing port rewrites; LEGACY blocks hold one
# typical rewrite each; PYTHON2 blocks are Python 2 only.

HEADER_PY3 = '''\
from __future__ import absolute_import, division, print_function

import os
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
'''

HEADER_LEGACY = '''\
import os
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
'''

PLAIN = [
    '''

class {Name}Block(nn.Module):
    """A residual block of two {kernel}x{kernel} convolutions."""

    def __init__(self, channels, stride=1):
        super({Name}Block, self).__init__()
        self.conv1 = nn.Conv2d(channels, channels, {kernel}, stride, {pad}, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, {kernel}, 1, {pad}, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)
''',
    '''

def {name}_init(module, gain={gain}):
    """Initialises the weights of module's convolutions and linear layers."""
    for m in module.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.xavier_uniform_(m.weight, gain=gain)
            if m.bias is not None:
                nn.init.constant_(m.bias, 0)
        elif isinstance(m, nn.BatchNorm2d):
            m.weight.data.fill_(1)
            m.bias.data.zero_()
''',
    '''

def {name}_boxes(anchors, deltas, scale={gain}):
    """Applies the predicted deltas to the anchors (x1, y1, x2, y2)."""
    widths = anchors[:, 2] - anchors[:, 0] + 1.0
    heights = anchors[:, 3] - anchors[:, 1] + 1.0
    cx = anchors[:, 0] + 0.5 * widths
    cy = anchors[:, 1] + 0.5 * heights
    px = deltas[:, 0] * widths * scale + cx
    py = deltas[:, 1] * heights * scale + cy
    pw = np.exp(deltas[:, 2]) * widths
    ph = np.exp(deltas[:, 3]) * heights
    return np.stack([px - 0.5 * pw, py - 0.5 * ph, px + 0.5 * pw, py + 0.5 * ph], axis=1)
''',
    '''

class {Name}Head(nn.Module):
    def __init__(self, in_features, classes={classes}):
        super({Name}Head, self).__init__()
        self.fc = nn.Linear(in_features, {hidden})
        self.drop = nn.Dropout(p={drop})
        self.out = nn.Linear({hidden}, classes)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        x = self.drop(F.relu(self.fc(x)))
        return self.out(x)
''',
    '''

def {name}_path(root, split, index):
    """The file of one sample: root/split/00042.npy."""
    folder = os.path.join(root, split)
    if not os.path.isdir(folder):
        raise IOError('no such folder: %s' % folder)
    return os.path.join(folder, '%05d.npy' % index)


def {name}_load(root, split, indices):
    arrays = [np.load({name}_path(root, split, i)) for i in indices]
    return np.concatenate(arrays, axis=0).astype(np.float32)
''',
    '''

class {Name}Meter(object):
    """Keeps the running mean of a value."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.count = 0
        self.total = 0.0

    def update(self, value, n=1):
        self.count += n
        self.total += value * n

    @property
    def mean(self):
        return self.total / max(self.count, 1)
''',
    '''

def {name}_lr(optimizer, epoch, base_lr={lr}, decay={decay}, every={every}):
    """Step decay of the learning rate, every {every} epochs."""
    lr = base_lr * (decay ** (epoch // every))
    for group in optimizer.param_groups:
        group['lr'] = lr
    return lr
''',
    '''

def {name}_grid(height, width):
    ys = torch.linspace(-1, 1, height).view(-1, 1).repeat(1, width)
    xs = torch.linspace(-1, 1, width).view(1, -1).repeat(height, 1)
    return torch.cat([xs.unsqueeze(2), ys.unsqueeze(2)], 2)
''',
]

LEGACY = [
    '''

def {name}_step(model, criterion, optimizer, inputs, targets):
    inputs, targets = Variable(inputs), Variable(targets)
    optimizer.zero_grad()
    loss = criterion(model(inputs), targets)
    loss.backward()
    optimizer.step()
    return loss.data[0]
''',
    '''

def {name}_evaluate(model, loader):
    correct, total = 0, 0
    for images, labels in loader:
        images = Variable(images.cuda(), volatile=True)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted.cpu() == labels).sum()
    return 100.0 * correct / total
''',
    '''

def {name}_log(epoch, step, loss, every={every}):
    if step % every == 0:
        print('epoch %d step %d loss %.4f' % (epoch, step, loss.data[0]))
''',
    '''

def {name}_positions(length):
    return torch.range(0, length - 1).view(1, -1)
''',
]

# The module of a package's functions/ folder: a legacy Function over the
# extension (forward/backward instance methods), as the ffi demo had.
FUNCTION_MODULE = '''\
import torch
from torch.autograd import Function
from .._ext import {ext}


class {Name}Function(Function):
    def forward(self, input1, input2):
        output = input1.new()
        if not input1.is_cuda:
            {ext}.{ext}_forward(input1, input2, output)
        else:
            {ext}.{ext}_forward_cuda(input1, input2, output)
        return output

    def backward(self, grad_output):
        grad_input = grad_output.new()
        if not grad_output.is_cuda:
            {ext}.{ext}_backward(grad_output, grad_input)
        else:
            {ext}.{ext}_backward_cuda(grad_output, grad_input)
        return grad_input, grad_input
'''

PYTHON2 = [
    '''

def {name}_summary(stats):
    for key, value in stats.iteritems():
        print "%s: %.3f" % (key, value)
    print
''',
    '''

def {name}_batches(n, size={every}):
    for start in xrange(0, n, size):
        yield range(start, min(start + size, n))
''',
]

BUILD_PY = '''\
import os
import torch
from torch.utils.ffi import create_extension

sources = ['src/{ext}.c']
headers = ['src/{ext}.h']
defines = []
with_cuda = False

if torch.cuda.is_available():
    print('Including CUDA code.')
    sources += ['src/{ext}_cuda.c']
    headers += ['src/{ext}_cuda.h']
    defines += [('WITH_CUDA', None)]
    with_cuda = True

this_file = os.path.dirname(os.path.realpath(__file__))
extra_objects = ['src/cuda/{ext}_kernel.cu.o']
extra_objects = [os.path.join(this_file, fname) for fname in extra_objects]

ffi = create_extension(
    '_ext.{ext}',
    headers=headers,
    sources=sources,
    define_macros=defines,
    relative_to=__file__,
    with_cuda=with_cuda,
    extra_objects=extra_objects
)

if __name__ == '__main__':
    ffi.build()
'''

MAKE_SH = '''\
#!/usr/bin/env bash

CUDA_PATH=/usr/local/cuda/

cd src/cuda
echo "Compiling {ext} kernels by nvcc..."
nvcc -c -o {ext}_kernel.cu.o {ext}_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52

cd ../../
python build.py
'''

C_SOURCE = '''\
#include <TH/TH.h>

int {ext}_forward(THFloatTensor *input1, THFloatTensor *input2, THFloatTensor *output)
{{
  if (!THFloatTensor_isSameSizeAs(input1, input2))
    return 0;
  THFloatTensor_resizeAs(output, input1);
  THFloatTensor_cadd(output, input1, 1.0, input2);
  return 1;
}}

int {ext}_backward(THFloatTensor *grad_output, THFloatTensor *grad_input)
{{
  THFloatTensor_resizeAs(grad_input, grad_output);
  THFloatTensor_copy(grad_input, grad_output);
  return 1;
}}
'''

C_HEADER = '''\
int {ext}_forward(THFloatTensor *input1, THFloatTensor *input2, THFloatTensor *output);
int {ext}_backward(THFloatTensor *grad_output, THFloatTensor *grad_input);
'''

CUDA_C_SOURCE = '''\
#include <THC/THC.h>
#include "cuda/{ext}_kernel.h"

extern THCState *state;

int {ext}_forward_cuda(THCudaTensor *input1, THCudaTensor *input2, THCudaTensor *output)
{{
  THCudaTensor_resizeAs(state, output, input1);
  float *a = THCudaTensor_data(state, input1);
  float *b = THCudaTensor_data(state, input2);
  float *c = THCudaTensor_data(state, output);
  cudaStream_t stream = THCState_getCurrentStream(state);
  {ext}_launch(a, b, c, THCudaTensor_nElement(state, output), stream);
  return 1;
}}
'''

CUDA_KERNEL = '''\
#include "{ext}_kernel.h"

__global__ void {ext}_kernel(const float *a, const float *b, float *c, int n)
{{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}}

void {ext}_launch(const float *a, const float *b, float *c, int n, cudaStream_t stream)
{{
  {ext}_kernel<<<(n + 255) / 256, 256, 0, stream>>>(a, b, c, n);
}}
'''

CUDA_KERNEL_HEADER = '''\
#ifndef {EXT}_KERNEL_H
#define {EXT}_KERNEL_H
#ifdef __cplusplus
extern "C" {{
#endif
void {ext}_launch(const float *a, const float *b, float *c, int n, cudaStream_t stream);
#ifdef __cplusplus
}}
#endif
#endif
'''

WORDS = ('conv', 'pool', 'roi', 'anchor', 'flow', 'warp', 'corr', 'depth', 'pose', 'crop',
         'align', 'resample', 'stereo', 'voxel', 'point', 'edge', 'mask', 'track', 'scene',
         'frame', 'feat', 'score', 'match', 'cost', 'grid', 'patch', 'proposal', 'region')
FOLDERS = ('models', 'lib/layers', 'lib/utils', 'lib/datasets', 'tools', 'scripts',
           'experiments')
LINES_PER_MODULE = 74


def _names(rng):
    word = '%s_%s' % (rng.choice(WORDS), rng.choice(WORDS))
    return dict(name=word, Name=''.join(p.title() for p in word.split('_')),
                kernel=rng.choice((1, 3, 5)), pad=rng.choice((0, 1, 2)),
                gain=rng.choice((0.5, 1.0, 1.414)), classes=rng.choice((10, 21, 81, 1000)),
                hidden=rng.choice((256, 512, 1024)), drop=rng.choice((0.1, 0.3, 0.5)),
                lr=rng.choice((0.1, 0.01, 0.001)), decay=rng.choice((0.1, 0.5)),
                every=rng.choice((10, 20, 30, 50)))


def _module(rng, kind):
    """The text of one module of kind 'python3' (nothing port rewrites;
    super() without arguments: only Python 3 has it), 'neutral' (nothing
    port rewrites, and runs on both Pythons), 'legacy' (one rewrite among
    such code) or 'python2'."""
    parts = [HEADER_LEGACY if kind == 'legacy' else HEADER_PY3 if kind != 'python2'
             else HEADER_LEGACY.replace('from torch.autograd import Variable\n', '')]
    if kind == 'legacy':
        parts.append(rng.choice(LEGACY).format(**_names(rng)))
    elif kind == 'python2':
        parts.append(rng.choice(PYTHON2).format(**_names(rng)))
    while sum(p.count('\n') for p in parts) < LINES_PER_MODULE - 8:
        parts.append(rng.choice(PLAIN).format(**_names(rng)))
    text = ''.join(parts)
    return re.sub(r'super\(\w+, self\)', 'super()', text) if kind == 'python3' else text


# The share of each kind of module (the rest: 'python3').
KINDS = (('python2', 0.04), ('legacy', 0.20), ('neutral', 0.30))


def generate(root, modules, seed=SEED):
    """Writes a repository of `modules` Python modules under root (see the
    module's docstring); returns (files, Python lines)."""
    rng = random.Random(seed + modules)
    files = {}
    extensions = ['%s_%d' % (rng.choice(WORDS), i) for i in range(max(1, modules // 100))]
    for ext in extensions:
        names = dict(ext=ext, EXT=ext.upper(), Name=''.join(p.title() for p in ext.split('_')))
        package = 'lib/%s' % ext
        files[package + '/__init__.py'] = ''
        files[package + '/build.py'] = BUILD_PY.format(**names)
        files[package + '/make.sh'] = MAKE_SH.format(**names)
        files[package + '/src/%s.c' % ext] = C_SOURCE.format(**names)
        files[package + '/src/%s.h' % ext] = C_HEADER.format(**names)
        files[package + '/src/%s_cuda.c' % ext] = CUDA_C_SOURCE.format(**names)
        files[package + '/src/%s_cuda.h' % ext] = C_HEADER.format(**names).replace(
            'THFloat', 'THCuda').replace('_forward', '_forward_cuda').replace(
                '_backward', '_backward_cuda')
        files[package + '/src/cuda/%s_kernel.cu' % ext] = CUDA_KERNEL.format(**names)
        files[package + '/src/cuda/%s_kernel.h' % ext] = CUDA_KERNEL_HEADER.format(**names)
        files[package + '/functions/__init__.py'] = ''
        files[package + '/functions/%s.py' % ext] = FUNCTION_MODULE.format(**names)
    python = [p for p in files if p.endswith('.py')]
    for folder in FOLDERS:
        files[folder + '/__init__.py'] = ''
    i = 0
    while len(python) < modules:
        draw, kind = rng.random(), 'python3'
        for name, share in KINDS:
            if draw < share:
                kind = name
                break
            draw -= share
        folder = FOLDERS[i % len(FOLDERS)]
        path = '%s/%s_%03d.py' % (folder, rng.choice(WORDS), i)
        files[path] = _module(rng, kind)
        python.append(path)
        i += 1
    files['README.md'] = ('# A 2018 repository\n\n    cd lib/%s && ./make.sh\n    python '
                          'tools/train.py\n' % extensions[0])
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
    lines = sum(files[p].count('\n') for p in python)
    return len(files), lines


# -- the runs --------------------------------------------------------------------

def run_port(thffi, repository, write):
    """(seconds of wall time, seconds of CPU time: user and system, its
    worker processes included) of one `python -m thffi port [--write]` of
    repository with the thffi of checkout thffi; raises when it fails."""
    command = [sys.executable, '-m', 'thffi', 'port'] + (['--write'] if write else []) + [
        repository]
    # `python -m` puts its working folder first on sys.path: run from the
    # checkout, so that its thffi is the one imported.
    env = dict(os.environ, PYTHONPATH=os.path.abspath(thffi))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=os.path.abspath(thffi), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        raise RuntimeError('port_speed: `%s` with thffi from %s failed (exit %d):\n%s' % (
            ' '.join(command), thffi, done.returncode, done.stderr[-2000:]))
    return seconds, cpu


def shape_of(repository):
    """(Python modules, files, lines of Python) of a repository on disk
    (.git aside)."""
    modules = files = lines = 0
    for folder, subfolders, names in os.walk(repository):
        subfolders[:] = [d for d in subfolders if d != '.git']
        files += len(names)
        for name in names:
            if name.endswith('.py'):
                modules += 1
                with open(os.path.join(folder, name), 'rb') as f:
                    lines += f.read().count(b'\n')
    return modules, files, lines


def measure(checkouts, sizes, repeat, modes, repository=None):
    """{(checkout, modules, mode): [seconds]} and {modules: (files, lines)}
    of the generated repositories of `sizes` modules, or of `repository`
    alone; the checkouts' runs alternate so that load falls on each alike."""
    times, shapes = {}, {}
    with tempfile.TemporaryDirectory(prefix='port_speed_') as work:
        for modules in sizes:
            source = os.path.join(work, 'repo_%d' % modules)
            if repository:
                shutil.copytree(repository, source, ignore=shutil.ignore_patterns('.git'))
                shapes[modules] = shape_of(source)[1:]
            else:
                shapes[modules] = generate(source, modules)
            for _ in range(repeat):
                for checkout in checkouts:
                    for mode in modes:
                        target = source
                        if mode == 'write':  # a fresh copy each time: port changes it
                            target = os.path.join(work, 'copy')
                            shutil.rmtree(target, ignore_errors=True)
                            shutil.copytree(source, target)
                        seconds, cpu = run_port(checkout, target, mode == 'write')
                        times.setdefault((checkout, modules, mode), []).append((seconds, cpu))
                        print('  %s, %d modules, %s: %.2f s (CPU %.2f s)' % (
                            checkout, modules, mode, seconds, cpu), file=sys.stderr, flush=True)
    return times, shapes


def table(times, shapes, checkouts, sizes, modes):
    rows = ['| checkout | modules | files | lines | mode | seconds (median) | CPU seconds | '
            'files/s | ratio to target |', '|---|---|---|---|---|---|---|---|---|']
    for modules in sizes:
        files, lines = shapes[modules]
        target = TARGET_SECONDS * modules / TARGET_MODULES
        for checkout in checkouts:
            for mode in modes:
                runs = times[checkout, modules, mode]
                seconds = statistics.median(wall for wall, _ in runs)
                cpu = statistics.median(cpu for _, cpu in runs)
                rows.append('| %s | %d | %d | %d | %s | %.2f | %.2f | %.1f | %.2f |' % (
                    checkout, modules, files, lines, mode, seconds, cpu, files / seconds,
                    seconds / target))
    return '\n'.join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--thffi', action='append', metavar='ROOT',
                        help='a checkout whose port is run (repeat it to compare; '
                             'default: this one)')
    parser.add_argument('--sizes', type=int, nargs='+', default=[50, 200, 1000],
                        help='numbers of Python modules (default: 50 200 1000)')
    parser.add_argument('--repeat', type=int, default=3, help='runs per size and mode')
    parser.add_argument('--modes', nargs='+', choices=('dry', 'write'),
                        default=['dry', 'write'])
    parser.add_argument('--repository', metavar='FOLDER',
                        help='port this repository (a checkout) instead of generated ones')
    parser.add_argument('--generate', metavar='FOLDER',
                        help='only write the repository of the first size to FOLDER')
    options = parser.parse_args(argv)
    if options.generate:
        files, lines = generate(options.generate, options.sizes[0])
        print('%s: %d files, %d lines of Python' % (options.generate, files, lines))
        return 0
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checkouts = options.thffi or [here]
    for checkout in checkouts:
        if not os.path.isdir(os.path.join(checkout, 'thffi', 'port')):
            parser.error('--thffi %s: expected a checkout with thffi/port in it' % checkout)
    if options.repository:  # one size: the repository's own number of modules
        options.sizes = [shape_of(options.repository)[0]]
    load = os.getloadavg()
    times, shapes = measure(checkouts, options.sizes, options.repeat, options.modes,
                            options.repository)
    print('Machine: %d cores; load average %.2f at the start, %.2f at the end; '
          'median of %d runs; target: %.0f s for %d modules (scaled with the modules).\n'
          % (os.cpu_count(), load[0], os.getloadavg()[0], options.repeat, TARGET_SECONDS,
             TARGET_MODULES))
    print(table(times, shapes, checkouts, options.sizes, options.modes))
    return 0


if __name__ == '__main__':
    sys.exit(main())
