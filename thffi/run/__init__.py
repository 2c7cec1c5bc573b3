"""python -m thffi run [--] COMMAND [ARGS...]: one step of a 2018 README
(`make`, `sh make.sh`, `python train.py`) run with today's toolchain in
front, with no `port` and no edit.

One argument is a command line, run by bash as the README's shell ran it
(`python -m thffi run 'cd lib && sh make.sh'`); several are a program and
its arguments, run as they are (`python -m thffi run -- python train.py
--lr 0.1`; a script without `#!` by the user's shell, as bash runs it).
The exit status is the command's (128 + N for signal N).

Every compiler the command starts, whatever starts it (make, CMake, bash,
os.system, subprocess) and by whatever path or name (nvcc, gcc, cc, g++,
c++, gcc-12, /usr/local/cuda/bin/nvcc), goes through shims.py, which
applies thffi/toolchain/'s rules to its arguments, says what it changed,
and execs it: intercept.c, a library preloaded (LD_PRELOAD) into the
programs the command starts, starts the shim in its place (intercept.py
builds it once and keeps it in thffi's cache).

For the command and everything it starts, a folder of thffi's cache
(one for each interpreter and thffi, kept: a build that records a path
found there, as CMake's cache does, finds it again at a later step or a
later `make`) comes first on PATH and on PYTHONPATH; it holds:
- `thffi-compiler`: the shim intercept.c starts for a compiler;
- `nvcc`: the same shim for nvcc by name, which finds the real nvcc (the
  next on PATH, else the toolkit thffi builds with: pip's wheels or
  /usr/local/cuda, which need not be on PATH);
- `cmake`: the next cmake on PATH, with a folder shaped as PyTorch 0.4's
  torch folder first in its find_path and find_library search, so that
  those of TH/TH.h and libATen.so find thffi's headers and shared library
  (torch_folder.py);
- `python`, `python3`, `python3.N`: the interpreter thffi runs in, so a
  make.sh's `python build.py` builds with thffi's PyTorch;
- `sitecustomize.py`, with which every Python the step starts finds this
  thffi (at its own path, so that what a build records of it outlives the
  run), torch.utils.ffi (thffi's _hook) and the names today's Python,
  NumPy, SciPy and PyTorch removed where they have an equivalent
  (removed_names.py), each said on stderr once, when first used, and
  PyTorch 0.x's results where today's differ and it can give them without
  changing anything else (behaviours.py: a conversion of a non-contiguous
  tensor is contiguous; copy_ between shapes that do not broadcast copies
  element by element); and, for the step's own code (the files under the
  folder it runs in, THFFI_RUN_ROOT): Python 2 converted as it is imported
  or run, by port's rules, in memory (python2.py), and a build's
  torch.cuda.is_available() asking whether CUDA code can be built here
  (cuda_gate.py).
CUDA_HOME is set to the toolkit that was found through the nvcc on PATH,
which the `nvcc` here would hide, and FindCUDA's CUDA_BIN_PATH to the
toolkit's bin (environment()).  What the compilers probe once a run
(nvcc's architectures, the C compiler's rules) is kept in a folder made
for the run, removed after it (THFFI_RUN_STATE).  Nothing changes outside
the command."""

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from .._cache import cache_root
from ..toolchain import cuda_toolkit as cuda
from . import intercept
from .python2 import ROOT
from .shims import MARKER, STATE

# The compiler shims: (name, the function of shims.py called, its arguments).
SHIMS = (('nvcc', 'main', "'nvcc', sys.argv[1:]"),
         (intercept.SHIM, 'intercepted', 'sys.argv[1:]'),
         ('cmake', 'cmake', 'sys.argv[1:]'))
_RUN = os.path.dirname(os.path.abspath(__file__))
_PACKAGE = os.path.dirname(_RUN)

_COMPILER_SHIM = '''#!{python} -IS
# `{name}` for `python -m thffi run`: thffi/run/shims.py, then the real compiler.
import sys
sys.path.insert(0, {parent!r})
tools = {{'__name__': '_thffi_run_tools', '__file__': {tools!r}}}
with open({tools!r}) as f:
    exec(compile(f.read(), {tools!r}, 'exec'), tools)
sys.exit(tools[{function!r}]({arguments}))
'''
_PYTHON_SHIM = '''#!/bin/sh
# `{name}` for `python -m thffi run`: the interpreter thffi runs in.
exec {python} "$@"
'''
_SITECUSTOMIZE = '''"""Written by `python -m thffi run` for the Pythons its command starts:
the thffi that runs it, torch.utils.ffi (thffi/_hook.py) and the removed
names that have an equivalent (thffi/run/removed_names.py), loaded by path so
that importing neither thffi nor torch is paid at start."""
import importlib.machinery
import importlib.util
import os
import sys


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class _Thffi:
    """`import thffi` finds the thffi that runs `thffi run`."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'thffi':
            return None
        return importlib.util.spec_from_file_location(
            'thffi', {init!r}, submodule_search_locations=[{package!r}])


sys.meta_path.insert(0, _Thffi())
_load('_thffi_hook', {hook!r}).install()
_after = _load('_thffi_run_after_import', {after_import!r})
_table = _load('_thffi_pyremoved', {pyremoved!r})
_load('_thffi_run_names', {names!r}).install(_after, _table.REMOVED, _table.METHOD_CLASSES,
                                            _table.STUBS)
_load('_thffi_run_behaviours', {behaviours!r}).install(
    _after, _load('_thffi_tensor_behaviours', {tensor_behaviours!r}))
# The step's own code: build scripts asking for CUDA (run/cuda_gate.py) and
# Python 2 (run/python2.py, which may run the script itself: last).
_root = os.environ.get({root!r})
if _root:
    _load('_thffi_run_cuda_gate', {cuda_gate!r}).install(_after, _root)
    _load('_thffi_run_python2', {python2!r}).install(
        _root, {python2_cache!r}, {package!r}, os.environ.get({state!r}))
# A sitecustomize of the environment's own, which this one hides, still runs.
_next = importlib.machinery.PathFinder.find_spec('sitecustomize', [
    p for p in sys.path if not os.path.exists(os.path.join(p or '.', {marker!r}))])
if _next is not None:
    _load('_thffi_next_sitecustomize', _next.origin)
'''


def _write(path, text, executable=False):
    """Writes path where it does not hold text already: whole, then renamed,
    for runs that start at once."""
    mode = 0o755 if executable else 0o644
    try:
        with open(path) as f:
            if f.read() == text and os.stat(path).st_mode & 0o777 == mode:
                return
    except OSError:
        pass
    partial = '%s.%d' % (path, os.getpid())
    with open(partial, 'w') as f:
        f.write(text)
    os.chmod(partial, mode)
    os.replace(partial, path)


def make_folder(root=None):
    """The folder of shims (see the module's docstring), in thffi's cache
    (or under root)."""
    # (The folders of thffis before intercept.c, which held cc and gcc, stay
    # as they are for the builds that recorded those.)
    key = hashlib.sha256(('%s\0%s\0intercept' % (sys.executable, _PACKAGE)).encode()
                         ).hexdigest()[:16]
    folder = os.path.join(root or cache_root(), 'run', key)
    os.makedirs(folder, exist_ok=True)
    _write(os.path.join(folder, MARKER), 'python -m thffi run\n')
    for name, function, arguments in SHIMS:
        _write(os.path.join(folder, name), _COMPILER_SHIM.format(
            python=sys.executable, name=name, parent=os.path.dirname(_PACKAGE),
            tools=os.path.join(_RUN, 'shims.py'), function=function, arguments=arguments),
            executable=True)
    pythons = ('python', 'python3', 'python%d.%d' % sys.version_info[:2])
    for name in pythons:
        _write(os.path.join(folder, name), _PYTHON_SHIM.format(
            name=name, python=_quote(sys.executable)), executable=True)
    _write(os.path.join(folder, 'sitecustomize.py'), _SITECUSTOMIZE.format(
        init=os.path.join(_PACKAGE, '__init__.py'), package=_PACKAGE,
        hook=os.path.join(_PACKAGE, '_hook.py'),
        names=os.path.join(_RUN, 'removed_names.py'),
        after_import=os.path.join(_RUN, 'after_import.py'),
        pyremoved=os.path.join(_PACKAGE, 'toolchain', 'pyremoved.py'), marker=MARKER,
        behaviours=os.path.join(_RUN, 'behaviours.py'),
        tensor_behaviours=os.path.join(_PACKAGE, 'toolchain', 'tensor_behaviours.py'),
        root=ROOT, state=STATE, cuda_gate=os.path.join(_RUN, 'cuda_gate.py'),
        python2=os.path.join(_RUN, 'python2.py'),
        python2_cache=os.path.join(root or cache_root(), 'python2')))
    return folder


def _quote(word):
    return "'%s'" % word.replace("'", "'\\''")


def environment(folder, base=None, state=None, library=None):
    """The command's environment: `base` (os.environ) with folder first on
    PATH and PYTHONPATH, CUDA_HOME where the toolkit was found through the
    nvcc on PATH, CUDA_BIN_PATH (below), THFFI_RUN_STATE naming state (the
    run's own folder), and intercept.c's library preloaded (library: its
    path)."""
    env = dict(os.environ if base is None else base)
    if library is not None:
        intercept.environment(env, library, folder)
    if state is not None:
        env[STATE] = state
    if not env.get('CUDA_PATH') and not env.get('CUDA_BIN_PATH'):
        toolkit = cuda.find_toolkit()
        if toolkit is not None and toolkit.origin == 'the nvcc on PATH' and not env.get(
                'CUDA_HOME'):
            env['CUDA_HOME'] = toolkit.home
        # CMake 3.0-3.9's FindCUDA took the toolkit for the folder of the
        # first nvcc on PATH, less `bin`: this folder's.  Every FindCUDA
        # (CMake 2.8 to today's) looks in $CUDA_PATH and then $CUDA_BIN_PATH
        # first; CUDA_BIN_PATH is FindCUDA's alone (CUDA_PATH would be
        # thffi's and PyTorch's choice of toolkit too).  The nvcc the
        # Makefiles it writes run, by that toolkit's path, is intercepted.
        if toolkit is not None:
            env['CUDA_BIN_PATH'] = os.path.join(toolkit.home, 'bin')
    for var in ('PATH', 'PYTHONPATH'):
        env[var] = os.pathsep.join([folder] + ([env[var]] if env.get(var) else []))
    return env


# The Bourne-family shells a user's $SHELL may name, which run a script
# without `#!` themselves, as bash does.
_BOURNE_SHELLS = ('bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash')


def _shell_for_script(args):
    """args, with an executable script that has no `#!` line run by the
    shell its README's user typed it into (bash runs such a script itself;
    exec's fallback, /bin/sh, may be dash): $SHELL where it is a Bourne
    shell, else bash; args as they are for anything else."""
    program = args[0]
    path = program if os.sep in program else shutil.which(program)
    if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
        return args
    try:
        with open(path, 'rb') as f:
            head = f.read(4)
    except OSError:
        return args
    if head.startswith(b'#!') or head == b'\x7fELF' or not head:
        return args
    shell = os.environ.get('SHELL', '')
    shell = shell if os.path.basename(shell) in _BOURNE_SHELLS and os.path.isfile(shell) else (
        shutil.which('bash') or '/bin/sh')
    return [shell, path] + list(args[1:])


def command_line(args, library=None):
    """The argument vector to run: one argument through bash (sh where
    there is no bash), several as they are (a script without `#!` by the
    user's shell: _shell_for_script); with intercept.c's library,
    those started by sh's `exec`, so that a program the library catches
    (`python -m thffi run -- gcc -c x.c`) is caught: this process has no
    library loaded."""
    if len(args) == 1:
        return [shutil.which('bash') or 'sh', '-c', args[0]]
    args = _shell_for_script(args)
    if library is not None:
        return ['/bin/sh', '-c', 'exec "$@"', 'thffi run'] + list(args)
    return list(args)


def main(args):
    """python -m thffi run's command (its options: thffi/__main__.py): the
    exit status of args (the command, past any `--`) run as the module's
    docstring says."""
    args = list(args)
    state = tempfile.mkdtemp(prefix='thffi-run-')
    try:
        folder = make_folder()
    except OSError:  # thffi's cache cannot be written: the shims go, with the run
        folder = make_folder(state)
    library, why = intercept.library([os.path.join(cache_root(), 'run'), state])
    if why:
        sys.stderr.write('thffi run: %s: the compilers the step starts run as they are, but '
                         'nvcc by name\n' % why)
    try:
        env = dict(environment(folder, state=state, library=library), **{ROOT: os.getcwd()})
        if len(args) > 1 and not shutil.which(args[0], path=env['PATH']):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), args[0])
        process = subprocess.Popen(command_line(args, library), env=env)
        while True:
            try:
                status = process.wait()
                break
            except KeyboardInterrupt:  # the command has it too: wait for its end
                continue
    except OSError as exc:
        sys.stderr.write('python -m thffi run: cannot run %s: %s\n' % (args[0], exc.strerror))
        return 127
    finally:
        shutil.rmtree(state, ignore_errors=True)
    return 128 - status if status < 0 else status

