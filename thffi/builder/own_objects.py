"""Where each of thffi's own objects (its TH/THC C and CUDA kernels) comes
from in a build: the user's cache, else the objects prebuilt when thffi was
installed (prebuilt.py), else its compiler, whose object the cache then keeps.

Every store has one layout, `<folder>/objects/<key>/object.o` and `.d`, and
one key: the compiler command less its output paths (and less where thffi
lies; its include folders by their real paths), the compiler binary, and
the digest of every file of thffi's C code.
So any copy of thffi with the same C, built with the same compiler and
flags, shares an entry; a copy whose C differs (an edited csrc/) never does.

A prebuilt folder also holds `archs.json`, the CUDA architectures its
kernels were built for: a build that asks for some of them gets that object
(its key is the command with the folder's architectures), its fatbinary
holding the ones asked for as its own compile would, and more."""

import glob
import hashlib
import json
import os
import shutil
import urllib.parse
from importlib import metadata

from .._cache import cache_root, used
from .jobs import CSRC, THFFI_DIR

# The prebuilt folder of this copy of thffi (an installed one, or the
# folder itself after `pip install -e`); git-ignored.
PREBUILT_DIR = os.path.join(THFFI_DIR, 'prebuilt')
ARCHS_FILE = 'archs.json'
# 0 (false, no, off): builds ignore the prebuilt objects, and installing
# thffi builds none.
ENV_SWITCH = 'THFFI_PREBUILT'


def prebuilt_enabled():
    return os.environ.get(ENV_SWITCH, '').strip().lower() not in ('0', 'false', 'no', 'off')


def thffi_files():
    """[(path relative to thffi, sha256)] of thffi's C code, part of every key."""
    own = sorted(glob.glob(os.path.join(THFFI_DIR, 'include', '**', '*'), recursive=True)
                 + glob.glob(os.path.join(CSRC, '**', '*'), recursive=True))
    return [(os.path.relpath(p, THFFI_DIR), digest(p)) for p in own if os.path.isfile(p)]


def key(command, obj, files=None):
    """The entry name of an object compiled by command (files: thffi_files(),
    when the caller already read them)."""
    compiler = os.path.realpath(shutil.which(command[0]) or command[0])
    stat = os.stat(compiler)
    text = json.dumps({
        'command': [_key_arg(a) for a in command[1:] if a not in (obj, obj[:-2] + '.d')],
        'compiler': [compiler, stat.st_size, stat.st_mtime_ns],
        'thffi': thffi_files() if files is None else files,
    }, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _key_arg(arg):
    """An argument as the key reads it: thffi's folder as <thffi>, another
    include folder by its real path (the toolkit that /usr/local/cuda
    names, found as /usr/local/cuda-13.0 through the nvcc on PATH or
    CUDA_HOME, compiles the same objects: the prebuilt ones serve it)."""
    if arg.startswith('-I') and not arg.startswith('-I' + THFFI_DIR):
        arg = '-I' + os.path.realpath(arg[2:])
    return arg.replace(THFFI_DIR, '<thffi>')


def cache_entry(command, obj, files=None):
    """The user's cache entry of an object (raises FileNotFoundError when
    the compiler is missing: the key reads its binary)."""
    return Entry(os.path.join(cache_root(), 'objects', key(command, obj, files)), obj)


def prebuilt_dirs():
    """The prebuilt folders a build looks in: this copy's, then that of the
    installed distribution (a copy of thffi, in the demo's folder or one
    copied into a project, takes what an install of the same C prebuilt);
    none with THFFI_PREBUILT=0."""
    if not prebuilt_enabled():
        return []
    dirs = [PREBUILT_DIR]
    installed = _installed_prebuilt_dir()
    if installed and os.path.realpath(installed) != os.path.realpath(PREBUILT_DIR):
        dirs.append(installed)
    return [d for d in dirs if os.path.isfile(os.path.join(d, ARCHS_FILE))]


def _installed_prebuilt_dir():
    """The prebuilt folder of the installed distribution of thffi, or None:
    in site-packages, or for an editable install (`pip install -e`: PEP
    610's direct_url.json names its source folder) in that folder, which is
    the package's own (thffi/setup.py maps the package to it)."""
    try:
        dist = metadata.distribution('thffi')
    except metadata.PackageNotFoundError:
        return None
    try:
        origin = json.loads(dist.read_text('direct_url.json') or '{}')
    except ValueError:
        origin = {}
    url = origin.get('url', '')
    if origin.get('dir_info', {}).get('editable') and url.startswith('file://'):
        return os.path.join(urllib.parse.unquote(urllib.parse.urlparse(url).path), 'prebuilt')
    return os.path.abspath(str(dist.locate_file(os.path.join('thffi', 'prebuilt'))))


def read_archs(folder):
    """The nvcc -gencode flags a prebuilt folder's kernels were built for."""
    try:
        with open(os.path.join(folder, ARCHS_FILE)) as f:
            return json.load(f)['flags']
    except (OSError, ValueError, KeyError):
        return []


class OwnObject:
    """One of thffi's own objects in a build: where it comes from."""

    def __init__(self, plan, job, files, prebuilt):
        self.cache = cache_entry(job.command, job.object, files)
        self.prebuilt = []
        for folder in prebuilt:
            command = job.command
            flags = read_archs(folder)
            if job.source.endswith('.cu') and flags and set(plan.arch_flags) <= set(flags):
                command = _with_archs(command, plan.arch_flags, flags)
            self.prebuilt.append((folder, Entry(os.path.join(
                folder, 'objects', key(command, job.object, files)), job.object)))

    def origin(self):
        """'cache', the prebuilt folder it comes from, or None: compiled."""
        if self.cache.present():
            used(self.cache.folder)  # the cache's limit evicts the least recently used
            return 'cache'
        return next((folder for folder, entry in self.prebuilt if entry.present()), None)

    def fetch(self, origin):
        """Puts the object in the build folder from its origin (origin()),
        if that store still has it."""
        if origin is None:
            return False
        entry = self.cache if origin == 'cache' else dict(self.prebuilt)[origin]
        return entry.fetch()

    def store(self):
        """After its compile: kept in the user's cache; the bytes stored."""
        return self.cache.store()


def _with_archs(command, asked, flags):
    """The nvcc command with the architecture flags `flags` in place of
    those it asks for (a run of its arguments), the rest of it as it is:
    e.g. the shared library's kernels keep their symbols visible."""
    if not asked:
        return command
    for i in range(len(command) - len(asked) + 1):
        if command[i:i + len(asked)] == asked:
            return command[:i] + flags + command[i + len(asked):]
    return command


class Entry:
    """An object file and its .d file in a store.  The .d names thffi's
    files as <thffi>, and where the copy that fetches it lies once fetched."""

    def __init__(self, folder, obj):
        self.folder, self.obj = folder, obj

    def _pairs(self):
        return [(self.obj, os.path.join(self.folder, 'object.o')),
                (self.obj[:-2] + '.d', os.path.join(self.folder, 'object.d'))]

    def present(self):
        return all(os.path.isfile(stored) for _, stored in self._pairs())

    def fetch(self):
        if not self.present():
            return False
        (obj, stored_obj), (deps, stored_deps) = self._pairs()
        try:
            shutil.copyfile(stored_obj, obj)
            with open(stored_deps) as f:
                text = f.read()
        except FileNotFoundError:  # evicted since (_cache.trim): compiled instead
            return False
        write_atomic(deps, text.replace('<thffi>', THFFI_DIR))
        return True

    def store(self):
        """The bytes stored (0 where the store cannot be written)."""
        (obj, stored_obj), (deps, stored_deps) = self._pairs()
        try:
            os.makedirs(self.folder, exist_ok=True)
            tmp = '%s.tmp%d' % (stored_obj, os.getpid())
            shutil.copyfile(obj, tmp)
            os.replace(tmp, stored_obj)
            with open(deps) as f:
                text = f.read().replace(THFFI_DIR, '<thffi>')
            write_atomic(stored_deps, text)
            return os.path.getsize(stored_obj) + len(text.encode())
        except OSError:
            return 0  # an unwritable store only costs time


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
