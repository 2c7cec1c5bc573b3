// Legacy <THCUNN/common.h> (PyTorch 0.3-0.4, installed by source builds; the
// wheels shipped THCUNN's *.cuh only): the launch arithmetic and the checks
// THCUNN's kernels shared.  The checks are written for THC generic code
// (THC_GENERIC_FILE: THCTensor_(NAME) of the type being generated, `state`
// in scope); THCIndexTensor is THCUNN's index type, THCudaLongTensor.
#ifndef THFFI_THCUNN_COMMON_H
#define THFFI_THCUNN_COMMON_H

#include "THC/THC.h"

// A grid-stride loop: i over [0, n), every thread of the grid taking every
// (blockDim.x * gridDim.x)-th index.
#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

// Threads a block, and the blocks that cover N elements with them.
const int CUDA_NUM_THREADS = 1024;
inline int GET_BLOCKS(const int N) { return (N + CUDA_NUM_THREADS - 1) / CUDA_NUM_THREADS; }

#ifndef THCIndexTensor
#define THCIndexTensor THCudaLongTensor
#define THCIndexTensor_(NAME) THCudaLongTensor_##NAME
#endif

// THError unless the tensors lie on the call's device.
#define THCUNN_assertSameGPU(...)                                               \
  THAssertMsg(THCTensor_(checkGPU)(__VA_ARGS__),                                \
              "Some of weight/gradient/input tensors are located on different " \
              "GPUs. Please move them to a single one.")

// THError unless I1 and I2 (either may be NULL) have the same sizes.
#define THCUNN_check_shape(STATE, I1, I2)                                          \
  if (I1 != NULL && I2 != NULL && !THCTensor_(isSameSizeAs)(STATE, I1, I2)) {      \
    THCDescBuff s1 = THCTensor_(sizeDesc)(STATE, I1);                              \
    THCDescBuff s2 = THCTensor_(sizeDesc)(STATE, I2);                              \
    THError(#I1 " and " #I2 " shapes do not match: " #I1 " %s, " #I2 " %s", s1.str, \
            s2.str);                                                               \
  }

// The same for an index tensor I1 against I2; declares size2 in the scope.
#define THCUNN_check_shape_indices(STATE, I1, I2)                                  \
  THLongStorage *size2 = THCTensor_(newSizeOf)(STATE, I2);                         \
  if (!THCIndexTensor_(isSize)(STATE, I1, size2)) {                                \
    THCDescBuff s1 = THCIndexTensor_(sizeDesc)(STATE, I1);                         \
    THCDescBuff s2 = THCTensor_(sizeDesc)(STATE, I2);                              \
    THError(#I1 " and " #I2 " shapes do not match: " #I1 " %s, " #I2 " %s", s1.str, \
            s2.str);                                                               \
  }                                                                                \
  THLongStorage_free(size2);

// Resizes the index tensor I1 to I2's sizes; declares size2 in the scope.
#define THCUNN_resizeAs_indices(STATE, I1, I2)              \
  THLongStorage *size2 = THCTensor_(newSizeOf)(STATE, I2);  \
  if (!THCIndexTensor_(isSize)(STATE, I1, size2)) {         \
    THCudaLongTensor_resize(STATE, I1, size2, NULL);        \
  }                                                         \
  THLongStorage_free(size2);

// THError unless I1 and I2 (either may be NULL) have as many elements.
#define THCUNN_check_nElement(STATE, I1, I2)                                           \
  if (I1 != NULL && I2 != NULL) {                                                      \
    ptrdiff_t n1 = THCTensor_(nElement)(STATE, I1);                                    \
    ptrdiff_t n2 = THCTensor_(nElement)(STATE, I2);                                    \
    if (n1 != n2) {                                                                    \
      THCDescBuff s1 = THCTensor_(sizeDesc)(STATE, I1);                                \
      THCDescBuff s2 = THCTensor_(sizeDesc)(STATE, I2);                                \
      THError(#I1 " and " #I2 " have different number of elements: " #I1               \
              "%s has %ld elements, while " #I2 "%s has %ld elements",                 \
              s1.str, (long)n1, s2.str, (long)n2);                                     \
    }                                                                                  \
  }

// THError unless T has DIM dimensions and size SIZE in dimension DIM_SIZE.
#define THCUNN_check_dim_size(STATE, T, DIM, DIM_SIZE, SIZE)                          \
  if (THCTensor_(nDimension)(STATE, T) != DIM ||                                      \
      THCTensor_(size)(STATE, T, DIM_SIZE) != SIZE) {                                 \
    THCDescBuff s1 = THCTensor_(sizeDesc)(STATE, T);                                  \
    THError("Need " #T " of dimension %d and " #T ".size[%d] == %d but got " #T       \
            " to be of shape: %s", DIM, DIM_SIZE, SIZE, s1.str);                      \
  }

// The same for an index tensor.
#define THCUNN_check_dim_size_indices(STATE, T, DIM, DIM_SIZE, SIZE)                  \
  if (THCIndexTensor_(nDimension)(STATE, T) != DIM ||                                 \
      THCIndexTensor_(size)(STATE, T, DIM_SIZE) != SIZE) {                            \
    THCDescBuff s1 = THCIndexTensor_(sizeDesc)(STATE, T);                             \
    THError("Need " #T " of dimension %d and " #T ".size[%d] == %d but got " #T       \
            " to be of shape: %s", DIM, DIM_SIZE, SIZE, s1.str);                      \
  }

// THArgCheck(COND, ARG, FORMAT, <T's sizes>): FORMAT has one %s, for them.
#define THCUNN_argCheck(STATE, COND, ARG, T, FORMAT)   \
  if (!(COND)) {                                       \
    THCDescBuff s1 = THCTensor_(sizeDesc)(STATE, T);   \
    THArgCheck(COND, ARG, FORMAT, s1.str);             \
  }

#endif
