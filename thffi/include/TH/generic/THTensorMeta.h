#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensorMeta.h"
#else

/* Functions every TH and THC tensor type has (THTensor.h and THC/THCTensor.h
 * set the THFFI_* macros; see csrc/generic/THTensorMeta.c).  THC functions
 * take `THCState *state` first. */

TH_API real *THFFI_SF(data)(THFFI_STATE const THFFI_S *self);
THFFI_PUN(THFFI_SF(data));
TH_API ptrdiff_t THFFI_SF(size)(THFFI_STATE const THFFI_S *self);
THFFI_PUN(THFFI_SF(size));
/* Sets every element of the storage, i.e. of the memory the tensor spans. */
TH_API void THFFI_SF(fill)(THFFI_STATE THFFI_S *self, real value);
THFFI_PUN(THFFI_SF(fill));

TH_API real *THFFI_F(data)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(data));
TH_API THFFI_S *THFFI_F(storage)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(storage));
TH_API ptrdiff_t THFFI_F(storageOffset)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(storageOffset));
TH_API int THFFI_F(nDimension)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(nDimension));
/* PyTorch 0.4's name for the same legacy count (0 for a tensor without
 * elements). */
TH_API int THFFI_F(_nDimension)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(_nDimension));
TH_API int64_t THFFI_F(size)(THFFI_STATE const THFFI_T *self, int dim);
THFFI_PUN(THFFI_F(size));
TH_API int64_t THFFI_F(stride)(THFFI_STATE const THFFI_T *self, int dim);
THFFI_PUN(THFFI_F(stride));
TH_API ptrdiff_t THFFI_F(nElement)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(nElement));
TH_API int THFFI_F(isContiguous)(THFFI_STATE const THFFI_T *self);
THFFI_PUN(THFFI_F(isContiguous));
TH_API int THFFI_F(isSameSizeAs)(THFFI_STATE const THFFI_T *self, const THFFI_T *src);
THFFI_PUN(THFFI_F(isSameSizeAs));

/* Resizing keeps data and strides when the shape is unchanged; otherwise the
 * torch tensor behind self (the caller's, for an argument) is resized in
 * place (Tensor.resize_, PyTorch's allocator) and becomes contiguous.
 * `stride` must be NULL. */
TH_API void THFFI_F(resizeNd)(THFFI_STATE THFFI_T *self, int nDimension,
                              const int64_t *size, const int64_t *stride);
THFFI_PUN(THFFI_F(resizeNd));
TH_API void THFFI_F(resizeAs)(THFFI_STATE THFFI_T *self, const THFFI_T *src);
THFFI_PUN(THFFI_F(resizeAs));
TH_API void THFFI_F(resize1d)(THFFI_STATE THFFI_T *self, int64_t size0);
THFFI_PUN(THFFI_F(resize1d));
TH_API void THFFI_F(resize2d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1);
THFFI_PUN(THFFI_F(resize2d));
TH_API void THFFI_F(resize3d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                              int64_t size2);
THFFI_PUN(THFFI_F(resize3d));
TH_API void THFFI_F(resize4d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                              int64_t size2, int64_t size3);
THFFI_PUN(THFFI_F(resize4d));
TH_API void THFFI_F(resize5d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                              int64_t size2, int64_t size3, int64_t size4);
THFFI_PUN(THFFI_F(resize5d));

/* Tensors created in C are torch tensors from PyTorch's allocator (on the
 * call's device for THC), with TH's reference counting: _retain adds a
 * reference, _free drops one.  Whatever a call has not freed is released
 * when it returns (or fails), except a tensor it returns. */
TH_API THFFI_T *THFFI_F(new)(THFFI_STATE_ONLY);
TH_API THFFI_T *THFFI_F(newWithSize1d)(THFFI_STATE int64_t size0);
TH_API THFFI_T *THFFI_F(newWithSize2d)(THFFI_STATE int64_t size0, int64_t size1);
TH_API THFFI_T *THFFI_F(newWithSize3d)(THFFI_STATE int64_t size0, int64_t size1,
                                       int64_t size2);
TH_API THFFI_T *THFFI_F(newWithSize4d)(THFFI_STATE int64_t size0, int64_t size1,
                                       int64_t size2, int64_t size3);
/* src itself (another reference to its memory) if contiguous, else a
 * contiguous copy. */
TH_API THFFI_T *THFFI_F(newContiguous)(THFFI_STATE THFFI_T *src);
THFFI_PUN(THFFI_F(newContiguous));
TH_API THFFI_T *THFFI_F(newClone)(THFFI_STATE THFFI_T *src);
THFFI_PUN(THFFI_F(newClone));
TH_API void THFFI_F(retain)(THFFI_STATE THFFI_T *self);
THFFI_PUN(THFFI_F(retain));
TH_API void THFFI_F(free)(THFFI_STATE THFFI_T *self);
THFFI_PUN(THFFI_F(free));

/* Make self a view of src (src NULL: of self) without copying. */
TH_API void THFFI_F(select)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension,
                            int64_t sliceIndex);
THFFI_PUN(THFFI_F(select));
TH_API void THFFI_F(narrow)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension,
                            int64_t firstIndex, int64_t size);
THFFI_PUN(THFFI_F(narrow));
TH_API void THFFI_F(transpose)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension1,
                               int dimension2);
THFFI_PUN(THFFI_F(transpose));

/* Used by the builder's trampolines: describes the caller's tensor `obj`
 * (data pointer, shape, strides) as a TH tensor, without copying.  `ref` is
 * the argument's position; `device` its CUDA device, -1 on the CPU. */
TH_API void THFFI_F(thffiWrap)(THFFI_T *self, uintptr_t data, int dim,
                               const int64_t *size, const int64_t *stride,
                               int64_t ref, int device, void *obj);
THFFI_PUN(THFFI_F(thffiWrap));

#endif
