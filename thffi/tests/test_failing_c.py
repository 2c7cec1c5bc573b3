"""Legacy C that fails: exit(), abort() and a failed assert() during a
wrapped call, and C++ exceptions leaving one, end that call with a
RuntimeError and the next call works; a crash names the call; the
sanitizer build finds a heap overflow with its file:line.

The C and C++ under thffi/tests/failing_c and thffi/tests/failing_cxx are written as
2018 bindings were (exit(-1) on a bad index, abort() on a bad layout,
assert() in a kernel built apart, exceptions left to escape)."""

import importlib
import os
import subprocess
import sys
import textwrap

import pytest
import torch

from support import TESTS, ROOT
from thffi import create_extension
from thffi.__main__ import main as thffi_main
from thffi.builder import BuildError

C_DIR = os.path.join(TESTS, 'failing_c')
CXX_DIR = os.path.join(TESTS, 'failing_cxx')
C_HEADERS = ['src/roi_pool.h', 'src/worker.h']
C_SOURCES = ['src/roi_pool.c', 'src/correlation.c', 'src/worker.c']
MESSAGE_EXIT = 'exit(-1) called; thffi ended this call instead of the Python process'
MESSAGE_ABORT = 'abort() called; thffi ended this call instead of the Python process'


def _line_of(path, text):
    """The 1-based line of the first line of `path` containing `text`."""
    with open(path) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


def _kernel_object(folder):
    """thffi/tests/failing_c/src/correlation_cpu.c compiled as make.sh would,
    outside the build (so without NDEBUG: its assert() is live)."""
    obj = os.path.join(folder, 'correlation_cpu.o')
    subprocess.run(['gcc', '-c', '-fPIC', '-O2', '-o', obj,
                    os.path.join(C_DIR, 'src', 'correlation_cpu.c')], check=True)
    return obj


def _failing_c_extension(name, out, obj):
    return create_extension(name, headers=[os.path.join(C_DIR, h) for h in C_HEADERS],
                            sources=[os.path.join(C_DIR, s) for s in C_SOURCES],
                            include_dirs=[os.path.join(C_DIR, 'src')], extra_objects=[obj],
                            relative_to=os.path.join(out, 'build.py'), verbose=False)


@pytest.fixture(scope='module')
def built(tmp_path_factory):
    """A folder the test extensions are built in, as the package
    _thffi_failing, importable while this module's tests run."""
    out = str(tmp_path_factory.mktemp('failing'))
    sys.path.insert(0, out)
    yield out
    sys.path.remove(out)


@pytest.fixture(scope='module')
def failing_c(built):
    _failing_c_extension('_thffi_failing.failing_c', built, _kernel_object(built)).build()
    return importlib.import_module('_thffi_failing.failing_c')


@pytest.fixture(scope='module')
def failing_cxx(built):
    create_extension('_thffi_failing.failing_cxx',
                     headers=[os.path.join(CXX_DIR, 'src', 'workspace.h')],
                     sources=[os.path.join(CXX_DIR, 'src', 'workspace.cpp')],
                     relative_to=os.path.join(built, 'build.py'), verbose=False).build()
    return importlib.import_module('_thffi_failing.failing_cxx')


def _roi_pool_reference(features, rois):
    out = torch.empty(len(rois), features.shape[1])
    for n, (b, x1, y1, x2, y2) in enumerate(rois.round().long().tolist()):
        x1, y1 = max(x1, 0), max(y1, 0)
        out[n] = features[b, :, y1:y2 + 1, x1:x2 + 1].amax(dim=(1, 2))
    return out


def _roi_pool_works(failing_c):
    features = torch.randn(2, 3, 4, 5)
    rois = torch.tensor([[1., 0, 0, 2, 2], [0., 1, 1, 4, 3]])
    out = torch.empty(0)
    assert failing_c.roi_pool_forward(features, rois, out) == 1
    assert torch.equal(out, _roi_pool_reference(features, rois))


def test_exit_in_c_source_ends_the_call_not_python(failing_c, capfd):
    features, out = torch.randn(2, 3, 4, 5), torch.empty(0)
    bad = torch.tensor([[0., 0, 0, 1, 1], [7., 0, 0, 2, 2]])  # batch index 7 of 2
    with pytest.raises(RuntimeError) as info:
        failing_c.roi_pool_forward(features, bad, out)
    assert str(info.value) == 'roi_pool_forward: ' + MESSAGE_EXIT
    assert 'roi_batch_ind = 7, batch_size = 2' in capfd.readouterr().out
    _roi_pool_works(failing_c)


def test_abort_in_c_source_ends_the_call_not_python(failing_c):
    features = torch.randn(2, 3, 5, 4).transpose(2, 3)  # not contiguous
    with pytest.raises(RuntimeError) as info:
        failing_c.roi_pool_forward(features, torch.tensor([[0., 0, 0, 1, 1]]), torch.empty(0))
    assert str(info.value) == 'roi_pool_forward: ' + MESSAGE_ABORT
    _roi_pool_works(failing_c)


def test_failed_assert_in_an_extra_object_names_expression_file_and_line(failing_c):
    a, b, out = torch.randn(6), torch.randn(6), torch.empty(0)
    source = os.path.join(C_DIR, 'src', 'correlation_cpu.c')
    with pytest.raises(RuntimeError) as info:
        failing_c.correlation_forward(a, b, 9, out)  # displacement beyond the 6 values
    assert str(info.value) == (
        "correlation_forward: Assertion `max_displacement >= 0 && max_displacement < n' "
        "failed in correlation_cpu at %s:%d" % (source, _line_of(source, 'assert(')))
    assert failing_c.correlation_forward(a, b, 2, out) == 1
    expected = [sum(a[i] * b[i + d] for i in range(6) if 0 <= i + d < 6) for d in range(-2, 3)]
    assert torch.allclose(out, torch.stack(expected))


@pytest.mark.parametrize('call, message', [
    (lambda m: m.check_kernel_size(4),
     'check_kernel_size: C++ exception std::runtime_error: kernel_size must be odd, got 4'),
    (lambda m: m.workspace_forward(torch.ones(3), torch.empty(0), 1 << 50),
     'workspace_forward: C++ exception std::bad_alloc'),
    (lambda m: m.throw_box_error(7),
     'throw_box_error: C++ exception box_error (not a std::exception)'),
    (lambda m: m.abort_on_empty(torch.empty(0)), 'abort_on_empty: ' + MESSAGE_ABORT),
], ids=['runtime_error', 'bad_alloc', 'other', 'abort'])
def test_cxx_failures_end_the_call_not_python(failing_cxx, call, message):
    live = failing_cxx._rt.live_tensors()
    with pytest.raises(RuntimeError) as info:
        call(failing_cxx)
    assert str(info.value) == message
    assert failing_cxx._rt.live_tensors() == live
    x, out = torch.randn(5), torch.empty(0)
    assert failing_cxx.workspace_forward(x, out, 2) == 1
    assert torch.equal(out, 2 * x)
    assert failing_cxx.check_kernel_size(5) == 2


def test_a_cxx_exception_runs_destructors_and_releases_created_tensors(failing_cxx):
    destroyed = failing_cxx.workspaces_destroyed()
    with pytest.raises(RuntimeError, match='std::bad_alloc'):
        # creates a tensor and a small workspace, then fails to allocate
        failing_cxx.workspace_forward(torch.ones(3), torch.empty(0), 1 << 50)
    assert failing_cxx.workspaces_destroyed() == destroyed + 1
    assert failing_cxx._rt.live_tensors() == 0


def _run_child(script, *args, env=None):
    return subprocess.run([sys.executable] + list(args) + ['-c', script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_crash_names_the_wrapped_call_and_prints_the_python_stack(failing_c, built):
    script = textwrap.dedent('''
        import sys
        sys.path.insert(0, %r)
        import torch
        from _thffi_failing import failing_c

        def backward(grad):
            # rois None: the C code reads rois->size[0] through NULL
            return failing_c.roi_pool_backward(grad, None, torch.zeros(1, 3, 4, 5))

        backward(torch.ones(1, 3))
        ''' % built)
    done = _run_child(script)
    assert done.returncode == -11, done.stderr
    assert ('thffi: fatal signal SIGSEGV (segmentation fault) during the wrapped call '
            'roi_pool_backward of _thffi_failing.failing_c\n') in done.stderr
    assert 'Fatal Python error: Segmentation fault' in done.stderr
    assert 'line 9 in backward' in done.stderr and 'line 11 in <module>' in done.stderr


def test_exit_on_a_thread_of_the_call_ends_the_call(failing_c, built):
    # from a thread the C code started and joins: it belongs to the call
    script = textwrap.dedent('''
        import sys
        sys.path.insert(0, %r)
        from _thffi_failing import failing_c
        try:
            failing_c.exit_from_worker(3)
        except RuntimeError as e:
            print(e)
        print('alive')
        ''' % built)
    done = _run_child(script)
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'exit_from_worker: %s\nalive\n' % MESSAGE_EXIT.replace('-1', '3')


@pytest.mark.slow  # deselected by default (conftest.py)
def test_sanitizer_build_reports_a_heap_overflow_with_file_and_line(tmp_path, monkeypatch):
    obj = _kernel_object(str(tmp_path))
    monkeypatch.setenv('THFFI_SANITIZE', 'address')
    _failing_c_extension('_thffi_asan.failing_c', str(tmp_path), obj).build()
    monkeypatch.delenv('THFFI_SANITIZE')
    # a normal build after a sanitized one is a rebuild
    assert not _failing_c_extension('_thffi_asan.failing_c', str(tmp_path), obj).is_up_to_date()
    # without the sanitizer's runtime, importing says how to run it
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError, match=r'_thffi_asan.failing_c was built with '
                                          r'THFFI_SANITIZE=address: run your script as '
                                          r'`python -m thffi sanitize SCRIPT \[args\]`'):
        importlib.import_module('_thffi_asan.failing_c')
    script = tmp_path / 'backward.py'
    script.write_text(textwrap.dedent('''
        import sys
        sys.path.insert(0, %r)
        import torch
        from _thffi_asan import failing_c
        failing_c.roi_pool_backward(torch.ones(1, 3), torch.tensor([[0., 1, 2, 3, 3]]),
                                    torch.zeros(1, 3, 4, 5))
        print('not reached')
        ''' % str(tmp_path)))
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, '-m', 'thffi', 'sanitize', str(script)], env=env,
                          capture_output=True, text=True, timeout=120)
    source = os.path.join(C_DIR, 'src', 'roi_pool.c')
    where = '%s:%d' % (source, _line_of(source, 'the off-by-one write'))
    assert done.returncode == 1 and 'not reached' not in done.stdout, done.stderr
    assert 'ERROR: AddressSanitizer: heap-buffer-overflow' in done.stderr
    assert 'WRITE of size 4' in done.stderr
    assert '#0 ' in done.stderr and 'in roi_pool_backward %s\n' % where in done.stderr
    assert 'SUMMARY: AddressSanitizer: heap-buffer-overflow %s in roi_pool_backward' % where \
        in done.stderr


def test_sanitize_mode_and_command_refuse_what_they_do_not_know(monkeypatch, capsys):
    monkeypatch.setenv('THFFI_SANITIZE', 'memory')
    with pytest.raises(BuildError, match=r'THFFI_SANITIZE=memory: the modes are '
                                         r'THFFI_SANITIZE=address \(AddressSanitizer and '
                                         r'UndefinedBehaviorSanitizer\) and '
                                         r'THFFI_SANITIZE=thread \(ThreadSanitizer\)'):
        _failing_c_extension('_thffi_asan.refused', ROOT, 'unused.o')
    assert thffi_main(['sanitize', 'script.py']) == 2
    assert ('python -m thffi sanitize: THFFI_SANITIZE=memory: the modes are address and thread'
            in capsys.readouterr().err)
    monkeypatch.delenv('THFFI_SANITIZE')
    with pytest.raises(SystemExit) as exited:
        thffi_main(['sanitize'])
    assert exited.value.code == 2
    assert 'usage: python -m thffi sanitize [-h] (SCRIPT | -m MODULE | -c CODE)' in capsys.readouterr().err


def test_sanitize_runs_a_script_in_which_torch_throws_and_catches_a_cxx_exception(tmp_path):
    # libstdc++ preloaded beside libasan: without it the first C++ exception
    # aborts (CHECK failed: ... real___cxa_throw).
    script = tmp_path / 'loss.py'
    script.write_text(textwrap.dedent('''
        import operator
        import torch
        try:
            operator.index(torch.tensor(1.5))
        except TypeError:
            print('caught')
        costs = torch.zeros(2)
        print(costs.new((3.0,)).tolist())
        '''))
    done = subprocess.run([sys.executable, '-m', 'thffi', 'sanitize', str(script)],
                          env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout == 'caught\n[3.0]\n', done.stderr
