/* cuSPARSE's legacy routines (include/cusparse_legacy.h) over today's
 * generic API.  Compiled into an extension that links cuSPARSE; it needs
 * cuSPARSE and the CUDA runtime only (no TH, no THC state), so code built
 * apart (a make.sh's .cu.o) calls it as it called cuSPARSE 10.
 *
 * Each routine follows the generic API's steps: descriptors over the
 * caller's arrays, the workspace size, the workspace (cudaMallocAsync on
 * the handle's stream, freed on that stream after the last use), the call,
 * then the descriptors destroyed; the first failing step's status is
 * returned, as the legacy routine returned its own. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
/* cuSPARSE 12.8 deprecates cusparseAxpby and cusparseSpVV, which the
 * legacy axpyi and doti are made of: thffi's use, not the user's. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
/* A toolkit with cuSPARSE's library and not its header gets nothing: the
 * link check then names the legacy calls nothing defines. */
#if __has_include(<cusparse.h>)
#include <cusparse.h>
#include "../include/cusparse_legacy.h"
#endif

#ifdef THFFI_CUSPARSE_LEGACY

#define OK CUSPARSE_STATUS_SUCCESS
/* Runs a step; on failure keeps its status and goes to the cleanup. */
#define STEP(call)                  \
  do {                              \
    if ((status = (call)) != OK)    \
      goto done;                    \
  } while (0)

/* The legacy calls took no length of a dense vector y; the generic API's
 * sparse and dense vectors want one.  Gather, Scatter and SpVV touch y only
 * at the sparse vector's indices (32-bit ints), so any length above them
 * serves. */
#define ANY_LENGTH INT32_MAX

/* Device memory on the handle's stream: stream-ordered, or, where the
 * device has no memory pools, cudaMalloc (whose cudaFree waits for the
 * device). */
typedef struct {
  void *ptr;
  cudaStream_t stream;
  int ordered;
} Workspace;

static cusparseStatus_t workspace_alloc(cusparseHandle_t handle, size_t size, Workspace *w) {
  cusparseStatus_t status = cusparseGetStream(handle, &w->stream);
  cudaError_t err;
  w->ptr = NULL;
  w->ordered = 1;
  if (status != OK || size == 0)
    return status;
  err = cudaMallocAsync(&w->ptr, size, w->stream);
  if (err == cudaErrorNotSupported) {
    (void)cudaGetLastError();
    w->ordered = 0;
    err = cudaMalloc(&w->ptr, size);
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); /* not left for PyTorch's next launch check */
    w->ptr = NULL;
    return CUSPARSE_STATUS_ALLOC_FAILED;
  }
  return OK;
}

static void workspace_free(Workspace *w) {
  if (w->ptr != NULL && w->ordered)
    cudaFreeAsync(w->ptr, w->stream);
  else if (w->ptr != NULL)
    cudaFree(w->ptr);
  w->ptr = NULL;
}

static cusparseStatus_t general(const cusparseMatDescr_t descr) {
  return cusparseGetMatType(descr) == CUSPARSE_MATRIX_TYPE_GENERAL
             ? OK : CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
}

static cusparseStatus_t csr(cusparseSpMatDescr_t *mat, int rows, int cols, int nnz,
                            const int *rowPtr, const int *colInd, const void *val,
                            const cusparseMatDescr_t descr, cudaDataType type) {
  return cusparseCreateCsr(mat, rows, cols, nnz, (void *)rowPtr, (void *)colInd, (void *)val,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                           cusparseGetMatIndexBase(descr), type);
}

/* 1 and 0 of `type`, for the products the legacy routines did not scale. */
typedef struct {
  double one[2], zero[2];
  float onef[2], zerof[2];
} Constants;

static const Constants CONSTANTS = {{1.0, 0.0}, {0.0, 0.0}, {1.0f, 0.0f}, {0.0f, 0.0f}};

static const void *one_of(cudaDataType type) {
  return type == CUDA_R_32F || type == CUDA_C_32F ? (const void *)CONSTANTS.onef
                                                  : (const void *)CONSTANTS.one;
}

static const void *zero_of(cudaDataType type) {
  return type == CUDA_R_32F || type == CUDA_C_32F ? (const void *)CONSTANTS.zerof
                                                  : (const void *)CONSTANTS.zero;
}

static size_t size_of(cudaDataType type) {
  return type == CUDA_R_32F ? 4 : type == CUDA_C_64F ? 16 : 8;
}

/* An int (a count) into host or device memory, by the handle's pointer mode. */
static cusparseStatus_t put_count(cusparseHandle_t handle, int value, int *where) {
  cusparsePointerMode_t mode;
  cudaStream_t stream;
  cusparseStatus_t status = cusparseGetPointerMode(handle, &mode);
  if (status != OK || where == NULL)
    return status;
  if (mode == CUSPARSE_POINTER_MODE_HOST) {
    *where = value;
    return OK;
  }
  if ((status = cusparseGetStream(handle, &stream)) != OK)
    return status;
  /* from pageable memory, so the copy is done when the call returns */
  if (cudaMemcpyAsync(where, &value, sizeof value, cudaMemcpyHostToDevice, stream) !=
          cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  }
  return OK;
}

/* -- csrmv, csrmv_mp: cusparseSpMV ----------------------------------------- */

static cusparseStatus_t csrmv(cusparseHandle_t handle, cusparseOperation_t op, int m, int n,
                              int nnz, const void *alpha, const cusparseMatDescr_t descr,
                              const void *val, const int *rowPtr, const int *colInd,
                              const void *x, const void *beta, void *y, cudaDataType type) {
  cusparseSpMatDescr_t A = NULL;
  cusparseDnVecDescr_t X = NULL, Y = NULL;
  Workspace buffer = {NULL, NULL, 0};
  size_t size = 0;
  int transposed = op != CUSPARSE_OPERATION_NON_TRANSPOSE;
  cusparseStatus_t status;
  STEP(general(descr));
  STEP(csr(&A, m, n, nnz, rowPtr, colInd, val, descr, type));
  STEP(cusparseCreateDnVec(&X, transposed ? m : n, (void *)x, type));
  STEP(cusparseCreateDnVec(&Y, transposed ? n : m, y, type));
  STEP(cusparseSpMV_bufferSize(handle, op, alpha, A, X, beta, Y, type,
                               CUSPARSE_SPMV_ALG_DEFAULT, &size));
  STEP(workspace_alloc(handle, size, &buffer));
  STEP(cusparseSpMV(handle, op, alpha, A, X, beta, Y, type, CUSPARSE_SPMV_ALG_DEFAULT,
                    buffer.ptr));
done:
  workspace_free(&buffer);
  if (A) cusparseDestroySpMat(A);
  if (X) cusparseDestroyDnVec(X);
  if (Y) cusparseDestroyDnVec(Y);
  return status;
}

/* -- csrmm, csrmm2: cusparseSpMM ------------------------------------------- */

static cusparseStatus_t csrmm(cusparseHandle_t handle, cusparseOperation_t opA,
                              cusparseOperation_t opB, int m, int n, int k, int nnz,
                              const void *alpha, const cusparseMatDescr_t descr,
                              const void *val, const int *rowPtr, const int *colInd,
                              const void *B, int ldb, const void *beta, void *C, int ldc,
                              cudaDataType type) {
  cusparseSpMatDescr_t A = NULL;
  cusparseDnMatDescr_t matB = NULL, matC = NULL;
  Workspace buffer = {NULL, NULL, 0};
  size_t size = 0;
  /* op(A) is m x k, or k x m transposed; op(B) has as many rows as op(A)
   * has columns, and n columns. */
  int inner = opA == CUSPARSE_OPERATION_NON_TRANSPOSE ? k : m;
  int outer = opA == CUSPARSE_OPERATION_NON_TRANSPOSE ? m : k;
  int transB = opB != CUSPARSE_OPERATION_NON_TRANSPOSE;
  cusparseStatus_t status;
  STEP(general(descr));
  STEP(csr(&A, m, k, nnz, rowPtr, colInd, val, descr, type));
  STEP(cusparseCreateDnMat(&matB, transB ? n : inner, transB ? inner : n, ldb, (void *)B, type,
                           CUSPARSE_ORDER_COL));
  STEP(cusparseCreateDnMat(&matC, outer, n, ldc, C, type, CUSPARSE_ORDER_COL));
  STEP(cusparseSpMM_bufferSize(handle, opA, opB, alpha, A, matB, beta, matC, type,
                               CUSPARSE_SPMM_ALG_DEFAULT, &size));
  STEP(workspace_alloc(handle, size, &buffer));
  STEP(cusparseSpMM(handle, opA, opB, alpha, A, matB, beta, matC, type,
                    CUSPARSE_SPMM_ALG_DEFAULT, buffer.ptr));
done:
  workspace_free(&buffer);
  if (A) cusparseDestroySpMat(A);
  if (matB) cusparseDestroyDnMat(matB);
  if (matC) cusparseDestroyDnMat(matC);
  return status;
}

/* -- XcsrgemmNnz, csrgemm: cusparseSpGEMMreuse_* ----------------------------
 * The reuse API splits the product as the legacy one did: the structure of
 * C (workEstimation, nnz, copy), then its values (compute).  The legacy
 * routines run it up to the step each needs.  SpGEMM multiplies
 * non-transposed operands only: a transposed one is transposed first
 * (csr2csc, below). */

static cusparseStatus_t csr2csc(cusparseHandle_t handle, int m, int n, int nnz,
                                const void *val, const int *rowPtr, const int *colInd,
                                void *cscVal, int *cscRowInd, int *cscColPtr,
                                cusparseAction_t copyValues, cusparseIndexBase_t base,
                                cudaDataType type);

typedef struct {
  cusparseSpMatDescr_t A, B, C;
  cusparseSpGEMMDescr_t spgemm;
  Workspace buffers[5];
  Workspace scratch;       /* XcsrgemmNnz's: C's column indices, unasked for */
  Workspace transposed[6]; /* op(A) and op(B) when transposed: pointers, indices, values */
} Gemm;

static void gemm_free(Gemm *g) {
  int i;
  for (i = 0; i < 5; i++)
    workspace_free(&g->buffers[i]);
  for (i = 0; i < 6; i++)
    workspace_free(&g->transposed[i]);
  workspace_free(&g->scratch);
  if (g->A) cusparseDestroySpMat(g->A);
  if (g->B) cusparseDestroySpMat(g->B);
  if (g->C) cusparseDestroySpMat(g->C);
  if (g->spgemm) cusparseSpGEMM_destroyDescr(g->spgemm);
}

#define NT CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE

/* op(X) as a CSR matrix of its own: X, stored rows x cols, or its
 * transpose, into mem (the conjugate transpose of complex values is not
 * provided). */
static cusparseStatus_t operand(cusparseHandle_t handle, cusparseOperation_t op, int rows,
                                int cols, int nnz, const void **val, const int **rowPtr,
                                const int **colInd, cusparseIndexBase_t base, cudaDataType type,
                                Workspace mem[3]) {
  size_t entries = (size_t)(nnz > 0 ? nnz : 1);
  cusparseStatus_t status;
  if (op == CUSPARSE_OPERATION_NON_TRANSPOSE)
    return OK;
  if (op != CUSPARSE_OPERATION_TRANSPOSE && (type == CUDA_C_32F || type == CUDA_C_64F))
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if ((status = workspace_alloc(handle, (size_t)(cols + 1) * sizeof(int), &mem[0])) != OK ||
      (status = workspace_alloc(handle, entries * sizeof(int), &mem[1])) != OK ||
      (status = workspace_alloc(handle, entries * size_of(type), &mem[2])) != OK ||
      (status = csr2csc(handle, rows, cols, nnz, *val, *rowPtr, *colInd, mem[2].ptr,
                        (int *)mem[1].ptr, (int *)mem[0].ptr, CUSPARSE_ACTION_NUMERIC, base,
                        type)) != OK)
    return status;
  /* the CSC of X is the CSR of its transpose */
  *rowPtr = (const int *)mem[0].ptr;
  *colInd = (const int *)mem[1].ptr;
  *val = mem[2].ptr;
  return OK;
}

/* Sets up g and computes C's structure: its nnz in *nnzC, its row pointers
 * in rowPtrC and its column indices in colIndC (valC, of type `type`,
 * receives the values in gemm_values).  Without colIndC (XcsrgemmNnz), the
 * column indices go to scratch memory: the copy step that writes the row
 * pointers writes them too. */
static cusparseStatus_t gemm_structure(
    Gemm *g, cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB,
    int m, int n, int k, const cusparseMatDescr_t descrA, int nnzA, const void *valA,
    const int *rowPtrA, const int *colIndA, const cusparseMatDescr_t descrB, int nnzB,
    const void *valB, const int *rowPtrB, const int *colIndB, const cusparseMatDescr_t descrC,
    int *rowPtrC, int *colIndC, void *valC, int64_t *nnzC, cudaDataType type) {
  size_t sizes[5] = {0, 0, 0, 0, 0};
  int64_t rows, cols;
  cusparseStatus_t status;
  int plainA = transA == CUSPARSE_OPERATION_NON_TRANSPOSE;
  int plainB = transB == CUSPARSE_OPERATION_NON_TRANSPOSE;
  if ((status = general(descrA)) != OK || (status = general(descrB)) != OK ||
      (status = general(descrC)) != OK)
    return status;
  /* op(A) is m x k, op(B) k x n */
  STEP(operand(handle, transA, plainA ? m : k, plainA ? k : m, nnzA, &valA, &rowPtrA, &colIndA,
               cusparseGetMatIndexBase(descrA), type, g->transposed));
  STEP(operand(handle, transB, plainB ? k : n, plainB ? n : k, nnzB, &valB, &rowPtrB, &colIndB,
               cusparseGetMatIndexBase(descrB), type, g->transposed + 3));
  STEP(csr(&g->A, m, k, nnzA, rowPtrA, colIndA, valA, descrA, type));
  STEP(csr(&g->B, k, n, nnzB, rowPtrB, colIndB, valB, descrB, type));
  STEP(csr(&g->C, m, n, 0, rowPtrC, NULL, NULL, descrC, type));
  STEP(cusparseSpGEMM_createDescr(&g->spgemm));
  STEP(cusparseSpGEMMreuse_workEstimation(handle, NT, g->A, g->B, g->C, CUSPARSE_SPGEMM_DEFAULT,
                                          g->spgemm, &sizes[0], NULL));
  STEP(workspace_alloc(handle, sizes[0], &g->buffers[0]));
  STEP(cusparseSpGEMMreuse_workEstimation(handle, NT, g->A, g->B, g->C, CUSPARSE_SPGEMM_DEFAULT,
                                          g->spgemm, &sizes[0], g->buffers[0].ptr));
  STEP(cusparseSpGEMMreuse_nnz(handle, NT, g->A, g->B, g->C, CUSPARSE_SPGEMM_DEFAULT, g->spgemm,
                               &sizes[1], NULL, &sizes[2], NULL, &sizes[3], NULL));
  STEP(workspace_alloc(handle, sizes[1], &g->buffers[1]));
  STEP(workspace_alloc(handle, sizes[2], &g->buffers[2]));
  STEP(workspace_alloc(handle, sizes[3], &g->buffers[3]));
  STEP(cusparseSpGEMMreuse_nnz(handle, NT, g->A, g->B, g->C, CUSPARSE_SPGEMM_DEFAULT, g->spgemm,
                               &sizes[1], g->buffers[1].ptr, &sizes[2], g->buffers[2].ptr,
                               &sizes[3], g->buffers[3].ptr));
  STEP(cusparseSpMatGetSize(g->C, &rows, &cols, nnzC));
  if (colIndC == NULL) {
    /* the values' place too: the copy step does not write values */
    STEP(workspace_alloc(handle, (size_t)(*nnzC > 0 ? *nnzC : 1) * sizeof(int), &g->scratch));
    colIndC = (int *)g->scratch.ptr;
    valC = g->scratch.ptr;
  }
  STEP(cusparseCsrSetPointers(g->C, rowPtrC, colIndC, valC));
  STEP(cusparseSpGEMMreuse_copy(handle, NT, g->A, g->B, g->C, CUSPARSE_SPGEMM_DEFAULT,
                                g->spgemm, &sizes[4], NULL));
  STEP(workspace_alloc(handle, sizes[4], &g->buffers[4]));
  STEP(cusparseSpGEMMreuse_copy(handle, NT, g->A, g->B, g->C, CUSPARSE_SPGEMM_DEFAULT,
                                g->spgemm, &sizes[4], g->buffers[4].ptr));
done:
  return status;
}

/* C's values, after gemm_structure: C = 1 * A * B + 0 * C, the constants
 * on the host whatever the handle's pointer mode. */
static cusparseStatus_t gemm_values(Gemm *g, cusparseHandle_t handle, cudaDataType type) {
  cusparsePointerMode_t mode;
  cusparseStatus_t status = cusparseGetPointerMode(handle, &mode);
  if (status != OK || (status = cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST)) != OK)
    return status;
  status = cusparseSpGEMMreuse_compute(handle, NT, one_of(type), g->A, g->B, zero_of(type),
                                       g->C, type, CUSPARSE_SPGEMM_DEFAULT, g->spgemm);
  cusparseSetPointerMode(handle, mode);
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseXcsrgemmNnz(
    cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB, int m,
    int n, int k, const cusparseMatDescr_t descrA, const int nnzA, const int *csrSortedRowPtrA,
    const int *csrSortedColIndA, const cusparseMatDescr_t descrB, const int nnzB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const cusparseMatDescr_t descrC,
    int *csrSortedRowPtrC, int *nnzTotalDevHostPtr) {
  Gemm g;
  int64_t nnzC = 0;
  cusparseStatus_t status;
  memset(&g, 0, sizeof g);
  /* The structure steps read no values: the column indices stand in for
   * them (as many 4-byte entries as a float matrix's values). */
  STEP(gemm_structure(&g, handle, transA, transB, m, n, k, descrA, nnzA, csrSortedColIndA,
                      csrSortedRowPtrA, csrSortedColIndA, descrB, nnzB, csrSortedColIndB,
                      csrSortedRowPtrB, csrSortedColIndB, descrC, csrSortedRowPtrC, NULL, NULL,
                      &nnzC, CUDA_R_32F));
  STEP(put_count(handle, (int)nnzC, nnzTotalDevHostPtr));
done:
  gemm_free(&g);
  return status;
}

static cusparseStatus_t csrgemm(
    cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB, int m,
    int n, int k, const cusparseMatDescr_t descrA, int nnzA, const void *valA,
    const int *rowPtrA, const int *colIndA, const cusparseMatDescr_t descrB, int nnzB,
    const void *valB, const int *rowPtrB, const int *colIndB, const cusparseMatDescr_t descrC,
    void *valC, const int *rowPtrC, int *colIndC, cudaDataType type) {
  Gemm g;
  int64_t nnzC = 0;
  cusparseStatus_t status;
  memset(&g, 0, sizeof g);
  /* rowPtrC is XcsrgemmNnz's: the copy step writes the same pointers again */
  STEP(gemm_structure(&g, handle, transA, transB, m, n, k, descrA, nnzA, valA, rowPtrA,
                      colIndA, descrB, nnzB, valB, rowPtrB, colIndB, descrC, (int *)rowPtrC,
                      colIndC, valC, &nnzC, type));
  STEP(gemm_values(&g, handle, type));
done:
  gemm_free(&g);
  return status;
}

/* -- XcsrgeamNnz, csrgeam: csrgeam2 ----------------------------------------
 * csrgeam2 is the legacy pair with a caller's workspace. */

cusparseStatus_t CUSPARSEAPI cusparseXcsrgeamNnz(
    cusparseHandle_t handle, int m, int n, const cusparseMatDescr_t descrA, int nnzA,
    const int *csrSortedRowPtrA, const int *csrSortedColIndA, const cusparseMatDescr_t descrB,
    int nnzB, const int *csrSortedRowPtrB, const int *csrSortedColIndB,
    const cusparseMatDescr_t descrC, int *csrSortedRowPtrC, int *nnzTotalDevHostPtr) {
  Workspace buffer = {NULL, NULL, 0};
  size_t size = 0;
  cusparsePointerMode_t mode;
  cusparseStatus_t status = cusparseGetPointerMode(handle, &mode);
  if (status != OK)
    return status;
  /* The workspace's size, asked of the float routine with host scalars
   * (the structure step is the same for every value type); the index
   * arrays stand in for the values and for C's columns, which a size query
   * does not read. */
  STEP(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
  status = cusparseScsrgeam2_bufferSizeExt(
      handle, m, n, (const float *)one_of(CUDA_R_32F), descrA, nnzA,
      (const float *)csrSortedColIndA, csrSortedRowPtrA, csrSortedColIndA,
      (const float *)one_of(CUDA_R_32F), descrB, nnzB, (const float *)csrSortedColIndB,
      csrSortedRowPtrB, csrSortedColIndB, descrC, (const float *)csrSortedRowPtrC,
      csrSortedRowPtrC, csrSortedRowPtrC, &size);
  cusparseSetPointerMode(handle, mode);
  if (status != OK)
    goto done;
  STEP(workspace_alloc(handle, size, &buffer));
  STEP(cusparseXcsrgeam2Nnz(handle, m, n, descrA, nnzA, csrSortedRowPtrA, csrSortedColIndA,
                            descrB, nnzB, csrSortedRowPtrB, csrSortedColIndB, descrC,
                            csrSortedRowPtrC, nnzTotalDevHostPtr, buffer.ptr));
done:
  workspace_free(&buffer);
  return status;
}

/* -- csr2csc: cusparseCsr2cscEx2 ------------------------------------------- */

static cusparseStatus_t csr2csc(cusparseHandle_t handle, int m, int n, int nnz,
                                const void *val, const int *rowPtr, const int *colInd,
                                void *cscVal, int *cscRowInd, int *cscColPtr,
                                cusparseAction_t copyValues, cusparseIndexBase_t base,
                                cudaDataType type) {
  Workspace buffer = {NULL, NULL, 0};
  size_t size = 0;
  cusparseStatus_t status;
  STEP(cusparseCsr2cscEx2_bufferSize(handle, m, n, nnz, val, rowPtr, colInd, cscVal, cscColPtr,
                                     cscRowInd, type, copyValues, base,
                                     CUSPARSE_CSR2CSC_ALG_DEFAULT, &size));
  STEP(workspace_alloc(handle, size, &buffer));
  STEP(cusparseCsr2cscEx2(handle, m, n, nnz, val, rowPtr, colInd, cscVal, cscColPtr, cscRowInd,
                          type, copyValues, base, CUSPARSE_CSR2CSC_ALG_DEFAULT, buffer.ptr));
done:
  workspace_free(&buffer);
  return status;
}

/* -- gthr, gthrz, sctr, axpyi, doti: Gather, Scatter, Axpby, SpVV ----------- */

static cusparseStatus_t vectors(cusparseSpVecDescr_t *X, cusparseDnVecDescr_t *Y, int64_t length,
                                int nnz, const int *xInd, const void *xVal, const void *y,
                                cusparseIndexBase_t base, cudaDataType type) {
  cusparseStatus_t status = cusparseCreateSpVec(X, length, nnz, (void *)xInd, (void *)xVal,
                                                CUSPARSE_INDEX_32I, base, type);
  return status != OK ? status : cusparseCreateDnVec(Y, length, (void *)y, type);
}

/* gthr; with zero, gthrz (the gathered entries of y set to 0 after). */
static cusparseStatus_t gthr(cusparseHandle_t handle, int nnz, void *y, void *xVal,
                             const int *xInd, cusparseIndexBase_t base, cudaDataType type,
                             int zero) {
  cusparseSpVecDescr_t X = NULL, zeros = NULL;
  cusparseDnVecDescr_t Y = NULL;
  Workspace values = {NULL, NULL, 0};
  cusparseStatus_t status;
  STEP(vectors(&X, &Y, ANY_LENGTH, nnz, xInd, xVal, y, base, type));
  STEP(cusparseGather(handle, Y, X));
  if (zero && nnz > 0) {
    STEP(workspace_alloc(handle, (size_t)nnz * size_of(type), &values));
    /* all-zero bytes are 0.0 in every value type */
    if (cudaMemsetAsync(values.ptr, 0, (size_t)nnz * size_of(type), values.stream) !=
        cudaSuccess) {
      (void)cudaGetLastError();
      status = CUSPARSE_STATUS_EXECUTION_FAILED;
      goto done;
    }
    STEP(cusparseCreateSpVec(&zeros, ANY_LENGTH, nnz, (void *)xInd, values.ptr,
                             CUSPARSE_INDEX_32I, base, type));
    STEP(cusparseScatter(handle, zeros, Y));
  }
done:
  workspace_free(&values);
  if (X) cusparseDestroySpVec(X);
  if (zeros) cusparseDestroySpVec(zeros);
  if (Y) cusparseDestroyDnVec(Y);
  return status;
}

static cusparseStatus_t sctr(cusparseHandle_t handle, int nnz, const void *xVal,
                             const int *xInd, void *y, cusparseIndexBase_t base,
                             cudaDataType type) {
  cusparseSpVecDescr_t X = NULL;
  cusparseDnVecDescr_t Y = NULL;
  cusparseStatus_t status;
  STEP(vectors(&X, &Y, ANY_LENGTH, nnz, xInd, xVal, y, base, type));
  STEP(cusparseScatter(handle, X, Y));
done:
  if (X) cusparseDestroySpVec(X);
  if (Y) cusparseDestroyDnVec(Y);
  return status;
}

/* cusparseAxpby computes y = alpha * x + beta * y over the whole of y, so
 * y's length must be the real one: one past the largest index. */
static cusparseStatus_t axpyi(cusparseHandle_t handle, int nnz, const void *alpha,
                              const void *xVal, const int *xInd, void *y,
                              cusparseIndexBase_t base, cudaDataType type) {
  cusparseSpVecDescr_t X = NULL;
  cusparseDnVecDescr_t Y = NULL;
  cusparsePointerMode_t mode;
  cudaStream_t stream;
  int *indices = NULL, i, largest = -1;
  cusparseStatus_t status;
  if (nnz <= 0)
    return nnz < 0 ? CUSPARSE_STATUS_INVALID_VALUE : OK;
  STEP(cusparseGetStream(handle, &stream));
  if ((indices = (int *)malloc((size_t)nnz * sizeof(int))) == NULL) {
    status = CUSPARSE_STATUS_ALLOC_FAILED;
    goto done;
  }
  if (cudaMemcpyAsync(indices, xInd, (size_t)nnz * sizeof(int), cudaMemcpyDeviceToHost,
                      stream) != cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess) {
    (void)cudaGetLastError();
    status = CUSPARSE_STATUS_EXECUTION_FAILED;
    goto done;
  }
  for (i = 0; i < nnz; i++)
    largest = indices[i] > largest ? indices[i] : largest;
  STEP(vectors(&X, &Y, (int64_t)largest - (base == CUSPARSE_INDEX_BASE_ONE) + 1, nnz, xInd,
               xVal, y, base, type));
  /* beta = 1, on the host; alpha as the handle's pointer mode says */
  STEP(cusparseGetPointerMode(handle, &mode));
  if (mode == CUSPARSE_POINTER_MODE_HOST) {
    STEP(cusparseAxpby(handle, alpha, X, one_of(type), Y));
  } else {
    /* a device alpha: copied to the host (the stream is idle: synchronized above) */
    double host_alpha[2];
    if (cudaMemcpy(host_alpha, alpha, size_of(type), cudaMemcpyDeviceToHost) != cudaSuccess) {
      (void)cudaGetLastError();
      status = CUSPARSE_STATUS_EXECUTION_FAILED;
      goto done;
    }
    STEP(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    status = cusparseAxpby(handle, host_alpha, X, one_of(type), Y);
    cusparseSetPointerMode(handle, mode);
  }
done:
  free(indices);
  if (X) cusparseDestroySpVec(X);
  if (Y) cusparseDestroyDnVec(Y);
  return status;
}

static cusparseStatus_t doti(cusparseHandle_t handle, cusparseOperation_t op, int nnz,
                             const void *xVal, const int *xInd, const void *y, void *result,
                             cusparseIndexBase_t base, cudaDataType type) {
  cusparseSpVecDescr_t X = NULL;
  cusparseDnVecDescr_t Y = NULL;
  Workspace buffer = {NULL, NULL, 0};
  size_t size = 0;
  cusparseStatus_t status;
  STEP(vectors(&X, &Y, ANY_LENGTH, nnz, xInd, xVal, y, base, type));
  STEP(cusparseSpVV_bufferSize(handle, op, X, Y, result, type, &size));
  STEP(workspace_alloc(handle, size, &buffer));
  STEP(cusparseSpVV(handle, op, X, Y, result, type, buffer.ptr));
done:
  workspace_free(&buffer);
  if (X) cusparseDestroySpVec(X);
  if (Y) cusparseDestroyDnVec(Y);
  return status;
}

/* -- the typed entry points --------------------------------------------------- */

#define DEFINE_TYPED(t, T, type)                                                            \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmv(                                          \
      cusparseHandle_t handle, cusparseOperation_t transA, int m, int n, int nnz,           \
      const T *alpha, const cusparseMatDescr_t descrA, const T *val, const int *rowPtr,     \
      const int *colInd, const T *x, const T *beta, T *y) {                                 \
    return csrmv(handle, transA, m, n, nnz, alpha, descrA, val, rowPtr, colInd, x, beta, y, \
                 type);                                                                     \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmv_mp(                                       \
      cusparseHandle_t handle, cusparseOperation_t transA, int m, int n, int nnz,           \
      const T *alpha, const cusparseMatDescr_t descrA, const T *val, const int *rowPtr,     \
      const int *colInd, const T *x, const T *beta, T *y) {                                 \
    return csrmv(handle, transA, m, n, nnz, alpha, descrA, val, rowPtr, colInd, x, beta, y, \
                 type);                                                                     \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmm(                                          \
      cusparseHandle_t handle, cusparseOperation_t transA, int m, int n, int k, int nnz,    \
      const T *alpha, const cusparseMatDescr_t descrA, const T *val, const int *rowPtr,     \
      const int *colInd, const T *B, int ldb, const T *beta, T *C, int ldc) {               \
    return csrmm(handle, transA, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, k, nnz, alpha,     \
                 descrA, val, rowPtr, colInd, B, ldb, beta, C, ldc, type);                  \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrmm2(                                         \
      cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB,      \
      int m, int n, int k, int nnz, const T *alpha, const cusparseMatDescr_t descrA,        \
      const T *val, const int *rowPtr, const int *colInd, const T *B, int ldb,              \
      const T *beta, T *C, int ldc) {                                                       \
    return csrmm(handle, transA, transB, m, n, k, nnz, alpha, descrA, val, rowPtr, colInd,  \
                 B, ldb, beta, C, ldc, type);                                               \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrgemm(                                        \
      cusparseHandle_t handle, cusparseOperation_t transA, cusparseOperation_t transB,      \
      int m, int n, int k, const cusparseMatDescr_t descrA, const int nnzA, const T *valA,  \
      const int *rowPtrA, const int *colIndA, const cusparseMatDescr_t descrB,              \
      const int nnzB, const T *valB, const int *rowPtrB, const int *colIndB,                \
      const cusparseMatDescr_t descrC, T *valC, const int *rowPtrC, int *colIndC) {         \
    return csrgemm(handle, transA, transB, m, n, k, descrA, nnzA, valA, rowPtrA, colIndA,   \
                   descrB, nnzB, valB, rowPtrB, colIndB, descrC, valC, rowPtrC, colIndC,    \
                   type);                                                                   \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csrgeam(                                        \
      cusparseHandle_t handle, int m, int n, const T *alpha, const cusparseMatDescr_t descrA,\
      int nnzA, const T *valA, const int *rowPtrA, const int *colIndA, const T *beta,       \
      const cusparseMatDescr_t descrB, int nnzB, const T *valB, const int *rowPtrB,         \
      const int *colIndB, const cusparseMatDescr_t descrC, T *valC, int *rowPtrC,           \
      int *colIndC) {                                                                       \
    Workspace buffer = {NULL, NULL, 0};                                                        \
    size_t size = 0;                                                                        \
    cusparseStatus_t status;                                                                \
    STEP(cusparse##t##csrgeam2_bufferSizeExt(handle, m, n, alpha, descrA, nnzA, valA,       \
                                             rowPtrA, colIndA, beta, descrB, nnzB, valB,    \
                                             rowPtrB, colIndB, descrC, valC, rowPtrC,       \
                                             colIndC, &size));                              \
    STEP(workspace_alloc(handle, size, &buffer));                                           \
    STEP(cusparse##t##csrgeam2(handle, m, n, alpha, descrA, nnzA, valA, rowPtrA, colIndA,   \
                               beta, descrB, nnzB, valB, rowPtrB, colIndB, descrC, valC,    \
                               rowPtrC, colIndC, buffer.ptr));                              \
  done:                                                                                     \
    workspace_free(&buffer);                                                                \
    return status;                                                                          \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##csr2csc(                                        \
      cusparseHandle_t handle, int m, int n, int nnz, const T *val, const int *rowPtr,      \
      const int *colInd, T *cscVal, int *cscRowInd, int *cscColPtr,                         \
      cusparseAction_t copyValues, cusparseIndexBase_t idxBase) {                           \
    return csr2csc(handle, m, n, nnz, val, rowPtr, colInd, cscVal, cscRowInd, cscColPtr,    \
                   copyValues, idxBase, type);                                              \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##gthr(cusparseHandle_t handle, int nnz,          \
                                                 const T *y, T *xVal, const int *xInd,      \
                                                 cusparseIndexBase_t idxBase) {             \
    return gthr(handle, nnz, (void *)y, xVal, xInd, idxBase, type, 0);                      \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##gthrz(cusparseHandle_t handle, int nnz, T *y,   \
                                                  T *xVal, const int *xInd,                 \
                                                  cusparseIndexBase_t idxBase) {            \
    return gthr(handle, nnz, y, xVal, xInd, idxBase, type, 1);                              \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##sctr(cusparseHandle_t handle, int nnz,          \
                                                 const T *xVal, const int *xInd, T *y,      \
                                                 cusparseIndexBase_t idxBase) {             \
    return sctr(handle, nnz, xVal, xInd, y, idxBase, type);                                 \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##axpyi(cusparseHandle_t handle, int nnz,         \
                                                  const T *alpha, const T *xVal,            \
                                                  const int *xInd, T *y,                    \
                                                  cusparseIndexBase_t idxBase) {            \
    return axpyi(handle, nnz, alpha, xVal, xInd, y, idxBase, type);                         \
  }                                                                                         \
  cusparseStatus_t CUSPARSEAPI cusparse##t##doti(cusparseHandle_t handle, int nnz,          \
                                                 const T *xVal, const int *xInd, const T *y,\
                                                 T *resultDevHostPtr,                       \
                                                 cusparseIndexBase_t idxBase) {             \
    return doti(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, nnz, xVal, xInd, y,               \
                resultDevHostPtr, idxBase, type);                                           \
  }

DEFINE_TYPED(S, float, CUDA_R_32F)
DEFINE_TYPED(D, double, CUDA_R_64F)
DEFINE_TYPED(C, cuComplex, CUDA_C_32F)
DEFINE_TYPED(Z, cuDoubleComplex, CUDA_C_64F)

cusparseStatus_t CUSPARSEAPI cusparseCdotci(cusparseHandle_t handle, int nnz,
                                            const cuComplex *xVal, const int *xInd,
                                            const cuComplex *y, cuComplex *resultDevHostPtr,
                                            cusparseIndexBase_t idxBase) {
  return doti(handle, CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE, nnz, xVal, xInd, y,
              resultDevHostPtr, idxBase, CUDA_C_32F);
}

cusparseStatus_t CUSPARSEAPI cusparseZdotci(cusparseHandle_t handle, int nnz,
                                            const cuDoubleComplex *xVal, const int *xInd,
                                            const cuDoubleComplex *y,
                                            cuDoubleComplex *resultDevHostPtr,
                                            cusparseIndexBase_t idxBase) {
  return doti(handle, CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE, nnz, xVal, xInd, y,
              resultDevHostPtr, idxBase, CUDA_C_64F);
}

#endif /* THFFI_CUSPARSE_LEGACY */
