/* THC layer: the legacy global state, devices, streams, CUDA error checks,
 * device memory, cuBLAS, and the THC tensor functions that need no kernel. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include "THC/THC.h"
#include "thffi_private.h"

/* Per-device tables below are indexed by device number. */
#define THCFFI_MAX_DEVICES 64

struct THCState {
  int unused;
};
static THCState thffi_state;
THCState *state = &thffi_state;

static THFFIFrame *thffi_frame(void) {
  THFFIFrame *frame = THFFI_currentFrame();
  if (frame == NULL) THError("THC function called outside a wrapped call");
  return frame;
}

cudaStream_t THCState_getCurrentStream(THCState *s) {
  char err[THFFI_MSG_LEN];
  THFFIFrame *frame = thffi_frame();
  (void)s;
  /* Read by the entry point (THFFIPy_cudaStream) or else fetched here once
   * per call: the stream cannot change while the call runs, since it holds
   * the calling thread. */
  if (!frame->has_stream) {
    if (_thffi_stream_cb(frame->device, &frame->stream, err, sizeof err) != 0)
      THError("%s", err);
    frame->has_stream = 1;
  }
  return (cudaStream_t)frame->stream;
}

int THCState_getCurrentDevice(THCState *s) {
  int device;
  (void)s;
  THCudaCheck(cudaGetDevice(&device));
  THArgCheck(device >= 0 && device < THCFFI_MAX_DEVICES, 1, "device %d beyond the %d supported",
             device, THCFFI_MAX_DEVICES);
  return device;
}

struct cudaDeviceProp *THCState_getCurrentDeviceProperties(THCState *s) {
  static struct cudaDeviceProp props[THCFFI_MAX_DEVICES];
  static int loaded[THCFFI_MAX_DEVICES];
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  int device = THCState_getCurrentDevice(s);
  cudaError_t err = cudaSuccess;
  pthread_mutex_lock(&lock);
  if (!loaded[device]) {
    err = cudaGetDeviceProperties(&props[device], device);
    loaded[device] = err == cudaSuccess;
  }
  pthread_mutex_unlock(&lock);
  THCudaCheck(err);
  return &props[device];
}

/* Tells PyTorch's caching allocator to free ptr; never raises. */
static void thcffi_release(uintptr_t ptr) {
  char err[THFFI_MSG_LEN];
  _thffi_cuda_memory_cb(-1, 0, 0, &ptr, err, sizeof err);
}

cudaError_t THCudaMalloc(THCState *s, void **ptr, size_t size) {
  char err[THFFI_MSG_LEN];
  uintptr_t p = 0;
  THFFIFrame *frame = thffi_frame();
  THFFIAlloc *node;
  THArgCheck(ptr != NULL, 2, "expected a pointer to store the address in");
  *ptr = NULL;
  if (size == 0) return cudaSuccess;
  node = (THFFIAlloc *)malloc(sizeof *node);
  if (node == NULL) THError("out of memory");
  if (_thffi_cuda_memory_cb(THCState_getCurrentDevice(s),
                            (uintptr_t)THCState_getCurrentStream(s), size, &p, err,
                            sizeof err) != 0) {
    free(node);
    THError("%s", err);
  }
  node->ptr = p;
  node->next = frame->allocs;
  frame->allocs = node;
  *ptr = (void *)p;
  return cudaSuccess;
}

void *THFFI_cudaMallocPtr(THCState *s, size_t size) {
  void *ptr;
  THCudaMalloc(s, &ptr, size);
  return ptr;
}

/* Stops tracking ptr in the call that allocated it, if one still runs. */
static void thcffi_forget(uintptr_t ptr) {
  THFFIFrame *frame;
  for (frame = THFFI_currentFrame(); frame != NULL; frame = frame->prev) {
    THFFIAlloc **link = &frame->allocs;
    for (; *link != NULL; link = &(*link)->next) {
      if ((*link)->ptr == ptr) {
        THFFIAlloc *node = *link;
        *link = node->next;
        free(node);
        return;
      }
    }
  }
}

cudaError_t THCudaFree(THCState *s, void *ptr) {
  (void)s;
  if (ptr == NULL) return cudaSuccess;
  thcffi_forget((uintptr_t)ptr);
  thcffi_release((uintptr_t)ptr);
  return cudaSuccess;
}

void THCFFI_freeAllocs(THFFIFrame *frame) {
  while (frame->allocs != NULL) {
    THFFIAlloc *node = frame->allocs;
    frame->allocs = node->next;
    thcffi_release(node->ptr);
    free(node);
  }
}

/* cuBLAS, found at run time: the library PyTorch loaded if it did, else the
 * one the loader finds.  The few entry points used are declared here, so
 * building needs no cuBLAS headers or library. */
typedef int (*thcffi_create_fn)(void **handle);
typedef int (*thcffi_set_stream_fn)(void *handle, cudaStream_t stream);
typedef int (*thcffi_sgemm_fn)(void *, int, int, int, int, int, const float *, const float *,
                               int, const float *, int, const float *, float *, int);
typedef int (*thcffi_dgemm_fn)(void *, int, int, int, int, int, const double *,
                               const double *, int, const double *, int, const double *,
                               double *, int);
static struct {
  thcffi_create_fn create;
  thcffi_set_stream_fn set_stream;
  thcffi_sgemm_fn sgemm;
  thcffi_dgemm_fn dgemm;
  char error[256];
} thcffi_cublas;
static pthread_once_t thcffi_cublas_once = PTHREAD_ONCE_INIT;

static void thcffi_load_cublas(void) {
  char name[64];
  void *lib;
  snprintf(name, sizeof name, "libcublas.so.%d", CUDART_VERSION / 1000);
  lib = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
  if (lib == NULL) lib = dlopen(name, RTLD_NOW);
  if (lib == NULL) lib = dlopen("libcublas.so", RTLD_NOW);
  if (lib == NULL) {
    snprintf(thcffi_cublas.error, sizeof thcffi_cublas.error,
             "cuBLAS (%s) could not be loaded: %s", name, dlerror());
    return;
  }
  *(void **)&thcffi_cublas.create = dlsym(lib, "cublasCreate_v2");
  *(void **)&thcffi_cublas.set_stream = dlsym(lib, "cublasSetStream_v2");
  *(void **)&thcffi_cublas.sgemm = dlsym(lib, "cublasSgemm_v2");
  *(void **)&thcffi_cublas.dgemm = dlsym(lib, "cublasDgemm_v2");
  if (!thcffi_cublas.create || !thcffi_cublas.set_stream || !thcffi_cublas.sgemm ||
      !thcffi_cublas.dgemm)
    snprintf(thcffi_cublas.error, sizeof thcffi_cublas.error,
             "cuBLAS (%s) lacks the gemm entry points", name);
}

/* This thread's cuBLAS handle for the call's device, set to its stream. */
static void *thcffi_blas_handle(THCState *s) {
  static __thread void *handles[THCFFI_MAX_DEVICES];
  int device = THCState_getCurrentDevice(s), status;
  pthread_once(&thcffi_cublas_once, thcffi_load_cublas);
  if (thcffi_cublas.error[0]) THError("%s", thcffi_cublas.error);
  if (handles[device] == NULL && (status = thcffi_cublas.create(&handles[device])) != 0)
    THError("cublas runtime error : cublasCreate failed with status %d", status);
  if ((status = thcffi_cublas.set_stream(handles[device], THCState_getCurrentStream(s))) != 0)
    THError("cublas runtime error : cublasSetStream failed with status %d", status);
  return handles[device];
}

static int thcffi_op(char trans) {
  switch (trans) {
    case 'n': case 'N': return 0;
    case 't': case 'T': return 1;
    case 'c': case 'C': return 2;
  }
  THError("transpose flag must be 'n', 't' or 'c', got '%c'", trans);
  return 0;
}

/* As legacy THC: leading dimensions of vectors need not be given right. */
static void thcffi_adjust_ld(char transa, char transb, int64_t m, int64_t n, int64_t k,
                             int64_t *lda, int64_t *ldb, int64_t *ldc) {
  int ta = transa == 't' || transa == 'T', tb = transb == 't' || transb == 'T';
  if (n == 1) *ldc = m;
  if (ta) {
    if (m == 1) *lda = k;
  } else if (k == 1) {
    *lda = m;
  }
  if (tb) {
    if (k == 1) *ldb = n;
  } else if (n == 1) {
    *ldb = k;
  }
}

static void thcffi_check_gemm(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                              int64_t ldc) {
  THArgCheck(m >= 0 && n >= 0 && k >= 0, 4, "negative gemm size (%lld, %lld, %lld)",
             (long long)m, (long long)n, (long long)k);
  THArgCheck(m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && lda <= INT_MAX &&
             ldb <= INT_MAX && ldc <= INT_MAX, 4,
             "cuBLAS gemm sizes and leading dimensions must be at most %d", INT_MAX);
}

/* What both gemms do first: the legacy leading-dimension fix, the size
 * checks, and this thread's handle on the call's stream. */
static void *thcffi_gemm_handle(THCState *s, char transa, char transb, int64_t m,
                                int64_t n, int64_t k, int64_t *lda, int64_t *ldb,
                                int64_t *ldc) {
  thcffi_adjust_ld(transa, transb, m, n, k, lda, ldb, ldc);
  thcffi_check_gemm(m, n, k, *lda, *ldb, *ldc);
  return thcffi_blas_handle(s);
}

void THCudaBlas_Sgemm(THCState *s, char transa, char transb, int64_t m, int64_t n,
                      int64_t k, float alpha, float *a, int64_t lda, float *b, int64_t ldb,
                      float beta, float *c, int64_t ldc) {
  void *handle = thcffi_gemm_handle(s, transa, transb, m, n, k, &lda, &ldb, &ldc);
  int status = thcffi_cublas.sgemm(handle, thcffi_op(transa), thcffi_op(transb), (int)m,
                                   (int)n, (int)k, &alpha, a, (int)lda, b, (int)ldb, &beta, c,
                                   (int)ldc);
  if (status != 0) THError("cublas runtime error : cublasSgemm failed with status %d", status);
}

void THCudaBlas_Dgemm(THCState *s, char transa, char transb, int64_t m, int64_t n,
                      int64_t k, double alpha, double *a, int64_t lda, double *b, int64_t ldb,
                      double beta, double *c, int64_t ldc) {
  void *handle = thcffi_gemm_handle(s, transa, transb, m, n, k, &lda, &ldb, &ldc);
  int status = thcffi_cublas.dgemm(handle, thcffi_op(transa), thcffi_op(transb), (int)m,
                                   (int)n, (int)k, &alpha, a, (int)lda, b, (int)ldb, &beta, c,
                                   (int)ldc);
  if (status != 0) THError("cublas runtime error : cublasDgemm failed with status %d", status);
}

void __THCudaCheck(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess)
    _THError(file, line, "cuda runtime error (%d) : %s", (int)err, cudaGetErrorString(err));
}

int THCFFI_enterDevice(int device) {
  int previous;
  if (device < 0) return -1;
  THCudaCheck(cudaGetDevice(&previous));
  if (previous == device) return -1;
  THCudaCheck(cudaSetDevice(device));
  return previous;
}

void THCFFI_leaveDevice(int previous) {
  /* Restoring runs after the call, also after an error: it must not raise. */
  if (previous >= 0) cudaSetDevice(previous);
}

#define THFFI_T THCTensor
#define THFFI_S THCStorage
#define THFFI_F(NAME) THCTensor_(NAME)
#define THFFI_SF(NAME) THCStorage_(NAME)
#define THFFI_STATE THCState *state,
#define THFFI_NEW_DEVICE THCState_getCurrentDevice(state)
#define THFFI_STATE_ONLY THCState *state
#define THFFI_ST state,
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#include "THC/THCGenerateAllTypes.h"
