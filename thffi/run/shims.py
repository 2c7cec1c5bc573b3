"""The compilers `python -m thffi run` puts first on PATH: run.py writes a
script for each name that calls main(name, args).  Each applies
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
release and defaults) is kept as JSON in the run's own folder
(THFFI_RUN_STATE), removed with the run: TORCH_CUDA_ARCH_LIST or the
toolkit may differ at the next.

The shims start Python without site (-S) and run this file; it imports
site, thffi and all but os and sys only for what needs thffi's rules (nvcc,
and gcc compiling C): the gcc runs nvcc starts for its host code cost a
bare Python start (0.06 s on an idle machine), not 0.5 s of site-packages
and thffi."""

import os
import sys

# A file in each folder `thffi run` makes: the shims look for the real
# programs on PATH less the folders holding it (also a nested run's).
MARKER = '.thffi-run'
# The environment variable naming the folder of one run's probes (run.py).
STATE = 'THFFI_RUN_STATE'


def _site():
    """site-packages (where thffi's own imports are), which the shim's -S
    left out."""
    if sys.flags.no_site:
        import site
        site.main()


def real_program(name, path=None):
    """The program `name` on PATH (or `path`) less the folders `thffi run`
    made, or None."""
    for folder in (os.environ.get('PATH', '') if path is None else path).split(os.pathsep):
        program = os.path.join(folder or '.', name)
        if (not os.path.exists(os.path.join(folder or '.', MARKER)) and
                os.path.isfile(program) and os.access(program, os.X_OK)):
            return program
    return None


def _cached(key, compute):
    """compute()'s value, computed once a run: kept as JSON in the run's
    folder (written whole, then renamed, for compilers `make -j` runs at
    once); computed each time outside a run (a compiler a build recorded
    under `thffi run`, called by a later `make`)."""
    import json
    import re
    folder = os.environ.get(STATE)
    if not folder or not os.path.isdir(folder):
        return compute()
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


def nvcc(args):
    _site()
    from thffi.toolchain import cuda_toolkit as cuda
    from thffi.toolchain import nvcc as nvcc_rules
    home = cuda.find_cuda_home()
    program = real_program('nvcc') or home and os.path.join(home, 'bin', 'nvcc')
    if not program:
        sys.stderr.write('thffi run: %s\n' % cuda.missing_toolkit_message(
            'nvcc', 'run the step without nvcc'))
        return 127
    try:
        found = _cached('nvcc ' + program, lambda: {
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


def _probe(program, cc_rules):
    """What the C compiler `program` is: {'flags': [[flag, why]...] the
    -Wno-error= flags of the DIALECT_RULES its release made errors (those
    it knows), 'c23': whether it compiles C as C23 (or later) by default}."""
    import re
    import subprocess
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


def cc(name, args):
    program = real_program(name)
    if not program:
        sys.stderr.write('thffi run: %s: not found on PATH\n' % name)
        return 127
    if not _compiles_c(args):
        _exec(program, args)
    _site()
    import re
    from thffi.toolchain import cc as cc_rules
    found = _cached('cc ' + program, lambda: _probe(program, cc_rules))
    added = [(flag, why) for flag, why in found['flags'] if flag not in args]
    if found['c23'] and not any(re.match(r'--?std=', a) for a in args):
        c23 = next(rule for rule in cc_rules.DIALECT_RULES if rule.release == 'gcc 15')
        added.append(('-std=gnu11', "gcc 5's default, where " + c23.why))
    _say(name, ['adds %s (%s)' % (flag, why) for flag, why in added])
    _exec(program, [flag for flag, _ in added] + list(args))


def main(name, args):
    """The program `name`, with args."""
    if name == 'nvcc':
        return nvcc(args)
    return cc(name, args)
