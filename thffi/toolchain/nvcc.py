"""nvcc's command line, then and now.

2017-2018 build files ran nvcc 8-9 with `-std=c++11`, `--expt-extended-lambda`
and architectures from sm_20 to sm_72.  CUDA 13's nvcc targets nothing older
than sm_75 ("Unsupported gpu architecture 'compute_30'"), and its
thrust/cub/libcu++ refuse C++11 and C++14 ("Thrust requires at least
C++17").  FLAG_RULES lists the options that changed; architectures are
decided against the installed nvcc (accepted_architectures()).

`modernize(args, arch_flags)` applies both to an argument vector: the
caller's replacement for old architecture flags takes the place of the
first of them (the builder passes its -gencode flags, port its
`$(python -m thffi --arch-flags)`)."""

import collections
import os
import re
import subprocess

from .. import cuda

# CUDA 13's oldest architecture: what is assumed without an nvcc to ask.
OLDEST_WITHOUT_NVCC = 75

# Options naming GPU architectures, each with its value as the next argument
# or after '='.
ARCH_OPTIONS = ('-gencode', '--generate-code', '-arch', '--gpu-architecture', '-code',
                '--gpu-code')
ARCH_NUMBER = re.compile(r'(?:sm|compute)_(\d+)')

# old: a regular expression matching one argument whole (an option with its
# value after '=' or in the same word); new: its replacement (re.sub
# template); why: what today's nvcc does with the old form.  Options whose
# value is the next argument ('-std c++11') are matched joined by '='.
Rule = collections.namedtuple('Rule', 'old new why')
FLAG_RULES = [
    Rule(r'--?std=c\+\+(?:98|03|0x|11|1y|14)', '-std=c++17',
         "CUDA 13's thrust, CUB and libcu++ need C++17 (#error Thrust requires at least "
         "C++17)"),
    Rule(r'(-Xcompiler|--compiler-options)=?(.*)-std=c\+\+(?:98|03|0x|11|1y|14)(.*)',
         r'\1=\2-std=c++17\3',
         "nvcc passes -std to the host compiler itself: an older one there breaks "
         "libstdc++'s headers"),
    Rule(r'--?expt-extended-lambda', '--extended-lambda',
         'renamed in CUDA 11 (the old name is still accepted, deprecated)'),
]
# Options whose value may be the next argument.
_VALUE_OPTIONS = ('-std', '--std', '-Xcompiler', '--compiler-options')

Change = collections.namedtuple('Change', 'old new why')


def accepted_architectures():
    """The compute capabilities the installed nvcc accepts, as numbers like
    75 (nvcc --list-gpu-arch), or None when there is no nvcc to ask."""
    home = cuda.find_cuda_home()
    if home is None:
        return None
    try:
        out = subprocess.run([os.path.join(home, 'bin', 'nvcc'), '--list-gpu-arch'],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    found = {int(n) for n in ARCH_NUMBER.findall(out.stdout)}
    return found if out.returncode == 0 and found else None


def rejected(numbers, accepted):
    """The architecture numbers among `numbers` that today's nvcc rejects:
    those not in `accepted` (accepted_architectures()), or, with no nvcc
    to ask (None), those older than OLDEST_WITHOUT_NVCC; sorted."""
    return sorted({n for n in numbers
                   if (n not in accepted if accepted else n < OLDEST_WITHOUT_NVCC)})


def modern_flag(arg):
    """(argument, Change or None): one argument under FLAG_RULES."""
    for rule in FLAG_RULES:
        if re.fullmatch(rule.old, arg):
            new = re.sub(rule.old, rule.new, arg)
            return new, Change(arg, new, rule.why)
    return arg, None


def modernize(args, arch_flags, accepted=None):
    """(new args, [Change]) for an nvcc argument vector: FLAG_RULES applied,
    and, when an architecture flag names one today's nvcc rejects (see
    rejected()), every architecture flag replaced by arch_flags (a list of
    arguments) where the first one stood."""
    args = list(args)
    out, changes, arch, numbers = [], [], [], []
    i = 0
    while i < len(args):
        name, eq, inline = args[i].partition('=')
        if name in ARCH_OPTIONS and (eq or i + 1 < len(args)):
            value = inline if eq else args[i + 1]
            found = [int(n) for n in ARCH_NUMBER.findall(value)]
            if found:
                numbers += found
                arch.append((len(out), args[i] if eq else args[i] + ' ' + value))
                out.append(None)  # a place holder, resolved below
                i += 1 if eq else 2
                continue
        if name in _VALUE_OPTIONS and not eq and i + 1 < len(args):
            new, change = modern_flag(args[i] + '=' + args[i + 1])
            if change:
                out.append(new)
                changes.append(change)
                i += 2
                continue
        new, change = modern_flag(args[i])
        out.append(new)
        changes += [change] if change else []
        i += 1
    old = rejected(numbers, accepted)
    if old:
        changes.append(Change(' '.join(flag for _, flag in arch), ' '.join(arch_flags),
                              'today\'s nvcc rejects %s' % ', '.join('sm_%d' % n for n in old)))
        out[arch[0][0]:arch[0][0] + 1] = list(arch_flags)
        return [a for a in out if a is not None], changes
    for index, flag in arch:
        out[index] = flag.split(' ')
    return [a for item in out for a in (item if isinstance(item, list) else [item])], changes
