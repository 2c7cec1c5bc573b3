#include <THC/THC.h>

extern THCState *state;

#define TH_GENERIC_FILE "generic/thc_api.c"
#include "THC/THCGenerateAllTypes.h"

/* c (m x n) = a (m x k) . b (k x n), all row-major and contiguous: cuBLAS is
 * column-major, so this computes c^T = b^T . a^T. */
void thc_api_sgemm(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c) {
  int64_t m = THCudaTensor_size(state, a, 0), k = THCudaTensor_size(state, a, 1);
  int64_t n = THCudaTensor_size(state, b, 1);
  THCudaTensor_resize2d(state, c, m, n);
  THCudaBlas_Sgemm(state, 'n', 'n', n, m, k, 1.0f, THCudaTensor_data(state, b), n,
                   THCudaTensor_data(state, a), k, 0.0f, THCudaTensor_data(state, c), n);
}

void thc_api_dgemm(THCudaDoubleTensor *a, THCudaDoubleTensor *b, THCudaDoubleTensor *c) {
  int64_t m = THCudaDoubleTensor_size(state, a, 0), k = THCudaDoubleTensor_size(state, a, 1);
  int64_t n = THCudaDoubleTensor_size(state, b, 1);
  THCudaDoubleTensor_resize2d(state, c, m, n);
  THCudaBlas_Dgemm(state, 'n', 'n', n, m, k, 1.0, THCudaDoubleTensor_data(state, b), n,
                   THCudaDoubleTensor_data(state, a), k, 0.0, THCudaDoubleTensor_data(state, c), n);
}

#define THC_GENERIC_FILE "generic/thc_copy.c"
#include "THC/THCGenerateAllTypes.h"

/* cuBLAS level 1 and 2 on 1-D strided vectors and row-major contiguous
 * matrices (cuBLAS is column-major: a row-major m x n matrix is its n x m
 * transpose there, with leading dimension n). */
float thc_api_sdot(THCudaTensor *x, THCudaTensor *y) {
  return THCudaBlas_Sdot(state, THCudaTensor_nElement(state, x), THCudaTensor_data(state, x),
                         THCudaTensor_stride(state, x, 0), THCudaTensor_data(state, y),
                         THCudaTensor_stride(state, y, 0));
}

double thc_api_ddot(THCudaDoubleTensor *x, THCudaDoubleTensor *y) {
  return THCudaBlas_Ddot(state, THCudaDoubleTensor_nElement(state, x),
                         THCudaDoubleTensor_data(state, x),
                         THCudaDoubleTensor_stride(state, x, 0),
                         THCudaDoubleTensor_data(state, y),
                         THCudaDoubleTensor_stride(state, y, 0));
}

/* y = alpha a x + beta y, or alpha a^T x + beta y with transposed; a m x n. */
void thc_api_sgemv(THCudaTensor *a, THCudaTensor *x, THCudaTensor *y, float alpha, float beta,
                   int transposed) {
  int64_t m = THCudaTensor_size(state, a, 0), n = THCudaTensor_size(state, a, 1);
  THCudaBlas_Sgemv(state, transposed ? 'n' : 't', n, m, alpha, THCudaTensor_data(state, a), n,
                   THCudaTensor_data(state, x), THCudaTensor_stride(state, x, 0), beta,
                   THCudaTensor_data(state, y), THCudaTensor_stride(state, y, 0));
}

void thc_api_dgemv(THCudaDoubleTensor *a, THCudaDoubleTensor *x, THCudaDoubleTensor *y,
                   double alpha, double beta, int transposed) {
  int64_t m = THCudaDoubleTensor_size(state, a, 0), n = THCudaDoubleTensor_size(state, a, 1);
  THCudaBlas_Dgemv(state, transposed ? 'n' : 't', n, m, alpha,
                   THCudaDoubleTensor_data(state, a), n, THCudaDoubleTensor_data(state, x),
                   THCudaDoubleTensor_stride(state, x, 0), beta,
                   THCudaDoubleTensor_data(state, y), THCudaDoubleTensor_stride(state, y, 0));
}

/* a += alpha x y^T; a m x n. */
void thc_api_sger(THCudaTensor *a, THCudaTensor *x, THCudaTensor *y, float alpha) {
  int64_t m = THCudaTensor_size(state, a, 0), n = THCudaTensor_size(state, a, 1);
  THCudaBlas_Sger(state, n, m, alpha, THCudaTensor_data(state, y),
                  THCudaTensor_stride(state, y, 0), THCudaTensor_data(state, x),
                  THCudaTensor_stride(state, x, 0), THCudaTensor_data(state, a), n);
}

void thc_api_dger(THCudaDoubleTensor *a, THCudaDoubleTensor *x, THCudaDoubleTensor *y,
                  double alpha) {
  int64_t m = THCudaDoubleTensor_size(state, a, 0), n = THCudaDoubleTensor_size(state, a, 1);
  THCudaBlas_Dger(state, n, m, alpha, THCudaDoubleTensor_data(state, y),
                  THCudaDoubleTensor_stride(state, y, 0), THCudaDoubleTensor_data(state, x),
                  THCudaDoubleTensor_stride(state, x, 0), THCudaDoubleTensor_data(state, a), n);
}

/* The device addresses of the batch's matrices, in device memory from
 * THCudaMalloc (freed by the caller with THCudaFree). */
static void *batch_pointers(char *base, int64_t batch, int64_t step) {
  void *host[64], *device = NULL;
  int64_t i;
  THArgCheck(batch <= 64, 1, "at most 64 matrices, got %lld", (long long)batch);
  for (i = 0; i < batch; i++) host[i] = base + i * step;
  THCudaCheck(THCudaMalloc(state, &device, batch * sizeof(void *)));
  THCudaCheck(cudaMemcpyAsync(device, host, batch * sizeof(void *), cudaMemcpyHostToDevice,
                              THCState_getCurrentStream(state)));
  THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state)));
  return device;
}

/* c1 and c2 (batch x m x n) = a (batch x m x k) . b (batch x k x n), all
 * row-major and contiguous: c1 with SgemmBatched, c2 with
 * SgemmStridedBatched (c^T = b^T . a^T in cuBLAS's column-major terms). */
void thc_api_sgemm_batched(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c1,
                           THCudaTensor *c2) {
  int64_t batch = THCudaTensor_size(state, a, 0), m = THCudaTensor_size(state, a, 1);
  int64_t k = THCudaTensor_size(state, a, 2), n = THCudaTensor_size(state, b, 2);
  void *pa, *pb, *pc;
  THCudaTensor_resize3d(state, c1, batch, m, n);
  THCudaTensor_resize3d(state, c2, batch, m, n);
  pa = batch_pointers((char *)THCudaTensor_data(state, a), batch, m * k * sizeof(float));
  pb = batch_pointers((char *)THCudaTensor_data(state, b), batch, k * n * sizeof(float));
  pc = batch_pointers((char *)THCudaTensor_data(state, c1), batch, m * n * sizeof(float));
  THCudaBlas_SgemmBatched(state, 'n', 'n', n, m, k, 1.0f, (const float **)pb, n,
                          (const float **)pa, k, 0.0f, (float **)pc, n, batch);
  THCudaBlas_SgemmStridedBatched(state, 'n', 'n', n, m, k, 1.0f, THCudaTensor_data(state, b),
                                 n, k * n, THCudaTensor_data(state, a), k, m * k, 0.0f,
                                 THCudaTensor_data(state, c2), n, m * n, batch);
  THCudaCheck(THCudaFree(state, pa));
  THCudaCheck(THCudaFree(state, pb));
  THCudaCheck(THCudaFree(state, pc));
}

void thc_api_dgemm_batched(THCudaDoubleTensor *a, THCudaDoubleTensor *b,
                           THCudaDoubleTensor *c1, THCudaDoubleTensor *c2) {
  int64_t batch = THCudaDoubleTensor_size(state, a, 0), m = THCudaDoubleTensor_size(state, a, 1);
  int64_t k = THCudaDoubleTensor_size(state, a, 2), n = THCudaDoubleTensor_size(state, b, 2);
  void *pa, *pb, *pc;
  THCudaDoubleTensor_resize3d(state, c1, batch, m, n);
  THCudaDoubleTensor_resize3d(state, c2, batch, m, n);
  pa = batch_pointers((char *)THCudaDoubleTensor_data(state, a), batch, m * k * sizeof(double));
  pb = batch_pointers((char *)THCudaDoubleTensor_data(state, b), batch, k * n * sizeof(double));
  pc = batch_pointers((char *)THCudaDoubleTensor_data(state, c1), batch, m * n * sizeof(double));
  THCudaBlas_DgemmBatched(state, 'n', 'n', n, m, k, 1.0, (const double **)pb, n,
                          (const double **)pa, k, 0.0, (double **)pc, n, batch);
  THCudaBlas_DgemmStridedBatched(state, 'n', 'n', n, m, k, 1.0,
                                 THCudaDoubleTensor_data(state, b), n, k * n,
                                 THCudaDoubleTensor_data(state, a), k, m * k, 0.0,
                                 THCudaDoubleTensor_data(state, c2), n, m * n, batch);
  THCudaCheck(THCudaFree(state, pa));
  THCudaCheck(THCudaFree(state, pb));
  THCudaCheck(THCudaFree(state, pc));
}
