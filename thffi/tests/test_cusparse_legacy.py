"""cuSPARSE's legacy API (cusparseScsrmv, csrmm, csrgemm...), which CUDA 11
and 12 removed, provided by thffi over today's generic API
(include/cusparse_legacy.h, csrc/THCSparseLegacy.c) to 2018 THC code:
thffi/tests/thc_sparse builds, links and loads, and an object built apart by nvcc
links too; on a GPU each call matches PyTorch's dense result
(thffi/tests/thc_sparse/check_sparse.py, which tools/gpu_calls.py runs as well).

The CUDA toolkit here has no cuSPARSE: where it lacks one, the tests install
pip's wheel (CUDA 13.0's cuSPARSE, 255 MB unpacked, about 15 s from this
machine's package index) into thffi's cache folder once, and make it the
only folder where thffi looks for pip's CUDA wheels (docs/install.md): the
machine's own, a CUDA build of PyTorch's, stay out of the tests."""

import importlib
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import torch

from support import installed_once, only_these_cuda_wheels, only_these_cuda_wheels_env, TESTS
from thffi import create_extension
from thffi.toolchain import cuda_toolkit as cuda
from thffi.builder.configure import CUSPARSE_LEGACY
from thffi.builder import include_dirs, shared_library
from thffi.toolchain import cuda_api

HOME = cuda.find_cuda_home()
TOOLKIT = HOME and cuda_api.toolkit_version(HOME)
HERE = os.path.join(TESTS, 'thc_sparse')
pytestmark = pytest.mark.skipif(HOME is None, reason='no CUDA toolkit (nvcc) installed')

# What today's cuSPARSE gives each legacy family (the extension's undefined
# symbols, bound to libcusparse).
GENERIC = ['cusparseSpMV', 'cusparseSpMM', 'cusparseSpGEMMreuse_nnz',
           'cusparseSpGEMMreuse_compute', 'cusparseScsrgeam2', 'cusparseXcsrgeam2Nnz',
           'cusparseCsr2cscEx2', 'cusparseGather', 'cusparseScatter', 'cusparseAxpby',
           'cusparseSpVV']
LEGACY = ['cusparseScsrmv', 'cusparseDcsrmv', 'cusparseScsrmm', 'cusparseScsrmm2',
          'cusparseXcsrgemmNnz', 'cusparseScsrgemm', 'cusparseXcsrgeamNnz', 'cusparseScsrgeam',
          'cusparseScsr2csc', 'cusparseSgthr', 'cusparseSgthrz', 'cusparseSsctr',
          'cusparseSaxpyi', 'cusparseSdoti']


def _wheels():
    """pip's cuSPARSE for the toolkit's CUDA major, and the nvJitLink it
    loads; for CUDA 13 the releases of CUDA 13.0 (this machine's index holds
    them)."""
    if TOOLKIT[0] == 13:
        return ['nvidia-cusparse==12.6.3.3', 'nvidia-nvjitlink==13.4.92']
    return [cuda_api.wheel('cusparse', TOOLKIT), 'nvidia-nvjitlink-cu%d' % TOOLKIT[0]]


def _has_cusparse():
    return (cuda.find_library('cusparse', HOME) is not None
            and any(os.path.isfile(os.path.join(d, 'cusparse.h')) for d in cuda.header_dirs(HOME)))


@pytest.fixture(scope='module')
def cusparse_site():
    """A folder holding pip's cuSPARSE wheel (nvidia/cu13/...), installed
    into thffi's cache once: the only folder where thffi looks for pip's
    CUDA wheels while the module's tests run (not the machine's own, nor
    through cuda.pathfinder); None where the toolkit itself has cuSPARSE."""
    with pytest.MonkeyPatch.context() as patch:
        only_these_cuda_wheels(patch)
        if _has_cusparse():
            yield None
            return
        folder = installed_once(_wheels())
        only_these_cuda_wheels(patch, folder)
        assert _has_cusparse()
        yield folder


def _env(site, folder):
    """The environment of a build in a child process: thffi's folder on
    PYTHONPATH, pip's CUDA wheels in `site` alone (a sitecustomize in
    `folder`)."""
    return only_these_cuda_wheels_env(os.environ, folder, *[s for s in [site] if s])


@pytest.fixture(scope='module')
def built(cusparse_site, tmp_path_factory):
    """thffi/tests/thc_sparse built as its README would: `python build.py` (run
    through `python -m thffi`, which provides torch.utils.ffi), then
    imported: (module, its library, the build's output)."""
    folder = tmp_path_factory.mktemp('thc_sparse')
    for name in ('sparse_cuda.h', 'sparse_cuda.c', 'build.py'):
        shutil.copy(os.path.join(HERE, name), folder / name)
    out = subprocess.run([sys.executable, '-m', 'thffi', 'build.py'], cwd=folder,
                         env=_env(cusparse_site, tmp_path_factory.mktemp('python')),
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    module = _check_sparse().load(str(folder))
    library = next(folder.glob('_ext/sparse/_sparse*.so'))
    return module, str(library), out.stdout + out.stderr


def _check_sparse():
    """thffi/tests/thc_sparse/check_sparse.py."""
    sys.path.insert(0, HERE)
    try:
        return importlib.import_module('check_sparse')
    finally:
        sys.path.remove(HERE)


def _symbols(library):
    out = subprocess.run(['nm', library], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split('@')[0]: line.split()[-2] for line in out.splitlines()
            if len(line.split()) >= 2}


def test_thc_code_calling_legacy_cusparse_builds_links_and_loads(built):
    module, library, output = built
    assert 'warning' not in output.lower(), output
    assert sorted(n for n in dir(module) if n.startswith('sparse_')) == [
        'sparse_axpyi_cuda', 'sparse_csr2csc_cuda', 'sparse_csrgeam_cuda', 'sparse_csrgemm_cuda',
        'sparse_csrmm2_cuda', 'sparse_csrmm_cuda', 'sparse_csrmv_cuda', 'sparse_dcsrmv_cuda',
        'sparse_doti_cuda', 'sparse_gthr_cuda', 'sparse_sctr_cuda', 'sparse_sync_cuda']
    symbols = _symbols(library)
    # The legacy names are the extension's own (exported, for a library
    # built apart); today's come from libcusparse; the cudaThread* calls
    # became cudaDevice* ones.
    assert {name: symbols.get(name) for name in LEGACY} == {name: 'T' for name in LEGACY}
    assert {name: symbols.get(name) for name in GENERIC} == {name: 'U' for name in GENERIC}
    assert not [name for name in symbols if name.startswith('cudaThread')]
    assert symbols.get('cudaDeviceSynchronize') == 'U'
    needed = subprocess.run(['readelf', '-d', library], capture_output=True, text=True).stdout
    assert 'libcusparse.so.' in needed


@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')
def test_legacy_cusparse_calls_match_pytorchs_dense_results(built):
    results = _check_sparse().results(built[0])
    assert [call for call, ok in results.items() if not ok] == []
    assert len(results) == 16


# 2018: a kernel file compiled apart by nvcc (make.sh), calling cuSPARSE
# through THC's handle; build.py links its object.
SPMV_CU = '''\
    #include <THC/THC.h>

    extern "C" int spmv_launch(cusparseHandle_t handle, int m, int n, int nnz,
                               const double *values, const int *rows, const int *cols,
                               const double *x, double *y)
    {
        cusparseMatDescr_t descr;
        double one = 1, zero = 0;
        cusparseCreateMatDescr(&descr);
        cusparseStatus_t status = cusparseDcsrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m,
                                                 n, nnz, &one, descr, values, rows, cols, x,
                                                 &zero, y);
        cusparseDestroyMatDescr(descr);
        cudaThreadSynchronize();
        return status == CUSPARSE_STATUS_SUCCESS;
    }
    '''
SPMV_C = '''\
    #include <THC/THC.h>

    extern THCState *state;
    int spmv_launch(cusparseHandle_t handle, int m, int n, int nnz, const double *values,
                    const int *rows, const int *cols, const double *x, double *y);

    int spmv_forward_cuda(THCudaDoubleTensor *values, THCudaIntTensor *rows,
                          THCudaIntTensor *cols, THCudaDoubleTensor *x, THCudaDoubleTensor *y)
    {
        return spmv_launch(THCState_getCurrentSparseHandle(state),
                           THCudaIntTensor_nElement(state, rows) - 1,
                           THCudaDoubleTensor_nElement(state, x),
                           THCudaDoubleTensor_nElement(state, values),
                           THCudaDoubleTensor_data(state, values),
                           THCudaIntTensor_data(state, rows), THCudaIntTensor_data(state, cols),
                           THCudaDoubleTensor_data(state, x), THCudaDoubleTensor_data(state, y));
    }
    '''
SPMV_H = ('int spmv_forward_cuda(THCudaDoubleTensor *values, THCudaIntTensor *rows, '
          'THCudaIntTensor *cols, THCudaDoubleTensor *x, THCudaDoubleTensor *y);\n')


def _own_sources(ffi):
    """The file names of thffi's own sources the build's plan compiles."""
    return [os.path.basename(job.source) for job in ffi.plan.jobs if job.own]


@pytest.mark.parametrize('apart', ['an object',
                                   pytest.param('a shared library', marks=pytest.mark.slow)])
def test_code_nvcc_built_apart_gets_the_legacy_routines(cusparse_site, tmp_path, apart):
    """Its calls of cuSPARSE, read from the object or library, make the
    extension link cuSPARSE and compile thffi's legacy routines; `libraries`
    names none.  A library built apart (nvcc --shared) finds them in the
    extension, which exports them, as it found cuSPARSE's: it loads."""
    for name, text in {'src/spmv_kernel.cu': SPMV_CU, 'src/spmv.c': SPMV_C,
                       'src/spmv.h': SPMV_H}.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    includes = ['-I' + d for d in include_dirs() + cuda.header_dirs(HOME)]
    made_by = 'libspmv.so' if apart == 'a shared library' else 'spmv_kernel.cu.o'
    made = subprocess.run([os.path.join(HOME, 'bin', 'nvcc'), '--shared' if made_by.endswith(
        '.so') else '-c', '-o', made_by, 'spmv_kernel.cu', '-Xcompiler', '-fPIC',
        '-arch=sm_75'] + includes, cwd=tmp_path / 'src', capture_output=True, text=True,
        timeout=600)
    assert made.returncode == 0, made.stderr
    ffi = create_extension('_ext.spmv', headers=['src/spmv.h'], sources=['src/spmv.c'],
                           extra_objects=['src/' + made_by], with_cuda=True,
                           extra_link_args=['-Wl,-rpath,' + str(tmp_path / 'src')],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    assert CUSPARSE_LEGACY[0] in _own_sources(ffi)
    ffi.build()
    symbols = _symbols(ffi.library_path())
    assert (symbols.get('cusparseDcsrmv'), symbols.get('cusparseSpMV')) == ('T', 'U')
    (tmp_path / 'python').mkdir()
    loaded = subprocess.run([sys.executable, '-c', 'import torch\nfrom _ext import spmv\n'
                             'print(spmv.spmv_forward_cuda)'], cwd=tmp_path,
                            env=_env(cusparse_site, tmp_path / 'python'), capture_output=True,
                            text=True, timeout=300)
    assert loaded.returncode == 0 and 'spmv_forward_cuda' in loaded.stdout, loaded.stderr


# 2018: THC code calling cuSPARSE's legacy csrmv through THC's handle, in
# a C source; build.py names no library (torch had loaded cuSPARSE).
CSRMV_C = '''\
    #include <THC/THC.h>
    #include "csrmv.h"

    extern THCState *state;

    int csrmv_forward_cuda(THCudaTensor *values, THCudaIntTensor *rows, THCudaIntTensor *cols,
                           THCudaTensor *x, THCudaTensor *y)
    {
      cusparseMatDescr_t descr;
      float one = 1, zero = 0;
      cusparseStatus_t status;
      cusparseCreateMatDescr(&descr);
      status = cusparseScsrmv(THCState_getCurrentSparseHandle(state),
                              CUSPARSE_OPERATION_NON_TRANSPOSE,
                              THCudaIntTensor_nElement(state, rows) - 1,
                              THCudaTensor_nElement(state, x), THCudaTensor_nElement(state, values),
                              &one, descr, THCudaTensor_data(state, values),
                              THCudaIntTensor_data(state, rows), THCudaIntTensor_data(state, cols),
                              THCudaTensor_data(state, x), &zero, THCudaTensor_data(state, y));
      cusparseDestroyMatDescr(descr);
      return status == CUSPARSE_STATUS_SUCCESS;
    }
    '''
CSRMV_H = ('int csrmv_forward_cuda(THCudaTensor *values, THCudaIntTensor *rows, '
           'THCudaIntTensor *cols, THCudaTensor *x, THCudaTensor *y);\n')
CSRMV_BUILD = '''\
    from torch.utils.ffi import create_extension

    ffi = create_extension('_ext.csrmv', headers=['src/csrmv.h'], sources=['src/csrmv.c'],
                           with_cuda=True, relative_to=__file__, verbose=True)

    if __name__ == '__main__':
        ffi.build()
    '''


def test_c_calling_cusparse_links_it_and_the_legacy_routines_though_build_py_names_none(
        cusparse_site, tmp_path):
    for name, text in {'src/csrmv.c': CSRMV_C, 'src/csrmv.h': CSRMV_H,
                       'build.py': CSRMV_BUILD}.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    (tmp_path / 'python').mkdir()
    out = subprocess.run([sys.executable, '-m', 'thffi', 'build.py'], cwd=tmp_path,
                         env=_env(cusparse_site, tmp_path / 'python'), capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ('thffi: src/csrmv.c: calls cuSPARSE (cusparseCreateMatDescr, '
            'cusparseDestroyMatDescr, cusparseScsrmv): linking it') in out.stdout.splitlines()
    library = str(next(tmp_path.glob('_ext/csrmv/_csrmv*.so')))
    needed = subprocess.run(['readelf', '-d', library], capture_output=True, text=True).stdout
    assert 'libcusparse.so.12' in needed
    # csrmv is the extension's own (thffi's legacy routines), over today's SpMV.
    symbols = _symbols(library)
    assert (symbols.get('cusparseScsrmv'), symbols.get('cusparseSpMV')) == ('T', 'U')


@pytest.mark.parametrize('libraries, compiled', [([], False), (['cusparse'], True)])
def test_only_an_extension_linking_cusparse_compiles_the_legacy_routines(
        cusparse_site, tmp_path, libraries, compiled):
    (tmp_path / 'ops.h').write_text('int ops_none(THCudaTensor *t);\n')
    (tmp_path / 'ops.c').write_text('#include <THC/THC.h>\nint ops_none(THCudaTensor *t) '
                                    '{ return 0; }\n')
    ffi = create_extension('_ext.ops', headers=['ops.h'], sources=['ops.c'], with_cuda=True,
                           libraries=libraries, relative_to=str(tmp_path / 'build.py'))
    own = _own_sources(ffi)
    assert (CUSPARSE_LEGACY[0] in own) == compiled
    # never without CUDA: the routines run on the GPU
    (tmp_path / 'cpu.h').write_text('int ops_cpu(THFloatTensor *t);\n')
    (tmp_path / 'cpu.c').write_text('#include <TH/TH.h>\nint ops_cpu(THFloatTensor *t) '
                                    '{ return 0; }\n')
    ffi = create_extension('_ext.ops', headers=['cpu.h'], sources=['cpu.c'],
                           libraries=libraries, relative_to=str(tmp_path / 'build.py'))
    assert CUSPARSE_LEGACY[0] not in _own_sources(ffi)


# 2018: a library built apart by make (gcc -shared), calling THC and
# cuSPARSE's legacy csrmv through THC's handle, linked against thffi's
# shared library (`python -m thffi --libs`); build.py names it in
# `libraries`, as such builds named libwarpctc or libTHC.
SPMV_LIB_C = '''\
    #include <THC/THC.h>

    /* y = A x, A in CSR (values, rows, cols), on the current stream's handle */
    int spmv_apply(THCState *state, THCudaTensor *values, THCudaIntTensor *rows,
                   THCudaIntTensor *cols, THCudaTensor *x, THCudaTensor *y)
    {
        cusparseMatDescr_t descr;
        float one = 1, zero = 0;
        cusparseStatus_t status;
        cusparseCreateMatDescr(&descr);
        status = cusparseScsrmv(THCState_getCurrentSparseHandle(state),
                                CUSPARSE_OPERATION_NON_TRANSPOSE,
                                THCudaIntTensor_nElement(state, rows) - 1,
                                THCudaTensor_nElement(state, x),
                                THCudaTensor_nElement(state, values), &one, descr,
                                THCudaTensor_data(state, values),
                                THCudaIntTensor_data(state, rows),
                                THCudaIntTensor_data(state, cols), THCudaTensor_data(state, x),
                                &zero, THCudaTensor_data(state, y));
        cusparseDestroyMatDescr(descr);
        return status == CUSPARSE_STATUS_SUCCESS;
    }
    '''
SPMV_EXT_C = '''\
    #include <THC/THC.h>
    #include "spmv.h"

    extern THCState *state;
    int spmv_apply(THCState *state, THCudaTensor *values, THCudaIntTensor *rows,
                   THCudaIntTensor *cols, THCudaTensor *x, THCudaTensor *y);

    int spmv_forward_cuda(THCudaTensor *values, THCudaIntTensor *rows, THCudaIntTensor *cols,
                          THCudaTensor *x, THCudaTensor *y)
    {
        return spmv_apply(state, values, rows, cols, x, y);
    }
    '''


def test_a_library_built_apart_named_in_libraries_gets_the_legacy_routines(cusparse_site,
                                                                           tmp_path):
    """Read like one in extra_objects: its cusparseScsrmv links cuSPARSE
    and compiles thffi's legacy routines into the extension, which exports
    them; the library finds them there, and its THC calls in thffi's
    shared library, which the extension shares."""
    (tmp_path / 'lib').mkdir()
    (tmp_path / 'src').mkdir()
    (tmp_path / 'lib/spmv.c').write_text(textwrap.dedent(SPMV_LIB_C))
    (tmp_path / 'src/spmv.c').write_text(textwrap.dedent(SPMV_EXT_C))
    (tmp_path / 'src/spmv.h').write_text(CSRMV_H.replace('csrmv', 'spmv'))
    flags = shared_library.link_flags(shared_library.library(True))
    includes = ['-I' + d for d in include_dirs() + cuda.header_dirs(HOME)]
    subprocess.run(['gcc', '-shared', '-fPIC', '-O2', '-o', 'libspmv.so', 'spmv.c'] + includes
                   + flags, cwd=tmp_path / 'lib', check=True)
    ffi = create_extension('_ext.spmv', headers=['src/spmv.h'], sources=['src/spmv.c'],
                           libraries=['spmv'], library_dirs=['lib'], with_cuda=True,
                           runtime_library_dirs=[str(tmp_path / 'lib')],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    assert CUSPARSE_LEGACY[0] in _own_sources(ffi)
    ffi.build()
    symbols = _symbols(ffi.library_path())
    assert (symbols.get('cusparseScsrmv'), symbols.get('cusparseSpMV')) == ('T', 'U')
    assert symbols.get('state') == 'U'  # thffi's shared library's
    (tmp_path / 'python').mkdir()
    loaded = subprocess.run([sys.executable, '-c', 'import torch\nfrom _ext import spmv\n'
                             'print(spmv.spmv_forward_cuda)'], cwd=tmp_path,
                            env=_env(cusparse_site, tmp_path / 'python'), capture_output=True,
                            text=True, timeout=300)
    assert loaded.returncode == 0 and 'spmv_forward_cuda' in loaded.stdout, loaded.stderr
