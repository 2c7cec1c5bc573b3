"""python -m thffi sanitize SCRIPT [args]: runs a Python script against
extensions built with THFFI_SANITIZE=address, so that AddressSanitizer and
UndefinedBehaviorSanitizer report memory errors and undefined behaviour in
their C code with its source file and line; with THFFI_SANITIZE=thread set
(as for the build), against extensions built so, ThreadSanitizer reports
data races between the threads their C starts.

Python is not built with the sanitizer, so its runtime has to be in the
process before anything else: this preloads the compiler's libasan (or
libtsan), sets options that keep the report to the user's code, and
replaces itself with `python SCRIPT [args]` (or `python -m MODULE [args]`).
The first memory error ends the process with AddressSanitizer's report and
exit status 1; ThreadSanitizer reports each race and exits with status 66
when it found any."""

import os
import shlex
import subprocess
import sys
import sysconfig

# Leak detection off: CPython and torch keep their allocations until the
# process ends, which LeakSanitizer would report by the thousand.  The gap
# below the shadow memory left unprotected: the CUDA driver maps memory
# there.  User settings come after these and win.
ASAN_OPTIONS = 'detect_leaks=0:protect_shadow_gap=0'
UBSAN_OPTIONS = 'print_stacktrace=1'
# Python, torch and libgomp are not instrumented: ThreadSanitizer sees their
# locks (pthread's, which it intercepts), not their memory accesses.  Its
# check that signal handlers call only async-signal-safe functions flags
# Python's own handlers: off.
TSAN_OPTIONS = 'report_signal_unsafe=0'
# Each mode's runtime library and the options it reads: (library,
# {variable: thffi's options}).
RUNTIMES = {'address': ('libasan.so', {'ASAN_OPTIONS': ASAN_OPTIONS,
                                       'UBSAN_OPTIONS': UBSAN_OPTIONS}),
            'thread': ('libtsan.so', {'TSAN_OPTIONS': TSAN_OPTIONS})}


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


def mode():
    """The sanitizer THFFI_SANITIZE names ('address' when unset); ValueError
    for one thffi does not know."""
    name = os.environ.get('THFFI_SANITIZE') or 'address'
    if name not in RUNTIMES:
        raise ValueError('THFFI_SANITIZE=%s: the modes are address and thread' % name)
    return name


def runtime_library(name='address'):
    """The runtime of the sanitizer `name` of the C compiler thffi builds
    with (CC), or None when that compiler has none."""
    return _compiler_file('CC', 'cc', RUNTIMES[name][0])


def cxx_runtime():
    """The C++ runtime (libstdc++) of the C++ compiler, or None.  Preloaded
    beside libasan: its interceptor of __cxa_throw binds the real one when
    it starts, and finds none unless libstdc++ is loaded by then, so the
    first C++ exception, even one torch throws and catches itself (as
    `operator.index(torch.tensor(1.5))` does), would abort the process."""
    return _compiler_file('CXX', 'c++', 'libstdc++.so.6')


def environment(library, env=None, name='address'):
    """The environment the script runs in: `env` (os.environ by default)
    with the runtime (and the C++ runtime, when there is one) preloaded and
    the options of the sanitizer `name`."""
    env = dict(os.environ if env is None else env)
    env['LD_PRELOAD'] = ' '.join(filter(None, [library, cxx_runtime(), env.get('LD_PRELOAD')]))
    for variable, options in RUNTIMES[name][1].items():
        env[variable] = ':'.join(filter(None, [options, env.get(variable)]))
    return env


def main(args):
    """python -m thffi sanitize's command (its options: thffi/__main__.py):
    replaces this process with `python ARGS` (a script and its arguments,
    or -m MODULE and its), or returns the exit status of why it cannot."""
    try:
        name = mode()
    except ValueError as exc:
        sys.stderr.write('python -m thffi sanitize: %s\n' % exc)
        return 2
    library = runtime_library(name)
    if library is None:
        package = {'address': 'libasan8', 'thread': 'libtsan2'}[name]
        sys.stderr.write('python -m thffi sanitize: the C compiler has no %s runtime (%s); '
                         'install it (Debian/Ubuntu: apt-get install %s, with gcc) or point CC '
                         'at a compiler that has one\n'
                         % ('AddressSanitizer' if name == 'address' else 'ThreadSanitizer',
                            RUNTIMES[name][0], package))
        return 1
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable] + list(args), environment(library, name=name))
