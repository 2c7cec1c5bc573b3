"""A rebuild compiles only the sources whose command or inputs changed
(builder/last_build.py): the others' objects come from the last build, as
ninja reuses them; what a compile read is the compiler's own list (gcc
-MMD, nvcc -MD).  Each build's lines name the commands it ran and its last
line says where its time went."""

import importlib
import os
import re
import sys

import pytest

from support import write_files
from thffi import BuildError, create_extension, find_cuda_home

needs_toolkit = pytest.mark.skipif(find_cuda_home() is None, reason='no CUDA toolkit (nvcc)')

FILES = {
    'src/tiny.h': 'int answer(void);\nint kernel_size(void);\n',
    'src/value.h': '#define VALUE 42\n',
    'src/tiny.c': '''\
        #include <TH/TH.h>
        #include "value.h"
        int answer(void) { return VALUE + OFFSET; }
        ''',
    'src/other.c': 'int other(void) { return 1; }\n',
    'src/kernel.h': '#define KERNEL_SIZE 3\n',
    'src/kernel.cu': '''\
        #include "kernel.h"
        __global__ void fill(int *out) { out[threadIdx.x] = KERNEL_SIZE + OFFSET; }
        extern "C" int kernel_size(void) { return KERNEL_SIZE + OFFSET; }
        ''',
    # Without CUDA, the same function from C.
    'src/kernel.c': '#include "kernel.h"\nint kernel_size(void) { return KERNEL_SIZE + OFFSET; }\n',
}


def _build(project, capsys, cuda, offset=0):
    """Builds the project; returns (the commands' lines: {compiler, file}
    pairs of the user's sources, its last line)."""
    kernel = 'src/kernel.cu' if cuda else 'src/kernel.c'
    ffi = create_extension('_tiny.lib', headers=['src/tiny.h'],
                           sources=['src/tiny.c', 'src/other.c', kernel],
                           define_macros=[('OFFSET', str(offset))], with_cuda=cuda,
                           relative_to=str(project / 'build.py'))
    capsys.readouterr()
    assert ffi.build() is True
    out = capsys.readouterr().out
    ran = set(re.findall(r'^(\S+) -c src/(\S+)', out, re.M))
    last = [line for line in out.splitlines() if line.startswith('thffi: built')]
    return ran, last[0]


def _call(project, name):
    """Calls `name` of the package the last build wrote, imported afresh
    (each build's library is a module of its own name)."""
    for module in ('_tiny.lib', '_tiny'):
        sys.modules.pop(module, None)
    sys.path.insert(0, str(project))
    try:
        return getattr(importlib.import_module('_tiny.lib'), name)()
    finally:
        sys.path.remove(str(project))


def _compilers(ran):
    return {compiler for compiler, _ in ran}


@pytest.mark.parametrize('cuda', [False, pytest.param(True, marks=needs_toolkit)],
                         ids=['without_cuda', 'with_cuda'])
def test_a_rebuild_compiles_what_changed_alone(tmp_path, capsys, cuda):
    write_files(tmp_path, FILES)
    kernel = 'kernel.cu' if cuda else 'kernel.c'
    ran, last = _build(tmp_path, capsys, cuda)
    assert {f for _, f in ran} == {'tiny.c', 'other.c', kernel}
    assert ('nvcc', 'kernel.cu') in ran if cuda else 'nvcc' not in _compilers(ran)
    # Where its time went, once: each compiler, the link, thffi's objects.
    assert re.search(r'built _tiny\.lib in [\d.]+ s: (nvcc kernel\.cu [\d.]+ s, )?\S+ '
                     r'(tiny\.c, other\.c and kernel\.c|tiny\.c and other\.c) [\d.]+ s, the module '
                     r'[\d.]+ s, link [\d.]+ s, thffi objects \d+ (cached|prebuilt|compiled)',
                     last), last
    assert (_call(tmp_path, 'answer'), _call(tmp_path, 'kernel_size')) == (42, 3)

    # One C source edited: it alone compiles, no nvcc runs.
    (tmp_path / 'src' / 'tiny.c').write_text(
        (tmp_path / 'src' / 'tiny.c').read_text().replace('VALUE + OFFSET', 'VALUE + OFFSET + 1'))
    ran, last = _build(tmp_path, capsys, cuda)
    assert ran == {(c, 'tiny.c') for c, _ in ran} and len(ran) == 1, ran
    assert ('reused kernel.cu and other.c' if cuda else 'reused other.c and kernel.c') in last
    assert (_call(tmp_path, 'answer'), _call(tmp_path, 'kernel_size')) == (43, 3)

    # A header the kernel includes (transitively known: the compiler's
    # dependency file) edited: the kernel compiles again, the C does not.
    write_files(tmp_path, {'src/kernel.h': '#define KERNEL_SIZE 5\n'})
    ran, last = _build(tmp_path, capsys, cuda)
    assert {f for _, f in ran} == {kernel}
    assert ('nvcc' in _compilers(ran)) == cuda
    assert _call(tmp_path, 'kernel_size') == 5

    # A define changed: the commands changed, everything compiles.
    ran, last = _build(tmp_path, capsys, cuda, offset=10)
    assert {f for _, f in ran} == {'tiny.c', 'other.c', kernel}
    assert (_call(tmp_path, 'answer'), _call(tmp_path, 'kernel_size')) == (53, 15)


def test_a_failed_build_keeps_the_last_objects(tmp_path, capsys):
    """The objects of the last working library stay when a build fails (so
    does the library): the next build compiles the file fixed alone."""
    write_files(tmp_path, FILES)
    _build(tmp_path, capsys, False)
    write_files(tmp_path, {'src/tiny.c': 'int answer(void) { return oops; }\n'})
    with pytest.raises(BuildError, match='building _tiny.lib failed'):
        _build(tmp_path, capsys, False)
    assert _call(tmp_path, 'answer') == 42
    write_files(tmp_path, {'src/tiny.c': 'int answer(void) { return 7; }\n'})
    ran, last = _build(tmp_path, capsys, False)
    assert {f for _, f in ran} == {'tiny.c'}
    assert 'reused other.c and kernel.c' in last
    assert _call(tmp_path, 'answer') == 7
    # The package folder keeps this build's objects alone: three sources,
    # each an object, its dependency file and its record.
    kept = os.listdir(tmp_path / '_tiny' / 'lib' / '.thffi-objects')
    assert sorted(os.path.splitext(f)[1] for f in kept) == ['.d'] * 3 + ['.json'] * 3 + ['.o'] * 3
