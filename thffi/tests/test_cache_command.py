"""thffi's build cache (thffi/_cache.py) and `python -m thffi cache`: what
it shows, --clear, and the size limit that evicts the least recently used
objects after a build stores some, never what was used in the last
minutes nor the shared library extensions load."""

import dataclasses
import json
import os
import time

import pytest

from thffi import _cache
from thffi.__main__ import main
from thffi.builder import own_objects, shared_library
from thffi.builder.compile import compile

DAY = 24 * 3600


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own, no limit from the user."""
    monkeypatch.setenv('THFFI_CACHE_DIR', str(tmp_path / 'cache'))
    monkeypatch.delenv('THFFI_CACHE_MAX_SIZE', raising=False)
    return tmp_path / 'cache'


def _entry(folder, size, days_ago):
    """A fake object entry of `size` bytes, last used days_ago."""
    folder.mkdir(parents=True)
    (folder / 'object.o').write_bytes(b'\0' * size)
    (folder / 'object.d').write_text('')
    when = time.time() - days_ago * DAY
    os.utime(folder, (when, when))
    return folder


def _fill(cache):
    """Five objects of 100 kB used 5..1 days ago, a converted Python 2 file
    used 6 days ago, and a shared library of 1 MB not used for 30."""
    objects = {'o%d' % age: _entry(cache / 'objects' / ('o%d' % age), 100000, age)
               for age in (5, 4, 3, 2, 1)}
    (cache / 'python2' / 'ab').mkdir(parents=True)
    (cache / 'python2' / 'ab' / 'cdef').write_bytes(b'\0' * 1000)
    os.utime(cache / 'python2' / 'ab' / 'cdef', (time.time() - 6 * DAY,) * 2)
    lib = _entry(cache / 'lib' / 'k', 1000000, 30)
    return objects, lib


def test_sizes_are_read_as_ccache_reads_them():
    assert _cache.parse_size('5G', 'x') == 5 * 1000 ** 3
    assert _cache.parse_size('500M', 'x') == 500 * 1000 ** 2
    assert _cache.parse_size('1.5GB', 'x') == 1500 * 1000 ** 2
    assert _cache.parse_size('2Gi', 'x') == 2 * 1024 ** 3
    assert _cache.parse_size('250k', 'x') == 250000
    assert _cache.parse_size('4096', 'x') == 4096
    assert _cache.parse_size('0', 'x') == 0
    with pytest.raises(ValueError, match=r"THFFI_CACHE_MAX_SIZE='lots': expected a size such "
                                         r"as 5G, 500M, 2Gi or 0 \(no limit\)"):
        _cache.parse_size('lots', 'THFFI_CACHE_MAX_SIZE')


def test_cache_shows_where_it_is_and_what_each_part_holds(cache, capsys):
    _fill(cache)
    assert main(['cache']) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "thffi's build cache: %s (THFFI_CACHE_DIR sets it)" % cache
    assert out[1].split()[:4] == ['objects', '5', 'entries', '0.5']
    assert out[2].split()[:4] == ['python2', '1', 'entries', '0.0']
    assert out[3].split()[:4] == ['lib', '1', 'entries', '1.0']
    assert out[6].split() == ['total', '7', 'entries', '1.5', 'MB']
    assert out[7].startswith('max size: 5.0 GB (the default; THFFI_CACHE_MAX_SIZE')
    assert out[8] == '  for objects and python2 (0.5 MB now): the least recently used go first'


def test_the_limit_evicts_the_least_recently_used_but_the_recent_and_the_library(
        cache, monkeypatch):
    objects, lib = _fill(cache)
    fresh = _entry(cache / 'objects' / 'fresh', 100000, 0)  # a build beside this one uses it
    monkeypatch.setenv('THFFI_CACHE_MAX_SIZE', '300k')
    evicted = _cache.trim()
    # 601 kB bounded, over 300 kB: the oldest go until 270 kB (TRIM_TO) at most is left.
    assert sorted(os.path.basename(path) for path, _ in evicted) == [
        'cdef', 'o2', 'o3', 'o4', 'o5']
    assert sorted(os.listdir(cache / 'objects')) == ['fresh', 'o1']
    assert lib.is_dir()  # what linked it loads it: never evicted
    # Over the limit with only entries used in the last GRACE seconds: kept.
    monkeypatch.setenv('THFFI_CACHE_MAX_SIZE', '50k')
    assert [os.path.basename(p) for p, _ in _cache.trim()] == ['o1']
    assert _cache.trim() == []
    assert _cache.trim(now=time.time() + _cache.GRACE + 1) == [(str(fresh), 100000)]
    # 0: no limit.
    _entry(cache / 'objects' / 'o9', 100000, 9)
    monkeypatch.setenv('THFFI_CACHE_MAX_SIZE', '0')
    assert _cache.trim() == []


def test_a_store_walks_the_cache_only_when_its_estimate_passes_the_limit(cache, monkeypatch):
    _fill(cache)
    monkeypatch.setenv('THFFI_CACHE_MAX_SIZE', '1M')
    walks = []
    entries = _cache.entries
    monkeypatch.setattr(_cache, 'entries', lambda *a: walks.append(a[0]) or entries(*a))
    assert _cache.stored(1000) == [] and len(walks) == 2  # no estimate yet: measured
    estimate = json.loads((cache / _cache.ESTIMATE).read_text())
    assert estimate['bytes'] == 501000
    del walks[:]
    assert _cache.stored(100000) == [] and walks == []  # 601 kB: under 1 MB, counted
    assert json.loads((cache / _cache.ESTIMATE).read_text()) == dict(estimate, bytes=601000)
    # 1.1 MB counted: walked, and what the files hold (501 kB) is the estimate again.
    assert _cache.stored(500000) == [] and walks
    assert json.loads((cache / _cache.ESTIMATE).read_text())['bytes'] == 501000
    del walks[:]
    # Measured again a day later: what the count missed (other processes).
    assert _cache.stored(1, now=time.time() + _cache.MEASURE_EVERY + 1) == [] and walks


def test_max_size_is_kept_in_the_cache_and_trims_at_once(cache, monkeypatch, capsys):
    _fill(cache)
    assert main(['cache', '--max-size', '250k']) == 0
    out = capsys.readouterr().out
    assert json.loads((cache / 'config.json').read_text()) == {'max_size': 250000}
    assert 'thffi: evicted 4 entries used least recently (0.3 MB)' in out
    assert 'max size: 0.2 MB (%s;' % (cache / 'config.json') in out
    assert sorted(os.listdir(cache / 'objects')) == ['o1', 'o2']
    monkeypatch.setenv('THFFI_CACHE_MAX_SIZE', '1G')  # the environment wins
    assert _cache.max_size() == (1000 ** 3, 'THFFI_CACHE_MAX_SIZE')


def test_clear_empties_every_part_and_keeps_the_limit(cache, capsys):
    _fill(cache)
    _cache.set_max_size(10 ** 9)
    assert main(['cache', '--clear']) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == 'thffi: emptied the cache (%s): 7 entries, 1.5 MB' % cache
    assert out[1].startswith("thffi: what linked thffi's shared library from it")
    assert sorted(os.listdir(cache)) == ['config.json']
    assert _cache.max_size()[0] == 10 ** 9


def _one_object_plan(tmp_path, name):
    """A build of one of thffi's own objects (THCrash.c: the quickest),
    in its own build folder."""
    plan = shared_library._plan(str(tmp_path / name), False, False)
    plan = dataclasses.replace(plan, jobs=[
        job for job in plan.jobs if os.path.basename(job.source) == 'THCrash.c'])
    assert len(plan.jobs) == 1
    os.makedirs(plan.build_dir)
    return plan


def test_a_build_marks_what_it_takes_used_and_trims_after_it_stores(cache, tmp_path,
                                                                    monkeypatch, capsys):
    monkeypatch.setenv('THFFI_PREBUILT', '0')  # stored in the cache, not taken prebuilt
    old = _entry(cache / 'objects' / 'old', 100000, 10)
    compile(_one_object_plan(tmp_path, 'first'))
    entry, = [e for e in (cache / 'objects').iterdir() if e.name != 'old']
    stored = (entry / 'object.o').stat().st_mtime_ns
    # The next build takes it from the cache, and marks it used.
    os.utime(entry, (time.time() - DAY,) * 2)
    compile(_one_object_plan(tmp_path, 'again'))
    assert (entry / 'object.o').stat().st_mtime_ns == stored  # not compiled again
    assert time.time() - entry.stat().st_mtime < 60
    # Cleared, it is compiled again, and the store trims: over a 50 kB
    # limit, the old entry goes, the one just stored stays.
    assert main(['cache', '--clear']) == 0
    old = _entry(cache / 'objects' / 'old', 100000, 10)
    monkeypatch.setenv('THFFI_CACHE_MAX_SIZE', '50k')
    compile(_one_object_plan(tmp_path, 'after-clear'))
    assert not old.exists()
    assert os.listdir(cache / 'objects') == [entry.name]
    assert (entry / 'object.o').stat().st_mtime_ns > stored


def test_an_entry_evicted_between_finding_and_copying_is_compiled_instead(tmp_path,
                                                                          monkeypatch):
    # A build beside this one trimmed it after this build's origin() saw it.
    entry = own_objects.Entry(str(tmp_path / 'gone'), str(tmp_path / 'x.o'))
    monkeypatch.setattr(own_objects.Entry, 'present', lambda self: True)
    assert entry.fetch() is False
    assert not (tmp_path / 'x.o').exists()
