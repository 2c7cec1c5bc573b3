"""CUDA from pip alone (docs/install.md, "CUDA from pip"), with NVIDIA's
real wheels, in a fresh virtual environment:

- `pip install ./thffi[cuda]` builds the demo with CUDA while the machine's
  toolkit is hidden (a mount namespace over it, a PATH without its nvcc),
  and the library finds libcudart in site-packages/nvidia;
- with nvidia-cusparse, C calling cuSPARSE through THC's sparse handle
  builds the same way, with no warning from cusparse.h;
- with nvidia-curand, a 2018 library built apart (make.sh, or CMake's
  FindCUDA) that links cuRAND builds after `port` beside a toolkit without
  cuRAND, as warp-ctc's did.

No library is found through LD_LIBRARY_PATH.  The wheels are downloaded
(about 480 MB, once: pip caches them) and the builds take minutes, so these
tests run only when asked:

    THFFI_TEST_PIP_CUDA=1 python -m pytest -m pip_cuda tests/test_pip_cuda.py

and skip, saying why, where they cannot run: without root and unshare (to
hide the toolkit), or without the package index."""

import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

from demo_support import ROOT
from thffi.toolchain import cuda_toolkit as cuda

# The machine's toolkits (hidden from the tests that build with pip's).
SYSTEM_TOOLKITS = sorted({os.path.realpath(home) for home in (
    ['/usr/local/cuda'] + [os.path.dirname(os.path.dirname(os.path.realpath(p)))
                           for p in [shutil.which('nvcc')] if p])
    if cuda._is_toolkit(home)})


def _why_not():
    if not os.environ.get('THFFI_TEST_PIP_CUDA'):
        return ('downloads about 480 MB of CUDA wheels: run with THFFI_TEST_PIP_CUDA=1 python -m '
                'pytest -m pip_cuda tests/test_pip_cuda.py')
    if sys.platform != 'linux' or platform.machine() not in ('x86_64', 'aarch64'):
        return 'pip has CUDA wheels for Linux x86_64 and aarch64 only'
    if os.geteuid() != 0 or shutil.which('unshare') is None:
        return 'hiding the CUDA toolkit needs root and unshare (a mount namespace)'
    if subprocess.run(['unshare', '-m', 'true'], capture_output=True).returncode != 0:
        return 'unshare -m fails here (no mount namespaces)'
    return None


pytestmark = [pytest.mark.pip_cuda, pytest.mark.skipif(_why_not() is not None,
                                                       reason=str(_why_not()))]


class Venv:
    """A virtual environment (system site-packages visible, for torch)."""

    def __init__(self, folder):
        self.folder = folder
        subprocess.run([sys.executable, '-m', 'venv', '--system-site-packages', str(folder)],
                       check=True, timeout=300)
        self.python = str(folder / 'bin' / 'python')
        self.site = subprocess.run(
            [self.python, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
            capture_output=True, text=True, check=True).stdout.strip()
        self.cu13 = os.path.join(self.site, 'nvidia', 'cu13')

    def pip_install(self, *args):
        """Installs, printing how long it took; skips the tests when the
        package index cannot be reached."""
        start = time.perf_counter()
        out = subprocess.run([self.python, '-m', 'pip', 'install', '-q'] + list(args),
                             capture_output=True, text=True, timeout=1800)
        if out.returncode != 0 and re.search(r'No matching distribution|Could not find a version'
                                             r'|NewConnectionError|Connection|timed out',
                                             out.stderr):
            pytest.skip('the package index cannot be reached: %s' % out.stderr.strip()[-300:])
        assert out.returncode == 0, out.stderr
        print('pip install %s: %.1f s' % (' '.join(args), time.perf_counter() - start))

    def env(self, hide_toolkit):
        """The environment of a command: this venv's python first on PATH;
        no CUDA_HOME, CUDA_PATH, LD_LIBRARY_PATH; with hide_toolkit, no
        folder holding an nvcc on PATH."""
        env = {k: v for k, v in os.environ.items()
               if k not in ('CUDA_HOME', 'CUDA_PATH', 'LD_LIBRARY_PATH', 'PYTHONPATH')}
        path = [d for d in env.get('PATH', '').split(os.pathsep)
                if not (hide_toolkit and os.path.exists(os.path.join(d, 'nvcc')))]
        env['PATH'] = os.pathsep.join([str(self.folder / 'bin')] + path)
        return env

    def run(self, command, cwd, hide_toolkit=True):
        """Runs a shell command in cwd; with hide_toolkit, in a mount
        namespace where the machine's CUDA toolkits are empty folders."""
        script = 'set -e\n'
        if hide_toolkit:
            script += ''.join('mount -t tmpfs none %s\n' % shlex.quote(t)
                              for t in SYSTEM_TOOLKITS)
            script += ('if command -v nvcc || [ -e /usr/local/cuda/bin/nvcc ]; then '
                       'echo "a CUDA toolkit is still visible" >&2; exit 99; fi\n')
        script += command
        argv = (['unshare', '-m', 'bash', '-c', script] if hide_toolkit
                else ['bash', '-c', script])
        return subprocess.run(argv, cwd=cwd, env=self.env(hide_toolkit), capture_output=True,
                              text=True, timeout=1200)


@pytest.fixture(scope='module')
def venv(tmp_path_factory):
    """A fresh virtual environment with `pip install ./thffi[cuda]` (from a
    copy: pip builds in the source folder)."""
    folder = tmp_path_factory.mktemp('pip-cuda')
    source = folder / 'thffi-source'
    shutil.copytree(os.path.join(ROOT, 'thffi'), source, ignore=shutil.ignore_patterns(
        'build', '*.egg-info', '__pycache__'))
    env = Venv(folder / 'venv')
    env.pip_install('%s[cuda]' % source)
    return env


def _copy_demo(folder):
    for name in ('build.py', '__init__.py', 'test.py'):
        shutil.copy(os.path.join(ROOT, name), folder / name)
    for name in ('src', 'functions', 'modules'):
        shutil.copytree(os.path.join(ROOT, name), folder / name)


def _ldd(env, library, cwd, hide_toolkit=True):
    out = env.run('ldd %s' % shlex.quote(str(library)), cwd, hide_toolkit)
    assert out.returncode == 0, out.stderr
    assert 'not found' not in out.stdout, out.stdout
    return {m.group(1): m.group(2) for m in re.finditer(r'^\s*(\S+) => (\S+)', out.stdout, re.M)}


def test_the_demo_builds_with_pips_cuda_and_no_system_toolkit(venv, tmp_path):
    _copy_demo(tmp_path)
    built = venv.run('python build.py', tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    lines = built.stdout.splitlines()
    assert lines[0] == 'Including CUDA code.'
    assert re.fullmatch(r"thffi: building _ext\.my_lib with CUDA 13\.\d+ in %s \(pip's wheels\)"
                        % re.escape(venv.cu13), lines[1]), lines[1]
    library = next((tmp_path / '_ext' / 'my_lib').glob('_my_lib*.so'))
    assert _ldd(venv, library, tmp_path)['libcudart.so.13'] == os.path.join(
        venv.cu13, 'lib', 'libcudart.so.13')
    imported = venv.run('python -c "from _ext import my_lib; print(sorted(n for n in dir(my_lib) '
                        'if n.startswith(\'my_lib\') and n.endswith(\'_cuda\')))"', tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.split('\n')[0] == str(['my_lib_add_backward_cuda',
                                                  'my_lib_add_forward_cuda'])
    tested = venv.run('python test.py', tmp_path)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert 'OK (cpu)' in tested.stdout


# 2018 code calling cuSPARSE through THC's handle, as legacy THC users did.
SPARSE_FILES = {
    'src/sparse_cuda.h': 'int sparse_version_cuda(THCudaTensor *out);\n',
    'src/sparse_cuda.c': '''\
        #include <THC/THC.h>

        extern THCState *state;

        /* cuSPARSE's version, asked through THC's sparse handle (THC.h brought
           cusparse.h); out is the tensor the caller gives, unused */
        int sparse_version_cuda(THCudaTensor *out)
        {
          int version = 0;
          cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
          cusparseStatus_t status = cusparseGetVersion(handle, &version);
          if (status != CUSPARSE_STATUS_SUCCESS)
            THError("cusparseGetVersion failed with status %d", (int)status);
          return version;
        }
        ''',
    'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.sparse', headers=['src/sparse_cuda.h'],
                               sources=['src/sparse_cuda.c'], with_cuda=True,
                               libraries=['cusparse'], relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
}


def _write(folder, files):
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))


def test_c_calling_cusparse_through_thcs_handle_links_pips_cusparse(venv, tmp_path):
    venv.pip_install('nvidia-cusparse')
    _write(tmp_path, SPARSE_FILES)
    built = venv.run('python build.py', tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert re.match(r"thffi: building _ext\.sparse with CUDA 13\.\d+ in %s \(pip's wheels\)"
                    % re.escape(venv.cu13), built.stdout.splitlines()[0])
    # THC.h includes the wheel's cusparse.h without its 204 deprecation warnings.
    assert os.path.isfile(os.path.join(venv.cu13, 'include', 'cusparse.h'))
    assert 'warning' not in built.stdout + built.stderr, built.stdout + built.stderr
    library = next((tmp_path / '_ext' / 'sparse').glob('_sparse*.so'))
    found = _ldd(venv, library, tmp_path)
    assert found['libcusparse.so.12'] == os.path.join(venv.cu13, 'lib', 'libcusparse.so.12')
    assert found['libcudart.so.13'] == os.path.join(venv.cu13, 'lib', 'libcudart.so.13')
    imported = venv.run('python -c "from _ext import sparse; print(callable('
                        'sparse.sparse_version_cuda))"', tmp_path)
    assert imported.returncode == 0 and imported.stdout.strip() == 'True', imported.stderr
    # An extension that does not link cuSPARSE loads it as THC's sparse
    # handle does (dlopen by soname, csrc/THCSparse.c): through its rpath.
    _write(tmp_path / 'probe', PROBE_FILES)
    built = venv.run('python build.py && python -c "from _ext import probe; '
                     'print(probe.probe_cusparse())"', tmp_path / 'probe')
    assert built.returncode == 0, built.stdout + built.stderr
    assert built.stdout.splitlines()[-1] == '1'
    library = next((tmp_path / 'probe' / '_ext' / 'probe').glob('_probe*.so'))
    assert 'libcusparse' not in ''.join(_ldd(venv, library, tmp_path))


PROBE_FILES = {
    'probe.h': 'int probe_cusparse(void);\n',
    'probe.c': '''\
        #include <dlfcn.h>
        #include <THC/THC.h>

        int probe_cusparse(void)
        {
          return dlopen("libcusparse.so.12", RTLD_NOW) != NULL;
        }
        ''',
    'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.probe', headers=['probe.h'], sources=['probe.c'],
                               with_cuda=True, relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
}


# A 2018 library built apart that links cuRAND, as warp-ctc's did, and the
# ffi extension that calls it.
NOISE_FILES = {
    'src/noise.cu': '''\
        #include <curand.h>

        /* fills data (n floats on the GPU) with uniform noise; 0 on failure */
        extern "C" int noise_fill(float *data, long n, unsigned long long seed)
        {
          curandGenerator_t gen;
          if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS)
            return 0;
          curandSetPseudoRandomGeneratorSeed(gen, seed);
          curandGenerateUniform(gen, data, n);
          curandDestroyGenerator(gen);
          return 1;
        }
        ''',
    'make.sh': '''\
        #!/usr/bin/env bash
        set -e
        mkdir -p build
        nvcc -c src/noise.cu -o build/noise.cu.o -Xcompiler -fPIC -arch=sm_52
        g++ -shared -o build/libnoise.so build/noise.cu.o -L/usr/local/cuda/lib64 -lcudart -lcurand
        ''',
    'CMakeLists.txt': '''\
        cmake_minimum_required(VERSION 2.8)
        project(noise)

        find_package(CUDA REQUIRED)
        set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode arch=compute_52,code=sm_52")
        list(APPEND CUDA_NVCC_FLAGS -Xcompiler -fPIC)
        cuda_add_library(noise SHARED src/noise.cu)
        target_link_libraries(noise ${CUDA_curand_LIBRARY})
        ''',
    'src/noise_ext.h': 'int noise_uniform_cuda(THCudaTensor *t, long seed);\n',
    'src/noise_ext.c': '''\
        #include <THC/THC.h>

        extern THCState *state;
        int noise_fill(float *data, long n, unsigned long long seed);

        int noise_uniform_cuda(THCudaTensor *t, long seed)
        {
          return noise_fill(THCudaTensor_data(state, t), THCudaTensor_nElement(state, t), seed);
        }
        ''',
    'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        here = os.path.dirname(os.path.abspath(__file__))
        ffi = create_extension('_ext.noise', headers=['src/noise_ext.h'],
                               sources=['src/noise_ext.c'], with_cuda=True,
                               libraries=['noise'], library_dirs=['build'],
                               runtime_library_dirs=[os.path.join(here, 'build')],
                               relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
}


@pytest.mark.skipif(not SYSTEM_TOOLKITS or shutil.which('cmake') is None,
                    reason='needs the machine\'s CUDA toolkit and cmake (CMake\'s FindCUDA '
                           'finds no toolkit in pip\'s wheels)')
@pytest.mark.parametrize('build_files', ['make.sh', 'CMakeLists.txt'])
def test_a_library_linking_curand_builds_after_port_with_pips_curand(venv, tmp_path,
                                                                     build_files):
    venv.pip_install('nvidia-curand')
    _write(tmp_path, {name: text for name, text in NOISE_FILES.items()
                      if name in (build_files, 'src/noise.cu', 'src/noise_ext.h',
                                  'src/noise_ext.c', 'build.py')})
    make = ('bash make.sh' if build_files == 'make.sh'
            else 'mkdir -p build && cd build && cmake .. && make')
    if build_files == 'CMakeLists.txt' and not cuda.find_library('curand', SYSTEM_TOOLKITS[0]):
        # The machine's toolkit has no cuRAND: FindCUDA's lookup fails.
        before = venv.run(make, tmp_path, hide_toolkit=False)
        assert before.returncode != 0 and 'CUDA_curand_LIBRARY' in before.stderr, before.stderr
        shutil.rmtree(tmp_path / 'build')
    ported = venv.run('python -m thffi port --write .', tmp_path, hide_toolkit=False)
    assert ported.returncode == 0, ported.stderr
    assert re.search(r'--cuda-libs|THFFI_CUDA_curand_LIBRARY', ported.stderr), ported.stderr
    made = venv.run(make, tmp_path, hide_toolkit=False)
    assert made.returncode == 0, made.stdout + made.stderr
    curand = os.path.join(venv.cu13, 'lib', 'libcurand.so.10')
    assert _ldd(venv, tmp_path / 'build' / 'libnoise.so', tmp_path,
                hide_toolkit=False)['libcurand.so.10'] == curand
    built = venv.run('python build.py', tmp_path, hide_toolkit=False)
    assert built.returncode == 0, built.stdout + built.stderr
    library = next((tmp_path / '_ext' / 'noise').glob('_noise*.so'))
    assert _ldd(venv, library, tmp_path, hide_toolkit=False)['libcurand.so.10'] == curand
    imported = venv.run('python -c "from _ext import noise; print(callable('
                        'noise.noise_uniform_cuda))"', tmp_path, hide_toolkit=False)
    assert imported.returncode == 0 and imported.stdout.strip() == 'True', imported.stderr
