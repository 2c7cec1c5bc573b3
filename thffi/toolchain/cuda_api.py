"""The CUDA names 2017-2018 code called that today's toolkits lack, and the
headers a build needs that a toolkit may not hold.

Each row of REMOVED is a family: the names (derived, where a rule makes
them, from a pattern and cuSPARSE's type letters S, D, C, Z), the library,
the CUDA release that removed them (None: still there) and what replaces
them.  The releases are NVIDIA's: the runtime's and cuSPARSE's deprecation
lists and release notes, checked against CUDA 13.0 itself (libcudart.so.13,
and the nvidia-cusparse 12.6.3.3 and nvidia-cublas 13.0.0.19 wheels: none
of the removed names is declared or exported there).  Only names that the
toolkits of 2018 (CUDA 8 to 10.0) had are listed.

The builder reads the table in three places: an object of extra_objects
that calls a name the installed toolkit's release removed is stale and is
rebuilt from its .cu (builder/configure.py); a name nothing defines at the link
check (builder/link.py), and a compiler's error output (explain()), are
answered with the name, the release and the replacement.

Where the replacement does the same work, thffi provides the removed name
over it, as it provides TH and THC over today's PyTorch (a row's `thffi`):
'THC.h' (an inline function of include/cuda_runtime_legacy.h, which
<THC/THC.h> includes: for code compiled against it), 'cccl' (defined by
include/cccl_legacy.h, which thffi's nvcc compiles of 2018 sources include
first: for their functors' base classes) or 'cusparse' (declared
by include/cusparse_legacy.h, which <THC/THC.h> includes, and defined by
csrc/THCSparseLegacy.c in an extension built with_cuda that links
cuSPARSE: for prebuilt objects too).

cuBLAS's v1 API (cublas.h: cublasInit, cublasSgemm without a handle...) is
not removed: CUDA 13.0's cublas.h declares it and libcublas.so.13 exports
it.  What a 2018 build meets is cublas_v2.h, which <THC/THC.h> includes (as
PyTorch 0.4's did): it defines each BLAS name as its _v2 function, which
takes a cublasHandle_t first, and cannot be included with cublas.h."""

import collections
import os
import re

from . import cuda_toolkit
from .libraries import HEADER_ONLY, HEADERS, LIBRARIES, header_message, install as _install, \
    wheel as _wheel

# compiled: nvcc wrote the calls, not the code's author (an object calling
# them was built by an old toolkit, and compiling its .cu again mends it).
# thffi: how thffi provides the names (None, 'THC.h' or 'cusparse').
Removed = collections.namedtuple('Removed', 'names library removed replacement compiled thffi',
                                 defaults=(False, None))

# What a row's `thffi` says of its names, after the replacement.
PROVIDED = {
    'THC.h': "thffi's <THC/THC.h> defines it so, for code that includes it",
    'cusparse': ("thffi provides it over that with with_cuda=True and libraries=['cusparse'] "
                 "(declared by <THC/THC.h>, <cusparse_legacy.h>)"),
    'cccl': ("thffi's <cccl_legacy.h> defines it as Thrust 2 did, included first in the CUDA "
             "compiles of create_extension and `thffi run`"),
}

TYPES = 'SDCZ'


def _typed(*patterns, types=TYPES):
    """The names of cuSPARSE patterns like 'cusparse{t}csrmv', one per type letter."""
    return tuple(p.format(t=t) for p in patterns for t in types)


_SPMV = 'cusparseSpMV, with cusparseCreateCsr and cusparseCreateDnVec'
_SPMM = 'cusparseSpMM, with cusparseCreateCsr and cusparseCreateDnMat'
_SPGEMM = ('cusparseSpGEMM (cusparseSpGEMM_workEstimation, cusparseSpGEMM_compute, '
           'cusparseSpGEMM_copy), with cusparseCreateCsr')
_SPSV = 'cusparseSpSV (cusparseSpSV_bufferSize, _analysis, _solve), with cusparseCreateCsr'
_SPSM = 'cusparseSpSM (cusparseSpSM_bufferSize, _analysis, _solve), with cusparseCreateCsr'
_NO_HYB = 'a CSR matrix (cusparseCreateCsr) with cusparseSpMV: the HYB format is gone'

REMOVED = [
    # -- the CUDA runtime ----------------------------------------------------
    Removed(('cudaConfigureCall', 'cudaSetupArgument', 'cudaLaunch'), 'cudart', '10.1',
            'cudaLaunchKernel, which nvcc 10.1 and later compile a <<<...>>> launch into: an '
            'object calling these was built by CUDA 10.0 or older; rebuild it from its .cu',
            compiled=True),
    Removed(('texture', 'cudaBindTexture', 'cudaBindTexture2D', 'cudaBindTextureToArray',
             'cudaBindTextureToMipmappedArray', 'cudaUnbindTexture',
             'cudaGetTextureAlignmentOffset', 'cudaGetTextureReference'), 'cudart', '12.0',
            'texture objects: cudaCreateTextureObject gives a cudaTextureObject_t, passed to the '
            'kernel and read with tex1Dfetch<T>(object, i)'),
    Removed(('surface', 'cudaBindSurfaceToArray', 'cudaGetSurfaceReference'), 'cudart', '12.0',
            'surface objects: cudaCreateSurfaceObject gives a cudaSurfaceObject_t, passed to the '
            'kernel'),
    Removed(('cudaProfilerInitialize',), 'cudart', '12.0',
            'Nsight Systems (nsys) to profile, and no call'),
] + [
    Removed(('cudaThread' + what,), 'cudart', '13.0', 'cudaDevice' + what, thffi='THC.h')
    for what in ('Synchronize', 'SetLimit', 'GetLimit', 'SetCacheConfig', 'GetCacheConfig')
] + [
    Removed(('cudaThreadExit',), 'cudart', '13.0', 'cudaDeviceReset', thffi='THC.h'),
    Removed(('cudaSetDoubleForDevice', 'cudaSetDoubleForHost'), 'cudart', '13.0',
            'no call: doubles need no conversion for today\'s GPUs', thffi='THC.h'),
    Removed(('cudaLaunchCooperativeKernelMultiDevice',), 'cudart', '13.0',
            'cudaLaunchCooperativeKernel, once per device'),

    # -- cuSPARSE's legacy API: removed in CUDA 11.0 ---------------------------
    Removed(_typed('cusparse{t}csrmv', 'cusparse{t}csrmv_mp'), 'cusparse', '11.0', _SPMV,
            thffi='cusparse'),
    Removed(_typed('cusparse{t}hybmv'), 'cusparse', '11.0', _SPMV),
    Removed(_typed('cusparse{t}csrmm', 'cusparse{t}csrmm2'), 'cusparse', '11.0', _SPMM,
            thffi='cusparse'),
    Removed(_typed('cusparse{t}csrgemm') + ('cusparseXcsrgemmNnz',), 'cusparse', '11.0',
            _SPGEMM, thffi='cusparse'),
    Removed(_typed('cusparse{t}csrgeam') + ('cusparseXcsrgeamNnz',), 'cusparse', '11.0',
            'cusparse<t>csrgeam2, with cusparse<t>csrgeam2_bufferSizeExt and '
            'cusparseXcsrgeam2Nnz', thffi='cusparse'),
    Removed(_typed('cusparse{t}csr2csc'), 'cusparse', '11.0',
            'cusparseCsr2cscEx2, with cusparseCsr2cscEx2_bufferSize', thffi='cusparse'),
    Removed(('cusparseCsr2cscEx',), 'cusparse', '11.0',
            'cusparseCsr2cscEx2, with cusparseCsr2cscEx2_bufferSize'),
    Removed(_typed('cusparse{t}csrsv_analysis', 'cusparse{t}csrsv_solve')
            + ('cusparseCsrsv_analysisEx', 'cusparseCsrsv_solveEx', 'cusparseGetLevelInfo',
               'cusparseCreateSolveAnalysisInfo', 'cusparseDestroySolveAnalysisInfo',
               'cusparseSolveAnalysisInfo', 'cusparseSolveAnalysisInfo_t'), 'cusparse', '11.0',
            _SPSV),
    Removed(_typed('cusparse{t}csrsm_analysis', 'cusparse{t}csrsm_solve'), 'cusparse', '11.0',
            _SPSM),
    Removed(_typed('cusparse{t}csric0'), 'cusparse', '11.0',
            'cusparse<t>csric02 (with cusparseCreateCsric02Info)'),
    Removed(_typed('cusparse{t}csrilu0') + ('cusparseCsrilu0Ex',), 'cusparse', '11.0',
            'cusparse<t>csrilu02 (with cusparseCreateCsrilu02Info)'),
    Removed(_typed('cusparse{t}gtsv', 'cusparse{t}gtsv_nopivot', 'cusparse{t}gtsvStridedBatch'),
            'cusparse', '11.0',
            'cusparse<t>gtsv2, cusparse<t>gtsv2_nopivot, cusparse<t>gtsv2StridedBatch (each '
            'with its _bufferSizeExt)'),
    Removed(_typed('cusparse{t}csr2hyb', 'cusparse{t}csc2hyb', 'cusparse{t}dense2hyb',
                   'cusparse{t}hyb2csr', 'cusparse{t}hyb2csc', 'cusparse{t}hyb2dense',
                   'cusparse{t}hybsv_analysis', 'cusparse{t}hybsv_solve')
            + ('cusparseCreateHybMat', 'cusparseDestroyHybMat', 'cusparseHybMat',
               'cusparseHybMat_t', 'cusparseHybPartition_t'), 'cusparse', '11.0', _NO_HYB),
    Removed(_typed('cusparse{t}doti') + _typed('cusparse{t}dotci', types='CZ'), 'cusparse',
            '11.0', 'cusparseSpVV, with cusparseCreateSpVec and cusparseCreateDnVec',
            thffi='cusparse'),

    # -- cuSPARSE's legacy API: removed in CUDA 12.0 ---------------------------
    Removed(_typed('cusparse{t}axpyi'), 'cusparse', '12.0',
            'cusparseAxpby, with cusparseCreateSpVec and cusparseCreateDnVec', thffi='cusparse'),
    Removed(_typed('cusparse{t}gthr', 'cusparse{t}gthrz'), 'cusparse', '12.0',
            'cusparseGather, with cusparseCreateSpVec and cusparseCreateDnVec (gthrz: then '
            'zero those entries of the dense vector)', thffi='cusparse'),
    Removed(_typed('cusparse{t}sctr'), 'cusparse', '12.0',
            'cusparseScatter, with cusparseCreateSpVec and cusparseCreateDnVec',
            thffi='cusparse'),
    Removed(_typed('cusparse{t}roti', types='SD'), 'cusparse', '12.0',
            'cusparseRot, with cusparseCreateSpVec and cusparseCreateDnVec'),
    Removed(_typed('cusparse{t}csr2dense', 'cusparse{t}csc2dense'), 'cusparse', '12.0',
            'cusparseSparseToDense (with cusparseSparseToDense_bufferSize)'),
    Removed(_typed('cusparse{t}dense2csr', 'cusparse{t}dense2csc'), 'cusparse', '12.0',
            'cusparseDenseToSparse_analysis and cusparseDenseToSparse_convert'),
    Removed(_typed('cusparse{t}csrgemm2', 'cusparse{t}csrgemm2_bufferSizeExt')
            + ('cusparseXcsrgemm2Nnz', 'cusparseCreateCsrgemm2Info',
               'cusparseDestroyCsrgemm2Info'), 'cusparse', '12.0', _SPGEMM),
    Removed(_typed('cusparse{t}csrsv2_bufferSize', 'cusparse{t}csrsv2_bufferSizeExt',
                   'cusparse{t}csrsv2_analysis', 'cusparse{t}csrsv2_solve')
            + ('cusparseXcsrsv2_zeroPivot', 'cusparseCreateCsrsv2Info',
               'cusparseDestroyCsrsv2Info'), 'cusparse', '12.0', _SPSV),
    Removed(_typed('cusparse{t}csrsm2_bufferSizeExt', 'cusparse{t}csrsm2_analysis',
                   'cusparse{t}csrsm2_solve')
            + ('cusparseXcsrsm2_zeroPivot', 'cusparseCreateCsrsm2Info',
               'cusparseDestroyCsrsm2Info'), 'cusparse', '12.0', _SPSM),
    Removed(_typed('cusparse{t}gemmi'), 'cusparse', '12.0', _SPMM),
    Removed(('cusparseCsrmvEx', 'cusparseCsrmvEx_bufferSize', 'cusparseAlgMode_t'), 'cusparse',
            '12.0', _SPMV),
    Removed(('cusparseCopyMatDescr',), 'cusparse', '12.0',
            'cusparseCreateMatDescr, then the cusparseSetMat* setters'),

    # -- CCCL: Thrust 3.0 (CUDA 13.0) removed the C++98 functor bases ----------
    Removed(('binary_function', 'unary_function'), 'cccl', '13.0',
            'no base class: a functor with operator() (C++11 and Thrust deduce its types); '
            'the names were thrust::binary_function and thrust::unary_function',
            thffi='cccl'),

    # -- cuBLAS's v1 helpers: still in CUDA 13's cublas.h ----------------------
    Removed(('cublasInit',), 'cublas', None,
            'cublasCreate (in THC code: THCState_getCurrentBlasHandle(state))'),
    Removed(('cublasShutdown',), 'cublas', None, 'cublasDestroy'),
    Removed(('cublasAlloc', 'cublasFree'), 'cublas', None,
            'cudaMalloc and cudaFree (in THC code: THCudaMalloc and THCudaFree)'),
    Removed(('cublasGetError',), 'cublas', None, 'the cublasStatus_t each v2 function returns'),
    Removed(('cublasSetKernelStream',), 'cublas', None, 'cublasSetStream'),
]

_BY_NAME = {name: row for row in REMOVED for name in row.names}

# Names of removed C++ templates: only `texture<...>` or "texture is not a
# template" in a compiler's line is one (a variable may be called texture).
_TEMPLATES = ('texture', 'surface')

# A cuBLAS v2 function, as cublas_v2.h names a BLAS call: cublasSgemm is
# #defined as cublasSgemm_v2, whose first parameter is a cublasHandle_t.
_CUBLAS_V2 = re.compile(r'cublas(\w+?)_v2$')

def lookup(name):
    """The row of REMOVED naming `name` (a C name; a C++ one by its
    unqualified name), or None."""
    return _BY_NAME.get(name)


def release(version):
    """(major, minor) of a release spelled '12.0', or None for None."""
    return tuple(int(p) for p in version.split('.')[:2]) if version else None


def removed_by(row, toolkit):
    """Whether the toolkit release `toolkit` ((major, minor); None: one of
    today's) lacks row's names."""
    return row.removed is not None and (toolkit is None or toolkit >= release(row.removed))


def describe(names, row):
    """One line: the names (of one row), the release that removed them and
    their replacement."""
    names = ', '.join(names)
    if row.removed is None:
        return ('%s: cuBLAS\'s v1 API (cublas.h, still in CUDA 13), which cannot be used '
                'beside cublas_v2.h (<THC/THC.h> includes it): use %s' % (names, row.replacement))
    what = LIBRARIES[row.library].what if row.library in LIBRARIES else HEADER_ONLY[row.library]
    return '%s: removed from %s in CUDA %s; use %s%s' % (
        names, what, row.removed, row.replacement,
        '; ' + PROVIDED[row.thffi] if row.thffi else '')


def describe_all(names, toolkit=None, kept=False):
    """describe() for each row among `names` that `toolkit` lacks (kept:
    also those of cuBLAS's v1 API, still there), in the order the names
    come; the names no such row holds are left out."""
    rows = {}
    for name in names:
        row = lookup(name)
        if (row and (removed_by(row, toolkit) or kept and row.removed is None)
                and name not in rows.setdefault(row, [])):
            rows[row].append(name)
    return [describe(found, row) for row, found in rows.items()]


def toolkit_version(home):
    """(major, minor) of the CUDA toolkit at `home` (its runtime's
    CUDART_VERSION, wherever its runtime's headers lie), or None."""
    return cuda_toolkit.toolkit_version(home) if home else None


def wheel(library, toolkit):
    """The pip wheel that holds `library`'s headers and shared library for
    the CUDA major release of `toolkit` ((major, minor), or None: 13)."""
    return _wheel(library, toolkit and toolkit[0])


def header_hint(header, home, toolkit):
    """What to say of a CUDA library header the compiler did not find, or None."""
    library = HEADERS.get(os.path.basename(header))
    folder = library and _header_folder(home, header)
    if folder:
        return ('%s: %s\'s header, in %s, which this compile did not search: build with '
                'with_cuda=True (or add that folder to include_dirs)'
                % (header, LIBRARIES[library][0], folder))
    return library and '%s: %s\'s header, which %s' % (
        header_message(header, toolkit and toolkit[0]), LIBRARIES[library][0],
        'the CUDA toolkit in %s lacks' % home if home else 'no CUDA toolkit was found to hold')


def library_hint(library, home, toolkit):
    """What to say of a CUDA library (its -l name) the linker did not find."""
    return '-l%s: %s; %s' % (library, LIBRARIES[library][0], _wheel_hint(library, home, toolkit))


def _wheel_hint(library, home, toolkit):
    what = LIBRARIES[library][0]
    return '%s: %s brings it (CUDA %d\'s %s)' % (
        'the CUDA toolkit in %s has no %s' % (home, what) if home else 'no CUDA toolkit was found',
        _install(library, toolkit and toolkit[0]), toolkit[0] if toolkit else 13, what)


# Lines of gcc, g++ and nvcc output that name an identifier the compiler
# does not know, and the missing-header line.
_DIAGNOSTIC = re.compile(r'error|implicit declaration|undeclared|undefined|not declared|'
                         r'unknown type name|does not name|not a template|too few arguments|'
                         r'incompatible type for argument')
_IDENTIFIER = re.compile(r'[A-Za-z_]\w*')
_MISSING_HEADER = re.compile(r'fatal error: ([\w./+-]+\.h): No such file or directory')
_MISSING_LIBRARY = re.compile(r'cannot find -l(\w+)')
# A type of a CUDA library the compiler did not know (its header was not
# there to include: THC's headers include cuBLAS's and cuSPARSE's when
# the toolkit has them), and the header that declares it.
_UNKNOWN_TYPE = re.compile(r'(unknown type name|is undefined|does not name a type).*?'
                           r'\b((cusparse|curand|cublas|cufft|cusolver)[A-Z]\w*_t)\b'
                           r'|\b((cusparse|curand|cublas|cufft|cusolver)[A-Z]\w*_t)\b.*?'
                           r'(unknown type name|is undefined|does not name a type)')
TYPE_HEADERS = {name: LIBRARIES[name].headers[0]
                for name in ('cusparse', 'curand', 'cublas', 'cufft', 'cusolver')}


def explain(output, home=None, toolkit=None):
    """The lines that say why a compiler's output (gcc, g++ or nvcc) failed
    on what CUDA removed or a toolkit lacks: each removed name (once) with
    its release and replacement, a cuBLAS v1 call that cublas_v2.h turned
    into a v2 one, and each missing CUDA library header with the wheel that
    brings it.  [] when nothing in `output` is one of those."""
    lines, seen, removed = [], set(), []
    for line in output.splitlines():
        header = _MISSING_HEADER.search(line)
        if header and header.group(1) not in seen:
            seen.add(header.group(1))
            hint = header_hint(header.group(1), home, toolkit)
            lines += [hint] if hint else []
        library = _MISSING_LIBRARY.search(line)
        if library and library.group(1) in HEADERS.values() and library.group(1) not in seen:
            seen.add(library.group(1))
            lines.append(library_hint(library.group(1), home, toolkit))
        if not _DIAGNOSTIC.search(line):
            continue
        for name in _IDENTIFIER.findall(line):
            row, v2 = lookup(name), _CUBLAS_V2.match(name)
            if name in seen or name in _TEMPLATES and not re.search(
                    r'\b%s\b(\s*<| is not a template)' % name, line):
                continue
            if row and (removed_by(row, toolkit) or row.removed is None):
                seen.add(name)
                removed.append(name)
            elif v2 and re.search('too few arguments|incompatible type', line):
                seen.add(name)
                lines.append('cublas%s is cuBLAS v2\'s %s here (cublas_v2.h, which <THC/THC.h> '
                             'includes, defines it so), whose first parameter is a '
                             'cublasHandle_t: pass THCState_getCurrentBlasHandle(state) (or a '
                             'cublasCreate handle) before the v1 arguments'
                             % (v2.group(1), name))
        # A library type unknown because its header is not in the toolkit
        # (a type the header had and dropped is one of REMOVED's names).
        unknown = _UNKNOWN_TYPE.search(line)
        type_name = unknown and (unknown.group(2) or unknown.group(4))
        if unknown and not lookup(type_name):
            header = TYPE_HEADERS[unknown.group(3) or unknown.group(5)]
            if header not in seen and not _header_folder(home, header):
                seen.add(header)
                lines.append('%s is declared in %s; %s' % (type_name, header,
                                                           header_hint(header, home, toolkit)))
    return describe_all(removed, toolkit, kept=True) + lines


def _header_folder(home, header):
    """The folder among the CUDA headers a build with the toolkit at home
    searches (the toolkit's, then those of pip's wheels: cuda_toolkit.header_dirs)
    holding `header`, or None."""
    return next((folder for folder in cuda_toolkit.header_dirs(home)
                 if os.path.isfile(os.path.join(folder, header))), None)
