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

/* ---- TH's structure functions (legacy generic/THTensor.h), with its
 * semantics: a view made in C shares the memory of its source and its
 * storage (same data pointer), and keeps TH's storageOffset, sizes and
 * strides; `self` NULL for the view functions taking a source means self.
 * The storage of a tensor the caller passed starts at its first element;
 * a view's keeps its source's.  Arguments are checked as TH checked them
 * (THArgCheck naming the argument). */
TH_API THFFI_T *THFFI_F(newWithTensor)(THFFI_STATE THFFI_T *tensor);
THFFI_PUN(THFFI_F(newWithTensor));
/* `stride` may be NULL (contiguous); sizes from a THLongStorage. */
TH_API THFFI_T *THFFI_F(newWithSize)(THFFI_STATE THLongStorage *size, THLongStorage *stride);
THFFI_PUN(THFFI_F(newWithSize));
TH_API THFFI_T *THFFI_F(newWithStorage)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                        THLongStorage *size, THLongStorage *stride);
THFFI_PUN(THFFI_F(newWithStorage));
TH_API THFFI_T *THFFI_F(newWithStorage1d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                          int64_t size0, int64_t stride0);
THFFI_PUN(THFFI_F(newWithStorage1d));
TH_API THFFI_T *THFFI_F(newWithStorage2d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                          int64_t size0, int64_t stride0, int64_t size1,
                                          int64_t stride1);
THFFI_PUN(THFFI_F(newWithStorage2d));
TH_API THFFI_T *THFFI_F(newWithStorage3d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                          int64_t size0, int64_t stride0, int64_t size1,
                                          int64_t stride1, int64_t size2, int64_t stride2);
THFFI_PUN(THFFI_F(newWithStorage3d));
TH_API THFFI_T *THFFI_F(newWithStorage4d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                          int64_t size0, int64_t stride0, int64_t size1,
                                          int64_t stride1, int64_t size2, int64_t stride2,
                                          int64_t size3, int64_t stride3);
THFFI_PUN(THFFI_F(newWithStorage4d));
TH_API THFFI_T *THFFI_F(newSelect)(THFFI_STATE THFFI_T *tensor, int dimension,
                                   int64_t sliceIndex);
THFFI_PUN(THFFI_F(newSelect));
TH_API THFFI_T *THFFI_F(newNarrow)(THFFI_STATE THFFI_T *tensor, int dimension,
                                   int64_t firstIndex, int64_t size);
THFFI_PUN(THFFI_F(newNarrow));
TH_API THFFI_T *THFFI_F(newTranspose)(THFFI_STATE THFFI_T *tensor, int dimension1,
                                      int dimension2);
THFFI_PUN(THFFI_F(newTranspose));
TH_API THFFI_T *THFFI_F(newUnfold)(THFFI_STATE THFFI_T *tensor, int dimension, int64_t size,
                                   int64_t step);
THFFI_PUN(THFFI_F(newUnfold));
/* A view of the same memory with sizes `size` (one may be -1: inferred);
 * the tensor's strides must allow it (Tensor.view's rule). */
TH_API THFFI_T *THFFI_F(newView)(THFFI_STATE THFFI_T *tensor, THLongStorage *size);
THFFI_PUN(THFFI_F(newView));
/* Broadcasting view: size-1 dimensions get stride 0, leading ones are added. */
TH_API THFFI_T *THFFI_F(newExpand)(THFFI_STATE THFFI_T *tensor, THLongStorage *size);
THFFI_PUN(THFFI_F(newExpand));
TH_API void THFFI_F(expand)(THFFI_STATE THFFI_T *r, THFFI_T *tensor, THLongStorage *size);
THFFI_PUN(THFFI_F(expand));
/* rets[i] = ops[i] expanded to their common broadcast shape. */
TH_API void THFFI_F(expandNd)(THFFI_STATE THFFI_T **rets, THFFI_T **ops, int count);
THFFI_PUN(THFFI_F(expandNd));
TH_API void THFFI_F(resize)(THFFI_STATE THFFI_T *self, THLongStorage *size,
                            THLongStorage *stride);
THFFI_PUN(THFFI_F(resize));
/* self becomes a view of all of src (same memory, offset, sizes, strides). */
TH_API void THFFI_F(set)(THFFI_STATE THFFI_T *self, THFFI_T *src);
THFFI_PUN(THFFI_F(set));
/* self becomes a view of `storage` from element storageOffset; a NULL or
 * negative stride means contiguous.  The view must lie within the storage. */
TH_API void THFFI_F(setStorage)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                                ptrdiff_t storageOffset, THLongStorage *size,
                                THLongStorage *stride);
THFFI_PUN(THFFI_F(setStorage));
TH_API void THFFI_F(setStorageNd)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                                  ptrdiff_t storageOffset, int nDimension, int64_t *size,
                                  int64_t *stride);
THFFI_PUN(THFFI_F(setStorageNd));
TH_API void THFFI_F(setStorage1d)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                                  ptrdiff_t storageOffset, int64_t size0, int64_t stride0);
THFFI_PUN(THFFI_F(setStorage1d));
TH_API void THFFI_F(setStorage2d)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                                  ptrdiff_t storageOffset, int64_t size0, int64_t stride0,
                                  int64_t size1, int64_t stride1);
THFFI_PUN(THFFI_F(setStorage2d));
TH_API void THFFI_F(setStorage3d)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                                  ptrdiff_t storageOffset, int64_t size0, int64_t stride0,
                                  int64_t size1, int64_t stride1, int64_t size2,
                                  int64_t stride2);
THFFI_PUN(THFFI_F(setStorage3d));
TH_API void THFFI_F(setStorage4d)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                                  ptrdiff_t storageOffset, int64_t size0, int64_t stride0,
                                  int64_t size1, int64_t stride1, int64_t size2,
                                  int64_t stride2, int64_t size3, int64_t stride3);
THFFI_PUN(THFFI_F(setStorage4d));
/* Windows of `size` elements every `step` along `dimension`, as a new last
 * dimension. */
TH_API void THFFI_F(unfold)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension,
                            int64_t size, int64_t step);
THFFI_PUN(THFFI_F(unfold));
/* Drops every dimension of size 1; as in TH, a tensor of one element keeps
 * one dimension. */
TH_API void THFFI_F(squeeze)(THFFI_STATE THFFI_T *self, THFFI_T *src);
THFFI_PUN(THFFI_F(squeeze));
/* Drops `dimension` if its size is 1 and the tensor has more than one. */
TH_API void THFFI_F(squeeze1d)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension);
THFFI_PUN(THFFI_F(squeeze1d));
TH_API void THFFI_F(unsqueeze1d)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension);
THFFI_PUN(THFFI_F(unsqueeze1d));
/* 1 when self is a view of the same memory as src with the same offset,
 * sizes and strides. */
TH_API int THFFI_F(isSetTo)(THFFI_STATE const THFFI_T *self, const THFFI_T *src);
THFFI_PUN(THFFI_F(isSetTo));
TH_API int THFFI_F(isSize)(THFFI_STATE const THFFI_T *self, const THLongStorage *dims);
THFFI_PUN(THFFI_F(isSize));
/* Sizes and strides as new THLongStorages (the caller frees them). */
TH_API THLongStorage *THFFI_F(newSizeOf)(THFFI_STATE THFFI_T *self);
THFFI_PUN(THFFI_F(newSizeOf));
TH_API THLongStorage *THFFI_F(newStrideOf)(THFFI_STATE THFFI_T *self);
THFFI_PUN(THFFI_F(newStrideOf));
/* dst = self (copied unless the same), then self freed. */
TH_API void THFFI_F(freeCopyTo)(THFFI_STATE THFFI_T *self, THFFI_T *dst);
THFFI_PUN(THFFI_F(freeCopyTo));
/* TH's flags (TH_TENSOR_REFCOUNTED): kept, without effect. */
TH_API void THFFI_F(setFlag)(THFFI_STATE THFFI_T *self, const char flag);
THFFI_PUN(THFFI_F(setFlag));
TH_API void THFFI_F(clearFlag)(THFFI_STATE THFFI_T *self, const char flag);
THFFI_PUN(THFFI_F(clearFlag));
/* "[2 x 3]" style descriptions of the sizes, as TH printed them. */
TH_API THDescBuff THFFI_F(desc)(THFFI_STATE const THFFI_T *tensor);
THFFI_PUN(THFFI_F(desc));
TH_API THDescBuff THFFI_F(sizeDesc)(THFFI_STATE const THFFI_T *tensor);
THFFI_PUN(THFFI_F(sizeDesc));

/* ---- TH's storage functions (legacy generic/THStorage.h).  A storage made
 * here holds memory from PyTorch's allocator (on the call's device for
 * THC), reference counted as in TH: _retain adds a reference, _free drops
 * one; it is released when the last goes (or the call ends and no tensor
 * uses it). */
TH_API void THFFI_SF(set)(THFFI_STATE THFFI_S *self, ptrdiff_t index, real value);
THFFI_PUN(THFFI_SF(set));
TH_API real THFFI_SF(get)(THFFI_STATE const THFFI_S *self, ptrdiff_t index);
THFFI_PUN(THFFI_SF(get));
TH_API THFFI_S *THFFI_SF(new)(THFFI_STATE_ONLY);
TH_API THFFI_S *THFFI_SF(newWithSize)(THFFI_STATE ptrdiff_t size);
TH_API THFFI_S *THFFI_SF(newWithSize1)(THFFI_STATE real data0);
TH_API THFFI_S *THFFI_SF(newWithSize2)(THFFI_STATE real data0, real data1);
TH_API THFFI_S *THFFI_SF(newWithSize3)(THFFI_STATE real data0, real data1, real data2);
TH_API THFFI_S *THFFI_SF(newWithSize4)(THFFI_STATE real data0, real data1, real data2,
                                       real data3);
TH_API void THFFI_SF(setFlag)(THFFI_STATE THFFI_S *self, const char flag);
THFFI_PUN(THFFI_SF(setFlag));
TH_API void THFFI_SF(clearFlag)(THFFI_STATE THFFI_S *self, const char flag);
THFFI_PUN(THFFI_SF(clearFlag));
TH_API void THFFI_SF(retain)(THFFI_STATE THFFI_S *self);
THFFI_PUN(THFFI_SF(retain));
TH_API void THFFI_SF(free)(THFFI_STATE THFFI_S *self);
THFFI_PUN(THFFI_SF(free));
/* Only a storage made by THStorage_new* can be resized (its contents are
 * kept up to the smaller size); tensors viewing it keep the old memory. */
TH_API void THFFI_SF(resize)(THFFI_STATE THFFI_S *self, ptrdiff_t size);
THFFI_PUN(THFFI_SF(resize));

/* Used by the builder's trampolines: describes the caller's tensor `obj`
 * (data pointer, shape, strides) as a TH tensor, without copying.  `ref` is
 * the argument's position; `device` its CUDA device, -1 on the CPU. */
TH_API void THFFI_F(thffiWrap)(THFFI_T *self, uintptr_t data, int dim,
                               const int64_t *size, const int64_t *stride,
                               int64_t ref, int device, void *obj);
THFFI_PUN(THFFI_F(thffiWrap));

#endif
