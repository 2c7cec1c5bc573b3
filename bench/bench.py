"""Benchmark of the demo op against native torch.add and against the peer
users would pick instead (the same add as a torch.utils.cpp_extension
load_inline op, pybind11), plus build and import times and the hardware
limit (torch's copy_ of the same tensors, timed in the same rounds), all in
one run.

    python bench/bench.py            # prints the table, writes bench/results.md
                                     # and bench/latency.png
    python bench/bench.py --quick    # fewer sizes, no builds: a smoke run

Times are medians of torch.utils.benchmark's blocked_autorange (CPU) or of
CUDA events after a warm-up (GPU).  Compare ratios: the machine is shared."""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import torch  # noqa: E402
import torch.utils.benchmark as benchmark  # noqa: E402
from torch.autograd import Function  # noqa: E402

PEER_SOURCE = textwrap.dedent('''
    #include <torch/extension.h>
    // The peer: the same add as src/my_lib.c, written against libtorch.
    bool add_forward(torch::Tensor a, torch::Tensor b, torch::Tensor out) {
      if (!a.sizes().equals(b.sizes())) return false;
      out.resize_as_(a);
      auto ac = a.contiguous(), bc = b.contiguous();
      const float *pa = ac.data_ptr<float>(), *pb = bc.data_ptr<float>();
      float *po = out.data_ptr<float>();
      int64_t n = a.numel();
      at::parallel_for(0, n, 65536, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; i++) po[i] = pa[i] + pb[i];
      });
      return true;
    }
    bool add_backward(torch::Tensor grad_output, torch::Tensor grad_input) {
      grad_input.resize_as_(grad_output).copy_(grad_output);
      return true;
    }
    ''')
PEER_FUNCTIONS = ['add_forward', 'add_backward']
SIZES = [1, 10 ** 3, 10 ** 5, 10 ** 6, 10 ** 7, 10 ** 8]


def median_us(stmt, globals_, min_run_time=0.3):
    timer = benchmark.Timer(stmt=stmt, globals=globals_, num_threads=torch.get_num_threads())
    # One call first: at 1e8 only a few calls are timed, and the first of a
    # fwd+bwd row also creates the inputs' .grad, which later rows reuse.
    timer.timeit(1)
    return timer.blocked_autorange(min_run_time=min_run_time).median * 1e6


def load_peer(build_dir):
    from torch.utils.cpp_extension import load_inline
    return load_inline('peer_add', cpp_sources=PEER_SOURCE, functions=PEER_FUNCTIONS,
                       build_directory=build_dir, extra_cflags=['-O3'], verbose=False)


def peer_function(peer):
    class PeerAddFunction(Function):
        """MyAddFunction's shape, on the peer op."""

        @staticmethod
        def forward(ctx, input1, input2):
            output = torch.empty_like(input1, memory_format=torch.contiguous_format)
            if not peer.add_forward(input1, input2, output):
                raise ValueError('different sizes')
            return output

        @staticmethod
        def backward(ctx, grad_output):
            grad_input = torch.empty_like(grad_output, memory_format=torch.contiguous_format)
            peer.add_backward(grad_output, grad_input)
            return grad_input, grad_input

    return PeerAddFunction


def cpu_rows(sizes, peer):
    from _ext import my_lib
    from functions.add import MyAddFunction
    from modules.add import MyAddModule
    peer_fn = peer_function(peer) if peer else None
    module = MyAddModule()
    rows = []
    for n in sizes:
        a, b, o = torch.rand(n), torch.rand(n), torch.empty(n)
        ag, bg = a.clone().requires_grad_(), b.clone().requires_grad_()
        env = dict(torch=torch, a=a, b=b, o=o, ag=ag, bg=bg, my_lib=my_lib, module=module,
                   MyAddFunction=MyAddFunction, peer=peer, PeerAddFunction=peer_fn)
        run_time = 0.3 if n < 10 ** 7 else 0.6
        row = {'n': n}
        cases = {
            # The hardware limit, timed in the same rounds as the rest.
            'torch copy_': 'o.copy_(a)',
            'torch.add': 'torch.add(a, b)',
            'torch.add(out=)': 'torch.add(a, b, out=o)',
            'ours: wrapped C call': 'my_lib.my_lib_add_forward(a, b, o)',
            'ours: MyAddFunction': 'MyAddFunction.apply(a, b)',
            'ours: MyAddModule': 'module(a, b)',
            'ours: fwd+bwd': 'MyAddFunction.apply(ag, bg).backward(a)',
        }
        if peer:
            cases.update({
                'peer: pybind call': 'peer.add_forward(a, b, o)',
                'peer: Function': 'PeerAddFunction.apply(a, b)',
                'peer: fwd+bwd': 'PeerAddFunction.apply(ag, bg).backward(a)',
            })
        # Rounds in alternating order, median of the rounds: a stretch of
        # this shared machine with more or less memory bandwidth (which comes
        # and goes for seconds at 1e7+), or the price of page faults for
        # fresh outputs (which follows the page cache the builds left), falls
        # on every row alike.
        samples = {name: [] for name in cases}
        for r in range(3 if n < 10 ** 7 else 5):
            for name in (list(cases) if r % 2 == 0 else reversed(list(cases))):
                samples[name].append(median_us(cases[name], env, run_time))
        row.update((name, statistics.median(v)) for name, v in samples.items())
        rows.append(row)
        print('  N=%-9d %s' % (n, '  '.join('%s %.2f' % (k, v) for k, v in row.items()
                                               if k != 'n')), flush=True)
        del a, b, o, ag, bg, env
    return rows


def gpu_rows(sizes):
    """CUDA events after a warm-up; median of 50 (host latency at N=1)."""
    from _ext import my_lib
    from functions.add import WITH_CUDA
    if not (torch.cuda.is_available() and WITH_CUDA):
        return None, None
    rows = []
    for n in sizes:
        a, b, o = (torch.rand(n, device='cuda') for _ in range(3))
        row = {'n': n}
        for name, fn in (('torch.add(out=)', lambda: torch.add(a, b, out=o)),
                         ('ours: wrapped C call', lambda: my_lib.my_lib_add_forward_cuda(a, b, o)),
                         ('torch.add', lambda: torch.add(a, b))):
            for _ in range(10):
                fn()
            times = []
            for _ in range(50):
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                fn()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end) * 1e3)
            row[name] = statistics.median(times)
            if n == 1:
                host = []
                for _ in range(200):
                    t = time.perf_counter()
                    fn()
                    host.append(time.perf_counter() - t)
                row[name + ' (host)'] = statistics.median(host) * 1e6
        rows.append(row)
    n = 10 ** 8
    src, dst = torch.rand(n, device='cuda'), torch.empty(n, device='cuda')
    for _ in range(5):
        dst.copy_(src)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(20):
        dst.copy_(src)
    end.record()
    end.synchronize()
    bandwidth = 2 * 4 * n * 20 / (start.elapsed_time(end) / 1e3) / 1e9
    return rows, bandwidth


def timed(command, cwd, env=None):
    start = time.perf_counter()
    out = subprocess.run(command, cwd=cwd, env=dict(os.environ, **(env or {})),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError('%s failed:\n%s' % (command, out.stderr[-3000:]))
    return time.perf_counter() - start


def build_times(workdir):
    """Whole-process seconds, each in a fresh copy of the demo and a fresh cache."""
    project = os.path.join(workdir, 'project')
    os.makedirs(project)
    for name in ('build.py', 'src', 'thffi', 'functions', 'modules', '__init__.py'):
        source = os.path.join(ROOT, name)
        copy = shutil.copytree if os.path.isdir(source) else shutil.copy
        copy(source, os.path.join(project, name))
    results = {}
    for label, cuda in (('cold, C only', '0'), ('cold, with CUDA', '1')):
        if cuda == '1' and not shutil.which('nvcc') and not os.environ.get('CUDA_HOME'):
            continue
        times = []
        for _ in range(3 if cuda == '0' else 1):
            shutil.rmtree(os.path.join(project, '_ext'), ignore_errors=True)
            cache = tempfile.mkdtemp(dir=workdir)
            times.append(timed([sys.executable, 'build.py'], project,
                               {'THFFI_WITH_CUDA': cuda, 'THFFI_CACHE_DIR': cache}))
        results['ours: %s' % label] = statistics.median(times)
    results['ours: no-op rebuild'] = statistics.median(
        timed([sys.executable, 'build.py'], project, {'THFFI_WITH_CUDA': cuda})
        for _ in range(3))  # the last configuration built: nothing to do
    results['ours: rebuild after a source change, thffi cached'] = _rebuild_after_change(project)
    peer_dir = tempfile.mkdtemp(dir=workdir)
    script = ('import sys; sys.path.insert(0, %r); import bench; bench.load_peer(%r)'
              % (os.path.dirname(os.path.abspath(__file__)), peer_dir))
    results['peer: cold load_inline'] = timed([sys.executable, '-c', script], workdir)
    results['import torch'] = statistics.median(
        timed([sys.executable, '-c', 'import torch'], project) for _ in range(5))
    # Timed inside the process: the difference of two process times is noise.
    script = ('import time, torch; t = time.perf_counter(); import _ext.my_lib; '
              'print(time.perf_counter() - t)')
    results['import _ext.my_lib after torch'] = statistics.median(
        float(subprocess.run([sys.executable, '-c', script], cwd=project, capture_output=True,
                             text=True, check=True).stdout) for _ in range(5))
    return results


def _rebuild_after_change(project):
    path = os.path.join(project, 'src', 'my_lib.c')
    with open(path, 'a') as f:
        f.write('\n/* touched by the benchmark */\n')
    return timed([sys.executable, 'build.py'], project, {'THFFI_WITH_CUDA': '0'})


def plot(rows, path):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5))
    sizes = [r['n'] for r in rows]
    for name in rows[0]:
        if name == 'n':
            continue
        ax.plot(sizes, [r[name] for r in rows], marker='o', label=name,
                linestyle='--' if name.startswith('peer') else '-')
    ax.set_xscale('log')
    ax.set_yscale('log')
    ax.set_xlabel('elements (float32)')
    ax.set_ylabel('median time per call (µs)')
    ax.set_title('add on %s, %d threads' % (platform.processor() or platform.machine(),
                                            torch.get_num_threads()))
    ax.grid(True, which='both', alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def copy_gbs(row):
    """Bytes read plus written per second by the row's torch copy_."""
    return 2 * 4 * row['n'] / row['torch copy_'] / 1e3


def markdown(rows, builds, gpu, gpu_bandwidth):
    lines = []
    names = [k for k in rows[0] if k != 'n']
    lines.append('CPU latency, µs per call (median); ratio columns: ours / reference')
    lines.append('')
    lines.append('| N | ' + ' | '.join(names) + ' | C call / add(out=) | Function / peer '
                 '| fwd+bwd / peer | GB/s (C call) | of copy BW |')
    lines.append('|' + '---|' * (len(names) + 6))
    for r in rows:
        gbs = 12 * r['n'] / r['ours: wrapped C call'] / 1e3
        ratio = lambda x, y, r=r: '%.2f' % (r[x] / r[y]) if y in r else '-'  # noqa: E731
        lines.append('| %g | ' % r['n'] + ' | '.join('%.2f' % r[k] for k in names)
                     + ' | %s | %s | %s | %.1f | %s |' % (
                         ratio('ours: wrapped C call', 'torch.add(out=)'),
                         ratio('ours: MyAddFunction', 'peer: Function'),
                         ratio('ours: fwd+bwd', 'peer: fwd+bwd'), gbs,
                         # below 1e6 elements a call's cost is not its bandwidth
                         '%.0f%%' % (100 * gbs / copy_gbs(r)) if r['n'] >= 10 ** 6 else '-'))
    lines += ['', 'GB/s: bytes read plus written per second; "of copy BW": against the '
              'copy_ of the same N in the same rounds (%.1f GB/s at N=%g)'
              % (copy_gbs(rows[-1]), rows[-1]['n'])]
    if builds:
        lines += ['', '| build / import | seconds |', '|---|---|']
        lines += ['| %s | %.2f |' % (k, v) for k, v in builds.items()]
        peer = builds['peer: cold load_inline']
        lines += ['', 'cold C-only build vs peer cold load_inline: %.1fx faster'
                  % (peer / builds['ours: cold, C only']),
                  'import cost of _ext.my_lib: %.0f ms'
                  % (builds['import _ext.my_lib after torch'] * 1e3)]
    if gpu:
        names = [k for k in gpu[0] if k != 'n']
        lines += ['', 'GPU, µs (CUDA events; "(host)": host-side latency)', '',
                  '| N | ' + ' | '.join(names) + ' | ours / add(out=) | of copy BW |',
                  '|' + '---|' * (len(names) + 3)]
        for r in gpu:
            gbs = 12 * r['n'] / r['ours: wrapped C call'] / 1e3
            lines.append('| %g | ' % r['n'] + ' | '.join('%.2f' % r[k] for k in names)
                         + ' | %.2f | %.0f%% |' % (r['ours: wrapped C call'] / r['torch.add(out=)'],
                                                   100 * gbs / gpu_bandwidth))
        lines += ['', 'GPU copy bandwidth: %.0f GB/s' % gpu_bandwidth]
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--quick', action='store_true', help='small sizes, no builds')
    args = parser.parse_args()
    sizes = SIZES[:3] if args.quick else SIZES
    print('machine: %s, %d cores, torch %s, %d threads' % (
        platform.processor() or platform.machine(), os.cpu_count(), torch.__version__,
        torch.get_num_threads()), flush=True)
    with tempfile.TemporaryDirectory() as workdir:
        builds = None if args.quick else build_times(workdir)
        print('building the peer (load_inline)...', flush=True)
        peer = load_peer(tempfile.mkdtemp(dir=workdir))
        rows = cpu_rows(sizes, peer)
    gpu, gpu_bandwidth = gpu_rows(sizes)
    text = markdown(rows, builds, gpu, gpu_bandwidth)
    print(text)
    if not args.quick:
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, 'results.md'), 'w') as f:
            f.write('Machine: %s, %d cores, torch %s, %d threads.\n\n%s\n' % (
                platform.processor() or platform.machine(), os.cpu_count(), torch.__version__,
                torch.get_num_threads(), text))
        plot(rows, os.path.join(here, 'latency.png'))


if __name__ == '__main__':
    main()
