/* Legacy THC's cuBLAS wrappers (THC/THCBlas.h).  cuBLAS is found at run
 * time: the library PyTorch loaded if it did, else the one the loader
 * finds.  The few entry points used are declared here, so building needs
 * no cuBLAS headers or library. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include "THC/THC.h"
#include "thffi_private.h"

/* cuBLAS's v2 API, with its enums and status as int (0: success). */
typedef int (*thcffi_create_fn)(void **handle);
typedef int (*thcffi_set_stream_fn)(void *handle, cudaStream_t stream);
typedef int (*thcffi_sdot_fn)(void *, int, const float *, int, const float *, int, float *);
typedef int (*thcffi_ddot_fn)(void *, int, const double *, int, const double *, int, double *);
typedef int (*thcffi_sgemv_fn)(void *, int, int, int, const float *, const float *, int,
                               const float *, int, const float *, float *, int);
typedef int (*thcffi_dgemv_fn)(void *, int, int, int, const double *, const double *, int,
                               const double *, int, const double *, double *, int);
typedef int (*thcffi_sger_fn)(void *, int, int, const float *, const float *, int,
                              const float *, int, float *, int);
typedef int (*thcffi_dger_fn)(void *, int, int, const double *, const double *, int,
                              const double *, int, double *, int);
typedef int (*thcffi_sgemm_fn)(void *, int, int, int, int, int, const float *, const float *,
                               int, const float *, int, const float *, float *, int);
typedef int (*thcffi_dgemm_fn)(void *, int, int, int, int, int, const double *,
                               const double *, int, const double *, int, const double *,
                               double *, int);
typedef int (*thcffi_sgemm_batched_fn)(void *, int, int, int, int, int, const float *,
                                       const float *const *, int, const float *const *, int,
                                       const float *, float *const *, int, int);
typedef int (*thcffi_dgemm_batched_fn)(void *, int, int, int, int, int, const double *,
                                       const double *const *, int, const double *const *, int,
                                       const double *, double *const *, int, int);
typedef int (*thcffi_sgemm_strided_fn)(void *, int, int, int, int, int, const float *,
                                       const float *, int, long long, const float *, int,
                                       long long, const float *, float *, int, long long, int);
typedef int (*thcffi_dgemm_strided_fn)(void *, int, int, int, int, int, const double *,
                                       const double *, int, long long, const double *, int,
                                       long long, const double *, double *, int, long long,
                                       int);
/* cublas<S|D>getrfBatched, getriBatched, getrsBatched, as one signature
 * each with void * for the element type. */
typedef int (*thcffi_getrf_fn)(void *, int, void *const *, int, int *, int *, int);
typedef int (*thcffi_getri_fn)(void *, int, const void *const *, int, const int *,
                               void *const *, int, int *, int);
typedef int (*thcffi_getrs_fn)(void *, int, int, int, const void *const *, int, const int *,
                               void *const *, int, int *, int);
static struct {
  thcffi_create_fn create;
  thcffi_set_stream_fn set_stream;
  thcffi_sdot_fn sdot;
  thcffi_ddot_fn ddot;
  thcffi_sgemv_fn sgemv;
  thcffi_dgemv_fn dgemv;
  thcffi_sger_fn sger;
  thcffi_dger_fn dger;
  thcffi_sgemm_fn sgemm;
  thcffi_dgemm_fn dgemm;
  thcffi_sgemm_batched_fn sgemm_batched;
  thcffi_dgemm_batched_fn dgemm_batched;
  thcffi_sgemm_strided_fn sgemm_strided;
  thcffi_dgemm_strided_fn dgemm_strided;
  thcffi_getrf_fn sgetrf, dgetrf;
  thcffi_getri_fn sgetri, dgetri;
  thcffi_getrs_fn sgetrs, dgetrs;
  char error[256];
} thcffi_cublas;
static pthread_once_t thcffi_cublas_once = PTHREAD_ONCE_INIT;

static void thcffi_load_cublas(void) {
  /* Each entry point's name in the library and where its address goes. */
  const struct {
    const char *name;
    void **slot;
  } entries[] = {
      {"cublasCreate_v2", (void **)&thcffi_cublas.create},
      {"cublasSetStream_v2", (void **)&thcffi_cublas.set_stream},
      {"cublasSdot_v2", (void **)&thcffi_cublas.sdot},
      {"cublasDdot_v2", (void **)&thcffi_cublas.ddot},
      {"cublasSgemv_v2", (void **)&thcffi_cublas.sgemv},
      {"cublasDgemv_v2", (void **)&thcffi_cublas.dgemv},
      {"cublasSger_v2", (void **)&thcffi_cublas.sger},
      {"cublasDger_v2", (void **)&thcffi_cublas.dger},
      {"cublasSgemm_v2", (void **)&thcffi_cublas.sgemm},
      {"cublasDgemm_v2", (void **)&thcffi_cublas.dgemm},
      {"cublasSgemmBatched", (void **)&thcffi_cublas.sgemm_batched},
      {"cublasDgemmBatched", (void **)&thcffi_cublas.dgemm_batched},
      {"cublasSgemmStridedBatched", (void **)&thcffi_cublas.sgemm_strided},
      {"cublasDgemmStridedBatched", (void **)&thcffi_cublas.dgemm_strided},
      {"cublasSgetrfBatched", (void **)&thcffi_cublas.sgetrf},
      {"cublasDgetrfBatched", (void **)&thcffi_cublas.dgetrf},
      {"cublasSgetriBatched", (void **)&thcffi_cublas.sgetri},
      {"cublasDgetriBatched", (void **)&thcffi_cublas.dgetri},
      {"cublasSgetrsBatched", (void **)&thcffi_cublas.sgetrs},
      {"cublasDgetrsBatched", (void **)&thcffi_cublas.dgetrs},
  };
  char name[64];
  void *lib;
  size_t i;
  snprintf(name, sizeof name, "libcublas.so.%d", CUDART_VERSION / 1000);
  lib = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
  if (lib == NULL) lib = dlopen(name, RTLD_NOW);
  if (lib == NULL) lib = dlopen("libcublas.so", RTLD_NOW);
  if (lib == NULL) {
    snprintf(thcffi_cublas.error, sizeof thcffi_cublas.error,
             "cuBLAS (%s) could not be loaded: %s", name, dlerror());
    return;
  }
  for (i = 0; i < sizeof entries / sizeof entries[0]; i++) {
    *entries[i].slot = dlsym(lib, entries[i].name);
    if (*entries[i].slot == NULL) {
      snprintf(thcffi_cublas.error, sizeof thcffi_cublas.error,
               "cuBLAS (%s) lacks the entry point %s", name, entries[i].name);
      return;
    }
  }
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

struct cublasContext *THCState_getCurrentBlasHandle(THCState *state) {
  return (struct cublasContext *)thcffi_blas_handle(state);
}

static void thcffi_blas_check(int status, const char *what) {
  if (status != 0) THError("cublas runtime error : %s failed with status %d", what, status);
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

static int thcffi_fits_int(int64_t v) { return v <= INT_MAX; }

float THCudaBlas_Sdot(THCState *s, int64_t n, float *x, int64_t incx, float *y, int64_t incy) {
  float result = 0;
  void *handle;
  if (!thcffi_fits_int(n) || !thcffi_fits_int(incx) || !thcffi_fits_int(incy))
    THError("THCudaBlas_Sdot: n, incx and incy must be at most %d", INT_MAX);
  handle = thcffi_blas_handle(s);
  thcffi_blas_check(thcffi_cublas.sdot(handle, (int)n, x, (int)incx, y, (int)incy, &result),
                    "cublasSdot");
  return result;
}

double THCudaBlas_Ddot(THCState *s, int64_t n, double *x, int64_t incx, double *y,
                       int64_t incy) {
  double result = 0;
  void *handle;
  if (!thcffi_fits_int(n) || !thcffi_fits_int(incx) || !thcffi_fits_int(incy))
    THError("THCudaBlas_Ddot: n, incx and incy must be at most %d", INT_MAX);
  handle = thcffi_blas_handle(s);
  thcffi_blas_check(thcffi_cublas.ddot(handle, (int)n, x, (int)incx, y, (int)incy, &result),
                    "cublasDdot");
  return result;
}

/* What both gemvs check first (legacy THC's rules): lda is m when n is 1;
 * m, n at most INT_MAX; lda, incx, incy in 1..INT_MAX. */
static void thcffi_check_gemv(const char *fn, int64_t m, int64_t n, int64_t *lda, int64_t incx,
                              int64_t incy) {
  if (n == 1) *lda = m;
  if (m < 0 || n < 0 || !thcffi_fits_int(m) || !thcffi_fits_int(n) || *lda <= 0 ||
      !thcffi_fits_int(*lda) || incx <= 0 || !thcffi_fits_int(incx) || incy <= 0 ||
      !thcffi_fits_int(incy))
    THError("%s: m and n must be in 0..%d, lda, incx and incy in 1..%d (got m=%lld, n=%lld, "
            "lda=%lld, incx=%lld, incy=%lld)", fn, INT_MAX, INT_MAX, (long long)m,
            (long long)n, (long long)*lda, (long long)incx, (long long)incy);
}

void THCudaBlas_Sgemv(THCState *s, char trans, int64_t m, int64_t n, float alpha, float *a,
                      int64_t lda, float *x, int64_t incx, float beta, float *y, int64_t incy) {
  int op = thcffi_op(trans);
  void *handle;
  thcffi_check_gemv("THCudaBlas_Sgemv", m, n, &lda, incx, incy);
  handle = thcffi_blas_handle(s);
  thcffi_blas_check(thcffi_cublas.sgemv(handle, op, (int)m, (int)n, &alpha, a, (int)lda, x,
                                        (int)incx, &beta, y, (int)incy),
                    "cublasSgemv");
}

void THCudaBlas_Dgemv(THCState *s, char trans, int64_t m, int64_t n, double alpha, double *a,
                      int64_t lda, double *x, int64_t incx, double beta, double *y,
                      int64_t incy) {
  int op = thcffi_op(trans);
  void *handle;
  thcffi_check_gemv("THCudaBlas_Dgemv", m, n, &lda, incx, incy);
  handle = thcffi_blas_handle(s);
  thcffi_blas_check(thcffi_cublas.dgemv(handle, op, (int)m, (int)n, &alpha, a, (int)lda, x,
                                        (int)incx, &beta, y, (int)incy),
                    "cublasDgemv");
}

/* What both gers check first: lda is m when n is 1; everything fits int. */
static void thcffi_check_ger(const char *fn, int64_t m, int64_t n, int64_t *lda, int64_t incx,
                             int64_t incy) {
  if (n == 1) *lda = m;
  if (m < 0 || n < 0 || !thcffi_fits_int(m) || !thcffi_fits_int(n) ||
      !thcffi_fits_int(*lda) || !thcffi_fits_int(incx) || !thcffi_fits_int(incy))
    THError("%s: m and n must be in 0..%d and lda, incx and incy at most %d (got m=%lld, "
            "n=%lld, lda=%lld, incx=%lld, incy=%lld)", fn, INT_MAX, INT_MAX, (long long)m,
            (long long)n, (long long)*lda, (long long)incx, (long long)incy);
}

void THCudaBlas_Sger(THCState *s, int64_t m, int64_t n, float alpha, float *x, int64_t incx,
                     float *y, int64_t incy, float *a, int64_t lda) {
  void *handle;
  thcffi_check_ger("THCudaBlas_Sger", m, n, &lda, incx, incy);
  handle = thcffi_blas_handle(s);
  thcffi_blas_check(thcffi_cublas.sger(handle, (int)m, (int)n, &alpha, x, (int)incx, y,
                                       (int)incy, a, (int)lda),
                    "cublasSger");
}

void THCudaBlas_Dger(THCState *s, int64_t m, int64_t n, double alpha, double *x, int64_t incx,
                     double *y, int64_t incy, double *a, int64_t lda) {
  void *handle;
  thcffi_check_ger("THCudaBlas_Dger", m, n, &lda, incx, incy);
  handle = thcffi_blas_handle(s);
  thcffi_blas_check(thcffi_cublas.dger(handle, (int)m, (int)n, &alpha, x, (int)incx, y,
                                       (int)incy, a, (int)lda),
                    "cublasDger");
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

/* What every gemm does first: the legacy leading-dimension fix, the size
 * checks (batch 1 for a single gemm), and this thread's handle on the
 * call's stream. */
static void *thcffi_gemm_handle(THCState *s, const char *fn, char transa, char transb,
                                int64_t m, int64_t n, int64_t k, int64_t *lda, int64_t *ldb,
                                int64_t *ldc, int64_t batch) {
  thcffi_adjust_ld(transa, transb, m, n, k, lda, ldb, ldc);
  if (m < 0 || n < 0 || k < 0 || batch < 0)
    THError("%s: negative size (m=%lld, n=%lld, k=%lld, batchCount=%lld)", fn, (long long)m,
            (long long)n, (long long)k, (long long)batch);
  if (!thcffi_fits_int(m) || !thcffi_fits_int(n) || !thcffi_fits_int(k) ||
      !thcffi_fits_int(*lda) || !thcffi_fits_int(*ldb) || !thcffi_fits_int(*ldc) ||
      !thcffi_fits_int(batch))
    THError("%s: sizes, leading dimensions and batchCount must be at most %d", fn, INT_MAX);
  return thcffi_blas_handle(s);
}

void THCudaBlas_Sgemm(THCState *s, char transa, char transb, int64_t m, int64_t n,
                      int64_t k, float alpha, float *a, int64_t lda, float *b, int64_t ldb,
                      float beta, float *c, int64_t ldc) {
  int opa = thcffi_op(transa), opb = thcffi_op(transb);
  void *handle =
      thcffi_gemm_handle(s, "THCudaBlas_Sgemm", transa, transb, m, n, k, &lda, &ldb, &ldc, 1);
  thcffi_blas_check(thcffi_cublas.sgemm(handle, opa, opb, (int)m, (int)n, (int)k, &alpha, a,
                                        (int)lda, b, (int)ldb, &beta, c, (int)ldc),
                    "cublasSgemm");
}

void THCudaBlas_Dgemm(THCState *s, char transa, char transb, int64_t m, int64_t n,
                      int64_t k, double alpha, double *a, int64_t lda, double *b, int64_t ldb,
                      double beta, double *c, int64_t ldc) {
  int opa = thcffi_op(transa), opb = thcffi_op(transb);
  void *handle =
      thcffi_gemm_handle(s, "THCudaBlas_Dgemm", transa, transb, m, n, k, &lda, &ldb, &ldc, 1);
  thcffi_blas_check(thcffi_cublas.dgemm(handle, opa, opb, (int)m, (int)n, (int)k, &alpha, a,
                                        (int)lda, b, (int)ldb, &beta, c, (int)ldc),
                    "cublasDgemm");
}

void THCudaBlas_SgemmBatched(THCState *s, char transa, char transb, int64_t m, int64_t n,
                             int64_t k, float alpha, const float *a[], int64_t lda,
                             const float *b[], int64_t ldb, float beta, float *c[],
                             int64_t ldc, int64_t batchCount) {
  int opa = thcffi_op(transa), opb = thcffi_op(transb);
  void *handle = thcffi_gemm_handle(s, "THCudaBlas_SgemmBatched", transa, transb, m, n, k,
                                    &lda, &ldb, &ldc, batchCount);
  thcffi_blas_check(
      thcffi_cublas.sgemm_batched(handle, opa, opb, (int)m, (int)n, (int)k, &alpha, a,
                                  (int)lda, b, (int)ldb, &beta, c, (int)ldc, (int)batchCount),
      "cublasSgemmBatched");
}

void THCudaBlas_DgemmBatched(THCState *s, char transa, char transb, int64_t m, int64_t n,
                             int64_t k, double alpha, const double *a[], int64_t lda,
                             const double *b[], int64_t ldb, double beta, double *c[],
                             int64_t ldc, int64_t batchCount) {
  int opa = thcffi_op(transa), opb = thcffi_op(transb);
  void *handle = thcffi_gemm_handle(s, "THCudaBlas_DgemmBatched", transa, transb, m, n, k,
                                    &lda, &ldb, &ldc, batchCount);
  thcffi_blas_check(
      thcffi_cublas.dgemm_batched(handle, opa, opb, (int)m, (int)n, (int)k, &alpha, a,
                                  (int)lda, b, (int)ldb, &beta, c, (int)ldc, (int)batchCount),
      "cublasDgemmBatched");
}

void THCudaBlas_SgemmStridedBatched(THCState *s, char transa, char transb, int64_t m,
                                    int64_t n, int64_t k, float alpha, const float *a,
                                    int64_t lda, int64_t strideA, const float *b, int64_t ldb,
                                    int64_t strideB, float beta, float *c, int64_t ldc,
                                    int64_t strideC, int64_t batchCount) {
  int opa = thcffi_op(transa), opb = thcffi_op(transb);
  void *handle = thcffi_gemm_handle(s, "THCudaBlas_SgemmStridedBatched", transa, transb, m, n,
                                    k, &lda, &ldb, &ldc, batchCount);
  thcffi_blas_check(thcffi_cublas.sgemm_strided(handle, opa, opb, (int)m, (int)n, (int)k,
                                                &alpha, a, (int)lda, strideA, b, (int)ldb,
                                                strideB, &beta, c, (int)ldc, strideC,
                                                (int)batchCount),
                    "cublasSgemmStridedBatched");
}

void THCudaBlas_DgemmStridedBatched(THCState *s, char transa, char transb, int64_t m,
                                    int64_t n, int64_t k, double alpha, const double *a,
                                    int64_t lda, int64_t strideA, const double *b, int64_t ldb,
                                    int64_t strideB, double beta, double *c, int64_t ldc,
                                    int64_t strideC, int64_t batchCount) {
  int opa = thcffi_op(transa), opb = thcffi_op(transb);
  void *handle = thcffi_gemm_handle(s, "THCudaBlas_DgemmStridedBatched", transa, transb, m, n,
                                    k, &lda, &ldb, &ldc, batchCount);
  thcffi_blas_check(thcffi_cublas.dgemm_strided(handle, opa, opb, (int)m, (int)n, (int)k,
                                                &alpha, a, (int)lda, strideA, b, (int)ldb,
                                                strideB, &beta, c, (int)ldc, strideC,
                                                (int)batchCount),
                    "cublasDgemmStridedBatched");
}

/* Batched LU (getrf), inverse from LU (getri) and solve from LU (getrs), as
 * legacy THC wrapped cuBLAS's: a, b, c are device arrays of batchSize
 * matrices' device addresses, pivot and info device arrays. */
static void *thcffi_lu_handle(THCState *s, const char *fn, int n, int lda, int batchSize) {
  if (n < 0 || lda < (n > 1 ? n : 1) || batchSize < 0)
    THError("%s: n must be >= 0, lda >= max(1, n) and batchSize >= 0 (got n=%d, lda=%d, "
            "batchSize=%d)", fn, n, lda, batchSize);
  return thcffi_blas_handle(s);
}

void THCudaBlas_Sgetrf(THCState *s, int n, float **a, int lda, int *pivot, int *info,
                       int batchSize) {
  void *handle = thcffi_lu_handle(s, "THCudaBlas_Sgetrf", n, lda, batchSize);
  thcffi_blas_check(thcffi_cublas.sgetrf(handle, n, (void *const *)a, lda, pivot, info,
                                         batchSize), "cublasSgetrfBatched");
}

void THCudaBlas_Dgetrf(THCState *s, int n, double **a, int lda, int *pivot, int *info,
                       int batchSize) {
  void *handle = thcffi_lu_handle(s, "THCudaBlas_Dgetrf", n, lda, batchSize);
  thcffi_blas_check(thcffi_cublas.dgetrf(handle, n, (void *const *)a, lda, pivot, info,
                                         batchSize), "cublasDgetrfBatched");
}

void THCudaBlas_Sgetri(THCState *s, int n, const float **a, int lda, int *pivot, float **c,
                       int ldc, int *info, int batchSize) {
  void *handle = thcffi_lu_handle(s, "THCudaBlas_Sgetri", n, lda, batchSize);
  thcffi_blas_check(thcffi_cublas.sgetri(handle, n, (const void *const *)a, lda, pivot,
                                         (void *const *)c, ldc, info, batchSize),
                    "cublasSgetriBatched");
}

void THCudaBlas_Dgetri(THCState *s, int n, const double **a, int lda, int *pivot, double **c,
                       int ldc, int *info, int batchSize) {
  void *handle = thcffi_lu_handle(s, "THCudaBlas_Dgetri", n, lda, batchSize);
  thcffi_blas_check(thcffi_cublas.dgetri(handle, n, (const void *const *)a, lda, pivot,
                                         (void *const *)c, ldc, info, batchSize),
                    "cublasDgetriBatched");
}

/* getrs reports a bad argument in *info on the host, as legacy THC read it. */
void THCudaBlas_Sgetrs(THCState *s, char transa, int n, int nrhs, const float **a, int lda,
                       int *pivot, float **b, int ldb, int *info, int batchSize) {
  int op = thcffi_op(transa);
  void *handle = thcffi_lu_handle(s, "THCudaBlas_Sgetrs", n, lda, batchSize);
  thcffi_blas_check(thcffi_cublas.sgetrs(handle, op, n, nrhs, (const void *const *)a, lda,
                                         pivot, (void *const *)b, ldb, info, batchSize),
                    "cublasSgetrsBatched");
}

void THCudaBlas_Dgetrs(THCState *s, char transa, int n, int nrhs, const double **a, int lda,
                       int *pivot, double **b, int ldb, int *info, int batchSize) {
  int op = thcffi_op(transa);
  void *handle = thcffi_lu_handle(s, "THCudaBlas_Dgetrs", n, lda, batchSize);
  thcffi_blas_check(thcffi_cublas.dgetrs(handle, op, n, nrhs, (const void *const *)a, lda,
                                         pivot, (void *const *)b, ldb, info, batchSize),
                    "cublasDgetrsBatched");
}
