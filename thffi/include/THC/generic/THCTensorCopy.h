#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "THC/generic/THCTensorCopy.h"
#else

/* Every copy is element-wise in logical order, whatever the strides of the
 * two tensors, which must have the same number of elements; values are
 * converted as C converts them (THTensor_(copyByte) and friends).  Work on
 * the GPU runs on the call's current stream.  All but the Async ones return
 * once the data is in place: a copy to or from the CPU waits for the stream
 * (as legacy THC did), so it also waits for the kernels queued before it. */

/* self = src, both of this THC type (overlapping views are not handled). */
TH_API void THCTensor_(copyIgnoringOverlaps)(THCState *state, THCTensor *self, THCTensor *src);
THFFI_PUN(THCTensor_(copyIgnoringOverlaps));
TH_API void THCTensor_(copyCuda)(THCState *state, THCTensor *self, THCTensor *src);
THFFI_PUN(THCTensor_(copyCuda));

/* GPU <- GPU, from another THC type (a kernel; does not wait). */
TH_API void THCTensor_(copyCudaByte)(THCState *state, THCTensor *self, THCudaByteTensor *src);
THFFI_PUN(THCTensor_(copyCudaByte));
TH_API void THCTensor_(copyCudaChar)(THCState *state, THCTensor *self, THCudaCharTensor *src);
THFFI_PUN(THCTensor_(copyCudaChar));
TH_API void THCTensor_(copyCudaShort)(THCState *state, THCTensor *self,
                                      THCudaShortTensor *src);
THFFI_PUN(THCTensor_(copyCudaShort));
TH_API void THCTensor_(copyCudaInt)(THCState *state, THCTensor *self, THCudaIntTensor *src);
THFFI_PUN(THCTensor_(copyCudaInt));
TH_API void THCTensor_(copyCudaLong)(THCState *state, THCTensor *self, THCudaLongTensor *src);
THFFI_PUN(THCTensor_(copyCudaLong));
TH_API void THCTensor_(copyCudaFloat)(THCState *state, THCTensor *self, THCudaTensor *src);
THFFI_PUN(THCTensor_(copyCudaFloat));
TH_API void THCTensor_(copyCudaDouble)(THCState *state, THCTensor *self,
                                       THCudaDoubleTensor *src);
THFFI_PUN(THCTensor_(copyCudaDouble));

/* GPU <- CPU: from the TH tensor of the same type (copyCPU), or of any type. */
TH_API void THCTensor_(copyCPU)(THCState *state, THCTensor *self, THTensor *src);
THFFI_PUN(THCTensor_(copyCPU));
TH_API void THCTensor_(copyByte)(THCState *state, THCTensor *self, THByteTensor *src);
THFFI_PUN(THCTensor_(copyByte));
TH_API void THCTensor_(copyChar)(THCState *state, THCTensor *self, THCharTensor *src);
THFFI_PUN(THCTensor_(copyChar));
TH_API void THCTensor_(copyShort)(THCState *state, THCTensor *self, THShortTensor *src);
THFFI_PUN(THCTensor_(copyShort));
TH_API void THCTensor_(copyInt)(THCState *state, THCTensor *self, THIntTensor *src);
THFFI_PUN(THCTensor_(copyInt));
TH_API void THCTensor_(copyLong)(THCState *state, THCTensor *self, THLongTensor *src);
THFFI_PUN(THCTensor_(copyLong));
TH_API void THCTensor_(copyFloat)(THCState *state, THCTensor *self, THFloatTensor *src);
THFFI_PUN(THCTensor_(copyFloat));
TH_API void THCTensor_(copyDouble)(THCState *state, THCTensor *self, THDoubleTensor *src);
THFFI_PUN(THCTensor_(copyDouble));

/* CPU <- GPU: into the TH tensor of the same type (THTensor_(copyCuda)), or
 * of any type (TH<Type>Tensor_copyCuda<Real>, e.g. THLongTensor_copyCudaFloat
 * from a THCudaTensor). */
TH_API void THTensor_(copyCuda)(THCState *state, THTensor *self, THCTensor *src);
THFFI_PUN(THTensor_(copyCuda));
TH_API void TH_CONCAT_2(THByteTensor_copyCuda, Real)(THCState *state, THByteTensor *self,
                                                     THCTensor *src);
TH_API void TH_CONCAT_2(THCharTensor_copyCuda, Real)(THCState *state, THCharTensor *self,
                                                     THCTensor *src);
TH_API void TH_CONCAT_2(THShortTensor_copyCuda, Real)(THCState *state, THShortTensor *self,
                                                      THCTensor *src);
TH_API void TH_CONCAT_2(THIntTensor_copyCuda, Real)(THCState *state, THIntTensor *self,
                                                    THCTensor *src);
TH_API void TH_CONCAT_2(THLongTensor_copyCuda, Real)(THCState *state, THLongTensor *self,
                                                     THCTensor *src);
TH_API void TH_CONCAT_2(THFloatTensor_copyCuda, Real)(THCState *state, THFloatTensor *self,
                                                      THCTensor *src);
TH_API void TH_CONCAT_2(THDoubleTensor_copyCuda, Real)(THCState *state, THDoubleTensor *self,
                                                       THCTensor *src);

/* The same type both ways without waiting: one cudaMemcpyAsync on the
 * call's current stream.  Both tensors must be contiguous.  The CPU tensor
 * must stay alive, and (for copyAsyncCuda) not be read, until the stream
 * has run the copy, e.g. after cudaStreamSynchronize on
 * THCState_getCurrentStream(state). */
TH_API void THCTensor_(copyAsyncCPU)(THCState *state, THCTensor *self, THTensor *src);
THFFI_PUN(THCTensor_(copyAsyncCPU));
TH_API void THTensor_(copyAsyncCuda)(THCState *state, THTensor *self, THCTensor *src);
THFFI_PUN(THTensor_(copyAsyncCuda));

#endif
