"""The project stays on public PyTorch APIs and its library links no libtorch."""

import glob
import os
import re
import shutil
import subprocess

import pytest

from demo_support import DEMO, ROOT

PRIVATE = re.compile(r'_cdata|torch\._C|_internal')
# What reads PyTorch 0.x's own sources, which call torch._C: not a use of it.
OLD_TORCH_SOURCES = (os.path.join('tools', 'py_surface', 'extract.py'),
                     os.path.join('tests', 'py_surface_sample', ''))


def test_no_private_torch_api_in_python_sources():
    offenders = []
    for path in glob.glob(os.path.join(ROOT, '**', '*.py'), recursive=True):
        if os.path.abspath(path) == os.path.abspath(__file__):
            continue  # this file names the patterns it looks for
        if os.path.relpath(path, ROOT).startswith(OLD_TORCH_SOURCES):
            continue
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if PRIVATE.search(line):
                    offenders.append('%s:%d: %s' % (path, number, line.strip()))
    assert not offenders, '\n'.join(offenders)


@pytest.mark.skipif(shutil.which('ldd') is None, reason='ldd is not installed')
def test_library_does_not_link_libtorch():
    out = subprocess.run(['ldd', DEMO.library_path()], capture_output=True, text=True, check=True).stdout
    assert 'libc.so' in out
    assert not re.search(r'libtorch|libc10', out), out
