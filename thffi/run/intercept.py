"""The library `python -m thffi run` preloads into the programs its command
starts (intercept.c: a compiler started by any path or name goes to the
run folder's `thffi-compiler`).  It is compiled once a machine, by the
machine's C compiler, and kept in thffi's cache under its source's hash;
a run pays a stat for it."""

import hashlib
import os
import re
import shutil
import subprocess

from ..toolchain import compilers

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'intercept.c')
# What intercept.c reads: the program it starts for a compiler (the shim's
# path), at load.
COMPILER = 'THFFI_RUN_COMPILER'
# The shim, in the run's folder (a name no compiler has).
SHIM = 'thffi-compiler'


def library(folders):
    """(path, None): the library in the first of `folders` where it is or can be
    built, or (None, why not).  A folder whose path holds a blank or a
    colon is passed over: LD_PRELOAD splits its list there."""
    with open(SOURCE, 'rb') as f:
        digest = hashlib.sha256(f.read() + os.uname().machine.encode()).hexdigest()[:16]
    name = 'intercept-%s.so' % digest
    usable = [f for f in folders if not set(f) & set(' \t\n:')]
    for folder in usable:
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name), None
    compiler = shutil.which('cc') or shutil.which('gcc')
    if compiler is None:
        return None, 'no C compiler (cc) to build thffi/run/intercept.c'
    why = 'no folder of thffi\'s cache to build it in whose path has no blank nor colon'
    for folder in usable:
        path = os.path.join(folder, name)
        partial = '%s.%d' % (path, os.getpid())
        try:
            os.makedirs(folder, exist_ok=True)
            out = subprocess.run([compiler, '-shared', '-fPIC', '-O2', '-o', partial, SOURCE,
                                  '-ldl'], capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as exc:
            why = str(exc)
            continue
        if out.returncode != 0:
            lines = (out.stderr or out.stdout).strip().splitlines()
            return None, '%s could not compile thffi/run/intercept.c: %s' % (
                compiler, lines[0] if lines else 'exit status %d' % out.returncode)
        os.replace(partial, path)
        return path, None
    return None, why


def environment(env, library_path, folder):
    """env with the library preloaded after what LD_PRELOAD holds already
    (a sanitizer's runtime must come first) and the shim it starts named."""
    preload = [p for p in re.split(r'[:\s]+', env.get('LD_PRELOAD', '')) if p]
    env['LD_PRELOAD'] = ':'.join([p for p in preload if p != library_path] + [library_path])
    env[COMPILER] = os.path.join(folder, SHIM)
    env[compilers.ENVIRONMENT] = compilers.environment_value()
    return env
