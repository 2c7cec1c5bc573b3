// Legacy <THC/THCDeviceTensorUtils.cuh> (PyTorch 0.3/0.4): a THCDeviceTensor
// over a THC tensor's memory, for passing to a kernel.
#ifndef THFFI_THC_DEVICE_TENSOR_UTILS_CUH
#define THFFI_THC_DEVICE_TENSOR_UTILS_CUH

#include "THC/THC.h"
#include "THC/THCDeviceTensor.cuh"

// t's elements as a THCDeviceTensor of Dim dimensions, T the element type of
// t (a THCudaTensor, or another THC tensor type: sizeof(T) must be its
// element size).  With Dim equal to t's number of dimensions the same sizes
// and strides; with fewer, t must be contiguous and its outermost
// dimensions are merged into the first; with more, size-1 dimensions are
// added innermost.  Every size and stride must fit IndexT.
template <typename T, int Dim, typename IndexT, template <typename U> class PtrTraits,
          typename THCTensorType>
THCDeviceTensor<T, Dim, IndexT, PtrTraits> toDeviceTensor(THCState *state, THCTensorType *t) {
  IndexT sizes[Dim], strides[Dim];
  int dims, i;
  (void)state;
  THArgCheck(t != NULL, 2, "expected a tensor, got NULL");
  THArgCheck(sizeof(*t->storage->data) == sizeof(T), 2,
             "toDeviceTensor: element size %d does not match the tensor's %d", (int)sizeof(T),
             (int)sizeof(*t->storage->data));
  dims = t->nDimension;
  if (Dim < dims) {
    int64_t expected = 1;
    for (i = dims - 1; i >= 0; --i) {
      THArgCheck(t->size[i] == 1 || t->stride[i] == expected, 2,
                 "toDeviceTensor: the tensor must be contiguous to merge dimensions");
      expected *= t->size[i];
    }
  }
  for (i = 0; i < Dim; ++i) {
    int64_t size, stride;
    if (Dim >= dims) {
      size = i < dims ? t->size[i] : 1;
      stride = i < dims ? t->stride[i] : 1;
    } else if (i == 0) {
      int j;
      size = 1;
      for (j = 0; j <= dims - Dim; ++j) size *= t->size[j];
      stride = t->stride[dims - Dim];
    } else {
      size = t->size[i + dims - Dim];
      stride = t->stride[i + dims - Dim];
    }
    THArgCheck((int64_t)(IndexT)size == size && (int64_t)(IndexT)stride == stride, 2,
               "toDeviceTensor: size or stride too large for the index type");
    sizes[i] = (IndexT)size;
    strides[i] = (IndexT)stride;
  }
  return THCDeviceTensor<T, Dim, IndexT, PtrTraits>(
      reinterpret_cast<typename PtrTraits<T>::PtrType>(t->storage->data + t->storageOffset),
      sizes, strides);
}

template <typename T, int Dim, typename IndexT, typename THCTensorType>
THCDeviceTensor<T, Dim, IndexT, DefaultPtrTraits> toDeviceTensor(THCState *state,
                                                                THCTensorType *t) {
  return toDeviceTensor<T, Dim, IndexT, DefaultPtrTraits>(state, t);
}

template <typename T, int Dim, typename THCTensorType>
THCDeviceTensor<T, Dim, int, DefaultPtrTraits> toDeviceTensor(THCState *state,
                                                              THCTensorType *t) {
  return toDeviceTensor<T, Dim, int, DefaultPtrTraits>(state, t);
}

#endif
