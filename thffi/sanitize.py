"""python -m thffi sanitize SCRIPT [args]: runs a Python script against
extensions built with THFFI_SANITIZE=address, so that AddressSanitizer and
UndefinedBehaviorSanitizer report memory errors and undefined behaviour in
their C code with its source file and line.

Python is not built with the sanitizer, so its runtime has to be in the
process before anything else: this preloads the compiler's libasan, sets
options that keep the report to the user's code, and replaces itself with
`python SCRIPT [args]` (or `python -m MODULE [args]`).  The first memory
error ends the process with AddressSanitizer's report and exit status 1."""

import os
import shlex
import subprocess
import sys
import sysconfig

USAGE = 'usage: python -m thffi sanitize SCRIPT [args]  (or: -m MODULE [args])'

# Leak detection off: CPython and torch keep their allocations until the
# process ends, which LeakSanitizer would report by the thousand.  The gap
# below the shadow memory left unprotected: the CUDA driver maps memory
# there.  User settings come after these and win.
ASAN_OPTIONS = 'detect_leaks=0:protect_shadow_gap=0'
UBSAN_OPTIONS = 'print_stacktrace=1'


def _compiler_file(variable, default, name):
    """The path of the file `name` of the compiler in $variable (else
    Python's, else `default`), or None when it has none."""
    cc = shlex.split(os.environ.get(variable) or sysconfig.get_config_var(variable) or default)
    try:
        path = subprocess.run(cc + ['-print-file-name=' + name], capture_output=True,
                              text=True).stdout.strip()
    except FileNotFoundError:
        return None
    return os.path.realpath(path) if os.path.isabs(path) and os.path.exists(path) else None


def runtime_library():
    """The AddressSanitizer runtime of the C compiler thffi builds with (CC),
    or None when that compiler has none."""
    return _compiler_file('CC', 'cc', 'libasan.so')


def cxx_runtime():
    """The C++ runtime (libstdc++) of the C++ compiler, or None.  Preloaded
    beside libasan: its interceptor of __cxa_throw binds the real one when
    it starts, and finds none unless libstdc++ is loaded by then, so the
    first C++ exception, even one torch throws and catches itself (as
    `operator.index(torch.tensor(1.5))` does), would abort the process."""
    return _compiler_file('CXX', 'c++', 'libstdc++.so.6')


def environment(library, env=None):
    """The environment the script runs in: `env` (os.environ by default)
    with the runtime (and the C++ runtime, when there is one) preloaded and
    the sanitizers' options."""
    env = dict(os.environ if env is None else env)
    env['LD_PRELOAD'] = ' '.join(filter(None, [library, cxx_runtime(), env.get('LD_PRELOAD')]))
    env['ASAN_OPTIONS'] = ':'.join(filter(None, [ASAN_OPTIONS, env.get('ASAN_OPTIONS')]))
    env['UBSAN_OPTIONS'] = ':'.join(filter(None, [UBSAN_OPTIONS, env.get('UBSAN_OPTIONS')]))
    return env


def main(args):
    if not args or args[0] in ('-h', '--help') or args == ['-m']:
        sys.stderr.write(USAGE + '\n')
        return 2
    library = runtime_library()
    if library is None:
        sys.stderr.write('python -m thffi sanitize: the C compiler has no AddressSanitizer '
                         'runtime (libasan.so); install it (Debian/Ubuntu: apt-get install '
                         'libasan8, with gcc) or point CC at a compiler that has one\n')
        return 1
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable] + list(args), environment(library))
