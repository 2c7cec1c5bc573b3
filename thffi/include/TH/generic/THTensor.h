#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#else

/* Layout of TH 0.3's THTensor: legacy code reads t->size[i], t->stride[i]
 * and t->nDimension directly.  Sizes and strides are in elements. */
typedef struct THTensor {
  int64_t *size;
  int64_t *stride;
  int nDimension;
  THStorage *storage;
  ptrdiff_t storageOffset;
  int refcount;
  char flag;
  /* thffi private part */
  THStorage storage_;
  THFFITensorPriv priv;
} THTensor;

TH_API real *THTensor_(data)(const THTensor *self);
TH_API THStorage *THTensor_(storage)(const THTensor *self);
TH_API ptrdiff_t THTensor_(storageOffset)(const THTensor *self);
TH_API int THTensor_(nDimension)(const THTensor *self);
TH_API int64_t THTensor_(size)(const THTensor *self, int dim);
TH_API int64_t THTensor_(stride)(const THTensor *self, int dim);
TH_API ptrdiff_t THTensor_(nElement)(const THTensor *self);
TH_API int THTensor_(isContiguous)(const THTensor *self);
TH_API int THTensor_(isSameSizeAs)(const THTensor *self, const THTensor *src);

/* Resizing keeps data and strides when the shape is unchanged; otherwise the
 * caller's torch tensor is resized in place (Tensor.resize_, PyTorch's
 * allocator) and becomes contiguous.  `stride` must be NULL. */
TH_API void THTensor_(resizeNd)(THTensor *self, int nDimension,
                                const int64_t *size, const int64_t *stride);
TH_API void THTensor_(resizeAs)(THTensor *self, const THTensor *src);
TH_API void THTensor_(resize1d)(THTensor *self, int64_t size0);
TH_API void THTensor_(resize2d)(THTensor *self, int64_t size0, int64_t size1);
TH_API void THTensor_(resize3d)(THTensor *self, int64_t size0, int64_t size1,
                                int64_t size2);
TH_API void THTensor_(resize4d)(THTensor *self, int64_t size0, int64_t size1,
                                int64_t size2, int64_t size3);

TH_API void THTensor_(fill)(THTensor *self, real value);
TH_API void THTensor_(zero)(THTensor *self);
/* Element-wise in logical order; both must have the same number of elements. */
TH_API void THTensor_(copy)(THTensor *self, THTensor *src);
/* r = t + value * src; r is resized like t; t and src must have the same
 * number of elements. */
TH_API void THTensor_(cadd)(THTensor *r, THTensor *t, real value, THTensor *src);

/* Used by the builder's trampolines: describes the caller's tensor (data
 * pointer, shape, strides) as a TH tensor, without copying.  `ref` is the
 * argument's position, for resizes. */
TH_API void THTensor_(thffiWrap)(THTensor *self, uintptr_t data, int dim,
                                 const int64_t *size, const int64_t *stride,
                                 int64_t ref);

#endif
