"""thffi's shared TH library (libthffi-<version>.so) named by a build the
ways 2018's builds named libATen or libTH: by path in extra_objects or
extra_link_args (FindPyTorch's TORCH_LIBRARIES were paths), in `libraries`
with library_dirs, or by the flags `python -m thffi --libs` prints; built
by ffi.build() or by setuptools from ffi.distutils_extension().  However
it is named, the extension links it instead of holding thffi's TH/THC code:
the library calls the module's callbacks (_thffi_cuda_memory_cb), and one
error state serves both, so a THError in a static library built apart
(lib/libscaler.a, ours in the 2018 idiom) ends the call with a
RuntimeError."""

import os
import subprocess
import sys

import pytest

from support import SCALER_C, hooked_env, write_files
from thffi import create_extension
from thffi.builder import BuildError, configure, shared_library
from thffi.toolchain import cuda_toolkit

needs_toolkit = pytest.mark.skipif(cuda_toolkit.find_cuda_home() is None,
                                   reason='no CUDA toolkit (nvcc) installed')

SCALER_FILES = {
    'lib/scaler.c': SCALER_C,
    'lib/Makefile': '''\
        PYTHON ?= python
        THFFI_INCLUDES := $(shell $(PYTHON) -m thffi --includes)

        libscaler.a: scaler.o
        \tar rcs $@ $^

        scaler.o: scaler.c
        \tgcc -c -fPIC -O2 $(THFFI_INCLUDES) -o $@ $<
        ''',
    'src/scale.h': 'int scale_twice(THFloatTensor *t, float factor);\n',
    'src/scale.c': '''\
        #include <TH/TH.h>
        int scaler_apply(THFloatTensor *t, float factor);

        int scale_twice(THFloatTensor *t, float factor)
        {
            scaler_apply(t, factor);
            return scaler_apply(t, factor);
        }
        ''',
    # THFFI_LIBRARY: the path FindTHFFI.cmake put in CMake's cache, as
    # FindPyTorch put libATen's; THFFI_LIBS: `python -m thffi --libs`.
    'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        THFFI_LIBRARY = os.environ['THFFI_LIBRARY']
        THFFI_LIBS = os.environ['THFFI_LIBS'].split()
        ffi = create_extension('_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
                               %s,
                               with_cuda=os.environ['WITH_CUDA'] == '1', relative_to=__file__)
        if __name__ == '__main__':
            ffi.build()
        ''',
    'setup.py': '''\
        from setuptools import setup
        from build import ffi

        setup(name='scale', version='0.1', ext_modules=[ffi.distutils_extension()])
        ''',
    'check.py': '''\
        import torch
        from _ext import scale

        t = torch.ones(3)
        print(scale.scale_twice(t, 2.0), t.tolist())
        try:
            scale.scale_twice(t, -1.0)
        except RuntimeError as exc:
            print('error:', str(exc).split(' at ')[0])
        ''',
}
NAMED = {
    'by path in extra_objects': "extra_objects=['lib/libscaler.a', THFFI_LIBRARY]",
    'by path in extra_link_args': "extra_objects=['lib/libscaler.a'], "
                                  "extra_link_args=[THFFI_LIBRARY]",
    'in libraries': "extra_objects=['lib/libscaler.a'], "
                    "libraries=[os.path.basename(THFFI_LIBRARY)[3:-3]], "
                    "library_dirs=[os.path.dirname(THFFI_LIBRARY)]",
    'by --libs flags': "extra_objects=['lib/libscaler.a'], extra_link_args=THFFI_LIBS",
}


@pytest.mark.parametrize('named', sorted(NAMED))
def test_every_way_of_naming_it_finds_it(tmp_path, named):
    """configure's reading of the link's arguments, each form alone: the
    arguments build.py passes (NAMED's text, evaluated as it is there)."""
    path = shared_library.library(False)
    kwargs = eval('dict(%s)' % NAMED[named], {'os': os, 'THFFI_LIBRARY': path,
                                             'THFFI_LIBS': shared_library.link_flags(path)})
    assert configure._named_libraries(kwargs.get('extra_objects', []), kwargs) == [path]


def _build(folder, named, route, with_cuda):
    """lib/libscaler.a made, then the extension built by `route`, thffi's
    library named as `named` says; the library built."""
    write_files(folder, dict(SCALER_FILES, **{
        'build.py': SCALER_FILES['build.py'] % NAMED[named]}))
    path = shared_library.library(with_cuda)
    env = dict(hooked_env(folder), PYTHON=sys.executable, THFFI_LIBRARY=path,
               THFFI_LIBS=' '.join(shared_library.link_flags(path)),
               WITH_CUDA='1' if with_cuda else '0')
    subprocess.run(['make', '-s', '-C', 'lib'], cwd=folder, env=env, check=True)
    # Built, then imported and called in the same process (one import of
    # torch, 8 s on a loaded machine).
    script = (['setup.py', 'build_ext', '--inplace'] if route == 'distutils_extension'
              else ['build.py'])
    ran = subprocess.run([sys.executable, '-c', 'import runpy, sys\nsys.argv = %r\n'
                          'runpy.run_path(sys.argv[0], run_name="__main__")\n'
                          'runpy.run_path("check.py")' % script], cwd=folder, env=env,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.splitlines()[-2:] == [
        '3 [4.0, 4.0, 4.0]', 'error: scale_twice: scaler: negative factor -1.000000']
    library = next(folder.glob('_scale*.so' if route == 'distutils_extension'
                               else '_ext/scale/_scale*.so'))
    needed = subprocess.run(['readelf', '-d', str(library)], capture_output=True,
                            text=True).stdout
    assert '[%s]' % os.path.basename(path) in needed
    return subprocess.run(['nm', '-D', str(library)], capture_output=True, text=True).stdout


@needs_toolkit
@pytest.mark.parametrize('named, route', [('by path in extra_objects', 'distutils_extension'),
                                          ('in libraries', 'build')])
def test_the_th_thc_library_named_links_and_loads(tmp_path, named, route):
    """Where the extension held its own THC code beside the library named,
    the library's call of the module's allocator callback found nothing:
    `undefined symbol: _thffi_cuda_memory_cb` at import (a BuildError from
    build())."""
    symbols = _build(tmp_path, named, route, True)
    assert ' T _thffi_cuda_memory_cb\n' in symbols  # the module's, for the library
    assert ' U THFloatTensor_data\n' in symbols  # the library's, not a copy


def test_the_th_library_named_is_the_one_copy_of_th(tmp_path):
    symbols = _build(tmp_path, 'by path in extra_link_args', 'distutils_extension', False)
    assert ' U THFloatTensor_data\n' in symbols


def _write_scale(folder):
    write_files(folder, {name: SCALER_FILES[name] for name in ('lib/scaler.c', 'src/scale.h',
                                                               'src/scale.c')})


def test_a_library_linked_by_its_path_without_runpath_finds_the_one_the_build_names(tmp_path):
    """CMake links a library by the path of thffi's and drops the RUNPATH at
    install: the extension naming that path too serves its NEEDED entry."""
    _write_scale(tmp_path)
    path = shared_library.library(False)
    subprocess.run(['gcc', '-shared', '-fPIC', '-o', 'libscaler.so', 'scaler.c', path]
                   + configure.include_flags(), cwd=tmp_path / 'lib', check=True)
    assert '[%s]' % os.path.basename(path) in subprocess.run(
        ['readelf', '-d', str(tmp_path / 'lib/libscaler.so')], capture_output=True,
        text=True).stdout
    ffi = create_extension('_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
                           extra_objects=['lib/libscaler.so', path],
                           relative_to=str(tmp_path / 'build.py'))
    assert ffi.plan.shared_library == path
    assert not [job for job in ffi.plan.jobs if job.own]  # no copy of thffi's code


@needs_toolkit
def test_the_th_only_library_named_in_a_cuda_build_is_refused(tmp_path):
    _write_scale(tmp_path)
    path = shared_library.library(False)
    with pytest.raises(BuildError, match=r"create_extension\('_ext.scale', with_cuda=True\): "
                       r"\S+libthffi-[^ ]+\.so names thffi's TH-only library, without THC; "
                       r"link the TH/THC one"):
        create_extension('_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
                         extra_link_args=[path], with_cuda=True,
                         relative_to=str(tmp_path / 'build.py'))
