"""Step 2 of a build: compiling what cffi does not, compile(plan) -> objects.

thffi's own C and CUDA code (prebuilt when thffi was installed, or cached
in the user's cache folder, shared by every extension and every copy of
thffi: own_objects.py) and the user's .cu files are
compiled here, in parallel, by the commands of the plan's jobs (jobs.py),
before cffi compiles the module and the user's C sources and links them all
(link.py)."""

import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from . import command_log, last_build
from .._cache import cache_root, format_size, stored as cache_stored
from ..toolchain import cuda_toolkit as cuda
from .configure import BuildError
from .jobs import meant_flags
from .own_objects import OwnObject, prebuilt_dirs, thffi_files
from ..toolchain.cuda_toolkit import describe
from ..toolchain import cuda_api, legacy_headers, std_headers


def compile(plan, deferred=False):
    """Compiles thffi's own code and the .cu sources of plan.jobs, in
    parallel, in plan.build_dir; returns the objects made, in the jobs'
    order.  deferred: the jobs of plan.deferred only, which link() asks
    for when the link needs them; else all the others.  thffi's objects
    come from the cache or the prebuilt ones when they have them.
    Verbose, it prints the commands of the user's sources (command_log.py)
    and one line for thffi's own objects (and one before they start, when
    compiling them takes long)."""
    jobs = [job for job in plan.jobs if (job.source in plan.deferred) == deferred]
    try:
        files, prebuilt = thffi_files(), prebuilt_dirs()
        own = {job.object: OwnObject(plan, job, files, prebuilt) for job in jobs if job.own}
    except FileNotFoundError as exc:  # a key reads the compiler's binary
        raise BuildError(_missing_compiler(exc.filename)) from None
    # What a make.sh step failed to build, or an old toolkit built,
    # comes first: the lines above it (make.sh's) are where it failed.
    for source, obj in plan.rescued.items():
        if (source in plan.deferred) == deferred:
            print(_rescue_line(plan, source, obj))
    origins = {obj: entry.origin() for obj, entry in own.items()}
    fresh = [job for job in jobs if job.own and origins[job.object] is None]
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

    stored = []
    store = last_build.store(plan.target_dir)

    def run(job):
        """The compiler's result (a blank one for an object from the cache),
        or None for one of the user's the last build made (last_build.py).
        Each object made gets its record."""
        start = time.perf_counter()
        try:
            if job.own and own[job.object].fetch(origins[job.object]):
                last_build.record(job.object, job.source, [job.command], 0,
                                  own=origins[job.object])
                return subprocess.CompletedProcess(job.command, 0, '', '')
            if not job.own and last_build.reuse(store, [job.command], job.object):
                return None
            result = subprocess.run(job.command, capture_output=True, text=True)
            if result.returncode != 0 and not job.own:
                result = _with_headers(job, result)
        except FileNotFoundError:
            raise BuildError(_missing_compiler(job.command[0])) from None
        if result.returncode == 0:
            if job.own:
                stored.append(own[job.object].store())
            last_build.record(job.object, job.source, [job.command],
                              time.perf_counter() - start, own=job.own and 'compiled')
        return result

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(run, jobs))
    for job, result in zip(jobs, results):
        if result is None:
            continue
        if plan.verbose and not job.own:
            print(command_log.command(plan, job.command))
        # The user's compiler warnings show (one line a kind, but on
        # failure: command_log.summarised); thffi's own objects' do not.
        sys.stderr.write(result.stderr if result.returncode else
                         '' if job.own else command_log.summarised(result.stderr))
        sys.stderr.write(getattr(result, 'thffi_line', ''))
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
    if sum(stored):
        _trim(plan, sum(stored))
    if deferred:
        return [job.object for job in jobs]
    if plan.verbose and plan.shared_library:
        print('thffi: its own TH code: in %s, shared with the libraries the build links'
              % plan.shared_library)
    elif plan.verbose:
        archs = (', CUDA architectures %s from %s' % (plan.arch_spec, plan.arch_source)
                 if plan.with_cuda else '')
        prebuilt = [origin for origin in origins.values() if origin not in (None, 'cache')]
        print('thffi: its own TH%s code: %s%s%d objects from the cache (%s)%s'
              % ('/THC' if plan.with_cuda else '',
                 '%d compiled in %.1f s, ' % (len(fresh), time.perf_counter() - start)
                 if fresh else '',
                 '%d prebuilt (%s), ' % (len(prebuilt), ', '.join(dict.fromkeys(prebuilt)))
                 if prebuilt else '',
                 list(origins.values()).count('cache'), cache_root(), archs))
    return [job.object for job in jobs]


def _trim(plan, size):
    """Keeps the cache within its limit once this build stored `size`
    bytes of objects (_cache.py: those it stored are too recent to go)."""
    try:
        evicted = cache_stored(size)
    except ValueError as exc:
        sys.stderr.write('thffi: %s; the cache (%s) is not trimmed\n' % (exc, cache_root()))
        return
    if plan.verbose and evicted:
        print('thffi: the cache (%s) was over its limit: %d entries used least recently '
              'evicted (%s)' % (cache_root(), len(evicted),
                                format_size(sum(size for _, size in evicted))))


def _with_headers(job, result):
    """The result of a failed compile of the user's, or of the same compile
    again with the standard headers the compiler says the code forgot
    included first (toolchain/std_headers.py), where it names any and that
    compiles, with the line saying so as its `thffi_line`."""
    last = [result]

    def attempt(flags):
        last[0] = subprocess.run(job.command[:1] + flags + job.command[1:],
                                 capture_output=True, text=True)
        return last[0].returncode, last[0].stderr

    found, error, _ = std_headers.retried(result.stderr, attempt)
    if error:
        return result
    last[0].thffi_line = 'thffi: %s\n' % std_headers.line(job.source, found)
    return last[0]


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


def _missing_compiler(name):
    if 'nvcc' in os.path.basename(name):
        return ('nvcc (%s) was not found: install the CUDA toolkit, or build without CUDA '
                '(THFFI_WITH_CUDA=0)' % name)
    return ('no C compiler: %r was not found. Install one (Debian/Ubuntu: apt-get install '
            'gcc; Fedora: dnf install gcc) or point the CC environment variable at it' % name)
