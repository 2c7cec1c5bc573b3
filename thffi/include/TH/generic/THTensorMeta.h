#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensorMeta.h"
#else

/* Functions every TH and THC tensor type has (THTensor.h and THC/THCTensor.h
 * set the THFFI_* macros; see csrc/generic/THTensorMeta.c). */

TH_API real *THFFI_SF(data)(THFFI_STATE const THFFI_S *self);
TH_API ptrdiff_t THFFI_SF(size)(THFFI_STATE const THFFI_S *self);
TH_API real *THFFI_F(data)(THFFI_STATE const THFFI_T *self);
TH_API THFFI_S *THFFI_F(storage)(THFFI_STATE const THFFI_T *self);
TH_API ptrdiff_t THFFI_F(storageOffset)(THFFI_STATE const THFFI_T *self);
TH_API int THFFI_F(nDimension)(THFFI_STATE const THFFI_T *self);
TH_API int64_t THFFI_F(size)(THFFI_STATE const THFFI_T *self, int dim);
TH_API int64_t THFFI_F(stride)(THFFI_STATE const THFFI_T *self, int dim);
TH_API ptrdiff_t THFFI_F(nElement)(THFFI_STATE const THFFI_T *self);
TH_API int THFFI_F(isContiguous)(THFFI_STATE const THFFI_T *self);
TH_API int THFFI_F(isSameSizeAs)(THFFI_STATE const THFFI_T *self, const THFFI_T *src);

/* Resizing keeps data and strides when the shape is unchanged; otherwise the
 * caller's torch tensor is resized in place (Tensor.resize_, PyTorch's
 * allocator) and becomes contiguous.  `stride` must be NULL. */
TH_API void THFFI_F(resizeNd)(THFFI_STATE THFFI_T *self, int nDimension,
                                const int64_t *size, const int64_t *stride);
TH_API void THFFI_F(resizeAs)(THFFI_STATE THFFI_T *self, const THFFI_T *src);
TH_API void THFFI_F(resize1d)(THFFI_STATE THFFI_T *self, int64_t size0);
TH_API void THFFI_F(resize2d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1);
TH_API void THFFI_F(resize3d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                                int64_t size2);
TH_API void THFFI_F(resize4d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                                int64_t size2, int64_t size3);

/* Used by the builder's trampolines: describes the caller's tensor (data
 * pointer, shape, strides) as a TH tensor, without copying.  `ref` is the
 * argument's position, for resizes. */
TH_API void THFFI_F(thffiWrap)(THFFI_T *self, uintptr_t data, int dim,
                                 const int64_t *size, const int64_t *stride,
                                 int64_t ref);

#endif
