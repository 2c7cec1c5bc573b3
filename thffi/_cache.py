"""Where thffi keeps what it builds once for a user: its own objects
(builder/compile.py), its shared library, `thffi run`'s folder of shims and
its interception library; and how big it may grow.  Imports nothing of
thffi, so that any part, and `python -m thffi run` at start, may read it.

The folder is THFFI_CACHE_DIR, else thffi/ in XDG_CACHE_HOME (~/.cache).
Its parts are PARTS.  Those that can be made again on demand (thffi's
objects are compiled again, Python 2 files converted again) are bounded:
after a build stored objects, stored() keeps an estimate of their size
(ESTIMATE), and where it passes the limit trim() evicts their least
recently used entries (an entry's mtime, set again at each use: atime may
be off) down to TRIM_TO of the limit.  The limit is THFFI_CACHE_MAX_SIZE,
else the one `python -m thffi cache --max-size SIZE` wrote in the folder's
CONFIG, else DEFAULT_MAX_SIZE; 0 means none.  The other parts are paths
that what was built loads or recorded: kept, but for `python -m thffi cache
--clear`."""

import json
import os
import re
import shutil
import time

ROOT_VARIABLE = 'THFFI_CACHE_DIR'
MAX_SIZE_VARIABLE = 'THFFI_CACHE_MAX_SIZE'
DEFAULT_MAX_SIZE = 5 * 1000 ** 3
# {"max_size": bytes}, in the cache's folder (ccache's max_size).
CONFIG = 'config.json'
# {"bytes": the bounded parts' size, "measured": when it was last walked},
# grown by each build's stores, so that a store walks the cache only when
# the estimate passes the limit, or was measured MEASURE_EVERY seconds ago
# (what it does not count: Python 2 conversions, stores of processes that
# wrote it at once).
ESTIMATE = 'size.json'
MEASURE_EVERY = 24 * 3600
# Entries used in the last GRACE seconds are never evicted: those a build,
# this one or one beside it, found and has yet to copy, or just stored.
GRACE = 600
# A trim evicts down to this share of the limit, so that each later store
# does not evict again.
TRIM_TO = 0.9

# (folder, depth of its entries in it, evicted by the limit, what it holds).
PARTS = (
    ('objects', 1, True, "thffi's own compiled objects"),
    ('python2', 2, True, "Python 2 files `thffi run` converted"),
    ('lib', 1, False, "thffi's shared library: kept, what linked it loads it"),
    ('run', 1, False, "`thffi run`'s shims: kept, builds record their paths"),
    ('test-wheels', 1, False, "pip's CUDA wheels thffi's tests installed"),
)
_UNITS = {'': 1, 'k': 1000, 'm': 1000 ** 2, 'g': 1000 ** 3, 't': 1000 ** 4,
          'ki': 1024, 'mi': 1024 ** 2, 'gi': 1024 ** 3, 'ti': 1024 ** 4}


def cache_root():
    """THFFI_CACHE_DIR, else thffi/ in XDG_CACHE_HOME (~/.cache)."""
    root = os.environ.get(ROOT_VARIABLE)
    if root:
        return root
    return os.path.join(os.environ.get('XDG_CACHE_HOME') or
                        os.path.join(os.path.expanduser('~'), '.cache'), 'thffi')


def parse_size(text, origin):
    """Bytes of a size as ccache spells them: 5G, 500M, 1.5GB, 2Gi (k, M,
    G, T: powers of 1000; Ki, Mi, Gi, Ti: of 1024), a bare number in
    bytes; 0: no limit.  origin names where text came from, for the
    ValueError."""
    found = re.fullmatch(r'\s*(\d+(?:\.\d*)?)\s*([kmgt]i?)?b?\s*', str(text), re.IGNORECASE)
    if not found:
        raise ValueError('%s=%r: expected a size such as 5G, 500M, 2Gi or 0 (no limit)'
                         % (origin, text))
    return int(float(found.group(1)) * _UNITS[(found.group(2) or '').lower()])


def format_size(size):
    return '%.1f GB' % (size / 1000 ** 3) if size >= 1000 ** 3 else '%.1f MB' % (size / 1e6)


def max_size(root=None):
    """(the limit in bytes, 0 for none; where it comes from)."""
    if os.environ.get(MAX_SIZE_VARIABLE):
        return parse_size(os.environ[MAX_SIZE_VARIABLE], MAX_SIZE_VARIABLE), MAX_SIZE_VARIABLE
    config = os.path.join(root or cache_root(), CONFIG)
    try:
        with open(config) as f:
            return int(json.load(f)['max_size']), config
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_MAX_SIZE, 'the default'


def set_max_size(size, root=None):
    """Writes the limit in the cache's CONFIG."""
    _write(os.path.join(root or cache_root(), CONFIG), {'max_size': size})


def _write(path, data):
    """Writes data as JSON at path, whole, then renamed."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    partial = '%s.%d' % (path, os.getpid())
    with open(partial, 'w') as f:
        json.dump(data, f)
    os.replace(partial, path)


def used(path):
    """Marks an entry (its folder or file) used now, for the LRU order."""
    try:
        os.utime(path)
    except OSError:
        pass


def _size(entry):
    """Bytes under a scandir entry (a file or a folder), 0 for what vanished."""
    try:
        if not entry.is_dir(follow_symlinks=False):
            return entry.stat(follow_symlinks=False).st_size
        with os.scandir(entry.path) as below:
            return sum(_size(e) for e in below)
    except OSError:
        return 0


def entries(part, depth, root=None):
    """[(last use, bytes, path)] of the entries of a part."""
    level = [os.path.join(root or cache_root(), part)]
    for _ in range(depth - 1):
        level = [e.path for folder in level for e in _listing(folder)
                 if e.is_dir(follow_symlinks=False)]
    found = []
    for folder in level:
        for entry in _listing(folder):
            try:
                found.append((entry.stat(follow_symlinks=False).st_mtime, _size(entry),
                              entry.path))
            except OSError:
                pass  # removed since
    return found


def _listing(folder):
    """os.scandir's entries of folder, none where it is missing."""
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except OSError:
        return []


def usage(root=None):
    """[(part, entries, bytes, evicted by the limit, what it holds)]."""
    rows = []
    for part, depth, bounded, what in PARTS:
        found = entries(part, depth, root)
        rows.append((part, len(found), sum(size for _, size, _ in found), bounded, what))
    return rows


def _remove(path):
    """Removes path at once for every reader (renamed, then deleted):
    a build finds a whole entry or none."""
    gone = '%s.evicted%d' % (path, os.getpid())
    try:
        os.rename(path, gone)
    except OSError:
        return False  # removed by another process
    if os.path.isdir(gone) and not os.path.islink(gone):
        shutil.rmtree(gone, ignore_errors=True)
    else:
        try:
            os.remove(gone)
        except OSError:
            pass
    return True


def stored(size, root=None, now=None):
    """After a build stored `size` bytes: trim() where the estimate
    (ESTIMATE) passes the limit or is old, else the estimate grows.
    Returns what trim() evicted.  ValueError as trim()."""
    root, now = root or cache_root(), time.time() if now is None else now
    limit = max_size(root)[0]
    try:
        with open(os.path.join(root, ESTIMATE)) as f:
            estimate = json.load(f)
        total, measured = int(estimate['bytes']) + size, float(estimate['measured'])
    except (OSError, ValueError, KeyError, TypeError):
        return trim(root, now)
    if (limit and total > limit) or now - measured > MEASURE_EVERY:
        return trim(root, now)
    try:
        _write(os.path.join(root, ESTIMATE), {'bytes': total, 'measured': measured})
    except OSError:
        pass  # an unwritable cache: measured again next time
    return []


def trim(root=None, now=None):
    """Evicts the least recently used entries of the bounded parts until
    they hold TRIM_TO of the limit, when they exceed it; none used in the
    last GRACE seconds.  Writes ESTIMATE.  Returns [(path, bytes)] of the
    entries evicted.  ValueError where THFFI_CACHE_MAX_SIZE is not a size."""
    root, now = root or cache_root(), time.time() if now is None else now
    limit = max_size(root)[0]
    found = [e for part, depth, bounded, _ in PARTS if bounded for e in entries(part, depth, root)]
    total = sum(size for _, size, _ in found)
    evicted = []
    if limit and total > limit:
        for last_use, size, path in sorted(found):
            if total <= limit * TRIM_TO or last_use > now - GRACE:
                break
            if _remove(path):
                evicted.append((path, size))
            total -= size
    try:
        _write(os.path.join(root, ESTIMATE), {'bytes': total, 'measured': now})
    except OSError:
        pass
    return evicted


def clear(root=None):
    """Empties every part (CONFIG stays); returns [(part, entries, bytes)]
    of what it held."""
    root = root or cache_root()
    held = [(part, count, size) for part, count, size, _, _ in usage(root) if count]
    for part, _, _ in held:
        _remove(os.path.join(root, part))
    if os.path.isfile(os.path.join(root, ESTIMATE)):
        _remove(os.path.join(root, ESTIMATE))
    return held
