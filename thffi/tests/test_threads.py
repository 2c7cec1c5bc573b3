"""TH and THC functions on threads the C starts during a call, as 2018 code
called them: OpenMP teams and pthreads creating, resizing and freeing views,
tensors and storages of their own; an error on such a thread is the call's
exception and the next call works; a thread left running after its call
that calls TH is reported and the process lives on.  ThreadSanitizer finds
no race in thffi's part of it, and finds the one planted.

The C is thffi/tests/th_threads (rows.c: OpenMP; workers.c: pthreads;
cuda_rows.c: THC on both).  Each case runs in a child process with four
OpenMP threads, so that a crash or a deadlock fails the test instead of
ending pytest."""

import glob
import importlib
import os
import subprocess
import sys
import textwrap
import types

import pytest
import torch

from support import TESTS, ROOT, build_test_extension
from thffi import create_extension, cuda_enabled

HERE = os.path.join(TESTS, 'th_threads')
ROWS = os.path.join(HERE, 'rows.c')
WORKERS = os.path.join(HERE, 'workers.c')


def _line_of(path, text):
    with open(path) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


@pytest.fixture(scope='module')
def th_threads(tmp_path_factory):
    return build_test_extension(tmp_path_factory, 'th_threads', ['rows.h', 'workers.h', 'pool.h'],
                                ['rows.c', 'workers.c', 'pool.c'], extra_compile_args=['-fopenmp'])


def _folder(module):
    """The folder the built package of `module` is importable from."""
    return os.path.dirname(os.path.dirname(os.path.dirname(module.__file__)))


# The input of the kernels: row i holds 5i .. 5i + 4.
X = torch.arange(185, dtype=torch.float32).reshape(37, 5)


def run_child(module, body, threads=4, command=(), env=None):
    """Runs `body` in a child Python with OMP_NUM_THREADS=threads, `m` the
    extension and `x` a copy of X."""
    script = textwrap.dedent('''
        import sys
        sys.path.insert(0, %r)
        import torch
        import %s as m
        x = torch.arange(185, dtype=torch.float32).reshape(37, 5)
        ''' % (_folder(module), module.__name__)) + textwrap.dedent(body)
    env = dict(os.environ if env is None else env, OMP_NUM_THREADS=str(threads),
               PYTHONPATH=ROOT)
    return subprocess.run([sys.executable] + list(command) + ['-c', script], env=env,
                          capture_output=True, text=True, timeout=300)


def ok(done):
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.parametrize('threads', [1, 4])
def test_views_on_openmp_threads(th_threads, threads):
    # the kernel of the issue: a view of each row, made and freed on the team
    done = ok(run_child(th_threads, '''
        for _ in range(50):
            out = torch.empty(0)
            assert m.rows_first(x, out) == 1
            assert out.tolist() == x[:, 0].tolist()
        assert m.rows_first(x.t().contiguous().t(), out) == 1  # views of a transposed input
        assert out.tolist() == x[:, 0].tolist()
        print(m._rt.live_tensors())
        ''', threads))
    assert done.stdout == '0\n'


def _families_reference(x):
    """rows_views's 8 values per row (thffi/tests/th_threads/rows.c)."""
    cols = x.shape[1]
    return torch.stack([x.sum(1), x[:, :2].sum(1), x.sum(1), x[:, 0], x[:, :3].sum(1),
                        torch.full((len(x),), 2. * cols), torch.full((len(x),), float(cols)),
                        torch.ones(len(x))], 1)


def test_every_allocation_family_on_openmp_threads(th_threads):
    # newSelect, newNarrow, newTranspose, newWithSize*, newClone,
    # newContiguous, resize1d-4d, free, storage new/free, retain
    done = ok(run_child(th_threads, '''
        first = torch.empty(0)
        assert m.rows_views(x, first) == 1  # the input storage's count, back to 1
        for _ in range(20):
            out = torch.empty(0)
            assert m.rows_views(x, out) == 1 and torch.equal(out, first)
        print(first.tolist())
        print(m._rt.live_tensors())
        '''))
    assert done.stdout == '%s\n0\n' % _families_reference(X).tolist()


def test_every_allocation_family_on_pthreads(th_threads):
    done = ok(run_child(th_threads, '''
        for n in (1, 3, 4, 16):
            out = torch.empty(0)
            assert m.workers_views(x, out, n) == n  # every thread finished
            assert out.tolist() == (x.sum(1) + x[:, 0]).tolist()
        print(m._rt.live_tensors())
        '''))
    assert done.stdout == '0\n'


def _select_error():
    meta = os.path.join(ROOT, 'thffi', 'csrc', 'generic', 'THTensorMeta.c')
    return ('invalid argument 4: index 37 out of range for dimension 0 of size 37 at %s:%d'
            % (meta, _line_of(meta, 'THArgCheck(sliceIndex >= 0')))


@pytest.mark.parametrize('bad_row', [0, 30], ids=['calling_thread', 'worker'])
def test_an_error_on_an_openmp_thread_is_the_calls_exception(th_threads, bad_row):
    # row 0 is the calling thread's share of the loop, row 30 a worker's
    done = ok(run_child(th_threads, '''
        for _ in range(20):
            try:
                m.rows_check(x, torch.empty(0), %d)
            except RuntimeError as e:
                message = str(e)
            else:
                raise AssertionError('no error')
        out = torch.empty(0)
        assert m.rows_first(x, out) == 1 and out.tolist() == x[:, 0].tolist()
        print(message)
        print(m._rt.live_tensors())
        ''' % bad_row))
    assert done.stdout == 'rows_check: %s\n0\n' % _select_error()


def test_exit_on_an_openmp_thread_ends_the_call(th_threads):
    done = ok(run_child(th_threads, '''
        try:
            m.rows_exit(x, 30)
        except RuntimeError as e:
            print(e)
        out = torch.empty(0)
        assert m.rows_first(x, out) == 1 and out.tolist() == x[:, 0].tolist()
        '''))
    assert done.stdout == ('rows_exit: exit(-1) called; thffi ended this call instead of the '
                           'Python process\n')
    assert 'bad row 30\n' in done.stderr


def test_the_calls_own_error_after_its_team_ended(th_threads):
    done = ok(run_child(th_threads, '''
        try:
            m.rows_abort_after_threads(x, torch.empty(0))
        except RuntimeError as e:
            print(e)
        print(m._rt.live_tensors())
        '''))
    assert done.stdout == ('rows_abort_after_threads: invalid argument 1: need more than 100 '
                           'columns, got 5 at %s:%d\n0\n'
                           % (ROWS, _line_of(ROWS, 'need more than 100 columns')))


def test_an_error_on_a_pthread_is_the_calls_exception(th_threads):
    done = ok(run_child(th_threads, '''
        for _ in range(20):
            try:
                m.workers_check(x, 4, 2)
            except RuntimeError as e:
                message = str(e)
            else:
                raise AssertionError('no error')
        out = torch.empty(0)
        assert m.workers_views(x, out, 4) == 4
        print(message)
        print(m._rt.live_tensors())
        '''))
    assert done.stdout == ('workers_check: invalid argument 1: thread 2 was told to fail '
                           'at %s:%d\n0\n' % (WORKERS, _line_of(WORKERS, 'was told to fail')))


def test_exit_on_a_pthread_ends_the_call(th_threads):
    done = ok(run_child(th_threads, '''
        try:
            m.workers_exit(5)
        except RuntimeError as e:
            print(e)
        out = torch.empty(0)
        assert m.workers_views(x, out, 2) == 2
        '''))
    assert done.stdout == ('workers_exit: exit(5) called; thffi ended this call instead of '
                           'the Python process\n')


def test_a_thread_left_running_after_its_call_is_reported_and_python_lives(th_threads):
    # The thread makes a tensor after its call returned: it works, with one
    # warning; then it fails: sys.unraisablehook gets the error, its work
    # ends (pthread_join sees PTHREAD_CANCELED) and the next calls work.
    done = ok(run_child(th_threads, '''
        import warnings
        unraisable = []
        sys.unraisablehook = lambda hook: unraisable.append(hook)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter('always')
            assert m.workers_leave_running() == 1
            assert m.workers_release(0) == 8
            assert m.workers_leave_running() == 1
            assert m.workers_release(1) == -1
        print([str(w.message) for w in seen])
        print([(type(u.exc_value).__name__, str(u.exc_value)) for u in unraisable])
        out = torch.empty(0)
        assert m.rows_first(x, out) == 1 and out.tolist() == x[:, 0].tolist()
        print(m._rt.live_tensors())
        '''))
    warning = ('a thread that workers_leave_running started is still running after the call '
               'returned, and made a tensor there: it belongs to no call and is released only '
               'when freed, as in legacy TH')
    error = ('workers_leave_running: invalid argument 1: the thread left running failed on '
             'purpose at %s:%d (raised on a thread that workers_leave_running started, still '
             'running after the call returned: that thread\'s work ended there)'
             % (WORKERS, _line_of(WORKERS, 'failed on purpose')))
    assert done.stdout == '%r\n%r\n0\n' % ([warning, warning], [('RuntimeError', error)])


def test_the_default_report_of_a_thread_left_running_is_on_stderr(th_threads):
    done = ok(run_child(th_threads, '''
        assert m.workers_leave_running() == 1
        assert m.workers_release(1) == -1
        print('alive')
        '''))
    assert done.stdout == 'alive\n'
    assert 'RuntimeWarning: a thread that workers_leave_running started' in done.stderr
    assert ('RuntimeError: workers_leave_running: invalid argument 1: the thread left running '
            'failed on purpose') in done.stderr


@pytest.fixture(scope='module')
def threads_cxx(tmp_path_factory):
    out = tmp_path_factory.mktemp('threads_cxx')
    create_extension('_thffi_cxx_threads.threads_cxx',
                     headers=[os.path.join(HERE, 'threads_cxx.h')],
                     sources=[os.path.join(HERE, 'threads_cxx.cpp')], include_dirs=[HERE],
                     relative_to=str(out / 'build.py'), verbose=False).build()
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module('_thffi_cxx_threads.threads_cxx')
    finally:
        sys.path.remove(str(out))


def test_std_thread_and_std_async_make_views_and_their_exceptions_end_the_call(threads_cxx):
    # std::thread's start goes through libstdc++: thffi wraps it too; an
    # exception leaving a thread's function (or a pthread's start routine,
    # in C++) is the call's error, where C++ would have terminated
    done = ok(run_child(threads_cxx, '''
        out = torch.empty(0)
        for n in (1, 4):
            assert m.cxx_rows_first(x, out, n) == n and out.tolist() == x[:, 0].tolist()
        assert m.cxx_async_first(x, 7) == 35
        for call in (lambda: m.cxx_rows_throw(x, 4, 30), lambda: m.cxx_pthread_throw(3)):
            try:
                call()
            except RuntimeError as e:
                print(e)
        assert m.cxx_rows_first(x, out, 4) == 4 and out.tolist() == x[:, 0].tolist()
        print(m._rt.live_tensors())
        '''))
    assert done.stdout == ('cxx_rows_throw: C++ exception std::out_of_range: row 30 is bad\n'
                           'cxx_pthread_throw: C++ exception std::runtime_error: worker status '
                           '3\n0\n')
    assert 'RuntimeWarning' not in done.stderr  # their tensors belonged to the call


def test_a_thread_outside_every_call_makes_tensors_and_its_error_ends_the_process(th_threads):
    # A worker the library started when it loaded: thffi did not see it start
    # during a call.  Its tensors work (legacy TH's rule: freed by _free),
    # with a warning; its error has neither a call nor a start routine of
    # thffi's to go to, and ends the process with the message
    # (docs/hardening.md lists it).
    done = run_child(th_threads, '''
        import warnings
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter('always')
            print(m.pool_make(0), m.pool_make(0))
        print([str(w.message) for w in seen])
        print(m._rt.live_tensors(), flush=True)
        m.pool_make(1)
        print('not reached')
        ''')
    warning = ('a TH function made a tensor on a thread outside every wrapped call (one that '
               'thffi did not see start during a call: a library\'s own thread pool, one started '
               'when the library loaded): it belongs to no call and is released only when '
               'freed, as in legacy TH')
    assert done.returncode == -6 and done.stdout == '9 9\n%r\n0\n' % [warning], done.stderr
    pool = os.path.join(HERE, 'pool.c')
    assert ('thffi: error on a thread outside every wrapped call: invalid argument 1: the '
            'pool\'s job failed at %s:%d\n' % (pool, _line_of(pool, 'job failed'))) in done.stderr


@pytest.mark.slow  # deselected by default (conftest.py)
def test_thread_sanitizer_finds_no_race_in_thffi_and_the_planted_one(tmp_path, monkeypatch):
    monkeypatch.setenv('THFFI_SANITIZE', 'thread')
    create_extension('_thffi_tsan.th_threads', headers=[os.path.join(HERE, 'rows.h'),
                                                         os.path.join(HERE, 'workers.h')],
                     sources=[ROWS, WORKERS], extra_compile_args=['-fopenmp'],
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    monkeypatch.delenv('THFFI_SANITIZE')
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError, match=r'_thffi_tsan.th_threads was built with '
                                          r'THFFI_SANITIZE=thread: run your script as '
                                          r'`THFFI_SANITIZE=thread python -m thffi sanitize '
                                          r'SCRIPT \[args\]`'):
        importlib.import_module('_thffi_tsan.th_threads')
    built = types.SimpleNamespace(__name__='_thffi_tsan.th_threads', __file__=str(
        tmp_path / '_thffi_tsan' / 'th_threads' / '__init__.py'))
    clean = '''
        out = torch.empty(0)
        assert m.rows_views(x, out) == 1
        print(out.tolist())
        assert m.rows_first(x, out) == 1 and out.tolist() == x[:, 0].tolist()
        assert m.workers_views(x, out, 4) == 4
        try:
            m.rows_check(x, out, 30)
        except RuntimeError:
            pass
        try:
            m.workers_check(x, 4, 2)
        except RuntimeError:
            pass
        print('done')
        '''
    env = dict(os.environ, THFFI_SANITIZE='thread')
    done = run_child(built, clean, command=['-m', 'thffi', 'sanitize'], env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == '%s\ndone\n' % _families_reference(X).tolist()
    assert 'ThreadSanitizer' not in done.stderr, done.stderr
    done = run_child(built, 'print(m.rows_racy_sum(x))', command=['-m', 'thffi', 'sanitize'],
                     env=env)
    assert done.returncode == 66 and done.stdout, done.stderr  # exit status 66: races found
    assert 'WARNING: ThreadSanitizer: data race' in done.stderr
    assert 'rows_racy_sum._omp_fn.0 %s:%d' % (ROWS, _line_of(ROWS, 'racy_total +=')) \
        in done.stderr


needs_toolkit = pytest.mark.skipif(not cuda_enabled(), reason='needs a CUDA toolkit')


@pytest.fixture(scope='module')
def cuda_rows(tmp_path_factory):
    out = tmp_path_factory.mktemp('cuda_rows')
    create_extension('_thffi_thc_threads.cuda_rows', headers=[os.path.join(HERE, 'cuda_rows.h')],
                     sources=[os.path.join(HERE, 'cuda_rows.c')], extra_compile_args=['-fopenmp'],
                     with_cuda=True, relative_to=str(out / 'build.py'), verbose=False).build()
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module('_thffi_thc_threads.cuda_rows')
    finally:
        sys.path.remove(str(out))


@needs_toolkit
def test_thc_on_threads_builds(cuda_rows):
    # THC functions called on OpenMP threads and pthreads compile and link
    # (the loader resolves every name) wherever there is a toolkit
    assert cuda_rows.cuda_rows_first.__doc__ == (
        'int cuda_rows_first(THCudaTensor *input, THCudaTensor *output)')
    with pytest.raises(TypeError, match=r'cuda_workers_first\(\): argument 1 \(input\): '
                                        r'expected THCudaTensor'):
        cuda_rows.cuda_workers_first(X, torch.empty(0), 4)


@needs_toolkit
@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')
def test_thc_on_openmp_threads_and_pthreads(cuda_rows):
    # each thread of the call copies its rows on the call's stream, with the
    # call's device current (the last GPU, on a stream of its own)
    done = ok(run_child(cuda_rows, '''
        dev = torch.cuda.device_count() - 1
        x = x.cuda(dev)
        with torch.cuda.device(dev), torch.cuda.stream(torch.cuda.Stream(dev)):
            out = torch.empty(0, device=x.device)
            assert m.cuda_rows_first(x, out) == 0
            assert out.tolist() == x[:, 0].tolist()
            assert m.cuda_workers_first(x, out, 4) == 0
            assert out.tolist() == x[:, 0].tolist()
        print(m._rt.live_tensors())
        '''))
    assert done.stdout == '0\n'


# What PyTorch 2.0's own copy of libgomp (loaded before the extension, and
# so the one the extension's libgomp.so.1 resolves to) provides: GCC 4.9's
# interface.  The entry points thffi wraps are looked up by name when
# called (GOMP_parallel_reductions is GOMP_5.0), not required at load.
OLD_LIBGOMP_VERSIONS = {'OMP_1.0', 'OMP_2.0', 'OMP_3.0', 'OMP_3.1', 'OMP_4.0',
                        'GOMP_1.0', 'GOMP_2.0', 'GOMP_3.0', 'GOMP_4.0'}


def _dynamic(library, option):
    return subprocess.run(['objdump', option, library], capture_output=True, text=True).stdout


def test_the_wrapped_openmp_entry_points_are_not_required_at_load(th_threads):
    from thffi.builder.configure import WRAPPED
    gomp = [name for name in WRAPPED if name.startswith('GOMP_')]
    demo = max(glob.glob(os.path.join(ROOT, '_ext', 'my_lib', '*.so')), key=os.path.getmtime)
    folder = os.path.dirname(th_threads.__file__)
    openmp_code = next(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith('.so'))
    for library in (demo, openmp_code):
        symbols = {line.split()[-1] for line in _dynamic(library, '-T').splitlines()
                   if '*UND*' in line}
        assert not symbols & set(gomp), (library, symbols & set(gomp))
    # The demo's own C has no OpenMP: it needs nothing of libgomp that
    # PyTorch 2.0's copy lacks.
    needed = _dynamic(demo, '-p').split('required from libgomp.so.1:')[1]
    versions = {line.split()[-1] for line in needed.split('required from')[0].strip().splitlines()}
    assert versions and versions <= OLD_LIBGOMP_VERSIONS, versions
