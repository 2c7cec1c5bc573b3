/* thffi: cuSPARSE's legacy routines that CUDA 11.0 and 12.0 removed, as
 * CUDA 10's cusparse.h declared them, for code written against it.
 *
 * Include it after <cusparse.h> (<THC/THC.h> does so where cusparse.h is on
 * the include path).  thffi compiles their definitions
 * (csrc/THCSparseLegacy.c) into an extension built with_cuda that links
 * cuSPARSE (libraries=['cusparse'], or prebuilt objects calling it); each
 * runs today's generic API on the handle's stream
 * (toolchain/cuda_api.py names the replacement of each):
 *
 *   csrmv, csrmv_mp           cusparseSpMV
 *   csrmm, csrmm2             cusparseSpMM (dense matrices column-major)
 *   XcsrgemmNnz, csrgemm      cusparseSpGEMMreuse_* (a transposed operand
 *                             transposed first by cusparseCsr2cscEx2; the
 *                             conjugate transpose of complex values:
 *                             CUSPARSE_STATUS_NOT_SUPPORTED)
 *   XcsrgeamNnz, csrgeam      cusparseXcsrgeam2Nnz, cusparse<t>csrgeam2
 *   csr2csc                   cusparseCsr2cscEx2
 *   gthr, gthrz, sctr         cusparseGather, cusparseScatter
 *   axpyi                     cusparseAxpby
 *   doti, dotci               cusparseSpVV
 *
 * Workspace comes from cudaMallocAsync on the handle's stream, as the
 * legacy routines allocated theirs inside cuSPARSE.  Matrices must be of
 * CUSPARSE_MATRIX_TYPE_GENERAL (CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED
 * otherwise): the generic API has no symmetric storage.  axpyi reads xInd
 * back to the host once (the legacy call took no length of y, and
 * cusparseAxpby's y is a whole vector), so it waits for the stream.
 *
 * Declared for cuSPARSE 12 and later (CUDA 12 and 13), whose header lacks
 * every one of them; CUDA 11's cuSPARSE 11 still has those removed in 12.0
 * and is not covered. */
#ifndef THFFI_CUSPARSE_LEGACY_H
#define THFFI_CUSPARSE_LEGACY_H

#include <cusparse.h>

#if defined(CUSPARSE_VER_MAJOR) && CUSPARSE_VER_MAJOR >= 12
#define THFFI_CUSPARSE_LEGACY 1

#ifdef __cplusplus
extern "C" {
#endif

/* X(letter, type) for each of cuSPARSE's four value types. */
#define THFFI_CUSPARSE_TYPES(X) X(S, float) X(D, double) X(C, cuComplex) X(Z, cuDoubleComplex)

/* y = alpha * op(A) * x + beta * y; A is m x n in CSR. */
#define THFFI_CUSPARSE_CSRMV(t, T)                                                          \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmv(                                          \
      cusparseHandle_t handle, cusparseOperation_t transA, int m, int n, int nnz,           \
      const T *alpha, const cusparseMatDescr_t descrA, const T *csrSortedValA,              \
      const int *csrSortedRowPtrA, const int *csrSortedColIndA, const T *x, const T *beta,  \
      T *y);                                                                                \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmv_mp(                                       \
      cusparseHandle_t handle, cusparseOperation_t transA, int m, int n, int nnz,           \
      const T *alpha, const cusparseMatDescr_t descrA, const T *csrSortedValA,              \
      const int *csrSortedRowPtrA, const int *csrSortedColIndA, const T *x, const T *beta,  \
      T *y);
THFFI_CUSPARSE_TYPES(THFFI_CUSPARSE_CSRMV)

/* C = alpha * op(A) * op(B) + beta * C; A is m x k in CSR, B and C dense,
 * column-major, with leading dimensions ldb and ldc (csrmm: op(B) = B). */
#define THFFI_CUSPARSE_CSRMM(t, T)                                                          \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmm(                                          \
      cusparseHandle_t handle, cusparseOperation_t transA, int m, int n, int k, int nnz,    \
      const T *alpha, const cusparseMatDescr_t descrA, const T *csrSortedValA,              \
      const int *csrSortedRowPtrA, const int *csrSortedColIndA, const T *B, int ldb,        \
      const T *beta, T *C, int ldc);                                                        \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmm2(                                         \
      cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB,      \
      int m, int n, int k, int nnz, const T *alpha, const cusparseMatDescr_t descrA,        \
      const T *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,     \
      const T *B, int ldb, const T *beta, T *C, int ldc);
THFFI_CUSPARSE_TYPES(THFFI_CUSPARSE_CSRMM)

/* C = op(A) * op(B), all CSR; op(A) is m x k, op(B) k x n.  First the
 * row pointers of C (m + 1 ints) and its nnz (host or device memory, by
 * the handle's pointer mode), then, into arrays of that many entries, its
 * column indices and values. */
cusparseStatus_t CUSPARSEAPI cusparseXcsrgemmNnz(
    cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB, int m,
    int n, int k, const cusparseMatDescr_t descrA, const int nnzA, const int *csrSortedRowPtrA,
    const int *csrSortedColIndA, const cusparseMatDescr_t descrB, const int nnzB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const cusparseMatDescr_t descrC,
    int *csrSortedRowPtrC, int *nnzTotalDevHostPtr);
#define THFFI_CUSPARSE_CSRGEMM(t, T)                                                        \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrgemm(                                        \
      cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB,      \
      int m, int n, int k, const cusparseMatDescr_t descrA, const int nnzA,                 \
      const T *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,     \
      const cusparseMatDescr_t descrB, const int nnzB, const T *csrSortedValB,              \
      const int *csrSortedRowPtrB, const int *csrSortedColIndB,                             \
      const cusparseMatDescr_t descrC, T *csrSortedValC, const int *csrSortedRowPtrC,       \
      int *csrSortedColIndC);
THFFI_CUSPARSE_TYPES(THFFI_CUSPARSE_CSRGEMM)

/* C = alpha * A + beta * B, all m x n in CSR, in the same two steps. */
cusparseStatus_t CUSPARSEAPI cusparseXcsrgeamNnz(
    cusparseHandle_t handle, int m, int n, const cusparseMatDescr_t descrA, int nnzA,
    const int *csrSortedRowPtrA, const int *csrSortedColIndA, const cusparseMatDescr_t descrB,
    int nnzB, const int *csrSortedRowPtrB, const int *csrSortedColIndB,
    const cusparseMatDescr_t descrC, int *csrSortedRowPtrC, int *nnzTotalDevHostPtr);
#define THFFI_CUSPARSE_CSRGEAM(t, T)                                                        \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrgeam(                                        \
      cusparseHandle_t handle, int m, int n, const T *alpha, const cusparseMatDescr_t descrA,\
      int nnzA, const T *csrSortedValA, const int *csrSortedRowPtrA,                        \
      const int *csrSortedColIndA, const T *beta, const cusparseMatDescr_t descrB, int nnzB, \
      const T *csrSortedValB, const int *csrSortedRowPtrB, const int *csrSortedColIndB,     \
      const cusparseMatDescr_t descrC, T *csrSortedValC, int *csrSortedRowPtrC,             \
      int *csrSortedColIndC);
THFFI_CUSPARSE_TYPES(THFFI_CUSPARSE_CSRGEAM)

/* The m x n CSR matrix as CSC (its transpose's CSR); note the legacy order
 * of the outputs: values, row indices, column pointers. */
#define THFFI_CUSPARSE_CSR2CSC(t, T)                                                        \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csr2csc(                                        \
      cusparseHandle_t handle, int m, int n, int nnz, const T *csrSortedVal,                \
      const int *csrSortedRowPtr, const int *csrSortedColInd, T *cscSortedVal,              \
      int *cscSortedRowInd, int *cscSortedColPtr, cusparseAction_t copyValues,              \
      cusparseIndexBase_t idxBase);
THFFI_CUSPARSE_TYPES(THFFI_CUSPARSE_CSR2CSC)

/* Sparse vectors (nnz values xVal at indices xInd) and a dense y:
 * gthr: xVal[i] = y[xInd[i]]; gthrz: the same, then y[xInd[i]] = 0;
 * sctr: y[xInd[i]] = xVal[i]; axpyi: y[xInd[i]] += alpha * xVal[i];
 * doti: sum of xVal[i] * y[xInd[i]] (dotci: of conj(xVal[i]) * ...). */
#define THFFI_CUSPARSE_LEVEL1(t, T)                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##gthr(cusparseHandle_t handle, int nnz,          \
                                                 const T *y, T *xVal, const int *xInd,      \
                                                 cusparseIndexBase_t idxBase);              \
  cusparseStatus_t CUSPARSEAPI cusparse##t##gthrz(cusparseHandle_t handle, int nnz, T *y,   \
                                                  T *xVal, const int *xInd,                 \
                                                  cusparseIndexBase_t idxBase);             \
  cusparseStatus_t CUSPARSEAPI cusparse##t##sctr(cusparseHandle_t handle, int nnz,          \
                                                 const T *xVal, const int *xInd, T *y,      \
                                                 cusparseIndexBase_t idxBase);              \
  cusparseStatus_t CUSPARSEAPI cusparse##t##axpyi(cusparseHandle_t handle, int nnz,         \
                                                  const T *alpha, const T *xVal,            \
                                                  const int *xInd, T *y,                    \
                                                  cusparseIndexBase_t idxBase);             \
  cusparseStatus_t CUSPARSEAPI cusparse##t##doti(cusparseHandle_t handle, int nnz,          \
                                                 const T *xVal, const int *xInd, const T *y,\
                                                 T *resultDevHostPtr,                       \
                                                 cusparseIndexBase_t idxBase);
THFFI_CUSPARSE_TYPES(THFFI_CUSPARSE_LEVEL1)
#define THFFI_CUSPARSE_DOTCI(t, T)                                                          \
  cusparseStatus_t CUSPARSEAPI cusparse##t##dotci(cusparseHandle_t handle, int nnz,         \
                                                  const T *xVal, const int *xInd,           \
                                                  const T *y, T *resultDevHostPtr,          \
                                                  cusparseIndexBase_t idxBase);
THFFI_CUSPARSE_DOTCI(C, cuComplex)
THFFI_CUSPARSE_DOTCI(Z, cuDoubleComplex)

#ifdef __cplusplus
}
#endif

#endif /* CUSPARSE_VER_MAJOR >= 12 */
#endif
