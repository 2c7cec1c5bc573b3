/* TH's raw BLAS and LAPACK as 2018 C called them: on the memory of the
 * tensors it is handed, column-major (a matrix argument's stride(0) is 1,
 * its leading dimension stride(1)), through THBlas_(...) and
 * THLapack_(...) in generic code. */
#include <TH/TH.h>

#define th_blas_(NAME) TH_CONCAT_4(th_blas_, Real, _, NAME)
#define TH_GENERIC_FILE "generic/th_blas.c"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/th_blas.c"
#include "TH/THGenerateLongType.h"

/* A fully connected layer, output = input weight^T (row-major, contiguous:
 * batch x in, out x in, batch x out), as 2018 layers called gemm: each
 * row-major matrix is its transpose in column-major order. */
int th_blas_linear(THFloatTensor *input, THFloatTensor *weight, THFloatTensor *output) {
  long batch = THFloatTensor_size(input, 0), in = THFloatTensor_size(input, 1);
  long out = THFloatTensor_size(weight, 0);
  THFloatTensor_resize2d(output, batch, out);
  THFloatBlas_gemm('t', 'n', out, batch, in, 1, THFloatTensor_data(weight), in,
                   THFloatTensor_data(input), in, 0, THFloatTensor_data(output), out);
  return 1;
}

/* Solves a x = b (column-major n x n and n x nrhs, overwritten by the LU
 * factors and x); ipiv gets the pivots; returns LAPACK's info. */
int th_blas_gesv(THDoubleTensor *a, THDoubleTensor *b, THIntTensor *ipiv) {
  int n = (int)THDoubleTensor_size(a, 0), info = 0;
  THIntTensor_resize1d(ipiv, n);
  THDoubleLapack_gesv(n, (int)THDoubleTensor_size(b, 1), THDoubleTensor_data(a),
                      (int)THDoubleTensor_stride(a, 1), THIntTensor_data(ipiv),
                      THDoubleTensor_data(b), (int)THDoubleTensor_stride(b, 1), &info);
  return info;
}

/* Cholesky factor of a (column-major, n x n) in the triangle uplo names,
 * in place; THLapackCheck's error when a is not positive definite. */
void th_blas_potrf(THFloatTensor *a, const char *uplo) {
  int n = (int)THFloatTensor_size(a, 0), info = 0;
  THFloatLapack_potrf(uplo[0], n, THFloatTensor_data(a), (int)THFloatTensor_stride(a, 1), &info);
  THLapackCheck("Lapack Error in %s : the leading minor of order %d is not positive definite",
                "potrf", info);
}
