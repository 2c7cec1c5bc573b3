"""Installing thffi builds its own objects: build(folder) -> the folder.

`pip install thffi` (setup.py) compiles thffi's TH/THC C and CUDA kernels
once, into the package's prebuilt/ folder, where every build of an
extension finds them (own_objects.py) instead of compiling them in the
user's first build: with the compiler the builds will use (CC, or Python's),
the CUDA toolkit found (when one is: cuda_enabled()), for the
architectures a build on this machine asks for (arch_list()) and the
default lists of CUDA and CPU PyTorch builds.  What the folder lacks
(another compiler, architectures, extra_nvcc_args) is compiled and cached
as before."""

import dataclasses
import json
import os
import re
import shutil
import sys
import tempfile

from ..toolchain import cuda_toolkit as cuda
from . import jobs
from .compile import compile
from .configure import (CUSPARSE_LEGACY, CXX_GUARD, TH_SOURCES, THC_SOURCES, BuildError,
                        configure)
from .jobs import CSRC
from .own_objects import ARCHS_FILE, Entry, key


def arch_spec():
    """The architectures prebuilt: those of a build here now, with both
    default lists (each architecture with PTX where one of them has it)."""
    return union_spec(cuda.DEFAULT_ARCH_LIST, cuda.NO_CUDA_TORCH_ARCH_LIST, cuda.arch_list()[0])


def union_spec(*specs):
    """'7.5;8.0', '7.5+PTX' -> '7.5+PTX;8.0' (architectures in first-seen order)."""
    ptx = {}
    for spec in specs:
        for entry in filter(None, re.split(r'[;,\s]+', spec)):
            arch, with_ptx = re.subn(r'\+PTX$', '', entry, flags=re.I)
            ptx[arch] = ptx.get(arch, False) or bool(with_ptx)
    return ';'.join(arch + ('+PTX' if with_ptx else '') for arch, with_ptx in ptx.items())


def build(folder, with_cuda=None, log=sys.stdout):
    """Compiles thffi's own objects into folder (replacing what it held):
    TH's C, the C++ guard, and with_cuda (default: cuda_enabled()) THC's C
    and kernels, with thffi's cuSPARSE legacy routines where cusparse.h is
    found.  A CUDA compile that fails (an older toolkit without one of the
    architectures) is reported and leaves TH's objects prebuilt alone.
    Returns the number of objects prebuilt."""
    with_cuda = cuda.cuda_enabled() if with_cuda is None else with_cuda
    tmp = tempfile.mkdtemp(prefix='thffi-prebuild-')
    staged = folder.rstrip(os.sep) + '.new'
    shutil.rmtree(staged, ignore_errors=True)
    try:
        made, archs = len(_compile_into(staged, tmp, False, log).jobs), {'spec': None, 'flags': []}
        if with_cuda:
            try:
                plan = _compile_into(staged, tmp, True, log)
            except BuildError as exc:
                log.write('thffi: warning: its CUDA code was not prebuilt (%s); builds with '
                          'CUDA compile it once, then take it from the cache\n' % exc)
            else:
                made, archs = made + len(plan.jobs), {'spec': plan.arch_spec,
                                                      'flags': plan.arch_flags}
        # What marks the folder as one (own_objects.prebuilt_dirs).
        with open(os.path.join(staged, ARCHS_FILE), 'w') as f:
            json.dump(archs, f)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(staged, folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(staged, ignore_errors=True)
    return made


def _compile_into(folder, tmp, with_cuda, log):
    """Compiles the objects of one configuration, stores them in folder;
    returns its plan."""
    build_dir = os.path.join(tmp, 'cuda' if with_cuda else 'c')
    os.makedirs(build_dir)
    plan = configure('_thffi_prebuilt', [], [], build_dir, False, with_cuda, False, {})
    plan = dataclasses.replace(plan, build_dir=build_dir)
    own = TH_SOURCES + CXX_GUARD
    if with_cuda:
        spec = arch_spec()
        plan = dataclasses.replace(plan, arch_spec=spec, arch_flags=cuda.arch_flags(spec))
        # TH's objects are the same with CUDA (jobs.cc_command): compiled once.
        own = THC_SOURCES + ([CUSPARSE_LEGACY] if any(
            os.path.isfile(os.path.join(d, 'cusparse.h'))
            for d in cuda.header_dirs(plan.cuda_home)) else [])
        log.write('thffi: prebuilding its CUDA code with %s for architectures %s\n'
                  % (cuda.describe(plan.cuda_toolkit), spec))
    else:
        log.write('thffi: prebuilding its TH code\n')
    plan = dataclasses.replace(plan, jobs=jobs.jobs(
        plan, [(os.path.join(CSRC, f), o) for f, o in own]))
    compile(plan)
    for job in plan.jobs:
        Entry(os.path.join(folder, 'objects', key(job.command, job.object)),
              job.object).store()
    return plan
