"""`python -m thffi run -- COMMAND`: a 2018 README's steps with today's
toolchain in front (thffi/run/: __init__.py, shims.py, removed_names.py).  The build
files and scripts here are ours, written as 2017-2018 repositories wrote
them."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, write_files
from thffi import run
from thffi.run import shims as _run_tools
from thffi.toolchain import cuda_toolkit as cuda
from thffi.builder.compile import cache_root

ENV = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5')
NVCC = shutil.which('nvcc') or cuda.find_cuda_home()


def thffi_run(args, cwd, env=ENV):
    return subprocess.run([sys.executable, '-m', 'thffi', 'run'] + args, cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=600)


def said(stderr):
    return [line for line in stderr.splitlines() if line.startswith('thffi run:')]


# -- the compilers -------------------------------------------------------------------

MAKEFILE = '''\
    # shift kernel: CUDA 8, GTX 1080
    NVCC = nvcc
    NVCC_FLAGS = -std=c++11 -Xcompiler -fPIC -arch=sm_61

    all: src/shift_kernel.cu.o

    src/shift_kernel.cu.o: src/shift_kernel.cu
    \t$(NVCC) -c -o $@ $< -x cu $(NVCC_FLAGS)
    '''
KERNEL = '''\
    #include <thrust/functional.h>

    __global__ void shift_kernel(const float *in, float *out, int n, float by)
    {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = thrust::plus<float>()(in[i], by);
    }
    '''


@pytest.mark.skipif(not NVCC, reason='no nvcc: the Makefile step compiles CUDA')
def test_a_makefile_asking_for_sm_61_and_cxx11_builds_through_thffi_run(tmp_path):
    write_files(tmp_path, {'Makefile': MAKEFILE, 'src/shift_kernel.cu': KERNEL})
    before = subprocess.run(['make'], cwd=str(tmp_path), env=ENV, capture_output=True,
                            text=True, timeout=600)
    assert before.returncode != 0 and not (tmp_path / 'src' / 'shift_kernel.cu.o').exists()

    out = thffi_run(['--', 'make'], tmp_path)
    assert out.returncode == 0, out.stderr
    lines = said(out.stderr)
    assert len(lines) == 1 and lines[0].startswith('thffi run: nvcc: -std=c++11 becomes '
                                                   '-std=c++17 (')
    assert lines[0].endswith('; -arch=sm_61 becomes -gencode=arch=compute_75,code=sm_75 '
                             "(today's nvcc rejects sm_61)")
    sections = subprocess.run(['readelf', '-S', str(tmp_path / 'src' / 'shift_kernel.cu.o')],
                              capture_output=True, text=True).stdout
    assert '.nv_fatbin' in sections
    assert (tmp_path / 'Makefile').read_text() == textwrap.dedent(MAKEFILE)  # no edit


def _fake_gcc(folder, major, stdc):
    """A `gcc` that reports itself as gcc `major` with C's default
    __STDC_VERSION__ `stdc`, and writes the arguments of a compile to
    ./args."""
    write_files(folder, {'gcc': '''\
        #!/bin/sh
        case "$*" in
          *-dM*) echo '#define __GNUC__ %d'; echo '#define __STDC_VERSION__ %s'; exit 0 ;;
          *-fsyntax-only*) exit 0 ;;
        esac
        echo "$@" > args
        ''' % (major, stdc)})
    os.chmod(os.path.join(str(folder), 'gcc'), 0o755)


def test_gcc_15_is_given_what_gcc_5_accepted(tmp_path):
    fake = tmp_path / 'gcc15'
    _fake_gcc(fake, 15, '202311L')
    env = dict(ENV, PATH=str(fake) + os.pathsep + ENV['PATH'])
    out = thffi_run(['--', 'gcc', '-fPIC', '-c', 'roi_pooling.c', '-o', 'roi_pooling.o'],
                    tmp_path, env)
    assert out.returncode == 0, out.stderr
    args = (tmp_path / 'args').read_text().split()
    assert args == ['-Wno-error=implicit-function-declaration', '-Wno-error=implicit-int',
                    '-Wno-error=int-conversion', '-Wno-error=incompatible-pointer-types',
                    '-Wno-error=return-mismatch',
                    '-Wno-error=declaration-missing-parameter-type', '-std=gnu11', '-fPIC',
                    '-c', 'roi_pooling.c', '-o', 'roi_pooling.o']
    lines = said(out.stderr)
    assert len(lines) == 1 and lines[0].startswith(
        'thffi run: gcc: adds -Wno-error=implicit-function-declaration (an error since gcc 14 ')
    assert "adds -std=gnu11 (gcc 5's default, where gcc 15 compiles C as C23" in lines[0]

    # A link, and C++: as they are, and nothing said.
    out = thffi_run(['--', 'gcc', '-shared', 'roi_pooling.o', '-o', '_roi_pooling.so'],
                    tmp_path, env)
    assert (tmp_path / 'args').read_text().split() == ['-shared', 'roi_pooling.o', '-o',
                                                       '_roi_pooling.so']
    assert not said(out.stderr)


def test_todays_gcc_compiles_2018_c_with_nothing_said(tmp_path):
    """gcc 12 makes none of gcc 14's new errors errors: nothing to add."""
    write_files(tmp_path, {'nms.c': '''\
        int nms(int n) { return helper(n); }
        int helper(int n) { return n + 1; }
        '''})
    out = thffi_run(['--', 'gcc', '-c', 'nms.c', '-o', 'nms.o'], tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / 'nms.o').exists() and not said(out.stderr)


# -- python --------------------------------------------------------------------------

def test_a_make_sh_calling_python_uses_thffis_interpreter(tmp_path):
    """Another `python` first on PATH (a Python 2 one, say); the build
    script finds torch.utils.ffi.  The step as a README gives it: one
    string, run by bash."""
    elsewhere = tmp_path / 'python2.7-bin'
    write_files(elsewhere, {'python': '#!/bin/sh\necho "Python 2.7.12: not this one" >&2\nexit 97\n'})
    os.chmod(str(elsewhere / 'python'), 0o755)
    write_files(tmp_path, {'lib/make.sh': '''\
        #!/usr/bin/env bash
        cd src
        echo "Compiling kernels with nvcc..."
        cd ..
        python build.py
        ''', 'lib/build.py': '''\
        import sys
        import thffi
        from torch.utils.ffi import create_extension
        print(sys.executable, create_extension.__module__, thffi.__file__)
        '''})
    env = dict(ENV, PATH=str(elsewhere) + os.pathsep + ENV['PATH'])
    os.makedirs(str(tmp_path / 'lib' / 'src'))
    before = subprocess.run(['bash', '-c', 'cd lib && sh make.sh'], cwd=str(tmp_path), env=env,
                            capture_output=True, text=True, timeout=600)
    assert before.returncode == 97
    out = thffi_run(['cd lib && sh make.sh'], tmp_path, env)
    assert out.returncode == 0, out.stderr
    executable, module, thffi_file = out.stdout.splitlines()[-1].split()
    assert executable == sys.executable and module.startswith('thffi')
    # thffi at its own path: what a build records of it outlives the run.
    assert thffi_file == os.path.join(ROOT, 'thffi', '__init__.py')


SCRIPT = '''\
    import collections
    import fractions
    import inspect

    import numpy as np
    import torch
    from torch._six import string_classes, int_classes
    from torch.utils.data import dataloader


    def flatten(items):
        if isinstance(items, collections.Iterable) and not isinstance(items, string_classes):
            return [x for item in items for x in flatten(item)]
        return [items]


    def collate(a, lr=0.1, **kwargs):
        return dataloader.numpy_type_map[a.dtype.name](a)


    print(flatten([1, [2, 'ab'], (3,)]), isinstance(3, int_classes))
    print(isinstance({}, collections.Mapping), isinstance([], collections.Iterable))
    print(np.zeros(2, dtype=np.float).dtype, np.asscalar(np.ones(1) * 2))
    print(collate(np.zeros(3, dtype=np.float32)).dtype, fractions.gcd(12, 18))
    print(inspect.getargspec(collate))
    '''


def test_a_script_using_removed_names_runs_through_thffi_run_and_fails_without(tmp_path):
    write_files(tmp_path, {'train.py': SCRIPT})
    before = subprocess.run([sys.executable, 'train.py'], cwd=str(tmp_path), env=ENV,
                            capture_output=True, text=True, timeout=600)
    assert before.returncode == 1 and "No module named 'torch._six'" in before.stderr

    out = thffi_run(['--', 'python', 'train.py'], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "[1, 2, 'ab', 3] True", 'True True', 'float64 2.0', 'torch.float32 6',
        "ArgSpec(args=['a', 'lr'], varargs=None, keywords='kwargs', defaults=(0.1,))"]
    # Each name once, where it was first used.
    assert said(out.stderr) == [
        'thffi run: train.py:7: torch._six.string_classes is gone since PyTorch 2.0 '
        '(torch._six is gone); thffi run gives (str, bytes)',
        'thffi run: train.py:7: torch._six.int_classes is gone since PyTorch 2.0 (torch._six '
        'is gone); thffi run gives int',
        'thffi run: train.py:12: collections.Iterable is gone since Python 3.10 (the ABCs live '
        'in collections.abc); thffi run gives collections.abc.Iterable',
        'thffi run: train.py:22: collections.Mapping is gone since Python 3.10 (the ABCs live '
        'in collections.abc); thffi run gives collections.abc.Mapping',
        'thffi run: train.py:23: numpy.float is gone since NumPy 1.24 (the alias of the '
        'builtin float is gone); thffi run gives float',
        'thffi run: train.py:23: numpy.asscalar is gone since NumPy 1.23; thffi run gives '
        '{0}.item()',
        'thffi run: train.py:18: torch.utils.data.dataloader.numpy_type_map is gone since '
        'PyTorch 1.1 (torch.from_numpy(a) makes the tensor of a\'s type itself); thffi run '
        "gives {'float64': torch.DoubleTensor, 'float32': torch.FloatTensor, 'float16': "
        "torch.HalfTensor, 'int64': torch.LongTensor, 'int32': torch.IntTensor, 'int16': "
        "torch.ShortTensor, 'int8': torch.CharTensor, 'uint8': torch.ByteTensor}",
        'thffi run: train.py:24: fractions.gcd is gone since Python 3.9 (math.gcd takes '
        'integers only and is never negative, where fractions.gcd took the sign of its second '
        'argument); thffi run gives math.gcd',
        "thffi run: train.py:25: inspect.getargspec is gone since Python 3.11 (getfullargspec's "
        "result has 7 fields, the first four getargspec's with keywords named varkw); thffi "
        'run gives inspect.getfullargspec']


def test_a_name_without_an_equivalent_fails_saying_what_to_write(tmp_path):
    write_files(tmp_path, {'demo.py': '''\
        import sys
        import scipy.misc
        try:
            scipy.misc.imfilter(None, 'blur')
        except AttributeError as e:
            print(e)
        try:
            import torch.legacy.nn
        except ImportError as e:
            print(type(e).__name__, e)
        import numpy as np
        print(hasattr(np, 'floot'), np.float is float)
        '''})
    out = thffi_run(['python demo.py'], tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == ("module 'scipy.misc' has no attribute 'imfilter' (scipy.misc.imfilter "
                        'is gone since SciPy 1.3; write PIL.Image)')
    assert lines[1].startswith("ModuleNotFoundError No module named 'torch.legacy' "
                               '(torch.legacy is gone since PyTorch 1.0 (torch.legacy is gone); '
                               'write torch.nn')
    assert lines[2] == 'False True'


def test_an_old_method_name_is_given_on_its_class(tmp_path):
    write_files(tmp_path, {'loader.py': '''\
        import threading
        worker = threading.Thread(target=lambda: None)
        print(worker.isAlive(), worker.isAlive(), threading.Thread.isAlive is not None)
        '''})
    out = thffi_run(['--', 'python', 'loader.py'], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == 'False False True\n'
    assert said(out.stderr) == [
        'thffi run: loader.py:3: threading.Thread.isAlive is gone since Python 3.9 '
        "(threading.Thread's camelCase alias is gone); thffi run gives "
        'threading.Thread.is_alive']


def test_nothing_changes_outside_thffi_run(tmp_path):
    """The step's environment only: this process, and a Python started
    after it, have none of it; the run's own folder (its probes) is
    removed, the shims' folder is thffi's cache's."""
    import collections
    write_files(tmp_path, {'show.py': '''\
        import os
        print(os.environ['PATH'].split(os.pathsep)[0])
        print(os.environ['THFFI_RUN_STATE'])
        '''})
    out = thffi_run(['--', 'python', 'show.py'], tmp_path)
    shims, state = out.stdout.split()
    assert os.path.dirname(shims) == os.path.join(cache_root(), 'run')
    assert os.path.basename(state).startswith('thffi-run-') and not os.path.exists(state)
    assert not hasattr(collections, 'Iterable')
    after = subprocess.run([sys.executable, '-c', 'import collections; collections.Iterable'],
                           env=ENV, capture_output=True, text=True, timeout=600)
    assert after.returncode == 1 and 'AttributeError' in after.stderr


def test_a_compiler_path_a_build_records_is_the_machines(tmp_path):
    """CMake keeps the path of the cc it found in its cache: under thffi run
    that is the machine's cc, which the next step, run apart through thffi
    run, reaches by that path (intercept.c), and a plain `make` after it
    runs as it is."""
    write_files(tmp_path, {'add.c': '''\
        int add(int a, int b) { return a + b; }
        '''})
    out = thffi_run(['command -v cc > recorded'], tmp_path)
    assert out.returncode == 0, out.stderr
    recorded = (tmp_path / 'recorded').read_text().strip()
    assert recorded == shutil.which('cc', path=ENV['PATH'])
    again = subprocess.run([recorded, '-c', 'add.c', '-o', 'add.o'], cwd=str(tmp_path),
                           env=ENV, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / 'add.o').stat().st_size > 0


def test_an_unwritable_cache_puts_the_shims_in_the_run(tmp_path):
    """Where thffi's cache cannot be written, the run still has its shims
    and its interception library, in its own folder, removed with it."""
    (tmp_path / 'cache').write_text('a file where the cache folder would be\n')
    env = dict(ENV, THFFI_CACHE_DIR=str(tmp_path / 'cache'))
    out = thffi_run(['--', 'sh', '-c', 'command -v python; echo "$THFFI_RUN_COMPILER"; '
                     'echo "$LD_PRELOAD"; echo "$THFFI_RUN_STATE"'], tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    python, shim, library, state = out.stdout.split()
    assert all(path.startswith(state + os.sep) for path in (python, shim, library))
    assert not os.path.exists(state)


def test_exit_status_usage_and_the_real_programs(tmp_path):
    assert thffi_run(['--', 'sh', '-c', 'exit 4'], tmp_path).returncode == 4
    assert thffi_run(['exit 3'], tmp_path).returncode == 3
    out = thffi_run(['--'], tmp_path)
    assert out.returncode == 2 and 'usage: python -m thffi run [-h] [--] COMMAND' in out.stderr
    assert 'python -m thffi run: error: no command given' in out.stderr
    # The shims find the real programs on PATH less the folders runs made.
    folder = run.make_folder()
    path = os.pathsep.join([folder, os.environ['PATH']])
    assert _run_tools.real_program('gcc', path) == shutil.which('gcc')
    assert _run_tools.real_program('python', folder) is None


def test_the_environment_keeps_the_toolkit_the_nvcc_on_path_gave(monkeypatch):
    """The wrapped nvcc first on PATH would hide the toolkit found through
    the real one: CUDA_HOME names it; one set already stays.  FindCUDA's
    CUDA_BIN_PATH names the toolkit's bin (CMake 3.0-3.9's FindCUDA took
    the folder of the first nvcc on PATH for it), but where the user set it
    or CUDA_PATH, which FindCUDA reads first."""
    monkeypatch.setattr(cuda, 'find_toolkit',
                        lambda: cuda.Toolkit('/opt/cuda-13.0', 'the nvcc on PATH'))
    env = run.environment('/tmp/thffi-run-x', {'PATH': '/usr/bin', 'PYTHONPATH': '/src'})
    assert env == {'PATH': '/tmp/thffi-run-x:/usr/bin', 'PYTHONPATH': '/tmp/thffi-run-x:/src',
                   'CUDA_HOME': '/opt/cuda-13.0', 'CUDA_BIN_PATH': '/opt/cuda-13.0/bin'}
    monkeypatch.setattr(cuda, 'find_toolkit', lambda: cuda.Toolkit('/usr/local/cuda',
                                                                   'CUDA_HOME'))
    env = run.environment('/tmp/thffi-run-x', {'PATH': '/usr/bin', 'CUDA_HOME': '/usr/local/cuda'})
    assert env == {'PATH': '/tmp/thffi-run-x:/usr/bin', 'PYTHONPATH': '/tmp/thffi-run-x',
                   'CUDA_HOME': '/usr/local/cuda', 'CUDA_BIN_PATH': '/usr/local/cuda/bin'}
    monkeypatch.setattr(cuda, 'find_toolkit', lambda: cuda.Toolkit('/usr/local/cuda',
                                                                   'the system toolkit'))
    env = run.environment('/tmp/thffi-run-x', {'PATH': '/usr/bin'})
    assert 'CUDA_HOME' not in env and env['CUDA_BIN_PATH'] == '/usr/local/cuda/bin'
    for var in ('CUDA_PATH', 'CUDA_BIN_PATH'):
        env = run.environment('/tmp/thffi-run-x', {'PATH': '/usr/bin', var: '/opt/cuda/bin'})
        assert env.get('CUDA_BIN_PATH') == (None if var == 'CUDA_PATH' else '/opt/cuda/bin')


# A README's step typed into bash: `./setup.sh script`, the script written
# for bash and without a #! line (bash runs such a file itself).
NO_SHEBANG = '''\
function greet {
  echo "hello from $1"
}
if [[ "$1" == script ]]; then greet bash; fi
steps=(build test)
echo "${#steps[@]} steps"
'''


@pytest.mark.parametrize('shell', [None, '/bin/bash', '/usr/bin/python3'])
def test_a_script_without_a_shebang_runs_as_the_users_shell_runs_it(tmp_path, shell):
    (tmp_path / 'setup.sh').write_text(NO_SHEBANG)
    os.chmod(tmp_path / 'setup.sh', 0o755)
    env = dict(ENV)
    env.pop('SHELL', None)
    if shell:  # the user's $SHELL; not a Bourne shell: bash
        env['SHELL'] = shell
    out = thffi_run(['--', './setup.sh', 'script'], tmp_path, env)
    assert (out.returncode, out.stdout) == (0, 'hello from bash\n2 steps\n'), out.stderr
    # and where $SHELL is plain sh, as that shell runs it
    if os.path.realpath('/bin/sh') != os.path.realpath(shutil.which('bash') or ''):
        out = thffi_run(['--', './setup.sh', 'script'], tmp_path, dict(env, SHELL='/bin/sh'))
        assert out.returncode != 0 and 'hello from bash' not in out.stdout
