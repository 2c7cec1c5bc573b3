"""Step 2 of a build: compiling what cffi does not, compile(plan) -> objects.

thffi's own C and CUDA code (cached in the user's cache folder, shared by
every extension and every copy of thffi) and the user's .cu files are
compiled here, in parallel, by the commands of the plan's jobs (jobs.py),
before cffi compiles the module and the user's C sources and links them all
(link.py)."""

import glob
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from . import command_log
from .._cache import cache_root
from ..toolchain import cuda_toolkit as cuda
from .configure import BuildError
from .jobs import CSRC, THFFI_DIR, meant_flags
from ..toolchain.cuda_toolkit import describe
from ..toolchain import cuda_api, legacy_headers


def compile(plan, deferred=False):
    """Compiles thffi's own code and the .cu sources of plan.jobs, in
    parallel, in plan.build_dir; returns the objects made, in the jobs'
    order.  deferred: the jobs of plan.deferred only, which link() asks
    for when the link needs them; else all the others.  thffi's objects
    come from the cache when it has them.  Verbose, it prints the commands
    of the user's sources (command_log.py) and one line for thffi's own objects
    (and one before they start, when compiling them takes long)."""
    jobs = [job for job in plan.jobs if (job.source in plan.deferred) == deferred]
    try:
        cache = {job.object: _cached_object(job.command, job.object)
                 for job in jobs if job.own}
    except FileNotFoundError as exc:  # the cache key reads the compiler's binary
        raise BuildError(_missing_compiler(exc.filename)) from None
    # What a make.sh step failed to build, or an old toolkit built,
    # comes first: the lines above it (make.sh's) are where it failed.
    for source, obj in plan.rescued.items():
        if (source in plan.deferred) == deferred:
            print(_rescue_line(plan, source, obj))
    fresh = [job for job in jobs if job.own and not cache[job.object].present()]
    if plan.verbose and plan.cuda_toolkit and plan.with_cuda and not deferred:
        print('thffi: building %s with %s' % (plan.name, describe(plan.cuda_toolkit)))
    elif plan.verbose and plan.cuda_toolkit and any(j.source.endswith('.cu') for j in jobs):
        # Built without CUDA, but for the .cu objects a make.sh was to build.
        print('thffi: %s is built without CUDA; its .cu objects compile with %s'
              % (plan.name, describe(plan.cuda_toolkit)))
    if plan.verbose and any(job.source.endswith('.cu') for job in fresh):
        print('thffi: compiling thffi\'s own CUDA kernels for architectures %s (from %s): '
              'a few seconds an architecture, once; later builds take them from the cache'
              % (plan.arch_spec, plan.arch_source))

    def run(job):
        """The compiler's result (a blank one for an object from the cache)."""
        try:
            if job.own and cache[job.object].fetch():
                return subprocess.CompletedProcess(job.command, 0, '', '')
            result = subprocess.run(job.command, capture_output=True, text=True)
        except FileNotFoundError:
            raise BuildError(_missing_compiler(job.command[0])) from None
        if job.own and result.returncode == 0:
            cache[job.object].store()
        return result

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(run, jobs))
    for job, result in zip(jobs, results):
        if plan.verbose and not job.own:
            print(command_log.command(plan, job.command))
        # The user's compiler warnings show (one line a kind, but on
        # failure: command_log.summarised); thffi's own objects' do not.
        sys.stderr.write(result.stderr if result.returncode else
                         '' if job.own else command_log.summarised(result.stderr))
        if plan.verbose:
            sys.stdout.write(result.stdout)
        if result.returncode != 0 and job.source in plan.rescued:
            obj = plan.rescued[job.source]
            raise BuildError(
                'building %s failed: extra_objects names %s, which %s; thffi compiled %s with '
                'nvcc for %s (its include folders and macros, -Xcompiler -fPIC) instead, and '
                'nvcc failed: its output is above%s'
                % (plan.name, plan.display(obj), 'an old CUDA toolkit built'
                   if os.path.exists(obj) else 'a make.sh step was to compile and did not',
                   plan.display(job.source), plan.arch_spec, explained(plan, result.stderr)))
        if result.returncode != 0:
            raise BuildError('building %s failed: %s could not compile %s (its output '
                             'is above)%s' % (plan.name, os.path.basename(job.command[0]),
                                              job.source, explained(plan, result.stderr)))
    if deferred:
        return [job.object for job in jobs]
    if plan.verbose and plan.shared_library:
        print('thffi: its own TH code: in %s, shared with the libraries the build links'
              % plan.shared_library)
    elif plan.verbose:
        archs = (', CUDA architectures %s from %s' % (plan.arch_spec, plan.arch_source)
                 if plan.with_cuda else '')
        print('thffi: its own TH%s code: %s%d objects from the cache (%s)%s'
              % ('/THC' if plan.with_cuda else '',
                 '%d compiled in %.1f s, ' % (len(fresh), time.perf_counter() - start)
                 if fresh else '', len(cache) - len(fresh), cache_root(), archs))
    return [job.object for job in jobs]


def _rescue_line(plan, source, obj):
    """The line saying what is rebuilt, why, and with which command."""
    line = ('thffi: %s (extra_objects) %s: compiling %s with nvcc for architectures %s '
            'instead' % (plan.display(obj), plan.rescue_reasons[source],
                         plan.display(source), plan.arch_spec))
    if not plan.meant.get(source):
        return line
    flags, changes = meant_flags(plan, source)
    shown = shlex.join('-I' + plan.display(f[2:]) if f.startswith('-I/') else
                       plan.display(f) if os.path.isabs(f) else f for f in flags)
    return line + ', with its flags: %s%s' % (shown, ''.join(
            ' [%s %s]' % (c.old, 'became ' + c.new if c.new else 'left out')
            for c in changes))


def explained(plan, output):
    """What a compiler's failed output says of headers of 2018 thffi does not
    provide (toolchain/legacy_headers.py) and of CUDA names today's toolkit
    removed or lacks (toolchain/cuda_api.py), as lines to append to the
    error; '' when it says nothing of them."""
    home = plan.cuda_home or cuda.find_cuda_home()
    lines = legacy_headers.explain(output) + cuda_api.explain(
        output, home, home and cuda_api.toolkit_version(home))
    return ''.join('\n  ' + line for line in lines)


class _CachedObject:
    """An object file of thffi's own code in the user's cache, with its .d
    file.  It changes only with thffi, the compiler and the flags, and its
    CUDA kernels take seconds per architecture to compile."""

    def __init__(self, folder, obj):
        self.folder, self.obj = folder, obj

    def _pairs(self):
        return [(self.obj, os.path.join(self.folder, 'object.o')),
                (self.obj[:-2] + '.d', os.path.join(self.folder, 'object.d'))]

    def present(self):
        return all(os.path.isfile(cached) for _, cached in self._pairs())

    def fetch(self):
        if not self.present():
            return False
        (obj, cached_obj), (deps, cached_deps) = self._pairs()
        shutil.copyfile(cached_obj, obj)
        with open(cached_deps) as f:  # the .d names thffi's files where this copy is
            write_atomic(deps, f.read().replace('<thffi>', THFFI_DIR))
        return True

    def store(self):
        (obj, cached_obj), (deps, cached_deps) = self._pairs()
        try:
            os.makedirs(self.folder, exist_ok=True)
            tmp = '%s.tmp%d' % (cached_obj, os.getpid())
            shutil.copyfile(obj, tmp)
            os.replace(tmp, cached_obj)
            with open(deps) as f:
                write_atomic(cached_deps, f.read().replace(THFFI_DIR, '<thffi>'))
        except OSError:
            pass  # an unwritable cache only costs time


def _cached_object(command, obj):
    """The cache entry for a compiler command, keyed by the command (less its
    output paths), the compiler binary, and every file of thffi's C code."""
    compiler = os.path.realpath(shutil.which(command[0]) or command[0])
    stat = os.stat(compiler)
    own = sorted(glob.glob(os.path.join(THFFI_DIR, 'include', '**', '*'), recursive=True)
                 + glob.glob(os.path.join(CSRC, '**', '*'), recursive=True))
    # Where thffi lies does not matter: a copy elsewhere shares the entry.
    key = json.dumps({
        'command': [a.replace(THFFI_DIR, '<thffi>') for a in command[1:]
                    if a not in (obj, obj[:-2] + '.d')],
        'compiler': [compiler, stat.st_size, stat.st_mtime_ns],
        'thffi': [(os.path.relpath(p, THFFI_DIR), digest(p)) for p in own if os.path.isfile(p)],
    }, sort_keys=True)
    return _CachedObject(os.path.join(cache_root(), 'objects',
                                      hashlib.sha256(key.encode()).hexdigest()[:32]), obj)


def _missing_compiler(name):
    if 'nvcc' in os.path.basename(name):
        return ('nvcc (%s) was not found: install the CUDA toolkit, or build without CUDA '
                '(THFFI_WITH_CUDA=0)' % name)
    return ('no C compiler: %r was not found. Install one (Debian/Ubuntu: apt-get install '
            'gcc; Fedora: dnf install gcc) or point the CC environment variable at it' % name)


def digest(path):
    try:
        with open(path, 'rb') as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def write_atomic(path, text):
    tmp = '%s.tmp%d' % (path, os.getpid())
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)
