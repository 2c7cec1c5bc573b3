"""What CUDA removed since 2018 (thffi/toolchain/cuda_api.py), named: each
family used by a build of ours, and the error it gets (the name, the CUDA
release that removed it and what replaces it), and a CUDA library header
no toolkit here provides, named with the pip wheel that brings it."""

import glob
import os
import re
import subprocess
import textwrap

import pytest

from support import only_these_cuda_wheels
from thffi import BuildError, create_extension, find_cuda_home
from thffi.builder import include_dirs
from thffi.toolchain import cuda_api, cuda_toolkit

HOME = find_cuda_home()
TOOLKIT = HOME and cuda_api.toolkit_version(HOME)
needs_toolkit = pytest.mark.skipif(HOME is None, reason='no CUDA toolkit (nvcc) installed')


def _write(folder, files):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _build(folder, **kwargs):
    """Builds _ext.ops of `folder` (src/ops.h, src/ops.c); the BuildError's
    message."""
    ffi = create_extension('_ext.ops', headers=['src/ops.h'], relative_to=str(folder / 'build.py'),
                           verbose=False, **dict({'sources': ['src/ops.c']}, **kwargs))
    with pytest.raises(BuildError) as error:
        ffi.build()
    assert ffi.library_path() is None
    return str(error.value)


# -- the table ------------------------------------------------------------------

# What a name thffi provides is said to be, after its replacement.
PROVIDED_CUSPARSE = ("; thffi provides it over that with with_cuda=True and "
                     "libraries=['cusparse'] (declared by <THC/THC.h>, <cusparse_legacy.h>)")
PROVIDED_THC_H = "; thffi's <THC/THC.h> defines it so, for code that includes it"


def test_thffi_provides_the_legacy_cusparse_families_and_cuda_thread_calls():
    """Those its headers declare, each with the release's row."""
    with open(os.path.join(include_dirs()[0], 'cusparse_legacy.h')) as f:
        declared = {re.sub(r'^X', '', name)
                    for name in re.findall(r'cusparse(?:##t##)?(\w+)\(', f.read())}
    provided = {name for row in cuda_api.REMOVED if row.thffi == 'cusparse' for name in row.names}
    stems = {re.sub(r'^cusparse[SDCZX]', '', name) for name in provided}
    assert stems == declared == {
        'csrmv', 'csrmv_mp', 'csrmm', 'csrmm2', 'csrgemm', 'csrgemmNnz', 'csrgeam', 'csrgeamNnz',
        'csr2csc', 'gthr', 'gthrz', 'sctr', 'axpyi', 'doti', 'dotci'}
    with open(os.path.join(include_dirs()[0], 'cuda_runtime_legacy.h')) as f:
        inline = set(re.findall(r'cudaError_t (cuda\w+)\(', f.read()))
    assert inline == {name for row in cuda_api.REMOVED if row.thffi == 'THC.h'
                      for name in row.names} == {
        'cudaThreadSynchronize', 'cudaThreadExit', 'cudaThreadSetLimit', 'cudaThreadGetLimit',
        'cudaThreadSetCacheConfig', 'cudaThreadGetCacheConfig', 'cudaSetDoubleForDevice',
        'cudaSetDoubleForHost'}


@pytest.mark.parametrize('name, release', [
    ('cusparseScsrmv', '11.0'), ('cusparseScsrmm', '11.0'), ('cusparseScsrgemm', '11.0'),
    ('cusparseXcsrgemmNnz', '11.0'), ('cusparseScsrgeam', '11.0'),
    ('cusparseXcsrgeamNnz', '11.0'), ('cusparseScsr2csc', '11.0'), ('cusparseSgthr', '12.0'),
    ('cusparseShybmv', '11.0'), ('cudaConfigureCall', '10.1'), ('cudaSetupArgument', '10.1'),
    ('cudaLaunch', '10.1'), ('cudaBindTexture', '12.0'), ('cudaUnbindTexture', '12.0'),
    ('cudaBindTextureToArray', '12.0'), ('texture', '12.0'), ('cudaThreadSynchronize', '13.0'),
])
def test_removed_names_have_their_release(name, release):
    assert cuda_api.lookup(name).removed == release


def test_cusparse_families_hold_every_type_letter():
    for stem in ('csrmv', 'csrmm', 'csrgemm', 'csrgeam', 'csr2csc', 'gthr', 'hybmv', 'csrsv2_solve',
                 'axpyi', 'dense2csr'):
        rows = {cuda_api.lookup('cusparse%s%s' % (t, stem)) for t in 'SDCZ'}
        assert len(rows) == 1 and None not in rows, stem
    assert cuda_api.lookup('cusparseCdotci') and not cuda_api.lookup('cusparseSdotci')
    assert cuda_api.lookup('cusparseDroti') and not cuda_api.lookup('cusparseCroti')


def test_each_removed_name_says_what_replaces_it_and_whether_thffi_provides_it():
    assert cuda_api.describe_all(['cusparseScsrmv', 'cusparseDcsrmv']) == [
        'cusparseScsrmv, cusparseDcsrmv: removed from cuSPARSE in CUDA 11.0; use cusparseSpMV, '
        'with cusparseCreateCsr and cusparseCreateDnVec' + PROVIDED_CUSPARSE]
    assert cuda_api.describe_all(['cusparseShybmv']) == [
        'cusparseShybmv: removed from cuSPARSE in CUDA 11.0; use cusparseSpMV, with '
        'cusparseCreateCsr and cusparseCreateDnVec']  # thffi has no HYB format
    assert cuda_api.describe_all(['cudaThreadSynchronize']) == [
        'cudaThreadSynchronize: removed from the CUDA runtime in CUDA 13.0; use '
        'cudaDeviceSynchronize' + PROVIDED_THC_H]
    # Not removed for a toolkit older than the release that removed it.
    assert cuda_api.describe_all(['cudaThreadSynchronize'], (12, 8)) == []
    assert cuda_api.describe_all(['cusparseScsrmv'], (10, 2)) == []
    # cuBLAS's v1 API is still in CUDA 13.
    assert cuda_api.describe_all(['cublasInit']) == []
    assert 'use cublasCreate' in cuda_api.describe_all(['cublasInit'], kept=True)[0]


def test_the_wheel_for_a_library_follows_the_toolkits_major_release():
    assert cuda_api.wheel('cusparse', (13, 0)) == 'nvidia-cusparse'
    assert cuda_api.wheel('curand', None) == 'nvidia-curand'
    assert cuda_api.wheel('cusparse', (12, 8)) == 'nvidia-cusparse-cu12'
    assert cuda_api.wheel('cublasLt', (11, 8)) == 'nvidia-cublas-cu11'


@pytest.mark.parametrize('output, expected', [
    # nvcc
    ('sp.cu(5): error: identifier "cusparseScsrmv" is undefined',
     'cusparseScsrmv: removed from cuSPARSE in CUDA 11.0; use cusparseSpMV'),
    ('tex.cu(2): error: texture is not a template',
     'texture: removed from the CUDA runtime in CUDA 12.0; use texture objects'),
    # gcc, in a UTF-8 locale and in the C locale
    ("x.c:2:22: warning: implicit declaration of function \u2018cudaThreadSynchronize\u2019; "
     "did you mean \u2018cudaStreamSynchronize\u2019? [-Wimplicit-function-declaration]",
     'cudaThreadSynchronize: removed from the CUDA runtime in CUDA 13.0; use '
     'cudaDeviceSynchronize'),
    ("x.c:4:3: error: 'cusparseHybMat_t' undeclared (first use in this function)",
     'cusparseHybMat_t: removed from cuSPARSE in CUDA 11.0'),
    # g++
    ("x.cpp:2:22: error: 'cudaThreadExit' was not declared in this scope",
     'cudaThreadExit: removed from the CUDA runtime in CUDA 13.0; use cudaDeviceReset'),
])
def test_compiler_output_names_the_removed_name(output, expected):
    assert cuda_api.explain(output, None, (13, 0))[0].startswith(expected)


def test_compiler_output_on_a_missing_library_header_names_its_wheel(tmp_path, monkeypatch):
    (tmp_path / 'include').mkdir()  # a toolkit without cuRAND and cuSPARSE
    site = tmp_path / 'site-packages'
    only_these_cuda_wheels(monkeypatch, site)  # and no wheel of the machine's
    monkeypatch.setattr(cuda_toolkit, 'torch_cuda_version', lambda: None)
    lines = cuda_api.explain(
        'x.c:1:10: fatal error: curand.h: No such file or directory\n'
        "x.c:6:3: error: unknown type name 'cusparseHandle_t'\n"
        '/usr/bin/ld: cannot find -lcufft: No such file or directory\n', str(tmp_path), (13, 0))
    assert lines == [
        "curand.h comes with pip install nvidia-curand (or thffi[cuda]): cuRAND's header, "
        "which the CUDA toolkit in %s lacks" % tmp_path,
        "cusparseHandle_t is declared in cusparse.h; cusparse.h comes with pip install "
        "nvidia-cusparse (or thffi[cuda]): cuSPARSE's header, which the CUDA toolkit in %s lacks"
        % tmp_path,
        "-lcufft: cuFFT; the CUDA toolkit in %s has no cuFFT: pip install nvidia-cufft (or "
        "thffi[cuda]) brings it (CUDA 13's cuFFT)" % tmp_path]
    # The header is in the toolkit, but the compile did not search it.
    (tmp_path / 'include' / 'curand.h').write_text('')
    assert cuda_api.explain('x.c:1:10: fatal error: curand.h: No such file or directory',
                            str(tmp_path), (13, 0)) == [
        "curand.h: cuRAND's header, in %s, which this compile did not search: build with "
        "with_cuda=True (or add that folder to include_dirs)" % (tmp_path / 'include')]
    # So too where it is in pip's wheel (nvidia-cusparse's nvidia/cu13/include).
    (site / 'nvidia' / 'cu13' / 'include').mkdir(parents=True)
    (site / 'nvidia' / 'cu13' / 'include' / 'cusparse.h').write_text('')
    assert cuda_api.explain('x.c:1:10: fatal error: cusparse.h: No such file or directory',
                            str(tmp_path), (13, 0)) == [
        "cusparse.h: cuSPARSE's header, in %s, which this compile did not search: build with "
        "with_cuda=True (or add that folder to include_dirs)"
        % (site / 'nvidia' / 'cu13' / 'include')]


@needs_toolkit
def test_the_runtime_rows_match_the_installed_toolkit():
    """Every runtime name the table says this toolkit's release removed is
    neither exported by its libcudart nor declared in its headers."""
    from thffi.toolchain import cuda_toolkit as cuda
    libcudart = sorted(glob.glob(os.path.join(cuda.library_dir(HOME), 'libcudart.so*')))[0]
    exported = set(subprocess.run(['nm', '-D', '--defined-only', libcudart], capture_output=True,
                                  text=True, check=True).stdout.split())
    headers = ''
    for path in glob.glob(os.path.join(HOME, 'include', '*.h')) + glob.glob(
            os.path.join(HOME, 'include', 'crt', '*.h')):
        if not os.path.basename(path).startswith(('cupti', 'generated_')):
            with open(path, errors='replace') as f:
                headers += re.sub(r'/\*.*?\*/|//[^\n]*', '', f.read(), flags=re.S)
    removed = [name for row in cuda_api.REMOVED if row.library == 'cudart'
               and cuda_api.removed_by(row, TOOLKIT) for name in row.names]
    assert 'cudaConfigureCall' in removed
    for name in removed:
        assert not any(s == name or s.startswith(name + '@') for s in exported), name
        assert not re.search(r'\b%s\s*[(<]|struct\s+%s\b' % (name, name), headers), name


# -- builds of ours, one for each family ---------------------------------------

TEXTURE_CU = '''\
    #include "ops_kernel.h"

    /* 2018: a texture reference bound to the input */
    texture<float, 1, cudaReadModeElementType> tex_input;

    __global__ void CopyKernel(int n, float *out)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n)
            out[i] = tex1Dfetch(tex_input, i);
    }

    int CopyLauncher(const float *in, float *out, int n)
    {
        cudaBindTexture(0, tex_input, in, n * sizeof(float));
        CopyKernel<<<(n + 255) / 256, 256>>>(n, out);
        cudaUnbindTexture(tex_input);
        cudaThreadSynchronize();
        return cudaGetLastError() == cudaSuccess;
    }
    '''


@needs_toolkit
def test_texture_references_and_cuda_thread_calls_in_a_cu_file(tmp_path):
    _write(tmp_path, {
        'src/ops.h': 'int ops_copy(THCudaTensor *input, THCudaTensor *output);\n',
        'src/ops.c': '''\
            #include <THC/THC.h>
            #include "ops_kernel.h"
            extern THCState *state;
            int ops_copy(THCudaTensor *input, THCudaTensor *output)
            {
                return CopyLauncher(THCudaTensor_data(state, input),
                                    THCudaTensor_data(state, output),
                                    THCudaTensor_nElement(state, input));
            }
            ''',
        'src/ops_kernel.h': '''\
            #ifdef __cplusplus
            extern "C"
            #endif
            int CopyLauncher(const float *in, float *out, int n);
            ''',
        'src/ops_kernel.cu': TEXTURE_CU})
    message = _build(tmp_path, sources=['src/ops.c', 'src/ops_kernel.cu'], with_cuda=True,
                     include_dirs=['src'])
    assert message.startswith('building _ext.ops failed: nvcc could not compile ')
    assert ('\n  texture, cudaBindTexture, cudaUnbindTexture: removed from the CUDA runtime in CUDA '
            '12.0; use texture objects: cudaCreateTextureObject gives a cudaTextureObject_t, '
            'passed to the kernel and read with tex1Dfetch<T>(object, i)') in message
    if TOOLKIT >= (13, 0):
        assert ('\n  cudaThreadSynchronize: removed from the CUDA runtime in CUDA 13.0; use '
                'cudaDeviceSynchronize') in message


CUDA_THREAD_C = '''\
    #include <THC/THC.h>
    int ops_sync(void)
    {
        size_t heap = 0;
        double scale = 2.0;
        cudaSetDoubleForDevice(&scale);
        cudaThreadSetLimit(cudaLimitMallocHeapSize, 1 << 20);
        cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize);
        return cudaThreadSynchronize() == cudaSuccess && heap > 0;
    }
    '''


@needs_toolkit
def test_cuda_thread_calls_build_through_thc_h_and_fail_by_name_without_it(tmp_path):
    if TOOLKIT < (13, 0):
        pytest.skip('CUDA %d.%d still has cudaThreadSynchronize' % TOOLKIT)
    _write(tmp_path, {'src/ops.h': 'int ops_sync(void);\n', 'src/ops.c': CUDA_THREAD_C})
    ffi = create_extension('_ext.ops', headers=['src/ops.h'], sources=['src/ops.c'],
                           with_cuda=True, relative_to=str(tmp_path / 'build.py'), verbose=False)
    ffi.build()
    undefined = subprocess.run(['nm', '-u', ffi.library_path()], capture_output=True, text=True,
                               check=True).stdout
    assert 'cudaThread' not in undefined and 'cudaDeviceSetLimit' in undefined
    # C that includes the runtime's header alone: named, with THC.h's way
    bare = tmp_path / 'bare'
    _write(bare, {'src/ops.h': 'int ops_sync(void);\n',
                  'src/ops.c': CUDA_THREAD_C.replace('THC/THC.h', 'cuda_runtime.h')})
    message = _build(bare, with_cuda=True)
    assert ('  cudaThreadSetLimit, used in src/ops.c: removed from the CUDA runtime in CUDA 13.0; '
            'use cudaDeviceSetLimit' + PROVIDED_THC_H + '\n') in message, message
    assert ('  cudaThreadSynchronize, used in src/ops.c: removed from the CUDA runtime in CUDA '
            '13.0; use cudaDeviceSynchronize' + PROVIDED_THC_H + '\n') in message, message


# cuSPARSE 9's declarations, as legacy code met them in cusparse.h.
CUSPARSE9_H = '''\
    typedef struct cusparseContext *cusparseHandle_t;
    typedef struct cusparseMatDescr *cusparseMatDescr_t;
    typedef int cusparseStatus_t;
    typedef enum { CUSPARSE_OPERATION_NON_TRANSPOSE = 0 } cusparseOperation_t;
    cusparseStatus_t cusparseScsrmv(cusparseHandle_t handle, cusparseOperation_t transA, int m,
                                    int n, int nnz, const float *alpha,
                                    const cusparseMatDescr_t descrA, const float *csrValA,
                                    const int *csrRowPtrA, const int *csrColIndA, const float *x,
                                    const float *beta, float *y);
    cusparseStatus_t cusparseXcsrgemmNnz(cusparseHandle_t handle, int transA, int transB, int m,
                                         int n, int k, const cusparseMatDescr_t descrA, int nnzA,
                                         const int *rowA, const int *colA,
                                         const cusparseMatDescr_t descrB, int nnzB,
                                         const int *rowB, const int *colB,
                                         const cusparseMatDescr_t descrC, int *rowC, int *nnzC);
    '''
SPMV_C = '''\
    #include <TH/TH.h>
    #include "cusparse9.h"

    int ops_spmv(long handle, long descr, long values, long rows, long cols, long x, long y,
                 int n, int nnz)
    {
        const float one = 1, zero = 0;
        return cusparseScsrmv((cusparseHandle_t)handle, CUSPARSE_OPERATION_NON_TRANSPOSE, n, n,
                              nnz, &one, (cusparseMatDescr_t)descr, (const float *)values,
                              (const int *)rows, (const int *)cols, (const float *)x, &zero,
                              (float *)y) == 0;
    }

    int ops_nnz(long handle, long descr, long rows, long cols, int n, int nnz, long out)
    {
        int total = 0;
        return cusparseXcsrgemmNnz((cusparseHandle_t)handle, 0, 0, n, n, n,
                                   (cusparseMatDescr_t)descr, nnz, (const int *)rows,
                                   (const int *)cols, (cusparseMatDescr_t)descr, nnz,
                                   (const int *)rows, (const int *)cols,
                                   (cusparseMatDescr_t)descr, (int *)out, &total) == 0;
    }
    '''
SPMV_H = '''\
    int ops_spmv(long handle, long descr, long values, long rows, long cols, long x, long y,
                 int n, int nnz);
    int ops_nnz(long handle, long descr, long rows, long cols, int n, int nnz, long out);
    '''


def _todays_cusparse(folder):
    """A libcusparse.so of today's API (the generic one; no legacy names),
    standing in for CUDA 13's."""
    folder.mkdir(parents=True)
    (folder / 'cusparse.c').write_text('int cusparseCreate(void **h) { *h = 0; return 0; }\n'
                                       'int cusparseSpMV(void) { return 0; }\n')
    subprocess.run(['gcc', '-shared', '-fPIC', '-o', 'libcusparse.so', 'cusparse.c'],
                   cwd=folder, check=True)
    return str(folder)


def test_cusparse_legacy_calls_without_cuda_fail_the_link_check_by_name(tmp_path):
    """The library is linked: the message is not "add 'cusparse' to libraries",
    but how thffi provides them (with CUDA: thffi/tests/test_cusparse_legacy.py)."""
    _write(tmp_path, {'src/ops.h': SPMV_H, 'src/ops.c': SPMV_C, 'src/cusparse9.h': CUSPARSE9_H})
    message = _build(tmp_path, libraries=['cusparse'],
                     library_dirs=[_todays_cusparse(tmp_path / 'lib')])
    assert ('  cusparseScsrmv, used in src/ops.c: removed from cuSPARSE in CUDA 11.0; use '
            'cusparseSpMV, with cusparseCreateCsr and cusparseCreateDnVec' + PROVIDED_CUSPARSE
            + '\n') in message, message
    assert ('  cusparseXcsrgemmNnz, used in src/ops.c: removed from cuSPARSE in CUDA 11.0; use '
            'cusparseSpGEMM (cusparseSpGEMM_workEstimation') in message
    assert "add 'cusparse' to libraries" not in message


def test_cusparse_legacy_calls_in_an_extra_object_are_named_before_linking(tmp_path):
    """Not "which the CUDA toolkit lacks (no libcusparse.so)": no cuSPARSE of
    today's would define them."""
    _write(tmp_path, {'src/ops.h': SPMV_H, 'src/spmv.c': SPMV_C, 'src/cusparse9.h': CUSPARSE9_H,
                      'src/ops.c': '#include <TH/TH.h>\n'})
    subprocess.run(['gcc', '-c', '-fPIC', '-o', 'spmv.o', 'spmv.c']
                   + ['-I' + d for d in include_dirs()], cwd=tmp_path / 'src', check=True)
    message = _build(tmp_path, extra_objects=['src/spmv.o'])
    assert message == (
        "create_extension('_ext.ops'): src/spmv.o calls names CUDA removed, and the C calls "
        "ops_nnz, ops_spmv, which it defines:\n"
        "  cusparseScsrmv: removed from cuSPARSE in CUDA 11.0; use cusparseSpMV, with "
        "cusparseCreateCsr and cusparseCreateDnVec" + PROVIDED_CUSPARSE + "\n"
        "  cusparseXcsrgemmNnz: removed from cuSPARSE in CUDA 11.0; use cusparseSpGEMM "
        "(cusparseSpGEMM_workEstimation, cusparseSpGEMM_compute, cusparseSpGEMM_copy), with "
        "cusparseCreateCsr" + PROVIDED_CUSPARSE)


@needs_toolkit
@pytest.mark.parametrize('source, expected', [
    # THC's sparse handle: THC/THC.h includes cusparse.h only where it is.
    ('''\
        #include <THC/THC.h>
        extern THCState *state;
        int ops_handle(void)
        {
            cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
            return handle != NULL;
        }
        ''', 'cusparseHandle_t is declared in cusparse.h; cusparse.h comes with pip install '
             '%s (or thffi[cuda]): cuSPARSE\'s header, which the CUDA toolkit in %s lacks'),
    ('''\
        #include <THC/THC.h>
        #include <curand.h>
        int ops_handle(void) { return 0; }
        ''', 'curand.h comes with pip install %s (or thffi[cuda]): cuRAND\'s header, which '
             'the CUDA toolkit in %s lacks'),
])
def test_a_cuda_library_header_the_toolkit_lacks_is_named_with_its_wheel(tmp_path, monkeypatch,
                                                                          source, expected):
    library = 'cusparse' if 'cusparse' in expected else 'curand'
    header = 'cusparse.h' if library == 'cusparse' else 'curand.h'
    if os.path.isfile(os.path.join(HOME, 'include', header)):
        pytest.skip('the toolkit in %s has %s' % (HOME, header))
    # No wheel of the machine's brings the header in.
    only_these_cuda_wheels(monkeypatch)
    monkeypatch.setenv('CUDA_HOME', HOME)
    _write(tmp_path, {'src/ops.h': 'int ops_handle(void);\n', 'src/ops.c': source})
    message = _build(tmp_path, with_cuda=True)
    assert re.match(r'building _ext\.ops failed: \S+ exited 1 on src/ops\.c\n  ', message), \
        message
    assert expected % (cuda_api.wheel(library, TOOLKIT), HOME) in message, message


# The part of CUDA 13's cublas_v2.h a v1 call meets: each BLAS name is
# #defined as its _v2 function, whose first parameter is the handle.
CUBLAS_V2_H = '''\
    typedef struct cublasContext *cublasHandle_t;
    typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
    typedef int cublasStatus_t;
    cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const float *alpha, const float *A, int lda, const float *B,
                                  int ldb, const float *beta, float *C, int ldc);
    #define cublasSgemm cublasSgemm_v2
    '''


@needs_toolkit
def test_a_cublas_v1_call_beside_thc_says_it_is_cublas_v2s_now(tmp_path):
    _write(tmp_path, {
        'include/cublas_v2.h': CUBLAS_V2_H,
        'src/ops.h': 'int ops_mm(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c);\n',
        'src/ops.c': '''\
            #include <THC/THC.h>
            extern THCState *state;
            int ops_mm(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c)
            {
                int n = (int)THCudaTensor_size(state, a, 0);
                cublasSgemm('n', 'n', n, n, n, 1.0f, THCudaTensor_data(state, a), n,
                            THCudaTensor_data(state, b), n, 0.0f, THCudaTensor_data(state, c), n);
                return 1;
            }
            '''})
    message = _build(tmp_path, with_cuda=True, include_dirs=['include'])
    assert message.endswith(
        "\n  cublasSgemm is cuBLAS v2's cublasSgemm_v2 here (cublas_v2.h, which <THC/THC.h> "
        "includes, defines it so), whose first parameter is a cublasHandle_t: pass "
        "THCState_getCurrentBlasHandle(state) (or a cublasCreate handle) before the v1 "
        "arguments"), message
