"""C++ as 2018's g++ compiled it, for the g++ commands of shell scripts and
makefiles that `python -m thffi port` rewrites: as the builder and `thffi
run` decide it (toolchain/cc.py's OLD_CXX_DEFAULTS), by the compiler's own
verdict, not by a guess.

A command of g++ or c++ (by name, any version suffix) that compiles C++
sources and names no standard is asked of the installed compiler, each
source syntax-checked with the command's own -I, -D, -U and -include flags
(those written out, no variable in them) and thffi's include folders (the
TH/THC headers 2018 took from torch): where today's default refuses a
source that a 2018 default (gnu++14, then gnu++98) accepts, the command
gets that standard, and port says so.  A source not found beside the file,
or refused under every standard (a header the command's variables would
have found), leaves the command as it is: no verdict, no change.

And an nvcc command compiling a .cpp (-c) that fails as it is, with port's
flag rules applied (toolchain/nvcc.py's modernize()), and compiles with
`-x cu` (thrust's device headers, which CUDA 13's g++ side cannot
compile): as `thffi run` compiles it (toolchain/nvcc.py's AS_CUDA),
as_cuda() says so; the compile is run, into a scratch folder."""

import os
import re
import shutil
import subprocess
import tempfile

from ..toolchain import cc
from ..toolchain import cuda_toolkit as cuda
from ..toolchain import nvcc as nvcc_rules

_CXX = re.compile(r'^(?:[\w.-]*-)?(?:g\+\+|c\+\+)(?:-[\d.]+)?$')
# thffi's headers, in the layout torch.utils.ffi had (builder's include_dirs()).
_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'include')
_INCLUDES = ['-I' + os.path.join(_INCLUDE, *sub) for sub in ((), ('TH',), ('THC',))]
_KEPT = ('-I', '-D', '-U', '-include', '-isystem', '-iquote')


def _flags(words):
    """The command's -I, -D, -U and -include flags written out (no variable
    in them), joined or with their value after."""
    kept, i = [], 0
    while i < len(words):
        word = words[i]
        name = next((k for k in _KEPT if word.startswith(k)), None)
        if name is not None:
            pair = [word] if word != name else words[i:i + 2]
            if not any('$' in w or '`' in w for w in pair):
                kept += pair
            i += len(pair)
            continue
        i += 1
    return kept


def _accepts(compiler, flags, source, folder, standard=None):
    try:
        done = subprocess.run([compiler, '-fsyntax-only'] + (['-std=' + standard] if standard
                                                              else []) + flags + [source],
                              cwd=folder, capture_output=True, timeout=300)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.returncode == 0


def standard_for(words, folder):
    """(standard, why, the sources) where the g++ command `words` (its
    words as the shell or make passes them, the compiler first), run in
    folder, compiles a C++ source today's default refuses and a 2018
    default accepts; else None."""
    if not words or not _CXX.match(os.path.basename(words[0])) or cc.names_a_standard(words):
        return None
    sources = [w for w in words[1:] if not w.startswith('-') and w.endswith(cc.CXX_SUFFIXES)]
    compiler = shutil.which(words[0])
    if not sources or compiler is None or not all(os.path.isfile(os.path.join(folder, s))
                                                  for s in sources):
        return None
    flags = _flags(words[1:]) + _INCLUDES
    refused = [s for s in sources if _accepts(compiler, flags, s, folder) is False]
    if not refused:
        return None
    for standard, why in cc.OLD_CXX_DEFAULTS:
        if all(_accepts(compiler, flags, s, folder, standard) for s in refused):
            return standard, why, refused
    return None


def accepts_under(words, folder, standard):
    """Whether the g++ command `words`, run in folder, compiles its C++
    sources under standard (a command whose sources are not found: no)."""
    sources = [w for w in words[1:] if not w.startswith('-') and w.endswith(cc.CXX_SUFFIXES)]
    compiler = shutil.which(words[0])
    flags = _flags(words[1:]) + _INCLUDES
    return bool(compiler and sources) and all(
        os.path.isfile(os.path.join(folder, s)) and
        _accepts(compiler, flags, s, folder, standard) for s in sources)


# What port says where it adds cccl_legacy.h to an nvcc command (make and shell alike).
CCCL_WHY = ("what CUDA 13's thrust removed that 2018 code used (thrust::binary_function, "
            "unary_function), given back by thffi's cccl_legacy.h, as `thffi run` includes it")


class NvccOnce:
    """nvcc and its architecture flags, asked once, when a command of a build
    file needs them (nvcc()); accepted: the architectures the installed
    nvcc takes (toolchain.nvcc.accepted_architectures())."""

    def __init__(self, accepted):
        self.accepted, self._found = accepted, None

    def nvcc(self):
        if self._found is None:
            home = cuda.find_cuda_home()
            program = shutil.which('nvcc') or home and os.path.join(home, 'bin', 'nvcc')
            try:
                arch = cuda.nvcc_arch_flags()
            except (ValueError, OSError):
                arch = []
            self._found = (program, arch)
        return self._found


def as_cuda(args, folder, nvcc, arch_flags, accepted=None):
    """The C++ sources of the nvcc command args (args[0] nvcc; run in
    folder with the program nvcc) that nvcc compiles as CUDA and not as
    they are, where that is its verdict (the module docstring); else []."""
    sources = nvcc_rules.as_cuda_candidates(args)
    if not sources or not all(os.path.isfile(os.path.join(folder, s)) for s in sources):
        return []
    modern, _ = nvcc_rules.modernize(list(args), arch_flags, accepted)
    with tempfile.TemporaryDirectory(prefix='thffi-port-') as scratch:
        def compiles(more):
            command, i = [nvcc] + more, 1
            while i < len(modern):  # its output goes to the scratch folder
                if modern[i] in ('-o', '--output-file'):
                    i += 2
                    continue
                command.append(modern[i])
                i += 1
            try:
                return subprocess.run(command + ['-o', os.path.join(scratch, 'out.o')],
                                      cwd=folder, capture_output=True, timeout=600).returncode == 0
            except (OSError, subprocess.SubprocessError):
                return None
        if compiles([]) is False and compiles(nvcc_rules.AS_CUDA +
                                              ['-include', nvcc_rules.CCCL_LEGACY]):
            return sources
    return []


def finding_text(standard, why, sources):
    """What port says of the standard it wrote."""
    return '%s; now -std=%s' % (cc.old_default_line(', '.join(sources), standard, why),
                                standard)
