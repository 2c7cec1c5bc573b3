/* Legacy THC's cuBLAS wrappers (THCBlas.h of PyTorch 0.3/0.4), with their
 * signatures: float (S) and double (D), column-major, run on the call's
 * current stream with the cuBLAS PyTorch loaded (found at run time, not
 * linked).  Pointers are device memory; transposition flags are 'n', 't' or
 * 'c'.  Sizes, leading dimensions and increments go to cuBLAS as int: larger
 * ones are an error, as in legacy THC. */
#ifndef THFFI_THC_BLAS_H
#define THFFI_THC_BLAS_H

#include "THCGeneral.h"

/* Level 1: the dot product of n elements of x and y (every incx-th and
 * incy-th); waits for the stream, as the result comes back to the host. */
TH_API float THCudaBlas_Sdot(THCState *state, int64_t n, float *x, int64_t incx, float *y,
                             int64_t incy);
TH_API double THCudaBlas_Ddot(THCState *state, int64_t n, double *x, int64_t incx, double *y,
                              int64_t incy);

/* Level 2: y = alpha op(a) x + beta y, a m x n (gemv); a += alpha x y^T,
 * a m x n (ger).  As legacy THC, lda is taken as m when n is 1. */
TH_API void THCudaBlas_Sgemv(THCState *state, char trans, int64_t m, int64_t n, float alpha,
                             float *a, int64_t lda, float *x, int64_t incx, float beta,
                             float *y, int64_t incy);
TH_API void THCudaBlas_Dgemv(THCState *state, char trans, int64_t m, int64_t n, double alpha,
                             double *a, int64_t lda, double *x, int64_t incx, double beta,
                             double *y, int64_t incy);
TH_API void THCudaBlas_Sger(THCState *state, int64_t m, int64_t n, float alpha, float *x,
                            int64_t incx, float *y, int64_t incy, float *a, int64_t lda);
TH_API void THCudaBlas_Dger(THCState *state, int64_t m, int64_t n, double alpha, double *x,
                            int64_t incx, double *y, int64_t incy, double *a, int64_t lda);

/* Level 3: c = alpha op(a) op(b) + beta c, op(a) m x k, op(b) k x n.  As
 * legacy THC, leading dimensions of vectors need not be given right. */
TH_API void THCudaBlas_Sgemm(THCState *state, char transa, char transb, int64_t m,
                             int64_t n, int64_t k, float alpha, float *a, int64_t lda,
                             float *b, int64_t ldb, float beta, float *c, int64_t ldc);
TH_API void THCudaBlas_Dgemm(THCState *state, char transa, char transb, int64_t m,
                             int64_t n, int64_t k, double alpha, double *a, int64_t lda,
                             double *b, int64_t ldb, double beta, double *c, int64_t ldc);

/* batchCount gemms; a, b and c are arrays in device memory of the
 * matrices' device addresses. */
TH_API void THCudaBlas_SgemmBatched(THCState *state, char transa, char transb, int64_t m,
                                    int64_t n, int64_t k, float alpha, const float *a[],
                                    int64_t lda, const float *b[], int64_t ldb, float beta,
                                    float *c[], int64_t ldc, int64_t batchCount);
TH_API void THCudaBlas_DgemmBatched(THCState *state, char transa, char transb, int64_t m,
                                    int64_t n, int64_t k, double alpha, const double *a[],
                                    int64_t lda, const double *b[], int64_t ldb, double beta,
                                    double *c[], int64_t ldc, int64_t batchCount);
/* batchCount gemms on matrices strideA, strideB and strideC elements apart. */
TH_API void THCudaBlas_SgemmStridedBatched(THCState *state, char transa, char transb,
                                           int64_t m, int64_t n, int64_t k, float alpha,
                                           const float *a, int64_t lda, int64_t strideA,
                                           const float *b, int64_t ldb, int64_t strideB,
                                           float beta, float *c, int64_t ldc, int64_t strideC,
                                           int64_t batchCount);
TH_API void THCudaBlas_DgemmStridedBatched(THCState *state, char transa, char transb,
                                           int64_t m, int64_t n, int64_t k, double alpha,
                                           const double *a, int64_t lda, int64_t strideA,
                                           const double *b, int64_t ldb, int64_t strideB,
                                           double beta, double *c, int64_t ldc,
                                           int64_t strideC, int64_t batchCount);

/* Batched LU factorization (getrf), inverse from it (getri) and solve from
 * it (getrs) of batchSize n x n matrices: a, b and c are arrays in device
 * memory of the matrices' device addresses; pivot (n per matrix) and info
 * (getrf, getri: one per matrix, on the device; getrs: one, on the host). */
TH_API void THCudaBlas_Sgetrf(THCState *state, int n, float **a, int lda, int *pivot,
                              int *info, int batchSize);
TH_API void THCudaBlas_Dgetrf(THCState *state, int n, double **a, int lda, int *pivot,
                              int *info, int batchSize);
TH_API void THCudaBlas_Sgetri(THCState *state, int n, const float **a, int lda, int *pivot,
                              float **c, int ldc, int *info, int batchSize);
TH_API void THCudaBlas_Dgetri(THCState *state, int n, const double **a, int lda, int *pivot,
                              double **c, int ldc, int *info, int batchSize);
TH_API void THCudaBlas_Sgetrs(THCState *state, char transa, int n, int nrhs, const float **a,
                              int lda, int *pivot, float **b, int ldb, int *info,
                              int batchSize);
TH_API void THCudaBlas_Dgetrs(THCState *state, char transa, int n, int nrhs,
                              const double **a, int lda, int *pivot, double **b, int ldb,
                              int *info, int batchSize);

#endif
