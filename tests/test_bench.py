"""bench/bench.py judges its targets from the run's own figures: checked here
on made-up figures (no timing, no build)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'bench'))
bench = pytest.importorskip('bench')


CALLS = ['torch copy_', 'torch.add', 'torch.add(out=)', 'ours: wrapped C call',
         'ours: MyAddFunction', 'ours: MyAddModule', 'ours: fwd+bwd', 'pybind11: call',
         'pybind11: Function', 'pybind11: fwd+bwd', 'stable-ABI: torch.ops call',
         'stable-ABI: .default call', 'stable-ABI: Function', 'stable-ABI: fwd+bwd',
         'custom_op: call (out=)', 'custom_op: op', 'custom_op: fwd+bwd']


def row(n, times=None):
    """A latency row of N=n: every call 1 µs but those in `times`."""
    return {'n': n, **{name: 1.0 for name in CALLS}, **(times or {})}


BUILDS = {'ours: cold, C only': 1.2, 'stable-ABI: cold, C++ only': 3.0,
          'stable-ABI: cold, C++ only, after import torch': 1.5,
          'pybind11: cold load_inline': 28.0, 'import _ext.my_lib after torch': 0.004,
          'load the stable-ABI op after torch': 0.01}


def test_targets_are_judged_from_the_figures():
    rows = [row(1, {'ours: wrapped C call': 0.4, 'stable-ABI: torch.ops call': 2.0,
                    'stable-ABI: Function': 4.0}),
            # forward 1.06x the stable-ABI Function at N=1e3: over 1.05x
            row(1000, {'ours: MyAddFunction': 1.06})]
    judged = {target: (figures, met) for target, figures, met in bench.targets(rows, BUILDS)}
    build = judged["issue 17: cold C-only build <= 1.0x the stable-ABI op's cold build"]
    assert build == ('0.40x (1.20 s against 3.00 s, both whole processes; 0.80x against its '
                     '1.50 s after import torch)', True)
    call = judged['issue 17: wrapped C call <= 0.5x the stable-ABI op through torch.ops (N=1)']
    assert call == ('0.20x at N=1', True)
    forward = judged['issue 17: MyAddFunction forward <= 1.05x the stable-ABI Function (small N)']
    assert forward == ('0.25x at N=1, 1.06x at N=1000', False)
    # no size from 1e6: the bandwidth targets are not judged, not passed
    assert not any('copy_' in target or '0.95x' in target for target in judged)


def test_results_show_each_target_met_or_not():
    text = bench.markdown([row(1, {'ours: MyAddFunction': 2.0})], BUILDS, None, None)
    assert ('issue 17: MyAddFunction forward <= 1.05x the stable-ABI Function (small N): '
            '2.00x at N=1: **not met**') in text
    assert '| stable-ABI: cold, C++ only | 3.00 |' in text
    assert '| MyAddFunction / stable-ABI Function | 2.00 |' in text


def test_results_give_the_cold_cuda_builds_and_their_architectures(monkeypatch):
    monkeypatch.setattr(bench.thffi_cuda, 'arch_list',
                        lambda: ('7.5+PTX', 'the default for a PyTorch without CUDA'))
    builds = dict(BUILDS, **{'ours: cold, with CUDA': 10.0,
                             'ours: cold, with CUDA, 5 architectures': 20.0})
    text = bench.markdown([row(1)], builds, None, None)
    assert ('cold CUDA build, whole process: ours 10.00 s for 7.5+PTX (from the default for a '
            'PyTorch without CUDA), 20.00 s for the five of 7.5;8.0;9.0;10.0;12.0+PTX; the '
            'stable-ABI op for those five: not built (a CPU-only PyTorch)') in text
    builds['stable-ABI: cold, with CUDA, 5 architectures'] = 30.0
    assert 'the stable-ABI op for those five: 30.00 s (1.5x ours)' in bench.markdown(
        [row(1)], builds, None, None)


def test_the_stable_abi_op_builds_with_thffis_toolkit_and_architectures(monkeypatch, tmp_path):
    """With no GPU and no TORCH_CUDA_ARCH_LIST, the stable-ABI op's CUDA
    build (no build here) is given the toolkit and the architectures thffi
    found: left to itself, cpp_extension takes CUDA_HOME from the nvcc on
    PATH and stops with an IndexError for the architectures."""
    monkeypatch.delenv('TORCH_CUDA_ARCH_LIST', raising=False)
    monkeypatch.setattr(bench.thffi_cuda, '_visible_gpu_archs', lambda: [])
    home = bench.thffi_cuda.find_cuda_home()
    if home is None:
        pytest.skip('no CUDA toolkit: the stable-ABI op is built without CUDA')
    calls = []
    monkeypatch.setattr(bench, 'stable_build', lambda build_dir, cuda, env=None:
                        calls.append((build_dir, cuda, env)))
    monkeypatch.setattr(bench.torch.ops, 'load_library', calls.append)
    bench.load_stable(str(tmp_path), True)
    (build_dir, cuda, env), library = calls
    assert (build_dir, cuda, library) == (str(tmp_path), True, str(tmp_path / 'stable_peer.so'))
    assert env['CUDA_HOME'] == home and os.path.isfile(os.path.join(home, 'bin', 'nvcc'))
    assert bench.thffi_cuda.find_library('cudart', home)
    assert bench.thffi_cuda.arch_flags(env['TORCH_CUDA_ARCH_LIST'])
    # The cold build's five architectures, named.
    assert bench.stable_cuda_env('8.0;9.0')['TORCH_CUDA_ARCH_LIST'] == '8.0;9.0'


def gpu_row(n, times):
    """A GPU row of N=n: kernel times in µs, host latencies at N=1."""
    return {'n': n, **times}


def test_gpu_targets_are_judged_from_the_figures():
    gpu = [gpu_row(1, {'torch.add(out=)': 2.0, 'ours: wrapped C call': 2.0, 'torch.add': 2.0,
                       'torch.add(out=) (host)': 4.0, 'ours: wrapped C call (host)': 5.0,
                       'torch.add (host)': 4.5}),
           # 1e7 floats added in 40 µs: 3000 GB/s, 100% of a 3000 GB/s copy
           gpu_row(10 ** 7, {'torch.add(out=)': 39.0, 'ours: wrapped C call': 40.0,
                             'torch.add': 41.0}),
           # 1e8 in 500 µs: 2400 GB/s, 80%; 0.94x the speed of torch.add(out=)
           gpu_row(10 ** 8, {'torch.add(out=)': 470.0, 'ours: wrapped C call': 500.0,
                             'torch.add': 520.0})]
    judged = {target: (figures, met) for target, figures, met in bench.gpu_targets(gpu, 3000.0)}
    assert judged['GPU: wrapped C call host latency at N=1 <= 1.2x torch.add'] == (
        '1.11x (5.00 against 4.50 µs)', True)
    assert judged['GPU: wrapped C call host latency at N=1 <= 1.2x torch.add(out=)'] == (
        '1.25x (5.00 against 4.00 µs)', False)
    assert judged['GPU: C add from N=1e7 at least 0.95x the speed of torch.add'] == (
        '1.02x at N=1e+07, 1.04x at N=1e+08', True)
    assert judged['GPU: C add from N=1e7 at least 0.95x the speed of torch.add(out=)'] == (
        '0.97x at N=1e+07, 0.94x at N=1e+08', False)
    assert judged['GPU: C add from N=1e7 moves >= 90% of the device copy bandwidth '
                  '(3000 GB/s)'] == ('100% at N=1e+07, 80% at N=1e+08', False)
    text = bench.gpu_markdown(gpu, 3000.0)
    assert '- GPU: wrapped C call host latency at N=1 <= 1.2x torch.add: 1.11x' in text
    assert '**not met**' in text
