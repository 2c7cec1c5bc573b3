"""Step 2 of a build: compiling what cffi does not.

thffi's own C and CUDA code (cached in the user's cache folder, shared by
every extension and every copy of thffi) and the user's .cu files are
compiled here, in parallel, before cffi compiles the module and the user's
C sources and links them all (_linking.py)."""

import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor

from . import cuda
from ._configure import (CSRC, CUSPARSE_LEGACY, HERE, INCLUDE_DIR, OWN_FILE_NAMES, BuildError,
                         Configured, python_includes)
from .cuda import describe, header_dirs
from .toolchain import cuda_api
from .toolchain import nvcc as nvcc_rules


class Compiled(Configured):
    """An extension whose compile jobs are planned: `jobs` lists
    (source, object, command, cacheable), thffi's own first."""

    def __init__(self, *args):
        super().__init__(*args)
        # (source, object, command, cacheable): compiled before cffi links.
        self.jobs = []
        for i, (src, opt) in enumerate(self.own_sources
                                       + [(s, None) for s in self.cuda_sources]):
            obj = os.path.join(self.build_dir, 'obj%d_%s.o' % (
                i, os.path.splitext(os.path.basename(src))[0]))
            command = (self._nvcc_command(src, obj, src.startswith(CSRC))
                       if src.endswith('.cu') else
                       self._cc_command(src, obj, opt.split() + self.sanitize_flags))
            self.jobs.append((src, obj, command, src.startswith(CSRC)))
        self.kwargs['extra_objects'] = self.user_objects + [job[1] for job in self.jobs]

    def _nvcc_command(self, source, obj, own, hidden=True):
        """nvcc command for a .cu file: the user's include folders and macros,
        or for thffi's own code (cached for every extension) its own
        headers and none of the user's.  hidden: its symbols stay inside
        the library (but for thffi's shared library, _shared.py).  A rescued
        source also gets the flags of the build files' command that was to
        compile it (self.meant; its -O and -std take the place of ours)."""
        host, defines = '-fPIC,-fvisibility=hidden' if hidden else '-fPIC', []
        if own:
            includes = [INCLUDE_DIR, CSRC, os.path.join(self.cuda_home, 'include')]
            host += ',' + OWN_FILE_NAMES
        else:
            # CUDA's headers too where the build is not with_cuda (objects
            # make.sh was to build): pip's wheels' are not where nvcc looks.
            includes = self.kwargs['include_dirs'] + [
                d for d in header_dirs(self.cuda_home) if d not in self.kwargs['include_dirs']]
            for macro in self.kwargs.get('define_macros', []):
                name, value = (macro, None) if isinstance(macro, str) else macro
                defines.append('-D%s' % name if value is None else '-D%s=%s' % (name, value))
        flags = self._meant_flags(source)[0] or self.arch_flags
        ours = ([] if any(re.fullmatch(r'-O\d?|--optimize(=.*)?', f) for f in flags) else ['-O3'])
        ours += [] if any(re.fullmatch(r'--?std(=.*)?', f) for f in flags) else ['-std=c++17']
        return ([self.nvcc, '-c', source, '-o', obj, '-MD', '-MF', obj[:-2] + '.d'] + ours
                + ['-Xcompiler', host,
                   # compile the architectures in parallel
                   '--threads', '0']
                + ['-I' + d for d in includes] + defines + flags + self.nvcc_args)

    def _meant_flags(self, source):
        """(flags, [toolchain.nvcc.Change]): for a rescued .cu file whose
        command the build files hold, that command's flags (carried_flags)
        made today's, this build's architectures in place of its own; else
        ([], [])."""
        meant = self.meant.get(source)
        if not meant:
            return [], []
        _, command, cwd = meant
        return nvcc_rules.modernize(nvcc_rules.carried_flags(command.args, cwd),
                                    self.arch_flags, always=True)

    def _rescue_line(self, source, obj):
        """The line saying what is rebuilt, why, and with which command."""
        line = ('thffi: %s (extra_objects) %s: compiling %s with nvcc for architectures %s '
                'instead' % (self._display(obj), self.rescue_reasons[source],
                             self._display(source), self.arch_spec))
        meant = self.meant.get(source)
        if not meant:
            return line
        flags, changes = self._meant_flags(source)
        shown = shlex.join('-I' + self._display(f[2:]) if f.startswith('-I/') else
                           self._display(f) if os.path.isabs(f) else f for f in flags)
        return line + ', with its flags: %s%s' % (shown, ''.join(
                ' [%s %s]' % (c.old, 'became ' + c.new if c.new else 'left out')
                for c in changes))

    def _cc_command(self, source, obj, flags, hidden=True):
        """gcc (g++ for .cpp) command for one of thffi's own files.  Its C
        stays C (C linkage, which the generated module and the user's code
        declare) when CC names a C++ compiler, as in `CC=g++ python
        build.py`, which compiled the user's C sources as C++."""
        cxx = source.endswith('.cpp')
        cc = shlex.split(os.environ.get('CXX' if cxx else 'CC')
                         or sysconfig.get_config_var('CXX' if cxx else 'CC')
                         or ('c++' if cxx else 'cc'))
        if not cxx and os.path.basename(cc[0]).endswith('++'):
            cc = cc + ['-x', 'c']
        includes = [INCLUDE_DIR, CSRC] + python_includes()
        if self.with_cuda and os.path.basename(source) == CUSPARSE_LEGACY[0]:
            # cusparse.h, which may be in pip's wheels alone (the other
            # files do without it: their cached objects stay the same
            # whatever wheels are installed)
            includes += header_dirs(self.cuda_home)
        elif self.with_cuda:
            includes.append(os.path.join(self.cuda_home, 'include'))
        return (cc + ['-c', source, '-o', obj, '-MMD', '-MF', obj[:-2] + '.d'] + flags
                + ['-std=c++11' if cxx else '-std=c99', '-fPIC']
                + (['-fvisibility=hidden'] if hidden else []) + ['-Wall', OWN_FILE_NAMES]
                + ['-I' + d for d in includes])

    def _compile_objects(self):
        """Compiles thffi's own code and the .cu sources, in parallel.  thffi's
        objects come from the cache when it has them.  Verbose, it prints the
        commands of the user's sources, as legacy verbose=True did, and one
        line for thffi's own objects (and one before they start, when
        compiling them takes long)."""
        try:
            cache = {job[1]: _cached_object(job[2], job[1]) for job in self.jobs if job[3]}
        except FileNotFoundError as exc:  # the cache key reads the compiler's binary
            raise BuildError(_missing_compiler(exc.filename)) from None
        # What a make.sh step failed to build, or an old toolkit built,
        # comes first: the lines above it (make.sh's) are where it failed.
        for source, obj in self.rescued.items():
            print(self._rescue_line(source, obj))
        fresh = [job for job in self.jobs if job[3] and not cache[job[1]].present()]
        if self.verbose and getattr(self, 'cuda_toolkit', None):
            print('thffi: building %s with %s' % (self.name, describe(self.cuda_toolkit)))
        if self.verbose and any(job[0].endswith('.cu') for job in fresh):
            print('thffi: compiling thffi\'s own CUDA kernels for architectures %s (from %s): '
                  'a few seconds an architecture, once; later builds take them from the cache'
                  % (self.arch_spec, self.arch_source))

        def run(job):
            """The compiler's result (a blank one for an object from the cache)."""
            src, obj, command, cacheable = job
            try:
                if cacheable and cache[obj].fetch():
                    return subprocess.CompletedProcess(command, 0, '', '')
                result = subprocess.run(command, capture_output=True, text=True)
            except FileNotFoundError:
                raise BuildError(_missing_compiler(command[0])) from None
            if cacheable and result.returncode == 0:
                cache[obj].store()
            return result

        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(run, self.jobs))
        for (src, _, command, own), result in zip(self.jobs, results):
            if self.verbose and not own:
                print(shlex.join(command))
            sys.stderr.write(result.stderr if result.returncode else '')
            if self.verbose:
                sys.stdout.write(result.stdout)
            if result.returncode != 0 and src in self.rescued:
                obj = self.rescued[src]
                raise BuildError(
                    'building %s failed: extra_objects names %s, which %s; thffi compiled %s with '
                    'nvcc for %s (its include folders and macros, -Xcompiler -fPIC) instead, and '
                    'nvcc failed: its output is above%s'
                    % (self.name, self._display(obj), 'an old CUDA toolkit built'
                       if os.path.exists(obj) else 'a make.sh step was to compile and did not',
                       self._display(src), self.arch_spec, self._explained(result.stderr)))
            if result.returncode != 0:
                raise BuildError('building %s failed: %s could not compile %s (its output '
                                 'is above)%s' % (self.name, os.path.basename(command[0]), src,
                                                  self._explained(result.stderr)))
        if self.verbose and self.shared_library:
            print('thffi: its own TH code: in %s, shared with the libraries the build links'
                  % self.shared_library)
        elif self.verbose:
            archs = (', CUDA architectures %s from %s' % (self.arch_spec, self.arch_source)
                     if self.with_cuda else '')
            print('thffi: its own TH%s code: %s%d objects from the cache (%s)%s'
                  % ('/THC' if self.with_cuda else '',
                     '%d compiled in %.1f s, ' % (len(fresh), time.perf_counter() - start)
                     if fresh else '', len(cache) - len(fresh), cache_root(), archs))

    def _explained(self, output):
        """What a compiler's failed output says of CUDA names today's toolkit
        removed or lacks (toolchain/cuda_api.py), as lines to append to the
        error; '' when it says nothing of them."""
        home = getattr(self, 'cuda_home', None) or cuda.find_cuda_home()
        lines = cuda_api.explain(output, home, home and cuda_api.toolkit_version(home))
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
            write_atomic(deps, f.read().replace('<thffi>', HERE))
        return True

    def store(self):
        (obj, cached_obj), (deps, cached_deps) = self._pairs()
        try:
            os.makedirs(self.folder, exist_ok=True)
            tmp = '%s.tmp%d' % (cached_obj, os.getpid())
            shutil.copyfile(obj, tmp)
            os.replace(tmp, cached_obj)
            with open(deps) as f:
                write_atomic(cached_deps, f.read().replace(HERE, '<thffi>'))
        except OSError:
            pass  # an unwritable cache only costs time


def cache_root():
    root = os.environ.get('THFFI_CACHE_DIR')
    if root:
        return root
    return os.path.join(os.environ.get('XDG_CACHE_HOME') or
                        os.path.join(os.path.expanduser('~'), '.cache'), 'thffi')


def _cached_object(command, obj):
    """The cache entry for a compiler command, keyed by the command (less its
    output paths), the compiler binary, and every file of thffi's C code."""
    compiler = os.path.realpath(shutil.which(command[0]) or command[0])
    stat = os.stat(compiler)
    own = sorted(glob.glob(os.path.join(HERE, 'include', '**', '*'), recursive=True)
                 + glob.glob(os.path.join(CSRC, '**', '*'), recursive=True))
    # Where thffi lies does not matter: a copy elsewhere shares the entry.
    key = json.dumps({
        'command': [a.replace(HERE, '<thffi>') for a in command[1:]
                    if a not in (obj, obj[:-2] + '.d')],
        'compiler': [compiler, stat.st_size, stat.st_mtime_ns],
        'thffi': [(os.path.relpath(p, HERE), digest(p)) for p in own if os.path.isfile(p)],
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
