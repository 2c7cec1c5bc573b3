"""The compile jobs of a plan: the command that makes each object.

configure() (configure.py) lists them in the plan; compile() (compile.py)
runs them.  thffi's own C and CUDA code compiles with its own flags (and
is cached: nothing of the user's reaches its command); the user's .cu files
with the user's include folders and macros, and a rescued one with the
flags of the build files' command that was to compile it."""

import os
import re
import shlex
import shutil
import sysconfig

from .plan import Job
from ..toolchain.cuda_toolkit import header_dirs, toolkit_include_dirs
from ..toolchain import nvcc as nvcc_rules

# thffi's folder: csrc/ and include/ lie in it.
THFFI_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE_DIR = os.path.join(THFFI_DIR, 'include')
CSRC = os.path.join(THFFI_DIR, 'csrc')
# thffi's own objects are cached and shared by every copy of thffi: their
# __FILE__ is relative to csrc/, and their messages name the file in the
# thffi that built the extension (csrc/thffi_private.h).
OWN_FILE_NAMES = '-fmacro-prefix-map=%s/=' % CSRC
# What CUDA 13's CCCL removed that 2018 CUDA code used (thrust::binary_function):
# included first in each of the user's CUDA compiles.
CCCL_LEGACY = nvcc_rules.CCCL_LEGACY
# thffi's cuSPARSE legacy routines (configure decides when they are compiled
# in): the one file of thffi's that includes cusparse.h.
CUSPARSE_LEGACY_SOURCE = 'THCSparseLegacy.c'
# THC's code (configure.py adds it to a build with CUDA): its C alone
# includes CUDA's headers.  THCTensor.cu goes first: all its CUDA code, it
# takes the longest (nvcc 13, the default five architectures: 15 CPU
# seconds; all of TH's C 5-7).
THC_SOURCES = [('THCTensor.cu', None), ('THC.c', '-O2'), ('THCBlas.c', '-O2'),
               ('THCTensorCopy.c', '-O2'), ('THCMathGen.c', '-O1'), ('THCSparse.c', '-O2'),
               ('THCThreadLocal.c', '-O1')]


# A C++ compiler driver's name, and that of the C driver of its family.
# clang++ first: it holds g++.
CXX_DRIVERS = [('clang++', 'clang'), ('g++', 'gcc'), ('c++', 'cc')]


def c_driver(cc):
    """The command that compiles thffi's C, for CC's command cc: cc when it
    names a C compiler.  When CC names a C++ driver (`CC=g++ python
    build.py`, which compiled the user's C sources as C++, as distutils did
    for torch.utils.ffi), thffi's C stays C (C linkage, which the generated
    module and the user's code declare): the C driver beside it (gcc for
    g++, clang-15 for clang++-15), with CC's other words, so the object and
    its key are those of a build without CC, and the prebuilt objects serve
    it (GCC's `g++ -x c` runs the same cc1 as gcc: byte-identical
    objects); where there is none, the C++ driver told the source is C."""
    name = os.path.basename(cc[0])
    for cxx, c in CXX_DRIVERS:
        if cxx in name:
            sibling = os.path.join(os.path.dirname(cc[0]), name.replace(cxx, c))
            return [sibling] + cc[1:] if shutil.which(sibling) else cc + ['-x', 'c']
    return cc


def python_includes():
    """Where Python.h is, for thffi's THPython.c."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths['include'], paths['platinclude']]))


def jobs(plan, own):
    """[Job]: own ([(path, gcc optimisation, or None for nvcc)], thffi's
    code), then plan.cuda_sources; objects in plan.build_dir."""
    made = []
    for i, (src, opt) in enumerate(own + [(s, None) for s in plan.cuda_sources]):
        obj = os.path.join(plan.build_dir, 'obj%d_%s.o' % (
            i, os.path.splitext(os.path.basename(src))[0]))
        command = (nvcc_command(plan, src, obj, src.startswith(CSRC)) if src.endswith('.cu')
                   else cc_command(plan, src, obj, opt.split() + plan.sanitize_flags))
        made.append(Job(src, obj, command, src.startswith(CSRC)))
    return made


def nvcc_command(plan, source, obj, own, hidden=True):
    """nvcc command for a .cu file: the user's include folders and macros
    (and cccl_legacy.h, included first), or for thffi's own code (cached for every extension) its own headers
    and none of the user's.  hidden: its symbols stay inside the library
    (but for thffi's shared library, shared_library.py).  A rescued source also
    gets the flags of the build files' command that was to compile it
    (plan.meant; its -O and -std take the place of ours)."""
    host, defines = '-fPIC,-fvisibility=hidden' if hidden else '-fPIC', []
    if own:
        includes = [INCLUDE_DIR, CSRC] + toolkit_include_dirs(plan.cuda_home)
        host += ',' + OWN_FILE_NAMES
    else:
        # CUDA's headers too where the build is not with_cuda (objects
        # make.sh was to build): pip's wheels' are not where nvcc looks.
        includes = plan.kwargs['include_dirs'] + [
            d for d in header_dirs(plan.cuda_home) if d not in plan.kwargs['include_dirs']]
        for macro in plan.kwargs.get('define_macros', []):
            name, value = (macro, None) if isinstance(macro, str) else macro
            defines.append('-D%s' % name if value is None else '-D%s=%s' % (name, value))
        defines += ['-include', CCCL_LEGACY]
    flags = meant_flags(plan, source)[0] or plan.arch_flags
    ours = ([] if any(re.fullmatch(r'-O\d?|--optimize(=.*)?', f) for f in flags) else ['-O3'])
    ours += [] if any(re.fullmatch(r'--?std(=.*)?', f) for f in flags) else ['-std=c++17']
    return ([plan.nvcc, '-c', source, '-o', obj, '-MD', '-MF', obj[:-2] + '.d'] + ours
            + ['-Xcompiler', host,
               # compile the architectures in parallel
               '--threads', '0']
            + ['-I' + d for d in includes] + defines + flags + plan.nvcc_args)


def meant_flags(plan, source):
    """(flags, [toolchain.nvcc.Change]): for a rescued .cu file whose
    command the build files hold, that command's flags (carried_flags)
    made today's, this build's architectures in place of its own; else
    ([], [])."""
    meant = plan.meant.get(source)
    if not meant:
        return [], []
    _, command, cwd = meant
    return nvcc_rules.modernize(nvcc_rules.carried_flags(command.args, cwd),
                                plan.arch_flags, always=True)


def cc_command(plan, source, obj, flags, hidden=True):
    """gcc (g++ for .cpp) command for one of thffi's own files; CC (CXX)
    decides, or Python's compiler; its C with a C compiler (c_driver)."""
    cxx = source.endswith('.cpp')
    cc = shlex.split(os.environ.get('CXX' if cxx else 'CC')
                     or sysconfig.get_config_var('CXX' if cxx else 'CC')
                     or ('c++' if cxx else 'cc'))
    if not cxx:
        cc = c_driver(cc)
    includes = [INCLUDE_DIR, CSRC] + python_includes()
    if plan.with_cuda and os.path.basename(source) == CUSPARSE_LEGACY_SOURCE:
        # cusparse.h, which may be in pip's wheels alone (the other files do
        # without it: their cached objects stay the same whatever wheels are
        # installed)
        includes += header_dirs(plan.cuda_home)
        # The routines are the extension's exported names, where a library
        # built apart that it links finds them as it found cuSPARSE's (the
        # loader looks in the extension and its libraries); the names are
        # cuSPARSE's own, which today's cuSPARSE no longer defines.
        hidden = False
    elif plan.with_cuda and os.path.basename(source) in dict(THC_SOURCES):
        # TH's C (and THCxx.cpp, the C++ guard) compiles as in a build
        # without CUDA: one cached and prebuilt object for both.
        includes += toolkit_include_dirs(plan.cuda_home)
    return (cc + ['-c', source, '-o', obj, '-MMD', '-MF', obj[:-2] + '.d'] + flags
            + ['-std=c++11' if cxx else '-std=c99', '-fPIC']
            + (['-fvisibility=hidden'] if hidden else []) + ['-Wall', OWN_FILE_NAMES]
            + ['-I' + d for d in includes])
