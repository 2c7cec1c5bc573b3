"""CUDA from pip's wheels (thffi/toolchain/cuda_toolkit.py), on stand-in wheel folders: the
toolkit they make and where it ranks, what keeps them from being one, the
CUDA libraries a build links (in the toolkit or the wheels), the check
against PyTorch's CUDA, and cuSPARSE's header warnings.  The same with the
real wheels, downloaded: test_pip_cuda.py."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, load_build_script, only_these_cuda_wheels, only_these_cuda_wheels_env
from thffi import BuildError, create_extension
from thffi.builder.binaries import dynamic_section
from thffi.toolchain import cuda_toolkit as cuda

NVCC_WHEELS = ('nvidia-cuda-nvcc', 'nvidia-cuda-crt', 'nvidia-nvvm', 'nvidia-cuda-runtime')


def _touch(path, text=''):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _runtime_header(version):
    major, minor = (int(n) for n in version.split('.')[:2])
    return '#define CUDART_VERSION %d\n' % (major * 1000 + minor * 10)


def fake_wheels(site, version='13.5.37', wheels=NVCC_WHEELS, libraries=('cudart.so.13',),
                versions=None):
    """Lays out pip's CUDA 13 wheels in site (a site-packages folder) as
    they install: nvidia/cu13/{bin,include,lib,nvvm} and a .dist-info per
    wheel.  versions: {wheel: version} for wheels at another release.
    Returns the nvidia/cu13 folder."""
    versions = dict(versions or {})
    root = site / 'nvidia' / 'cu13'
    files = {'nvidia-cuda-nvcc': 'bin/nvcc', 'nvidia-cuda-crt': 'include/crt/host_config.h',
             'nvidia-nvvm': 'nvvm/bin/cicc', 'nvidia-cuda-runtime': 'include/cuda_runtime_api.h'}
    for wheel in wheels:
        _touch(root / files[wheel], _runtime_header(versions.get(wheel, version))
               if wheel == 'nvidia-cuda-runtime' else '')
        if wheel == 'nvidia-cuda-runtime':  # the header cuda.pathfinder looks for
            _touch(root / 'include' / 'cuda_runtime.h', '#include "cuda_runtime_api.h"\n')
        if wheel == 'nvidia-cuda-nvcc':  # an nvcc that compiles nothing
            _touch(root / files[wheel], '#!/bin/sh\nexit 1\n')
            os.chmod(root / files[wheel], 0o755)
        _touch(site / ('%s-%s.dist-info' % (wheel.replace('-', '_'),
                                            versions.get(wheel, version))) / 'METADATA',
               'Metadata-Version: 2.1\nName: %s\nVersion: %s\n'
               % (wheel, versions.get(wheel, version)))
    for library in libraries:
        _touch(root / 'lib' / ('lib' + library))
    return root


def shared_library(path, code='int thffi_stand_in;\n'):
    """A shared library built from C `code`, named by its soname as pip's
    wheels ship them (libcurand.so.10): something a linker links and a
    dynamic loader loads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(['gcc', '-shared', '-fPIC', '-x', 'c', '-', '-o', str(path),
                    '-Wl,-soname,' + path.name], input=code, text=True, check=True, timeout=60)
    return path


def fake_toolkit(folder, version='13.0', libraries=('cudart.so',)):
    """A system toolkit's layout: bin/nvcc, include/, lib64/."""
    _touch(folder / 'bin' / 'nvcc')
    _touch(folder / 'include' / 'cuda_runtime_api.h', _runtime_header(version))
    for library in libraries:
        _touch(folder / 'lib64' / ('lib' + library))
    return folder


@pytest.fixture
def site(tmp_path, monkeypatch):
    """An empty site-packages folder, the only one where thffi looks for
    pip's CUDA wheels (not the machine's, nor through cuda.pathfinder); no
    CUDA_HOME, no CUDA_PATH, PyTorch without CUDA."""
    folder = tmp_path / 'site-packages'
    folder.mkdir()
    only_these_cuda_wheels(monkeypatch, folder)
    for var in ('CUDA_HOME', 'CUDA_PATH'):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(cuda, 'torch_cuda_version', lambda: None)
    return folder


def test_pip_wheels_are_a_toolkit_after_cuda_home_and_before_the_machines(site, tmp_path,
                                                                         monkeypatch):
    root = fake_wheels(site)
    toolkit = cuda.find_toolkit()
    assert toolkit == (str(root), "pip's wheels")
    assert cuda.describe(toolkit) == "CUDA 13.5 in %s (pip's wheels)" % root
    assert cuda.library_dir(toolkit.home) == str(root / 'lib')
    # An explicit CUDA_HOME still wins, and says so.
    system = fake_toolkit(tmp_path / 'cuda-13.0')
    monkeypatch.setenv('CUDA_HOME', str(system))
    assert cuda.describe(cuda.find_toolkit()) == 'CUDA 13.0 in %s (CUDA_HOME)' % system
    # Without the wheels, the machine's toolkit: the nvcc on PATH's.
    monkeypatch.delenv('CUDA_HOME')
    (root / 'bin' / 'nvcc').unlink()
    os.chmod(system / 'bin' / 'nvcc', 0o755)
    monkeypatch.setenv('PATH', str(system / 'bin'))
    assert cuda.find_toolkit() == (str(system), 'the nvcc on PATH')


def test_pytorchs_cuda_major_decides_between_two_wheel_toolkits(site, tmp_path, monkeypatch):
    newer = fake_wheels(site)
    older_site = tmp_path / 'other-site'
    older = fake_wheels(older_site, version='13.0.88')
    os.rename(older, older.parent / 'cu12')  # a stand-in for another major
    only_these_cuda_wheels(monkeypatch, older_site, site)
    assert cuda.find_cuda_home() == str(newer)
    monkeypatch.setattr(cuda, 'torch_cuda_version', lambda: '12.8')
    assert cuda.find_cuda_home() == str(older.parent / 'cu12')


@pytest.mark.parametrize('wheels, versions, problem', [
    (NVCC_WHEELS[:2] + NVCC_WHEELS[3:], {}, 'nvidia-nvvm (it is missing)'),
    (NVCC_WHEELS[:1] + NVCC_WHEELS[3:], {}, 'nvidia-cuda-crt, nvidia-nvvm (they are missing)'),
    (NVCC_WHEELS, {'nvidia-nvvm': '13.0.88'},
     'nvidia-cuda-crt 13.5.37, nvidia-cuda-nvcc 13.5.37, nvidia-nvvm 13.0.88 at different '
     'releases (nvcc needs them at one)'),
])
def test_incomplete_or_mixed_wheels_are_no_toolkit_and_the_message_says_why(
        site, monkeypatch, wheels, versions, problem):
    root = fake_wheels(site, wheels=wheels, versions=versions)
    assert cuda.wheel_problems(str(root)) == [problem]
    assert cuda.find_cuda_home() != str(root)
    monkeypatch.setenv('CUDA_HOME', str(site / 'none'))
    message = cuda.missing_toolkit_message('create_extension(\'x\', with_cuda=True)')
    assert ("pip's wheels in %s lack %s; pip install 'thffi[cuda]' brings CUDA 13's). "
            "Install the CUDA toolkit or set CUDA_HOME" % (root, problem)) in message


def test_a_toolkit_with_every_header_of_the_wheels_takes_none_of_their_folders(
        site, tmp_path, monkeypatch):
    """Then which wheels the installed PyTorch brought does not change the
    build's settings (and so does not make it rebuild)."""
    wheels = fake_wheels(site)
    system = fake_toolkit(tmp_path / 'cuda')
    for name in os.listdir(wheels / 'include'):
        if (wheels / 'include' / name).is_dir():
            (system / 'include' / name).mkdir(exist_ok=True)
        else:
            _touch(system / 'include' / name)
    monkeypatch.setenv('CUDA_HOME', str(system))
    assert cuda.header_dirs(str(system)) == [str(system / 'include')]
    _touch(wheels / 'include' / 'cusparse.h', '')  # a header the toolkit lacks
    assert cuda.header_dirs(str(system)) == [str(system / 'include'), str(wheels / 'include')]


def test_libraries_come_from_the_toolkit_first_then_the_wheels(site, tmp_path, monkeypatch):
    wheels = fake_wheels(site, libraries=('cudart.so.13', 'cusparse.so.12', 'cusparse.so.12.6.3',
                                          'curand.so.10'))
    system = fake_toolkit(tmp_path / 'cuda', libraries=('cudart.so', 'curand.so'))
    monkeypatch.setenv('CUDA_HOME', str(system))
    lib64, lib = str(system / 'lib64'), str(wheels / 'lib')
    assert cuda.library_dirs(str(system)) == [lib64, lib]
    assert cuda.header_dirs(str(system)) == [str(system / 'include'), str(wheels / 'include')]
    assert cuda.find_library('curand', str(system)) == (lib64, lib64 + '/libcurand.so', 'curand')
    # The wheels ship the versioned file alone: linked by its whole name.
    assert cuda.find_library('cusparse', str(system)) == (
        lib, lib + '/libcusparse.so.12', ':libcusparse.so.12')
    assert cuda.find_library('cublas', str(system)) is None
    assert cuda.missing_library_message('cublas', str(system)) == (
        "neither the CUDA toolkit in %s (%s) nor pip's CUDA wheels (site-packages/nvidia) hold "
        "libcublas.so (cuBLAS): pip install nvidia-cublas (or thffi[cuda])" % (system, lib64))
    assert cuda.link_flags([cuda.find_library(n, str(system)) for n in ('curand', 'cusparse')]) \
        == ['-L' + lib64, '-L' + lib, '-lcurand', '-l:libcusparse.so.12',
            '-Xlinker', '-rpath=' + lib64, '-Xlinker', '-rpath=' + lib]


def test_a_cuda_12_toolkit_takes_the_per_wheel_folders(site, tmp_path, monkeypatch):
    fake_wheels(site, libraries=('cusparse.so.12',))  # CUDA 13's: not for CUDA 12
    _touch(site / 'nvidia' / 'cusparse' / 'lib' / 'libcusparse.so.12')
    _touch(site / 'nvidia' / 'cusparse' / 'include' / 'cusparse.h')
    system = fake_toolkit(tmp_path / 'cuda-12.4', version='12.4')
    monkeypatch.setenv('CUDA_HOME', str(system))
    assert cuda.library_dirs(str(system)) == [str(system / 'lib64'),
                                              str(site / 'nvidia' / 'cusparse' / 'lib')]
    assert cuda.find_library('cusparse', str(system)).folder == str(
        site / 'nvidia' / 'cusparse' / 'lib')
    assert cuda.missing_library_message('curand', str(system)).endswith(
        'pip install nvidia-curand-cu12')


def test_pytorchs_cuda_is_read_without_importing_torch(tmp_path, monkeypatch):
    _touch(tmp_path / 'torch' / '__init__.py', 'raise ImportError("not to be imported")\n')
    _touch(tmp_path / 'torch' / 'version.py', textwrap.dedent('''\
        from typing import Optional
        __version__ = '2.8.0+cu128'
        cuda: Optional[str] = '12.8'
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, 'torch')
    assert cuda.torch_cuda_version() == '12.8'
    assert 'torch' not in sys.modules


def test_a_toolkit_of_another_major_than_pytorchs_is_named(site, monkeypatch):
    root = fake_wheels(site)
    monkeypatch.setattr(cuda, 'torch_cuda_version', lambda: '13.0')
    assert cuda.torch_mismatch(str(root)) is None
    monkeypatch.setattr(cuda, 'torch_cuda_version', lambda: '12.8')
    assert cuda.torch_mismatch(str(root)) == (
        "PyTorch was built with CUDA 12.8: the extension would load CUDA 13's runtime beside "
        "PyTorch's CUDA 12 one (two runtimes, each with its own current device and errors). "
        "Build with a CUDA 12 toolkit: set CUDA_HOME to one (pip has no nvcc for CUDA 12: "
        "nvidia-cuda-nvcc-cu12 holds ptxas alone)")


def test_create_extension_links_the_cuda_libraries_it_names(site, tmp_path, monkeypatch, capfd):
    wheels = fake_wheels(site, libraries=('cudart.so.13', 'cusparse.so.12'))
    _touch(tmp_path / 'sparse.h', 'int sparse_nnz(THFloatTensor *t);\n')
    _touch(tmp_path / 'sparse.c', '')
    kwargs = dict(headers=['sparse.h'], sources=['sparse.c'], verbose=False,
                  relative_to=str(tmp_path / 'build.py'))
    ffi = create_extension('_ext.sparse', libraries=['cusparse'], **kwargs)
    lib = str(wheels / 'lib')
    assert ':libcusparse.so.12' in ffi.kwargs['libraries']
    assert lib in ffi.kwargs['library_dirs'] and lib in ffi.kwargs['runtime_library_dirs']
    # with_cuda: the runtime and the wheels' headers, every CUDA folder on the rpath.
    ffi = create_extension('_ext.sparse', libraries=['cusparse'], with_cuda=True, **kwargs)
    assert ffi.kwargs['libraries'][-2:] == [':libcudart.so.13', 'stdc++']
    assert str(wheels / 'include') in ffi.kwargs['include_dirs']
    assert ffi.kwargs['runtime_library_dirs'] == [lib]
    # The build's first line says which toolkit it uses and where from.
    ffi.verbose = True
    with pytest.raises(BuildError):  # the stand-in nvcc compiles nothing
        ffi.build()
    assert capfd.readouterr().out.splitlines()[0] == (
        "thffi: building _ext.sparse with CUDA 13.5 in %s (pip's wheels)" % wheels)
    with pytest.raises(BuildError, match=r"create_extension\('_ext.sparse'\): libraries names "
                                         r"'curand', but neither the CUDA toolkit in .* nor "
                                         r"pip's CUDA wheels \(site-packages/nvidia\) hold "
                                         r"libcurand.so \(cuRAND\): pip install nvidia-curand"):
        create_extension('_ext.sparse', libraries=['curand'], **kwargs)


# cuRAND's header and library in miniature, as pip's nvidia-curand ships them
# (nvidia/cu13/include/curand.h, lib/libcurand.so.10): enough for C that
# seeds a generator.
CURAND_H = '''\
typedef struct curandGenerator_st *curandGenerator_t;
typedef enum curandStatus { CURAND_STATUS_SUCCESS = 0 } curandStatus_t;
typedef enum curandRngType { CURAND_RNG_PSEUDO_DEFAULT = 100 } curandRngType_t;
curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
'''
CURAND_C = CURAND_H + '''\
curandStatus_t curandCreateGenerator(curandGenerator_t *g, curandRngType_t t) { *g = 0; return 0; }
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long s)
{ return 0; }
curandStatus_t curandDestroyGenerator(curandGenerator_t g) { return 0; }
'''

# 2018: C seeding cuRAND beside THC; build.py names no library (torch had
# loaded cuRAND into the process).
NOISE_FILES = {
    'src/noise.h': 'int noise_seed_cuda(THCudaTensor *t, long seed);\n',
    'src/noise.c': '''\
        #include <THC/THC.h>
        #include <curand.h>

        extern THCState *state;

        int noise_seed_cuda(THCudaTensor *t, long seed)
        {
          curandGenerator_t gen;
          if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS)
            return 0;
          curandSetPseudoRandomGeneratorSeed(gen, seed);
          curandDestroyGenerator(gen);
          return 1;
        }
        ''',
    'build.py': '''\
        from thffi import create_extension

        ffi = create_extension('_ext.noise', headers=['src/noise.h'], sources=['src/noise.c'],
                               with_cuda=True, relative_to=__file__)
        ''',
}


@pytest.mark.skipif(cuda.find_cuda_home() is None, reason='needs nvcc (a CUDA toolkit)')
def test_c_calling_curand_links_it_though_build_py_names_no_library(site, tmp_path, capfd):
    home = cuda.find_cuda_home()  # the machine's (the stand-in wheels hold no nvcc)
    if cuda.find_library('curand', home):
        pytest.skip('the toolkit in %s has cuRAND' % home)
    root = site / 'nvidia' / 'cu13'
    _touch(root / 'include' / 'curand.h', CURAND_H)
    shared_library(root / 'lib' / 'libcurand.so.10', CURAND_C)
    for name, text in NOISE_FILES.items():
        _touch(tmp_path / name, textwrap.dedent(text))
    ffi = load_build_script(str(tmp_path / 'build.py'), '_wheels_test_noise_build').ffi
    ffi.verbose = True
    ffi.build()
    assert ('thffi: src/noise.c: calls cuRAND (curandCreateGenerator, curandDestroyGenerator, '
            'curandSetPseudoRandomGeneratorSeed): linking it') in capfd.readouterr().out.splitlines()
    needed, search = dynamic_section(ffi.library_path())
    assert 'libcurand.so.10' in needed and str(root / 'lib') in search


def test_python_m_thffi_cuda_libs_and_cuda_home(site, tmp_path):
    wheels = fake_wheels(site, libraries=('cudart.so.13', 'curand.so.10'))
    env = only_these_cuda_wheels_env(os.environ, tmp_path, site)
    for var in ('CUDA_HOME', 'CUDA_PATH'):
        env.pop(var, None)

    def thffi(*args):
        return subprocess.run([sys.executable, '-m', 'thffi'] + list(args), env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)

    lib = str(wheels / 'lib')
    out = thffi('--cuda-libs', 'curand', 'cudart')
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['-L' + lib, '-l:libcurand.so.10', '-l:libcudart.so.13',
                                  '-Xlinker', '-rpath=' + lib]
    assert thffi('--cuda-home').stdout.strip() == str(wheels)
    assert ('-I%s' % (wheels / 'include')) in thffi('--includes').stdout.split()
    out = thffi('--cuda-libs', 'cusparse')
    assert out.returncode == 1 and out.stdout == ''
    assert out.stderr.startswith('python -m thffi --cuda-libs cusparse: neither the CUDA ')
    assert out.stderr.strip().endswith('hold libcusparse.so (cuSPARSE): pip install '
                                       'nvidia-cusparse (or thffi[cuda])')
    assert thffi('--cuda-libs').returncode == 2


# cuSPARSE 12's header in miniature: deprecated routines declared with a
# deprecated type, as the real one does 204 times.
CUSPARSE_H = '''\
#define CUSPARSE_DEPRECATED __attribute__((deprecated("The routine will be removed")))
#define CUSPARSE_DEPRECATED_TYPE __attribute__((deprecated("The type will be removed")))
struct csric02Info;
typedef struct csric02Info *csric02Info_t CUSPARSE_DEPRECATED_TYPE;
CUSPARSE_DEPRECATED int cusparseCreateCsric02Info(csric02Info_t *info);
CUSPARSE_DEPRECATED int cusparseDestroyCsric02Info(csric02Info_t info);
'''


@pytest.mark.skipif(cuda.find_cuda_home() is None, reason='needs a CUDA toolkit\'s headers')
@pytest.mark.parametrize('compiler', [['gcc', '-std=c99'], ['g++', '-x', 'c++']])
def test_thc_h_is_quiet_about_cusparse_h_and_the_users_calls_still_warn(tmp_path, compiler):
    _touch(tmp_path / 'wheel' / 'cusparse.h', CUSPARSE_H)
    home = cuda.find_cuda_home()
    include = os.path.join(ROOT, 'thffi', 'include')
    flags = ['-Wall', '-I' + include, '-I' + include + '/TH', '-I' + include + '/THC',
             '-I' + os.path.join(home, 'include'), '-I' + str(tmp_path / 'wheel')]

    def compile(body):
        _touch(tmp_path / 'k.c', '#include <THC/THC.h>\n' + body)
        return subprocess.run(compiler + ['-c', str(tmp_path / 'k.c'), '-o',
                                          str(tmp_path / 'k.o')] + flags,
                              capture_output=True, text=True, timeout=120)

    quiet = compile('int k(void) { return 0; }\n')  # code that never calls cuSPARSE
    assert quiet.returncode == 0 and quiet.stderr == '', quiet.stderr
    noisy = compile('int k(void) { csric02Info_t i; return cusparseCreateCsric02Info(&i); }\n')
    warnings = [line for line in noisy.stderr.splitlines() if 'warning:' in line]
    assert noisy.returncode == 0 and warnings, noisy.stderr
    assert all(line.startswith(str(tmp_path / 'k.c')) for line in warnings), noisy.stderr
    assert any('cusparseCreateCsric02Info' in line and 'is deprecated' in line
               for line in warnings), noisy.stderr
