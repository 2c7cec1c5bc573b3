/* Legacy <TH/THTensorMacros.h> (PyTorch 0.3): element access with no
 * check, through a tensor's storage, offset and strides (any TH or THC
 * tensor type: the struct fields of TH 0.3, as thffi's tensors have them). */
#ifndef THFFI_TH_TENSOR_MACROS_H
#define THFFI_TH_TENSOR_MACROS_H

#define THFFI_AT(self) ((self)->storage->data + (self)->storageOffset)
#define THTensor_fastGet1d(self, x0) (THFFI_AT(self)[(x0) * (self)->stride[0]])
#define THTensor_fastGet2d(self, x0, x1) \
  (THFFI_AT(self)[(x0) * (self)->stride[0] + (x1) * (self)->stride[1]])
#define THTensor_fastGet3d(self, x0, x1, x2) \
  (THFFI_AT(self)[(x0) * (self)->stride[0] + (x1) * (self)->stride[1] + (x2) * (self)->stride[2]])
#define THTensor_fastGet4d(self, x0, x1, x2, x3)                                          \
  (THFFI_AT(self)[(x0) * (self)->stride[0] + (x1) * (self)->stride[1] +                  \
                  (x2) * (self)->stride[2] + (x3) * (self)->stride[3]])
#define THTensor_fastSet1d(self, x0, value) (THTensor_fastGet1d(self, x0) = (value))
#define THTensor_fastSet2d(self, x0, x1, value) (THTensor_fastGet2d(self, x0, x1) = (value))
#define THTensor_fastSet3d(self, x0, x1, x2, value) \
  (THTensor_fastGet3d(self, x0, x1, x2) = (value))
#define THTensor_fastSet4d(self, x0, x1, x2, x3, value) \
  (THTensor_fastGet4d(self, x0, x1, x2, x3) = (value))

#endif
