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

/* Element accessors, as legacy THC's: one element copied to or from the
 * device on the current stream, waiting for it; the tensor must have that
 * many dimensions and the indices must be in range. */
TH_API real THCTensor_(get1d)(THCState *state, const THCTensor *self, int64_t x0);
THFFI_PUN(THCTensor_(get1d));
TH_API real THCTensor_(get2d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1);
THFFI_PUN(THCTensor_(get2d));
TH_API real THCTensor_(get3d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1,
                              int64_t x2);
THFFI_PUN(THCTensor_(get3d));
TH_API real THCTensor_(get4d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1,
                              int64_t x2, int64_t x3);
THFFI_PUN(THCTensor_(get4d));
TH_API void THCTensor_(set1d)(THCState *state, THCTensor *self, int64_t x0, real value);
THFFI_PUN(THCTensor_(set1d));
TH_API void THCTensor_(set2d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1,
                              real value);
THFFI_PUN(THCTensor_(set2d));
TH_API void THCTensor_(set3d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1,
                              int64_t x2, real value);
THFFI_PUN(THCTensor_(set3d));
TH_API void THCTensor_(set4d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1,
                              int64_t x2, int64_t x3, real value);
THFFI_PUN(THCTensor_(set4d));
/* A view of the contiguous input (at least 2-d) with its first two
 * dimensions merged. */
TH_API THCTensor *THCTensor_(newFoldBatchDim)(THCState *state, THCTensor *input);
THFFI_PUN(THCTensor_(newFoldBatchDim));
/* A linear texture object over self's elements (contiguous, 1 to 2^27 of
 * them); destroy it with cudaDestroyTextureObject. */
TH_API cudaTextureObject_t THCTensor_(getTextureObject)(THCState *state, THCTensor *self);
THFFI_PUN(THCTensor_(getTextureObject));
/* The CUDA device the storage's memory is on. */
TH_API int THCStorage_(getDevice)(THCState *state, const THCStorage *storage);
THFFI_PUN(THCStorage_(getDevice));

#endif
