/* cuSPARSE's legacy API from 2018's THC code: a CSR matrix is (values,
 * rowPtr, colInd), int indices from zero; dense matrices are column-major
 * (a row-major torch tensor of shape (n, m) is m x n). */
int sparse_csrmv_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                      THCudaTensor *x, THCudaTensor *y, int transpose);
int sparse_dcsrmv_cuda(THCudaDoubleTensor *values, THCudaIntTensor *rowPtr,
                       THCudaIntTensor *colInd, THCudaDoubleTensor *x, THCudaDoubleTensor *y);
int sparse_csrmm_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                      THCudaTensor *B, THCudaTensor *C);
int sparse_csrmm2_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                       THCudaTensor *B, THCudaTensor *C);
int sparse_csrgemm_cuda(int transposeA, int m, int n, int k, THCudaTensor *aValues,
                        THCudaIntTensor *aRowPtr, THCudaIntTensor *aColInd,
                        THCudaTensor *bValues, THCudaIntTensor *bRowPtr,
                        THCudaIntTensor *bColInd, THCudaTensor *cValues,
                        THCudaIntTensor *cRowPtr, THCudaIntTensor *cColInd);
int sparse_csrgeam_cuda(float alpha, THCudaTensor *aValues, THCudaIntTensor *aRowPtr,
                        THCudaIntTensor *aColInd, float beta, THCudaTensor *bValues,
                        THCudaIntTensor *bRowPtr, THCudaIntTensor *bColInd, int n,
                        THCudaTensor *cValues, THCudaIntTensor *cRowPtr,
                        THCudaIntTensor *cColInd);
int sparse_csr2csc_cuda(THCudaTensor *values, THCudaIntTensor *rowPtr, THCudaIntTensor *colInd,
                        int n, THCudaTensor *cscValues, THCudaIntTensor *cscRowInd,
                        THCudaIntTensor *cscColPtr);
int sparse_gthr_cuda(THCudaTensor *y, THCudaIntTensor *xInd, THCudaTensor *xVal, int zero);
int sparse_sctr_cuda(THCudaTensor *xVal, THCudaIntTensor *xInd, THCudaTensor *y);
int sparse_axpyi_cuda(float alpha, THCudaTensor *xVal, THCudaIntTensor *xInd, THCudaTensor *y);
int sparse_doti_cuda(THCudaTensor *xVal, THCudaIntTensor *xInd, THCudaTensor *y,
                     THCudaTensor *result);
int sparse_sync_cuda(void);
