#include <THC/THC.h>
#include "sparse_cuda.h"

extern THCState *state;

#define ROWS(rowPtr) ((int)THCudaIntTensor_nElement(state, rowPtr) - 1)
#define NNZ(values) ((int)THCudaTensor_nElement(state, values))
#define F(t) THCudaTensor_data(state, t)
#define I(t) THCudaIntTensor_data(state, t)

static cusparseMatDescr_t general(void)
{
  cusparseMatDescr_t descr;
  THCusparseCheck(cusparseCreateMatDescr(&descr));
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
  return descr;
}

/* y = A x, or A^T x with transpose; A has as many columns as x (or y) */
int sparse_csrmv_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                      THCudaTensor *x, THCudaTensor *y, int transpose)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  cusparseMatDescr_t descr = general();
  float alpha = 1, beta = 0;
  int m = ROWS(rowPtr);
  int n = THCudaTensor_nElement(state, transpose ? y : x);
  THCusparseCheck(cusparseScsrmv(handle, transpose ? CUSPARSE_OPERATION_TRANSPOSE
                                                   : CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 m, n, NNZ(values), &alpha, descr, F(values), I(rowPtr),
                                 I(colInd), F(x), &beta, F(y)));
  cusparseDestroyMatDescr(descr);
  return 1;
}

int sparse_dcsrmv_cuda(THCudaDoubleTensor *values, THCudaIntTensor *rowPtr,
                       THCudaIntTensor *colInd, THCudaDoubleTensor *x, THCudaDoubleTensor *y)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  cusparseMatDescr_t descr = general();
  double alpha = 1, beta = 0;
  THCusparseCheck(cusparseDcsrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, ROWS(rowPtr),
                                 THCudaDoubleTensor_nElement(state, x),
                                 THCudaDoubleTensor_nElement(state, values), &alpha, descr,
                                 THCudaDoubleTensor_data(state, values), I(rowPtr), I(colInd),
                                 THCudaDoubleTensor_data(state, x), &beta,
                                 THCudaDoubleTensor_data(state, y)));
  cusparseDestroyMatDescr(descr);
  return 1;
}

/* C = A B: B is k x n column-major (a (n, k) tensor), C m x n (an (n, m) tensor) */
int sparse_csrmm_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                      THCudaTensor *B, THCudaTensor *C)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  cusparseMatDescr_t descr = general();
  float alpha = 1, beta = 0;
  int m = ROWS(rowPtr), n = THCudaTensor_size(state, B, 0), k = THCudaTensor_size(state, B, 1);
  THCusparseCheck(cusparseScsrmm(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, k, NNZ(values),
                                 &alpha, descr, F(values), I(rowPtr), I(colInd), F(B), k, &beta,
                                 F(C), m));
  cusparseDestroyMatDescr(descr);
  return 1;
}

/* C = A op(B), op(B) = B^T: B is n x k column-major (a (k, n) tensor) */
int sparse_csrmm2_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                       THCudaTensor *B, THCudaTensor *C)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  cusparseMatDescr_t descr = general();
  float alpha = 1, beta = 0;
  int m = ROWS(rowPtr), k = THCudaTensor_size(state, B, 0), n = THCudaTensor_size(state, B, 1);
  THCusparseCheck(cusparseScsrmm2(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_TRANSPOSE, m, n, k, NNZ(values), &alpha,
                                  descr, F(values), I(rowPtr), I(colInd), F(B), n, &beta, F(C),
                                  m));
  cusparseDestroyMatDescr(descr);
  return 1;
}

/* C = op(A) B (op(A) m x k: A, or A^T with transposeA; B k x n): C's rowPtr,
   then its colInd and values; returns nnz(C) */
int sparse_csrgemm_cuda(int transposeA, int m, int n, int k, THCudaTensor *aValues,
                        THCudaIntTensor *aRowPtr, THCudaIntTensor *aColInd,
                        THCudaTensor *bValues, THCudaIntTensor *bRowPtr,
                        THCudaIntTensor *bColInd, THCudaTensor *cValues,
                        THCudaIntTensor *cRowPtr, THCudaIntTensor *cColInd)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  cusparseMatDescr_t descr = general();
  cusparseOperation_t opA = transposeA ? CUSPARSE_OPERATION_TRANSPOSE
                                       : CUSPARSE_OPERATION_NON_TRANSPOSE;
  int nnz = 0;
  THCudaIntTensor_resize1d(state, cRowPtr, m + 1);
  THCusparseCheck(cusparseXcsrgemmNnz(handle, opA, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, k,
                                      descr,
                                      NNZ(aValues), I(aRowPtr), I(aColInd), descr,
                                      NNZ(bValues), I(bRowPtr), I(bColInd), descr, I(cRowPtr),
                                      &nnz));
  THCudaTensor_resize1d(state, cValues, nnz);
  THCudaIntTensor_resize1d(state, cColInd, nnz);
  THCusparseCheck(cusparseScsrgemm(handle, opA, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, k,
                                   descr,
                                   NNZ(aValues), F(aValues), I(aRowPtr), I(aColInd), descr,
                                   NNZ(bValues), F(bValues), I(bRowPtr), I(bColInd), descr,
                                   F(cValues), I(cRowPtr), I(cColInd)));
  cusparseDestroyMatDescr(descr);
  return nnz;
}

/* C = alpha A + beta B, all m x n; returns nnz(C) */
int sparse_csrgeam_cuda(float alpha, THCudaTensor *aValues, THCudaIntTensor *aRowPtr,
                        THCudaIntTensor *aColInd, float beta, THCudaTensor *bValues,
                        THCudaIntTensor *bRowPtr, THCudaIntTensor *bColInd, int n,
                        THCudaTensor *cValues, THCudaIntTensor *cRowPtr,
                        THCudaIntTensor *cColInd)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  cusparseMatDescr_t descr = general();
  int m = ROWS(aRowPtr), nnz = 0;
  THCudaIntTensor_resize1d(state, cRowPtr, m + 1);
  THCusparseCheck(cusparseXcsrgeamNnz(handle, m, n, descr, NNZ(aValues), I(aRowPtr),
                                      I(aColInd), descr, NNZ(bValues), I(bRowPtr), I(bColInd),
                                      descr, I(cRowPtr), &nnz));
  THCudaTensor_resize1d(state, cValues, nnz);
  THCudaIntTensor_resize1d(state, cColInd, nnz);
  THCusparseCheck(cusparseScsrgeam(handle, m, n, &alpha, descr, NNZ(aValues), F(aValues),
                                   I(aRowPtr), I(aColInd), &beta, descr, NNZ(bValues),
                                   F(bValues), I(bRowPtr), I(bColInd), descr, F(cValues),
                                   I(cRowPtr), I(cColInd)));
  cusparseDestroyMatDescr(descr);
  return nnz;
}

/* the m x n CSR matrix as CSC (cscColPtr: n + 1 entries) */
int sparse_csr2csc_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                        int n, THCudaTensor *cscValues, THCudaIntTensor *cscRowInd,
                        THCudaIntTensor *cscColPtr)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  THCusparseCheck(cusparseScsr2csc(handle, ROWS(rowPtr), n, NNZ(values), F(values), I(rowPtr),
                                   I(colInd), F(cscValues), I(cscRowInd), I(cscColPtr),
                                   CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO));
  return 1;
}

/* xVal = y[xInd]; with zero, then y[xInd] = 0 */
int sparse_gthr_cuda(THCudaTensor *y, THCudaIntTensor *xInd, THCudaTensor *xVal, int zero)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  if (zero)
    THCusparseCheck(cusparseSgthrz(handle, NNZ(xVal), F(y), F(xVal), I(xInd),
                                   CUSPARSE_INDEX_BASE_ZERO));
  else
    THCusparseCheck(cusparseSgthr(handle, NNZ(xVal), F(y), F(xVal), I(xInd),
                                  CUSPARSE_INDEX_BASE_ZERO));
  return 1;
}

/* y[xInd] = xVal */
int sparse_sctr_cuda(THCudaTensor *xVal, THCudaIntTensor *xInd, THCudaTensor *y)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  THCusparseCheck(cusparseSsctr(handle, NNZ(xVal), F(xVal), I(xInd), F(y),
                                CUSPARSE_INDEX_BASE_ZERO));
  return 1;
}

/* y[xInd] += alpha xVal */
int sparse_axpyi_cuda(float alpha, THCudaTensor *xVal, THCudaIntTensor *xInd, THCudaTensor *y)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  THCusparseCheck(cusparseSaxpyi(handle, NNZ(xVal), &alpha, F(xVal), I(xInd), F(y),
                                 CUSPARSE_INDEX_BASE_ZERO));
  return 1;
}

/* result = sum of xVal * y[xInd] (result: one element) */
int sparse_doti_cuda(THCudaTensor *xVal, THCudaIntTensor *xInd, THCudaTensor *y,
                     THCudaTensor *result)
{
  cusparseHandle_t handle = THCState_getCurrentSparseHandle(state);
  float dot = 0;
  THCusparseCheck(cusparseSdoti(handle, NNZ(xVal), F(xVal), I(xInd), F(y), &dot,
                                CUSPARSE_INDEX_BASE_ZERO));
  THCudaTensor_fill(state, result, dot);
  return 1;
}

/* the calls of 2018's runtime that CUDA 13 removed */
int sparse_sync_cuda(void)
{
  size_t stack = 0;
  THCudaCheck(cudaThreadGetLimit(&stack, cudaLimitStackSize));
  THCudaCheck(cudaThreadSynchronize());
  return stack > 0;
}
