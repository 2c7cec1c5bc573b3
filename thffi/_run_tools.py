"""The compilers `python -m thffi run` puts first on PATH: run.py writes a
script for each name that calls main(name, folder, args).  Each applies
thffi/toolchain/'s rules to its arguments, says in one line on stderr what
it changed (nothing when it changed nothing), and execs the real program,
the one on PATH less run.py's folders.

- nvcc: toolchain/nvcc.py's modernize(), the architectures today's nvcc
  rejects replaced by thffi's --arch-flags (cuda.nvcc_arch_flags()); the
  real nvcc is the next on PATH, else the toolkit's thffi builds with.
- cc, gcc compiling C: toolchain/cc.py's DIALECT_RULES that the compiler's
  release makes errors, as gcc 5 took them: each gcc 14 error a warning
  again (`-Wno-error=...`, first, so that the command's own flags win), and
  gcc 15's C23 default back to gcc 5's gnu11 where the command names no
  -std.  Other languages, preprocessing for nvcc and links go through as
  they are.

What a run asks of the machine once (the architectures, the compiler's
release and defaults) is kept in the run's folder as JSON."""

import json
import os
import re
import subprocess
import sys

from . import cuda, run
from .toolchain import cc as cc_rules, nvcc as nvcc_rules


def _cached(folder, key, compute):
    """compute()'s value, computed once a run: kept in folder as JSON
    (written whole, then renamed, for compilers `make -j` runs at once)."""
    path = os.path.join(folder, 'cache-%s.json' % re.sub(r'\W', '_', key))
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    value = compute()
    partial = '%s.%d' % (path, os.getpid())
    with open(partial, 'w') as f:
        json.dump(value, f)
    os.replace(partial, path)
    return value


def _say(name, clauses):
    if clauses:
        sys.stderr.write('thffi run: %s: %s\n' % (name, '; '.join(clauses)))


def _exec(program, args):
    sys.stderr.flush()
    os.execv(program, [program] + list(args))


def _real_nvcc():
    found = run.real_program('nvcc')
    if found:
        return found
    home = cuda.find_cuda_home()
    return home and os.path.join(home, 'bin', 'nvcc')


def nvcc(folder, args):
    program = _real_nvcc()
    if not program:
        sys.stderr.write('thffi run: %s\n' % cuda.missing_toolkit_message(
            'nvcc', 'run the step without nvcc'))
        return 127
    try:
        found = _cached(folder, 'nvcc ' + program, lambda: {
            'arch_flags': cuda.nvcc_arch_flags(),
            'accepted': sorted(nvcc_rules.accepted_architectures(program) or [])})
    except ValueError as exc:  # a TORCH_CUDA_ARCH_LIST that names no architecture
        sys.stderr.write('thffi run: nvcc: %s\n' % exc)
        return 2
    new, changes = nvcc_rules.modernize(args, found['arch_flags'], found['accepted'] or None)
    _say('nvcc', [nvcc_rules.describe(changes)] if changes else [])
    _exec(program, new)


def _compiles_c(args):
    """Whether the command compiles (or preprocesses) a C source: an input
    ending in .c, or one after `-x c`."""
    language, i = None, 0
    while i < len(args):
        arg = args[i]
        if arg == '-x' and i + 1 < len(args):
            language, i = args[i + 1], i + 2
            continue
        if arg.startswith('-x') and len(arg) > 2:
            language = arg[2:]
        elif not arg.startswith('-') and (language == 'c' or language in (None, 'none') and
                                          arg.endswith('.c')):
            return True
        elif arg in ('-o', '-MF', '-MT', '-MQ', '-include', '-I', '-D', '-U', '-L', '-l'):
            i += 1  # its value is the next argument, not an input
        i += 1
    return False


def _probe(program):
    """What the C compiler `program` is: {'flags': [[flag, why]...] the
    -Wno-error= flags of the DIALECT_RULES its release made errors (those
    it knows), 'c23': whether it compiles C as C23 (or later) by default}."""
    out = subprocess.run([program, '-dM', '-E', '-x', 'c', '-'], input='', capture_output=True,
                         text=True, timeout=60)
    macros = dict(re.findall(r'#define (\w+) (.*)', out.stdout))
    clang = '__clang__' in macros
    major = int(macros.get('__GNUC__', '0'))
    known = set(cc_rules.tolerated_errors((program,)))
    flags = []
    for rule in cc_rules.DIALECT_RULES:
        flag = '-Wno-error=%s' % rule.warning
        # clang's releases are not gcc's: every flag it knows is given.
        if rule.warning and flag in known and (clang or major >= int(rule.release.split()[1])):
            flags.append([flag, rule.why])
    version = re.match(r'\d+', macros.get('__STDC_VERSION__', '0'))
    return {'flags': flags, 'c23': int(version.group()) > 201710}


# The DIALECT_RULES row of gcc 15's C23 default (its `why`).
_C23 = next(rule for rule in cc_rules.DIALECT_RULES if rule.release == 'gcc 15')


def cc(name, folder, args):
    program = run.real_program(name)
    if not program:
        sys.stderr.write('thffi run: %s: not found on PATH\n' % name)
        return 127
    if not _compiles_c(args):
        _exec(program, args)
    found = _cached(folder, 'cc ' + program, lambda: _probe(program))
    added = [(flag, why) for flag, why in found['flags'] if flag not in args]
    if found['c23'] and not any(re.match(r'--?std=', a) for a in args):
        added.append(('-std=gnu11', "gcc 5's default, where " + _C23.why))
    _say(name, ['adds %s (%s)' % (flag, why) for flag, why in added])
    _exec(program, [flag for flag, _ in added] + list(args))


def main(name, folder, args):
    """The program `name` for run.py's folder, with args."""
    if name == 'nvcc':
        return nvcc(folder, args)
    return cc(name, folder, args)
