"""thffi's own objects prebuilt when thffi is installed (builder/prebuilt.py)
and taken by a build instead of its compiler (builder/own_objects.py):
which builds they serve, and that a wheel of thffi carries them."""

import dataclasses
import glob
import json
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata

import pytest

from support import ROOT, write_files
from thffi import create_extension
from thffi.builder import compile as compile_step
from thffi.builder import configure, jobs, own_objects, prebuilt
from thffi.toolchain import cuda_toolkit as cuda

HOME = cuda.find_cuda_home()
NO_TOOLKIT = 'no CUDA toolkit'


def legacy_extension(folder, with_cuda=False, **kwargs):
    """A 2017-style extension whose C calls TH (as ffi-era build.py files did)."""
    write_files(folder, {'src/twice.h': 'int twice(THFloatTensor *t);\n', 'src/twice.c': '''\
        #include <TH/TH.h>
        int twice(THFloatTensor *t)
        {
          THFloatTensor_mul(t, t, 2);
          return 1;
        }
        '''})
    return create_extension('_ext.twice', headers=[str(folder / 'src/twice.h')],
                            sources=[str(folder / 'src/twice.c')], with_cuda=with_cuda,
                            relative_to=str(folder / 'build.py'), **kwargs)


def test_the_architectures_prebuilt_join_the_lists_keeping_ptx_where_one_has_it():
    assert prebuilt.union_spec('7.5;8.0', '7.5+PTX', '8.6') == '7.5+PTX;8.0;8.6'
    spec = prebuilt.arch_spec()
    wanted = set(cuda.arch_flags(cuda.DEFAULT_ARCH_LIST) + cuda.arch_flags(
        cuda.NO_CUDA_TORCH_ARCH_LIST) + cuda.arch_flags(cuda.arch_list()[0]))
    assert set(cuda.arch_flags(spec)) == wanted


@pytest.fixture(scope='module')
def th_prebuilt(tmp_path_factory):
    """A prebuilt folder of TH's objects, as installing thffi without CUDA
    makes it (compiled once for this module's builds)."""
    folder = tmp_path_factory.mktemp('install') / 'prebuilt'
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv('THFFI_CACHE_DIR', str(folder.parent / 'install-cache'))
        patch.delenv('CC', raising=False)
        made = prebuilt.build(str(folder), with_cuda=False)
    assert made == len(configure.TH_SOURCES) + len(configure.CXX_GUARD)
    assert len(glob.glob(str(folder / 'objects' / '*' / 'object.o'))) == made
    return folder


@pytest.mark.parametrize('cc', [None, 'g++'])
def test_a_cold_build_takes_the_prebuilt_objects_and_compiles_none_of_them(
        tmp_path, monkeypatch, capsys, th_prebuilt, cc):
    """Also with `CC=g++ python build.py` (the user's C compiled as C++):
    thffi's C compiles with gcc then (jobs.c_driver), the objects and keys
    of a build without CC."""
    # The user's first build, its cache empty, finds them in thffi's folder.
    monkeypatch.setattr(own_objects, 'PREBUILT_DIR', str(th_prebuilt))
    monkeypatch.setenv('THFFI_CACHE_DIR', str(tmp_path / 'user-cache'))
    if cc:
        monkeypatch.setenv('CC', cc)
    capsys.readouterr()
    ffi = legacy_extension(tmp_path / 'demo', verbose=True)
    ffi.build()
    out = capsys.readouterr().out
    line = [x for x in out.splitlines() if x.startswith('thffi: its own')]
    # With CC=g++ the user's code is C++: the C++ guard (THCxx.cpp) too.
    own = len(configure.TH_SOURCES) + (len(configure.CXX_GUARD) if cc else 0)
    assert line == ['thffi: its own TH code: %d prebuilt (%s), 0 objects from the cache (%s)'
                    % (own, th_prebuilt, tmp_path / 'user-cache')], line
    # They are not copied into the cache (it keeps what was compiled).
    assert not os.path.isdir(tmp_path / 'user-cache' / 'objects')
    ran = subprocess.run([sys.executable, '-c', 'import torch\nfrom _ext import twice\n'
                          't = torch.arange(4.)\nprint(twice.twice(t), t.tolist())'],
                         cwd=str(tmp_path / 'demo'), capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT), timeout=300)
    assert ran.stdout == '1 [0.0, 2.0, 4.0, 6.0]\n', ran.stderr


@pytest.mark.parametrize('cc, driver', [
    ('g++', ['gcc']), ('g++-12 -m64', ['gcc-12', '-m64']),
    ('/usr/bin/clang++-15', ['/usr/bin/clang-15'])])
def test_thffis_c_compiles_with_the_c_driver_beside_a_cxx_cc(tmp_path, monkeypatch, cc, driver):
    """The C driver of CC's family where it is installed, else CC told
    the source is C."""
    monkeypatch.setenv('CC', cc)
    plan = legacy_extension(tmp_path).plan
    command = next(j.command for j in plan.jobs if j.source.endswith('THGeneral.c'))
    if shutil.which(driver[0]):
        assert command[:len(driver) + 1] == driver + ['-c'], command
    else:
        assert command[:len(cc.split()) + 3] == cc.split() + ['-x', 'c', '-c'], command


def test_thffi_prebuilt_0_turns_the_prebuilt_objects_off(tmp_path, monkeypatch):
    folder = tmp_path / 'prebuilt'
    write_files(folder, {own_objects.ARCHS_FILE: '{"spec": null, "flags": []}\n'})
    monkeypatch.setattr(own_objects, 'PREBUILT_DIR', str(folder))
    assert own_objects.prebuilt_dirs()[0] == str(folder)
    monkeypatch.setenv('THFFI_PREBUILT', '0')
    assert own_objects.prebuilt_dirs() == []


@pytest.mark.parametrize('editable', [True, False])
def test_a_copy_of_thffi_finds_the_installed_distributions_prebuilt_folder(tmp_path, monkeypatch,
                                                                          editable):
    """An editable install's folder is where its direct_url.json points;
    an installed one's is in site-packages."""
    source, site = tmp_path / 'source', tmp_path / 'site'
    url = {'url': source.as_uri(), 'dir_info': {'editable': editable}}
    write_files(site, {'thffi-0.1.0.dist-info/METADATA': 'Name: thffi\nVersion: 0.1.0\n',
                       'thffi-0.1.0.dist-info/direct_url.json': json.dumps(url)})
    for folder in (source / 'prebuilt', site / 'thffi' / 'prebuilt'):
        write_files(folder, {own_objects.ARCHS_FILE: '{"spec": null, "flags": []}\n'})
    dist = metadata.PathDistribution(site / 'thffi-0.1.0.dist-info')
    monkeypatch.setattr(metadata, 'distribution', lambda name: dist)
    monkeypatch.setattr(own_objects, 'PREBUILT_DIR', str(tmp_path / 'copy' / 'prebuilt'))
    assert own_objects.prebuilt_dirs() == [
        str(source / 'prebuilt') if editable else str(site / 'thffi' / 'prebuilt')]


def test_an_edited_thffi_never_takes_objects_prebuilt_from_other_c(tmp_path):
    ffi = legacy_extension(tmp_path)
    job = next(j for j in ffi.plan.jobs if j.own)
    files = own_objects.thffi_files()
    edited = [(path, 'edited' if path.endswith('THGeneral.c') else digest)
              for path, digest in files]
    assert edited != files
    assert own_objects.key(job.command, job.object, edited) != own_objects.key(
        job.command, job.object, files)


@pytest.mark.skipif(HOME is None, reason=NO_TOOLKIT)
def test_th_objects_are_the_same_with_and_without_cuda(tmp_path):
    def keys(with_cuda):
        plan = legacy_extension(tmp_path, with_cuda).plan
        return {os.path.basename(j.source): own_objects.cache_entry(j.command, j.object).folder
                for j in plan.jobs if j.own}
    without, with_ = keys(False), keys(True)
    assert set(without) == {name for name, _ in configure.TH_SOURCES}
    assert {name: with_[name] for name in without} == without
    # THC's C alone sees CUDA's headers.
    thc = [j for j in legacy_extension(tmp_path, True).plan.jobs if j.own
           and os.path.basename(j.source) in dict(configure.THC_SOURCES)]
    assert thc and all('-I' + os.path.join(HOME, 'include') in j.command for j in thc
                       if j.source.endswith('.c'))


@pytest.mark.skipif(HOME is None, reason=NO_TOOLKIT)
def test_kernels_prebuilt_for_more_architectures_serve_a_build_asking_for_some(
        tmp_path, monkeypatch):
    folder = tmp_path / 'prebuilt'
    flags = cuda.arch_flags('7.5+PTX;8.0;9.0')
    write_files(folder, {own_objects.ARCHS_FILE: '{"spec": "7.5+PTX;8.0;9.0", "flags": %s}\n'
                         % str(flags).replace("'", '"')})
    monkeypatch.setattr(own_objects, 'PREBUILT_DIR', str(folder))
    monkeypatch.setenv('THFFI_CACHE_DIR', str(tmp_path / 'cache'))
    plan = legacy_extension(tmp_path, True).plan
    kernel = next(j for j in plan.jobs if j.source.endswith('THCTensor.cu'))
    # The object nvcc makes for the folder's architectures, as if prebuilt.
    prebuilt_command = jobs.nvcc_command(dataclasses.replace(plan, arch_flags=flags),
                                         kernel.source, kernel.object, True)
    entry = folder / 'objects' / own_objects.key(prebuilt_command, kernel.object)
    write_files(entry, {'object.o': 'kernels', 'object.d': 'x.o: <thffi>/csrc/THCTensor.cu\n'})

    def origin(spec, hidden=True):
        asked = dataclasses.replace(plan, arch_flags=cuda.arch_flags(spec))
        command = jobs.nvcc_command(asked, kernel.source, kernel.object, True, hidden)
        return own_objects.OwnObject(asked, kernel._replace(command=command),
                                     own_objects.thffi_files(),
                                     own_objects.prebuilt_dirs()).origin()
    assert origin('8.0') == origin('7.5+PTX;9.0') == str(folder)
    assert origin('8.6') is None          # not among them: compiled
    assert origin('8.0+PTX') is None      # PTX of 8.0 was not prebuilt
    # The shared TH library's kernels keep their symbols visible: the
    # prebuilt ones hide theirs (a library built apart calling
    # THCudaTensor_checkGPU would find it undefined).
    assert origin('8.0', hidden=False) is None


def _stand_in_compile(plan):
    """In place of prebuilt.py's compile: an object and a .d file for each
    job (nvcc's five architectures take minutes on CI's cores), so the
    folder holds what installing thffi stores, under the keys it stores."""
    for job in plan.jobs:
        write_files(pathlib.Path(job.object).parent, {
            os.path.basename(job.object): 'compiled by %s\n' % job.command[0],
            os.path.basename(job.object)[:-2] + '.d': '%s: %s\n' % (job.object, job.source)})


@pytest.mark.skipif(HOME is None, reason=NO_TOOLKIT)
@pytest.mark.parametrize('archs, home', [('7.5', 'found'), ('8.0;9.0', 'found'),
                                         ('7.5', 'by another path')])
def test_a_cold_build_with_cuda_for_architectures_prebuilt_compiles_none_of_thffis_objects(
        tmp_path, monkeypatch, capsys, archs, home):
    """TORCH_CUDA_ARCH_LIST naming some of the architectures prebuilt; the
    toolkit found by another path than at install (the nvcc on PATH is
    /usr/local/cuda-13.0/bin/nvcc where /usr/local/cuda was found): its
    include folders are keyed by their real paths."""
    folder = tmp_path / 'prebuilt'
    monkeypatch.setenv('THFFI_CACHE_DIR', str(tmp_path / 'install-cache'))
    monkeypatch.delenv('TORCH_CUDA_ARCH_LIST', raising=False)
    monkeypatch.setattr(prebuilt, 'compile', _stand_in_compile)
    prebuilt.build(str(folder), with_cuda=True)
    assert set(cuda.arch_flags(archs)) <= set(own_objects.read_archs(str(folder)))
    monkeypatch.setattr(own_objects, 'PREBUILT_DIR', str(folder))
    monkeypatch.setenv('THFFI_CACHE_DIR', str(tmp_path / 'user-cache'))
    monkeypatch.setenv('TORCH_CUDA_ARCH_LIST', archs)
    if home != 'found':
        link = tmp_path / 'cuda'
        link.symlink_to(HOME)
        monkeypatch.setenv('CUDA_HOME', str(link))
    ffi = legacy_extension(tmp_path / 'demo', True, verbose=True)
    assert ffi.plan.cuda_home == (HOME if home == 'found' else str(link))

    def no_compiler(command, **kwargs):
        raise AssertionError('thffi compiled one of its objects: %s' % command)
    monkeypatch.setattr(compile_step.subprocess, 'run', no_compiler)
    os.makedirs(ffi.plan.build_dir, exist_ok=True)
    capsys.readouterr()
    made = compile_step.compile(ffi.plan)
    own = [j for j in ffi.plan.jobs if j.own]
    assert {j.object for j in own} == set(made) and any(j.source.endswith('.cu') for j in own)
    assert all(open(obj).read().startswith('compiled by ') for obj in made)
    assert capsys.readouterr().out.splitlines()[-1] == (
        'thffi: its own TH/THC code: %d prebuilt (%s), 0 objects from the cache (%s), '
        'CUDA architectures %s from TORCH_CUDA_ARCH_LIST'
        % (len(own), folder, tmp_path / 'user-cache', archs))


def test_a_wheel_of_thffi_carries_its_objects_and_a_platform_tag(tmp_path):
    """`pip wheel ./thffi` (from a copy, as pip builds in the source folder;
    without CUDA here: THFFI_WITH_CUDA=0)."""
    source = tmp_path / 'thffi-source'
    shutil.copytree(os.path.join(ROOT, 'thffi'), source, ignore=shutil.ignore_patterns(
        'build', '*.egg-info', '__pycache__', 'prebuilt'))
    env = dict(os.environ, THFFI_WITH_CUDA='0', THFFI_CACHE_DIR=str(tmp_path / 'cache'))
    built = subprocess.run([sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps',
                            '--no-build-isolation', '-w', str(tmp_path / 'wheels'),
                            str(source)], env=env, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    [wheel] = glob.glob(str(tmp_path / 'wheels' / 'thffi-*.whl'))
    assert not wheel.endswith('-none-any.whl'), wheel
    names = zipfile.ZipFile(wheel).namelist()
    objects = [n for n in names if n.startswith('thffi/prebuilt/objects/')]
    assert 'thffi/prebuilt/archs.json' in names
    assert len(objects) == 2 * (len(configure.TH_SOURCES) + len(configure.CXX_GUARD))
