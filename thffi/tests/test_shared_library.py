"""thffi's shared TH library in the user's cache (builder/shared_library.py):
which cached library a build takes."""

import os
import shutil
import subprocess

from thffi.builder import shared_library
from thffi.builder.jobs import CSRC, cc_command
from thffi.builder.own_objects import cache_entry


def _exported(path):
    out = subprocess.run(['nm', '-D', '--defined-only', path], capture_output=True, text=True,
                         check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def test_a_library_linked_from_other_objects_under_the_same_keys_is_not_taken(
        tmp_path, monkeypatch):
    # A thffi that put other objects in the library (the prebuilt ones,
    # their symbols hidden) left it in the cache under the keys of the
    # objects it should have taken; a later thffi must link its own.

    # A cache of its own, seeded with the user's cache's objects (compiled
    # there first when it lacks them, as any build linking it would).
    shared_library.library(False)
    plan = shared_library._plan(str(tmp_path / 'plan'), False, False)
    for job in plan.jobs:
        entry = cache_entry(job.command, job.object).folder
        shutil.copytree(entry, str(tmp_path / 'cache' / 'objects' / os.path.basename(entry)))
    monkeypatch.setenv('THFFI_CACHE_DIR', str(tmp_path / 'cache'))
    first = shared_library.library(False)
    assert first.startswith(str(tmp_path / 'cache'))
    assert 'THFloatTensor_nElement' in _exported(first)
    assert shared_library.library(False) == first  # kept: linked once

    job = next(j for j in plan.jobs if j.source == os.path.join(CSRC, 'THTensorMeta.c'))
    entry = cache_entry(job.command, job.object)
    hidden = os.path.join(str(tmp_path), 'hidden.o')
    subprocess.run(cc_command(plan, job.source, hidden, ['-O1'], hidden=True), check=True)
    os.replace(hidden, os.path.join(entry.folder, 'object.o'))  # the same key, other bytes

    second = shared_library.library(False)
    assert second != first
    assert 'THFloatTensor_nElement' not in _exported(second)  # linked from what it holds
    assert 'THFloatTensor_nElement' in _exported(first)  # the first one is left as it was
