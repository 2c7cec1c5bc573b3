#include <THC/THC.h>
#include "thc_test.h"
#include "thc_test_kernel.h"

extern THCState *state;

uint64_t current_stream(THCudaTensor *t) {
  (void)t;
  return (uint64_t)(uintptr_t)THCState_getCurrentStream(state);
}

int current_device(THCudaTensor *t) {
  (void)t;
  return THCState_getCurrentDevice(state);
}

int launch_invalid(THCudaTensor *t) {
  THCudaCheck(launch_with_too_many_threads(THCudaTensor_data(state, t),
                                           THCState_getCurrentStream(state)));
  return 1;
}

void cuda_fill(THCudaTensor *t, float value) { THCudaTensor_fill(state, t, value); }
void cuda_zero_long(THCudaLongTensor *t) { THCudaLongTensor_zero(state, t); }
void cuda_fill_int(THCudaIntTensor *t, int value) { THCudaIntTensor_fill(state, t, value); }
void cuda_copy(THCudaTensor *dst, THCudaTensor *src) { THCudaTensor_copy(state, dst, src); }
void cuda_cadd(THCudaDoubleTensor *r, THCudaDoubleTensor *t, double value,
               THCudaDoubleTensor *src) {
  THCudaDoubleTensor_cadd(state, r, t, value, src);
}
void cuda_resize4d(THCudaTensor *t, int64_t a, int64_t b, int64_t c, int64_t d) {
  THCudaTensor_resize4d(state, t, a, b, c, d);
}
int64_t cuda_size(THCudaTensor *t, int dim) { return THCudaTensor_size(state, t, dim); }
int64_t cuda_stride(THCudaTensor *t, int dim) { return THCudaTensor_stride(state, t, dim); }
int cuda_ndim(THCudaTensor *t) { return THCudaTensor_nDimension(state, t); }
int64_t cuda_nelement(THCudaTensor *t) { return THCudaTensor_nElement(state, t); }
int cuda_same_size(THCudaTensor *a, THCudaTensor *b) {
  return THCudaTensor_isSameSizeAs(state, a, b);
}
int pointers_match(THCudaTensor *t) {
  return THCudaTensor_data(state, t) == t->storage->data + t->storageOffset;
}
/* THCublasCheck, then THCusparseCheck, on a status (t: the call's device),
 * after getting the call's cuBLAS and cuSPARSE handles. */
void library_checks(THCudaTensor *t, int cublas, int cusparse) {
  (void)t;
  THAssert(THCState_getCurrentBlasHandle(state) != NULL);
  THAssert(THCState_getCurrentSparseHandle(state) != NULL);
  THCublasCheck(cublas);
  THCusparseCheck(cusparse);
}
