"""The user's objects of the last build, reused by the next: a rebuild
compiles only the sources whose command or inputs changed, as ninja does;
and where a build's time went, in one line.

Every compile of a build leaves a record beside its object in the build
folder, `<object>.json`: its source, its compiler and its seconds; for
thffi's own objects where they came from (own_objects.py caches them);
for the user's code (the C and C++ sources cffi's compiler compiles,
configure.compile_by_language, and the .cu files, compile.py) its key and
the files it read.  The key is the command less its output paths, with the
compilers it runs (path, size and time of each binary: a new gcc or CUDA
toolkit is a new key) and the environment variables they read.  The files
it read are the compiler's own list, its dependency file (gcc -MMD, nvcc
-MD: the source and what it includes, transitively), each with its sha256.

A successful build's install (install.py) keeps the objects of the user's
sources and their records in `<package folder>/.thffi-objects/`, named by
key, and drops the rest.  A compile whose key is there, every file it read
unchanged, copies that object and its dependency file (which the manifest
reads) instead of running.  A failed build keeps nothing: the objects of
the last working library stay, as the library does."""

import hashlib
import json
import os
import shutil

from .own_objects import digest, write_atomic

STORE = '.thffi-objects'
# What gcc and nvcc read besides their command and the files they name.
_ENVIRONMENT = ('CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH', 'NVCC_PREPEND_FLAGS',
                'NVCC_APPEND_FLAGS', 'NVCC_CCBIN')


def store(target_dir):
    """The folder keeping the last build's objects of the package folder target_dir."""
    return os.path.join(target_dir, STORE)


def key(commands, obj):
    """The key of compiling obj with `commands`: the command, and for a C++
    source that may fall back to nvcc (configure._by_verdict) that one too."""
    text = json.dumps({
        'commands': [[a for a in c if a not in (obj, obj[:-2] + '.d')] for c in commands],
        'compilers': [_identity(tool) for c in commands for tool in _compilers(c)],
        'environment': [os.environ.get(name) for name in _ENVIRONMENT],
    }, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _compilers(command):
    """The compilers a command runs: its first word, and for nvcc its host
    compiler (-ccbin's, else the gcc on PATH: nvcc --dryrun runs it)."""
    if os.path.basename(command[0]) != 'nvcc':
        return command[:1]
    named = [b for a, b in zip(command, command[1:]) if a in ('-ccbin', '--compiler-bindir')]
    return command[:1] + (named[-1:] or ['gcc'])


def _identity(tool):
    path = os.path.realpath(shutil.which(tool) or tool)
    try:
        stat = os.stat(path)
    except OSError:
        return [path]
    return [path, stat.st_size, stat.st_mtime_ns]


def reuse(folder, commands, obj):
    """Whether obj is in place without compiling it, every file it read
    unchanged: this build compiled it already with the same commands (cffi
    compiles again for a second link; the C99 inline rescue, link.py,
    rewrites its file between two), or the store `folder` holds it (then
    copied, with its dependency file and its record, marked reused)."""
    wanted = key(commands, obj)
    done = _read(obj + '.json')
    if done and done.get('key') == wanted and os.path.isfile(obj) and _unchanged(done):
        return True
    entry = os.path.join(folder, wanted)
    kept = _read(entry + '.json')
    if not kept or not _unchanged(kept):
        return False
    try:
        shutil.copyfile(entry + '.o', obj)
        shutil.copyfile(entry + '.d', obj[:-2] + '.d')
    except OSError:
        return False
    write_atomic(obj + '.json', json.dumps(dict(kept, key=wanted, seconds=0, reused=True,
                                                compiler=os.path.basename(commands[0][0]))))
    return True


def _unchanged(entry):
    return all(digest(path) == sha for path, sha in entry['deps'].items())


def record(obj, source, commands, seconds, own=None):
    """Writes the record of a compile that made obj.  own: for thffi's own
    objects, where it came from ('cache', a prebuilt folder, 'compiled');
    else the user's, keyed, with the files its dependency file names (not
    keyed where one cannot be read: nothing could tell it changed)."""
    entry = {'source': source, 'compiler': os.path.basename(commands[0][0]),
             'seconds': seconds}
    if own:
        entry['own'] = own
    else:
        deps = _dependencies(obj[:-2] + '.d')
        hashed = {path: digest(path) for path in deps or []}
        if hashed and None not in hashed.values():
            entry.update(key=key(commands, obj), deps=hashed)
    write_atomic(obj + '.json', json.dumps(entry))


def _dependencies(path):
    """The files a dependency file names, absolute (a relative one is the
    current folder's, where the compiler just ran: cffi compiles in the
    build folder), or None without one."""
    try:
        with open(path) as f:
            text = f.read().replace('\\\n', ' ')
    except OSError:
        return None
    return [os.path.abspath(p) for p in text.partition(':')[2].split()]


def records(build_dir):
    """{object: record} of the compiles of the build in build_dir."""
    found = {}
    for root, _, files in os.walk(build_dir):
        for name in files:
            if name.endswith('.o.json'):
                entry = _read(os.path.join(root, name))
                if entry:
                    found[os.path.join(root, name[:-5])] = entry
    return found


def keep(plan):
    """After a successful build: the store holds the objects of its user
    sources, and nothing else.  An unwritable store only costs time."""
    folder = store(plan.target_dir)
    ours = set(plan.sources) | set(plan.cuda_sources)
    kept = set()
    try:
        os.makedirs(folder, exist_ok=True)
        for obj, entry in records(plan.build_dir).items():
            if 'key' not in entry or entry['source'] not in ours:
                continue
            kept.add(entry['key'])
            stored = os.path.join(folder, entry['key'])
            if entry.get('reused') and os.path.isfile(stored + '.json'):
                continue
            # The record goes last: an entry without one is never taken.
            if os.path.exists(stored + '.json'):
                os.remove(stored + '.json')
            for suffix, made in (('.o', obj), ('.d', obj[:-2] + '.d')):
                shutil.copyfile(made, stored + suffix + '.tmp')
                os.replace(stored + suffix + '.tmp', stored + suffix)
            write_atomic(stored + '.json', json.dumps(
                {'source': entry['source'], 'deps': entry['deps']}, indent=1))
        for name in os.listdir(folder):
            if name.split('.')[0] not in kept:
                os.remove(os.path.join(folder, name))
    except OSError:
        pass


def spent(plan, total, compiling):
    """Where a build's time went, as words for its last line: `nvcc
    my_lib_kernel.cu 2.80 s, gcc my_lib.c 0.20 s, the module 0.60 s, link
    0.30 s, reused my_lib_cuda.c, thffi objects 28 cached`.  total: the
    build's seconds; compiling: those of compile() (thffi's objects and the
    .cu files, in parallel).  The C that cffi compiles (the user's and the
    module it generates) follows it; the rest is the link, its checks and
    the install."""
    entries = list(records(plan.build_dir).values())
    # The .cu files first (they start first), then the build's order.
    ours = {source: i for i, source in enumerate(plan.cuda_sources + plan.sources)}
    user = sorted((e for e in entries if 'own' not in e),
                  key=lambda e: ours.get(e['source'], len(ours)))
    ran = [e for e in user if not e.get('reused')]
    words = []
    mine = [e for e in ran if e['source'] in ours]
    for compiler in dict.fromkeys(e['compiler'] for e in mine):
        done = [e for e in mine if e['compiler'] == compiler]
        words.append('%s %s %.2f s' % (compiler, _names([e['source'] for e in done]),
                                       sum(e['seconds'] for e in done)))
    generated = [e for e in ran if e['source'] not in ours]
    if generated:
        words.append('%s %.2f s' % ('the module' if len(generated) == 1 else
                                    'the module and %d more' % (len(generated) - 1),
                                    sum(e['seconds'] for e in generated)))
    after = sum(e['seconds'] for e in ran if not e['source'].endswith('.cu'))
    words.append('link %.2f s' % max(0.0, total - compiling - after))
    reused = [e['source'] for e in user if e.get('reused')]
    if reused:
        words.append('reused %s' % _names(reused))
    counts = {}
    for entry in entries:
        if 'own' in entry:
            word = {'cache': 'cached', 'compiled': 'compiled'}.get(entry['own'], 'prebuilt')
            counts[word] = counts.get(word, 0) + 1
    if counts:
        words.append('thffi objects %s' % ', '.join(
            '%d %s' % (n, word) for word, n in sorted(counts.items(), key=lambda i: -i[1])))
    return ', '.join(words)


def _names(sources):
    """'my_lib.c, my_lib_cuda.c and x.cu': up to three files by name, else their number."""
    names = [os.path.basename(s) for s in sources]
    if len(names) > 3:
        return '%d files' % len(names)
    return ' and '.join([', '.join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
