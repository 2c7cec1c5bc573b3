"""What thffi's tests share: where things are, the builds of test
extensions (and the session fixtures that make them: th_test, legacy_data,
thc_test), and the 2018-style repositories tests copy.  A module of its own
rather than conftest.py, so that the demo's tests (tests/) and thffi's
(thffi/tests/), collected together, each import the helpers they mean."""

import atexit
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

import pytest
import torch

TESTS = os.path.dirname(os.path.abspath(__file__))
# The folder holding the thffi package (thffi/..): on sys.path, and on the
# PYTHONPATH of the processes tests start, `import thffi` finds this copy.
ROOT = os.path.dirname(os.path.dirname(TESTS))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# torch.compile's on-disk caches do not key a custom op's Python backward, so
# a graph compiled before a change to an op's backward is replayed after it
# (seen with extension_ffi::add_backward): each run compiles into its own.
if 'TORCHINDUCTOR_CACHE_DIR' not in os.environ:
    os.environ['TORCHINDUCTOR_CACHE_DIR'] = tempfile.mkdtemp(prefix='thffi-tests-inductor-')
    atexit.register(shutil.rmtree, os.environ['TORCHINDUCTOR_CACHE_DIR'], True)

# Without a GPU the CUDA code need only compile and link: the tests' builds
# target one architecture (nvcc compiles thffi's own kernels in 14 s for one,
# 50 s for the default five).  With a GPU, or TORCH_CUDA_ARCH_LIST set, they
# build for what thffi picks, as a user's build does (an sm_75-only build
# does not run on newer GPUs).  The conftests put it in os.environ (the
# demo's after deciding whether its own build is up to date): the builds
# tests run in child processes inherit it.
ONE_ARCH = {} if torch.cuda.is_available() or 'TORCH_CUDA_ARCH_LIST' in os.environ \
    else {'TORCH_CUDA_ARCH_LIST': '7.5'}

# TH's seven tensor types: (the name in THRealTensor, its dtype).
REALS = [('Float', torch.float32), ('Double', torch.float64), ('Byte', torch.uint8),
         ('Char', torch.int8), ('Short', torch.int16), ('Int', torch.int32),
         ('Long', torch.int64)]


def load_build_script(path, name='_thffi_build_script'):
    """Imports a build.py (it builds nothing until ffi.build() is called)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_test_extension(tmp_path_factory, folder, headers, sources, **kwargs):
    """Builds tests/<folder> as the extension _thffi_<folder>.<folder> in a
    temporary directory and imports it.  Each extension is a package of its
    own: a package already imported from another folder would hide it."""
    from thffi import create_extension
    here = os.path.join(TESTS, folder)
    out = tmp_path_factory.mktemp(folder)
    name = '_thffi_%s.%s' % (folder, folder)
    ffi = create_extension(name,
                           headers=[os.path.join(here, h) for h in headers],
                           sources=[os.path.join(here, s) for s in sources],
                           relative_to=str(out / 'build.py'), verbose=False, **kwargs)
    ffi.build()
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope='session')
def th_test(tmp_path_factory):
    """A small extension built from thffi/tests/th_test, for the TH layer's tests."""
    return build_test_extension(tmp_path_factory, 'th_test', ['th_test.h', 'th_api.h'],
                                ['th_test.c', 'th_api.c'],
                                include_dirs=[os.path.join(TESTS, 'th_test')])


@pytest.fixture(scope='session')
def legacy_data(tmp_path_factory):
    """thffi/tests/legacy_data: C of 2018 that reshapes the tensors it is handed
    and indexes their data."""
    return build_test_extension(tmp_path_factory, 'legacy_data', ['legacy_data.h'],
                                ['legacy_data.c'],
                                include_dirs=[os.path.join(TESTS, 'legacy_data')])


@pytest.fixture(scope='session')
def thc_test(tmp_path_factory):
    """An extension built from thffi/tests/thc_test, for the THC layer's tests."""
    return build_test_extension(tmp_path_factory, 'thc_test', ['thc_test.h', 'thc_api.h'],
                                ['thc_test.c', 'thc_test_kernel.cu', 'thc_api.c'],
                                with_cuda=True,
                                include_dirs=[os.path.join(TESTS, 'thc_test')])


def import_built(folder, name):
    """Imports the package `name` built in folder, with any other `_ext`
    (the demo's, another test's) out of the way meanwhile."""
    top = name.split('.')[0]
    others = {k: sys.modules.pop(k) for k in list(sys.modules)
              if k == top or k.startswith(top + '.')}
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
        for k in [k for k in sys.modules if k == top or k.startswith(top + '.')]:
            del sys.modules[k]
        sys.modules.update(others)


def write_files(folder, files):
    """Writes each {path: text} under folder (a pathlib.Path), the text
    dedented; None for a text removes that file."""
    for name, text in files.items():
        path = folder / name
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def copy_legacy_shift(destination, op='shift', files=None):
    """thffi/tests/legacy_shift copied into destination: a 2018 CUDA extension of
    ours.  Its make.sh compiles the kernel to a .cu.o for sm_52 (no `set -e`,
    as then) and runs build.py, which links that object and gates the CUDA
    sources, not the object, on a GPU.  `op` names the op in place of
    'shift' in the paths and the text (op='scale': src/scale.c, scale_cpu,
    _ext.scale...); `files` is what the test's repository has that this one
    has not, as for write_files."""
    base = os.path.join(TESTS, 'legacy_shift')
    listed = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard'],
                            cwd=base, capture_output=True, text=True, check=True).stdout.split()
    for name in listed:
        target = destination / name.replace('shift', op)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(os.path.join(base, name), encoding='utf-8') as f:
            target.write_text(f.read().replace('shift', op))
    write_files(destination, files or {})


def hooked_env(folder):
    """The environment of a user's shell with thffi pip-installed: this
    interpreter and nvcc first on PATH, torch.utils.ffi resolving to thffi in
    every Python it starts (the .pth file's hook, here a sitecustomize in
    folder)."""
    from thffi import find_cuda_home
    (folder / 'sitecustomize.py').write_text('from thffi import _hook\n_hook.install()\n')
    home = find_cuda_home()
    path = [os.path.dirname(sys.executable)] + ([os.path.join(home, 'bin')] if home else [])
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), ROOT]),
                PATH=os.pathsep.join(path + [os.environ['PATH']]))


def only_these_cuda_wheels(monkeypatch, *sites):
    """Makes thffi, in this process, see pip's CUDA wheels in `sites` alone
    (stand-in site-packages folders of a test's own): not the machine's,
    on sys.path or in its site-packages folders, nor through
    cuda.pathfinder, which looks there."""
    from thffi.toolchain import cuda_toolkit
    monkeypatch.setattr(cuda_toolkit, 'site_folders', lambda: [str(s) for s in sites])
    monkeypatch.setattr(cuda_toolkit, 'pathfinder', lambda: None)


def only_these_cuda_wheels_env(env, folder, *sites):
    """`env` for a child Python that sees pip's CUDA wheels in `sites`
    alone, as only_these_cuda_wheels() does in this process, and a PyTorch
    without CUDA: a sitecustomize.py written in `folder`, first on
    PYTHONPATH (thffi's folder after it), which every Python started with
    that environment runs first."""
    (folder / 'sitecustomize.py').write_text(
        'from thffi.toolchain import cuda_toolkit\n'
        'cuda_toolkit.site_folders = lambda: %r\n'
        'cuda_toolkit.pathfinder = lambda: None\n'
        'cuda_toolkit.torch_cuda_version = lambda: None\n' % [str(s) for s in sites])
    return dict(env, PYTHONPATH=os.pathsep.join([str(folder), ROOT]))


def installed_once(packages):
    """A folder of thffi's cache holding `packages` (pip requirement
    strings) installed by pip with --target, once for every test and run;
    the test skipped where pip cannot reach them.  pip is told not to
    retry and to give up on a silent index within 30 s: a machine without
    the network skips in seconds, where pip's defaults would wait minutes."""
    import hashlib
    from thffi._cache import cache_root
    folder = os.path.join(cache_root(), 'test-wheels',
                          hashlib.sha256(' '.join(packages).encode()).hexdigest()[:16])
    if os.path.isdir(folder):
        return folder
    partial = '%s.tmp%d' % (folder, os.getpid())
    out = subprocess.run([sys.executable, '-m', 'pip', 'install', '-q', '--no-deps',
                          '--retries', '0', '--timeout', '30', '--target', partial]
                         + list(packages), capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        pytest.skip('pip cannot install %s here: %s'
                    % (' '.join(packages), out.stderr.strip().splitlines()[-1:]))
    try:
        os.rename(partial, folder)
    except OSError:  # another process put it there first
        shutil.rmtree(partial, ignore_errors=True)
    return folder


# A library built apart calling TH, as 2018 libraries called it through
# libATen/libTH (lib/scaler.c of test_legacy_builds.py's and
# test_shared_library_named.py's projects; their tests name its THError's
# line, 9).
SCALER_C = '''\
#include <TH/TH.h>

/* scales a contiguous tensor in place; THError for a bad factor */
int scaler_apply(THFloatTensor *t, float factor)
{
    float *data = THFloatTensor_data(t);
    long i, n = THFloatTensor_nElement(t);
    if (factor < 0)
        THError("scaler: negative factor %f", factor);
    for (i = 0; i < n; i++)
        data[i] *= factor;
    return (int)n;
}
'''
