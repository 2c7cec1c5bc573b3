/* Private to thffi's own C sources. */
#ifndef THFFI_PRIVATE_H
#define THFFI_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

/* thffi's objects are cached and shared by every copy of thffi, so errors
 * raised in its own code do not name the file where it was compiled: the
 * builder compiles it with __FILE__ relative to csrc/ (-fmacro-prefix-map;
 * generic files are named so by TH_GENERIC_FILE), and the message names it
 * under the folder of the thffi that built the extension (THFFI_home). */
#undef THFFI_FILE
#define THFFI_FILE THFFI_OWN_PREFIX __FILE__
#define THFFI_OWN_MARK "<thffi>/"
#define THFFI_OWN_PREFIX THFFI_OWN_MARK "csrc/"
#include "TH/THGeneral.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every function checks its tensor arguments for NULL (a None from Python),
 * so a missing argument is an error rather than a crash. */
#define THFFI_NONNULL(t, argn) \
  THArgCheck((t) != NULL, argn, "expected a tensor, got NULL (None)")

/* The folder of the thffi that built the extension, for messages;
 * defined by the generated module (builder.py). */
extern const char THFFI_home[];

/* Most CUDA devices the THC layer handles: its per-device tables (device
 * properties, cuBLAS handles) are indexed by device number, and
 * THCState_getCurrentDevice refuses a device beyond them. */
#define THCFFI_MAX_DEVICES 64

/* The dtype number (THFFI_DTYPES order in thffi/builder/tensor_types.py) of each TH real
 * type by its name, e.g. TH_CONCAT_2(THFFI_DTYPE_, Real) in generic code. */
#define THFFI_DTYPE_Float 0
#define THFFI_DTYPE_Double 1
#define THFFI_DTYPE_Byte 2
#define THFFI_DTYPE_Char 3
#define THFFI_DTYPE_Short 4
#define THFFI_DTYPE_Int 5
#define THFFI_DTYPE_Long 6
#define THFFI_DTYPE_Half 7

/* Sets this thread's error message (THFFI_takeError) without leaving the
 * call. */
void THFFI_setError(const char *fmt, ...) TH_FORMAT(1, 2);

/* SciPy's routine `name` of `module` (scipy.linalg.cython_blas or
 * cython_lapack), looked up at its first use into *slot (THBlas.c): what
 * TH's BLAS and LAPACK wrappers run on.  THError naming `caller` when SciPy
 * is missing or lacks it. */
void *THFFI_scipyFunction(void **slot, const char *module, const char *name,
                          const char *caller);

/* ---- the threads of a call (THGeneral.c; used by THThreads.c, THC.c) ---- */
typedef struct THFFICall THFFICall;
/* What the threads of the current thread's call share, made on first use;
 * NULL outside every call.  Owned by the call's frame (and by the threads
 * that retain it): valid while the current frame is. */
THFFICall *THFFI_callOf(void);
void THFFI_retainCall(THFFICall *call);
void THFFI_releaseCall(THFFICall *call);
/* Runs the current thread under `worker`, a frame of `call` (pushed; its
 * jmp_buf is the caller's to set), until THFFI_leaveWorker. */
void THFFI_enterWorker(THFFIFrame *worker, THFFICall *call);
void THFFI_leaveWorker(THFFIFrame *worker);
/* On a thread whose threads of `call` have ended (an OpenMP team): leaves
 * the innermost frame, as THError, when one of the call's threads failed
 * and the call has not ended. */
void THFFI_checkCall(THFFICall *call);
/* The THCudaMalloc'ed blocks of the current call (THC.c). */
int THFFI_trackAlloc(THFFIAlloc *node);
void THFFI_untrackAlloc(uintptr_t ptr);
/* CUDA builds: set at load by THC.c.  share(frame): before the call's first
 * thread starts, on the calling thread (reads the call's stream, which
 * PyTorch keeps per thread); enter(device): on a thread of a CUDA call,
 * makes its device current, returning the previous one or -1 (may raise);
 * leave(previous): restores it (never raises). */
typedef struct THFFICudaHooks {
  void (*share)(THFFIFrame *frame);
  int (*enter)(int device);
  void (*leave)(int previous);
} THFFICudaHooks;
extern THFFICudaHooks *THFFI_cudaHooks;

/* In extensions with C++ code: THFFI_cxxCall, set at load by THCxx.cpp;
 * threads the C starts run their work through it. */
extern void (*THFFI_cxxGuard)(void (*fn)(void *), void *ctx);
/* Runs fn(arg) on the current thread as work of `call` (THThreads.c): under
 * a worker frame, with a CUDA call's device current, through
 * THFFI_cxxGuard.  1 when fn returned; 0 when an error ended it (recorded
 * for the call to raise). */
int THFFI_runWorker(THFFICall *call, void (*fn)(void *), void *arg);

/* Reports what happened on a thread that no call can raise it to, with the
 * GIL: a RuntimeError through sys.unraisablehook (error), or a
 * RuntimeWarning (else; through sys.unraisablehook too when warnings are
 * errors).  Defined in THPython.c. */
void THFFIPy_report(int error, const char *fmt, ...) TH_FORMAT(2, 3);

/* Does `op` (THFFI_OP_*) to the torch tensor behind `priv` (`src` being the
 * source of views and copies), or makes a new one (NEW: `dtype`, `device`
 * (-1: CPU), sizes `args`; CONTIGUOUS, CLONE: from `src`); then describes
 * the result in priv (obj, dim, sizes, strides) and its data pointer in
 * *data_out.  RELEASE drops a created tensor and describes nothing.  Takes
 * the GIL; never raises: a failure returns non-zero with a message in
 * `err`.  Defined in THPython.c. */
int THFFIPy_tensorOp(int op, THFFITensorPriv *priv, const THFFITensorPriv *src, int dtype,
                     int device, int n, const int64_t *args, uintptr_t *data_out, char *err,
                     size_t errlen);

/* A tensor's first element, for thffi's own code (which reads the strides):
 * THTensor_(data) without THFFI_CHECK_LAYOUT's check. */
#define THFFI_DATA(t) ((t)->storage == NULL ? NULL : (t)->storage->data + (t)->storageOffset)

/* THFFI_CHECK_LAYOUT=1 in the environment when an extension was installed:
 * THTensor_(data) of an argument that is not contiguous, and whose layout
 * the C has not read, warns (THFFIPy_layoutWarning).  0 costs one load. */
extern int THFFI_checkLayout;
/* Warns (RuntimeWarning, once per wrapped function and argument) that C took
 * `accessor` (e.g. "THFloatTensor_data") of the argument `priv`, of sizes and
 * strides `size`, `stride`, without reading its layout.  Takes the GIL; where
 * warnings are errors, ends the call with the warning's message.  Defined in
 * THPython.c. */
void THFFIPy_layoutWarning(const char *accessor, const THFFITensorPriv *priv,
                           const int64_t *size, const int64_t *stride);

/* A number a math function returns (THFFI_math): an int when is_int. */
typedef struct THFFIMathValue {
  int is_int;
  int64_t i;
  double d;
} THFFIMathValue;

/* Runs the PyTorch operation `op` of thffi/runtime/thmath.py (looked up as
 * `lib`:`op`, then `op`) for the TH/THC function `name` (a string literal,
 * for messages) on the arguments that follow, described by `sig`, one
 * letter each: T a tensor struct (NULL: None), A an array of tensor structs
 * followed by its length (int), S a THLongStorage * of sizes, i an int64_t,
 * d a double, s a const char *.  The result tensors are re-read afterwards;
 * a number the operation returns goes into *ret (may be NULL).  Takes the
 * GIL; what PyTorch raises ends the call with THError("name: message").
 * Defined in THMath.c. */
void THFFI_math(const char *name, const char *op, const char *lib, const char *sig,
                THFFIMathValue *ret, ...);

/* THFFIRelease functions (THFFI_OP_WRAP), in THGeneral.c: through a
 * THAllocator's free; munmap of `bytes` (ctx) bytes. */
void THFFI_releaseWithAllocator(void *allocator, void *ctx, void *data);
void THFFI_releaseMapping(void *allocator, void *bytes, void *data);
/* CUDA builds only (THC.c): THFFIRelease functions for THCudaMalloc'ed
 * memory and through a THCDeviceAllocator's free; and stops freeing a
 * THCudaMalloc'ed block when the call fails (a storage owns it). */
void THCFFI_releaseCudaMalloc(void *allocator, void *ctx, void *data);
void THCFFI_releaseWithDeviceAllocator(void *allocator, void *ctx, void *data);
void THCFFI_keepAlloc(uintptr_t ptr);
/* Maps `filename` as THStorage_(newWithMapping) does (flags:
 * TH_ALLOCATOR_MAPPED_SHARED or 0); *bytes 0 maps the whole file and says
 * its size.  NULL for an empty mapping; THError on failure. */
void *THFFI_mapFile(const char *filename, ptrdiff_t *bytes, int flags);

/* Installs the crash report (THCrash.c) for the extension module `module`,
 * once per extension; called when the module installs its functions. */
void THFFI_installCrashReport(const char *module);

/* Callbacks into Python, defined by the cffi module of each extension
 * (extern "Python+C" in the builder's cdef).  They run with the GIL taken by
 * cffi and never raise: a failure returns non-zero with a message in `err`. */

/* CUDA builds only: PyTorch's current stream on `device` (-1: the current
 * device) for the calling thread. */
int _thffi_stream_cb(int device, uintptr_t *stream_out, char *err, size_t errlen);
/* CUDA builds only: PyTorch's caching allocator.  `size` > 0 allocates on
 * `device` for `stream` into *ptr; size 0 frees *ptr. */
int _thffi_cuda_memory_cb(int device, uintptr_t stream, size_t size, uintptr_t *ptr,
                          char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
