"""Hardening: fuzzed arguments, errors raised deep in C, leaks over long
runs, threads, broken builds and tensors of more than 2^31 elements.

The fuzz profile is bounded here; run the long one by hand with
THFFI_FUZZ_EXAMPLES=20000 python -m pytest -q tests/test_hardening.py -k fuzz"""

import os
import re
import subprocess
import sys
import textwrap
import threading
import time

import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

from demo_support import ROOT
from _ext import my_lib
from functions.add import MyAddFunction
from thffi import create_extension

FUZZ = settings(max_examples=int(os.environ.get('THFFI_FUZZ_EXAMPLES', '150')), deadline=None,
                suppress_health_check=[HealthCheck.too_slow], derandomize=True)
CLEAN = (TypeError, ValueError, RuntimeError, OverflowError)
DTYPES = [torch.float32, torch.float64, torch.float16, torch.int64, torch.uint8, torch.bool]


@st.composite
def tensors(draw, shape=None, dtype=None):
    """Tensors of 0 to 8 dimensions in every layout: contiguous, permuted,
    sliced with steps, expanded; on the CPU or the meta device."""
    if shape is None:
        shape = draw(st.lists(st.integers(0, 4), min_size=0, max_size=8))
    dtype = dtype or draw(st.sampled_from(DTYPES))
    layout = draw(st.sampled_from(['contiguous', 'permuted', 'stepped', 'expanded']))
    device = draw(st.sampled_from(['cpu'] * 9 + ['meta']))
    make = (lambda s: torch.randint(0, 5, s).to(dtype)) if not dtype.is_floating_point \
        else (lambda s: torch.randn(s, dtype=dtype))
    if layout == 'permuted' and len(shape) > 1:
        order = draw(st.permutations(range(len(shape))))
        inverse = sorted(range(len(shape)), key=order.__getitem__)
        t = make([shape[i] for i in order]).permute(*inverse)
    elif layout == 'stepped' and shape:
        t = make([s * 2 for s in shape])[tuple(slice(None, None, 2) for _ in shape)]
    elif layout == 'expanded' and shape:
        t = make([1 if i % 2 else s for i, s in enumerate(shape)]).expand(*shape)
    else:
        t = make(shape)
    assert tuple(t.shape) == tuple(shape)
    t = t.to(device)
    if dtype.is_floating_point and draw(st.booleans()):
        t.requires_grad_()
    return t


@st.composite
def pairs(draw):
    """Two inputs: mostly of one shape and dtype, sometimes not."""
    a = draw(tensors())
    same = draw(st.sampled_from(['shape and dtype'] * 3 + ['shape', 'nothing']))
    if same == 'nothing':
        return a, draw(tensors())
    return a, draw(tensors(shape=list(a.shape),
                           dtype=a.dtype if same == 'shape and dtype' else None))


def _valid(a, b):
    return (a.device.type == b.device.type == 'cpu' and a.dtype == b.dtype
            and a.dtype in (torch.float32, torch.float64) and a.shape == b.shape)


@FUZZ
@given(pairs())
def test_fuzz_function_gives_the_reference_or_a_clean_error(inputs):
    a, b = inputs
    before = [t.detach().clone() for t in (a, b) if t.device.type == 'cpu']
    try:
        out = MyAddFunction.apply(a, b)
    except CLEAN:
        assert not _valid(a, b)
    else:
        assert _valid(a, b)
        torch.testing.assert_close(out, a.detach() + b.detach(), rtol=0, atol=0)
        if out.requires_grad:
            grad = torch.randn_like(out)
            out.backward(grad)
            for t in (a, b):
                if t.requires_grad:
                    torch.testing.assert_close(t.grad, grad, rtol=0, atol=0)
    for t, saved in zip([t for t in (a, b) if t.device.type == 'cpu'], before):
        assert torch.equal(t.detach(), saved)  # inputs untouched


NOT_TENSORS = st.sampled_from([None, 0, 1.5, 'x', [1.0], (2,), object()])


@FUZZ
@given(st.lists(st.one_of(tensors(), NOT_TENSORS, st.just(torch.empty(0))),
                min_size=0, max_size=4))
def test_fuzz_wrapped_c_function_with_any_arguments(args):
    snapshots = [(t, t.detach().clone()) for t in args
                 if isinstance(t, torch.Tensor) and t.device.type == 'cpu']
    try:
        result = my_lib.my_lib_add_forward(*args)
    except CLEAN:
        return
    a, b, out = args
    assert result in (0, 1)
    if result == 1:
        torch.testing.assert_close(out, a + b, rtol=0, atol=0)
    for t, saved in snapshots:
        if t is not out or result == 0:
            assert torch.equal(t.detach(), saved)


def _rss_bytes():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


def _growth(fn, warmup, repeat):
    for _ in range(warmup):
        fn()
    before = _rss_bytes()
    for _ in range(repeat):
        fn()
    return _rss_bytes() - before


def test_errors_after_c_created_tensors_leak_nothing(th_test):
    bad = torch.zeros(3, 3)
    outs = [torch.empty(0) for _ in range(5)] + [torch.empty(0, dtype=torch.int64)]

    def failing_call():
        with pytest.raises(RuntimeError, match='input must be at least 3x4'):
            th_test.th_api_Float_tour(bad, *outs)  # fails after creating 5 tensors

    growth = _growth(failing_call, 1000, 10000)
    assert growth < 1 << 20, growth
    assert th_test._rt.live_tensors() == 0
    assert th_test.check_positive(2) == 4


@pytest.mark.slow  # deselected by default (conftest.py)
def test_forward_backward_leaks_nothing():
    a = torch.randn(16, requires_grad=True)
    b = torch.randn(16, requires_grad=True)
    grad = torch.ones(16)

    def step():
        MyAddFunction.apply(a, b).backward(grad)

    growth = _growth(step, 5000, 100000)
    assert growth < 1 << 20, growth


def _in_threads(work, count=8):
    """Runs work(tid) in `count` threads at once; fails with what any raised."""
    failures = []

    def run(tid):
        try:
            work(tid)
        except BaseException as exc:  # reported by the main thread
            failures.append((tid, repr(exc)))

    threads = [threading.Thread(target=run, args=(tid,)) for tid in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures


def test_threads_get_their_own_results_and_errors(th_test):
    def work(tid):
        a = torch.full((1000,), float(tid))
        for i in range(300):
            out = torch.empty(0)
            assert my_lib.my_lib_add_forward(a, a, out) == 1
            assert torch.equal(out, torch.full((1000,), 2.0 * tid))
            if i % 3 == tid % 3:
                with pytest.raises(RuntimeError, match='custom failure %d ' % tid):
                    th_test.raise_error(tid)
            assert th_test.check_positive(tid + 1) == 2 * (tid + 1)

    _in_threads(work)


GPU = torch.cuda.is_available() and hasattr(my_lib, 'my_lib_add_forward_cuda')
needs_gpu = pytest.mark.skipif(not GPU, reason='needs a CUDA GPU and a library built with CUDA')


@needs_gpu
def test_gpu_threads_each_on_its_own_stream():
    def work(tid):
        with torch.cuda.stream(torch.cuda.Stream()):
            a = torch.full((1 << 20,), float(tid), device='cuda')
            for _ in range(100):
                out = torch.empty(0, device='cuda')
                assert my_lib.my_lib_add_forward_cuda(a, a, out) == 1
                assert torch.equal(out, 2 * a)

    _in_threads(work)


@needs_gpu
def test_gpu_forward_backward_leaks_no_device_memory():
    a = torch.randn(1024, device='cuda', requires_grad=True)
    b = torch.randn(1024, device='cuda', requires_grad=True)
    grad = torch.ones(1024, device='cuda')
    for _ in range(1000):
        MyAddFunction.apply(a, b).backward(grad)
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    for _ in range(100000):
        MyAddFunction.apply(a, b).backward(grad)
    torch.cuda.synchronize()
    assert abs(torch.cuda.memory_allocated() - before) < 1 << 20


def test_c_calls_release_the_gil(th_test):
    threads = [threading.Thread(target=th_test.sleep_ms, args=(300,)) for _ in range(4)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Serialised by the GIL, four 300 ms sleeps would take 1.2 s.
    assert time.perf_counter() - start < 0.9


# -- broken builds ----------------------------------------------------------

def _project(tmp_path, body, name='tiny.c'):
    (tmp_path / 'src').mkdir(exist_ok=True)
    (tmp_path / 'src' / 'tiny.h').write_text('int answer(void);\n')
    (tmp_path / 'src' / name).write_text(textwrap.dedent(body))
    (tmp_path / 'build.py').write_text(textwrap.dedent('''
        import os, sys
        sys.path.insert(0, %r)
        from thffi import create_extension
        cuda = any(s.endswith('.cu') for s in os.listdir(os.path.join(os.path.dirname(__file__), 'src')))
        ffi = create_extension('_tiny.lib', headers=['src/tiny.h'],
                               sources=['src/' + s for s in os.listdir(os.path.join(os.path.dirname(__file__), 'src'))
                                        if s.endswith(('.c', '.cu'))],
                               relative_to=__file__, with_cuda=cuda, verbose=False)
        if __name__ == '__main__':
            ffi.build()
        ''' % ROOT))
    return tmp_path


def _build(project, **env):
    return subprocess.run([sys.executable, 'build.py'], cwd=project, capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, **env))


def _answer(project):
    out = subprocess.run([sys.executable, '-c', 'import _tiny.lib as m; print(m.answer())'],
                         cwd=project, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_syntax_error_names_file_and_line_and_keeps_the_library(tmp_path):
    project = _project(tmp_path, '#include <TH/TH.h>\nint answer(void) { return 42; }\n')
    assert _build(project).returncode == 0
    (project / 'src' / 'tiny.c').write_text('#include <TH/TH.h>\nint answer(void) { return 42 }\n')
    broken = _build(project)
    assert broken.returncode != 0
    assert re.search(r'tiny\.c:2:\d+: error', broken.stderr), broken.stderr
    assert 'BuildError: building _tiny.lib failed' in broken.stderr
    assert 'Traceback' not in broken.stderr, broken.stderr
    assert _answer(project) == '42'


def test_a_failed_first_build_shows_the_compiler_and_one_line_and_leaves_nothing(tmp_path):
    project = _project(tmp_path, '#include <TH/TH.h>\nint answer(void) { return 42 }\n')
    broken = _build(project)
    assert broken.returncode == 1
    assert re.search(r'tiny\.c:2:\d+: error', broken.stderr), broken.stderr
    # The compiler's lines, then Python's own last line, without the
    # traceback through thffi's steps.
    assert 'Traceback' not in broken.stderr, broken.stderr
    last = broken.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r'thffi\.builder\.BuildError: building _tiny\.lib failed: \S+ exited 1 '
                        r'on src/tiny\.c', last), last
    # Nothing importable hides the failure: no _tiny/__init__.py.
    assert not (project / '_tiny').exists()
    imported = subprocess.run([sys.executable, '-c', 'import _tiny.lib'], cwd=project,
                              capture_output=True, text=True)
    assert "No module named '_tiny'" in imported.stderr, imported.stderr
    assert 'cannot import name' not in imported.stderr


def test_a_caller_can_catch_build_error(tmp_path):
    project = _project(tmp_path, '#include <TH/TH.h>\nint answer(void) { return 42 }\n')
    caught = subprocess.run(
        [sys.executable, '-c', 'import build\nfrom thffi import BuildError\n'
         'try:\n    build.ffi.build()\nexcept BuildError as e:\n    print("caught:", e)\n'],
        cwd=project, capture_output=True, text=True, timeout=300)
    assert caught.returncode == 0, caught.stderr
    assert caught.stdout.startswith('caught: building _tiny.lib failed: '), caught.stdout


@pytest.mark.skipif(not __import__('thffi').find_cuda_home(), reason='no CUDA toolkit')
def test_cuda_syntax_error_names_file_and_line(tmp_path):
    project = _project(tmp_path, 'extern "C" int answer(void) { return oops; }\n', 'tiny.cu')
    broken = _build(project)
    assert broken.returncode != 0
    assert re.search(r'tiny\.cu\(1\): error', broken.stderr), broken.stderr
    assert 'nvcc could not compile' in broken.stderr


def test_missing_c_compiler_says_what_to_install(tmp_path):
    project = _project(tmp_path, '#include <TH/TH.h>\nint answer(void) { return 1; }\n')
    out = _build(project, CC='/nonexistent/gcc')
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"thffi\.builder\.BuildError: no C compiler: '/nonexistent/gcc' was not "
                        r"found\. Install one \(Debian/Ubuntu: apt-get install gcc; .*\) or point "
                        r"the CC environment variable at it", last), last


def test_two_builds_at_once_both_finish(tmp_path):
    project = _project(tmp_path, '#include <TH/TH.h>\nint answer(void) { return 7; }\n')
    builds = [subprocess.Popen([sys.executable, 'build.py'], cwd=project, stderr=subprocess.PIPE,
                               text=True) for _ in range(2)]
    for build in builds:
        _, err = build.communicate(timeout=600)
        assert build.returncode == 0, err
    assert _answer(project) == '7'


def test_importers_never_see_a_half_installed_library(tmp_path):
    # While builds alternate between two headers, the module that __init__.py
    # names is always there, complete; then the last build imports.
    project = _project(tmp_path, '#include <TH/TH.h>\nint answer(void) { return 1; }\n'
                                 'int other(void) { return 2; }\n')
    package = project / '_tiny' / 'lib'
    headers = ['int answer(void);\n', 'int answer(void);\nint other(void);\n']
    ffi = lambda: create_extension('_tiny.lib', headers=['src/tiny.h'],  # noqa: E731
                                   sources=['src/tiny.c'], relative_to=str(project / 'build.py'),
                                   verbose=False)
    ffi().build()
    done, problems = threading.Event(), []

    def builder():
        for i in range(6):
            (project / 'src' / 'tiny.h').write_text(headers[i % 2])
            ffi().build()
        done.set()

    thread = threading.Thread(target=builder)
    thread.start()
    while not done.is_set():
        init = (package / '__init__.py').read_text()
        module = re.search(r"_module = __name__ \+ '\.(\w+)'", init).group(1)
        if not any(p.name.startswith(module + '.') for p in package.iterdir()):
            problems.append(module)
    thread.join()
    assert not problems
    assert _answer(project) == '1'


# -- big tensors ------------------------------------------------------------

@pytest.mark.slow  # deselected by default (conftest.py)
def test_more_than_2_31_elements(th_test):
    n = 2 ** 31 + 77
    t = torch.zeros(n, dtype=torch.uint8)
    th_test.byte_fill(t[1:], 3)               # a view with an offset
    assert t[0].item() == 0 and t[2 ** 31].item() == 3 and t[-1].item() == 3
    assert th_test.byte_count(t, 3) == n - 1
    u = torch.empty(n, dtype=torch.uint8)
    th_test.byte_copy(u, t)
    assert torch.equal(u[-100:], t[-100:]) and u[0].item() == 0
    th_test.byte_cadd(u, u, 2, t)              # 3 + 2 * 3 = 9, in place
    assert th_test.byte_count(u, 9) == n - 1
    del u, t
    base = torch.zeros(2 ** 15 + 1, 2 ** 16 + 1, dtype=torch.uint8)
    # Strided over 2^31 elements: rows 2^16 + 1 apart, the last starting past 2^31. Walked row by
    # row: the transposed view walks a column at a time, a cache miss per byte (20 s here, not 1 s).
    rows = base[:, :2 ** 16]
    th_test.byte_fill(rows, 5)
    assert not rows.is_contiguous() and rows.storage_offset() == 0
    assert rows.numel() > 2 ** 31 and rows[-1, -1].item() == 5
    assert base[-1, -1].item() == 0 and base[-1, -2].item() == 5  # the skipped column
