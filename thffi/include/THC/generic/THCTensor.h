#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "THC/generic/THCTensor.h"
#else

/* Element-wise ops, run as kernels on the current stream of the call's
 * device; they honour strides as the TH ones do. */
TH_API void THCTensor_(fill)(THCState *state, THCTensor *self, real value);
THFFI_PUN(THCTensor_(fill));
TH_API void THCTensor_(zero)(THCState *state, THCTensor *self);
THFFI_PUN(THCTensor_(zero));
/* Element-wise in logical order; both must have the same number of elements. */
TH_API void THCTensor_(copy)(THCState *state, THCTensor *self, THCTensor *src);
THFFI_PUN(THCTensor_(copy));
/* r = t + value * src; r is resized like t. */
TH_API void THCTensor_(cadd)(THCState *state, THCTensor *r, THCTensor *t, real value,
                             THCTensor *src);
THFFI_PUN(THCTensor_(cadd));
/* 1 when every tensor given (NULLs are skipped) is on the current device. */
TH_API int THCTensor_(checkGPU)(THCState *state, unsigned int nTensors, ...);
/* The CUDA device the tensor is on. */
TH_API int THCTensor_(getDevice)(THCState *state, const THCTensor *self);
THFFI_PUN(THCTensor_(getDevice));

#endif
