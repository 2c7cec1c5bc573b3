/* Legacy TH's dimension-apply macros (included by TH.h, as in TH 0.3).
 *
 * TH_TENSOR_DIM_APPLY2/3(TYPE1, T1, TYPE2, T2, [TYPE3, T3,] DIMENSION, [SIZE_CHECK,] CODE)
 * run CODE once for every position of the tensors' other dimensions, in
 * TH's order (the first of them varies fastest), with, for each tensor T:
 *   T##_data    a TYPE * to the first element of the 1-D slice along DIMENSION
 *   T##_stride  that slice's stride, in elements
 *   T##_size    its length
 * and TH_TENSOR_DIM_APPLY_counter, the int64_t index of the current position
 * in every dimension (THAlloc'ed; CODE may THFree it before a THError, as
 * legacy code does).  The tensors must have the same number of dimensions;
 * the 2-tensor form also checks that their sizes agree apart from DIMENSION,
 * the 3-tensor form leaves that to SIZE_CHECK(T1, T2, T3, DIMENSION), e.g.
 * TH_TENSOR_DIM_APPLY3_SIZE_EQ_EXCEPT_DIM.  They read the struct fields
 * (nDimension, size, stride, storage->data + storageOffset), so an empty
 * tensor (nDimension 0) is an invalid dimension. */
#ifndef THFFI_TH_TENSOR_DIM_APPLY_H
#define THFFI_TH_TENSOR_DIM_APPLY_H

#include "THGeneral.h"

/* The checks shared by the forms: DIMENSION in range for T1, and T the
 * same number of dimensions as T1. */
#define THFFI_DIM_APPLY_CHECK_DIM(TENSOR1, DIMENSION)                                     \
  if ((DIMENSION) < 0 || (DIMENSION) >= (TENSOR1)->nDimension)                           \
    THError("invalid dimension %d (expected to be 0 <= dim < %d)", (int)(DIMENSION),      \
            (TENSOR1)->nDimension);
#define THFFI_DIM_APPLY_CHECK_NDIM(TENSOR1, TENSOR)                                       \
  if ((TENSOR)->nDimension != (TENSOR1)->nDimension)                                     \
    THError("inconsistent tensor size: " #TENSOR1 " has %d dimensions, " #TENSOR " %d",   \
            (TENSOR1)->nDimension, (TENSOR)->nDimension);

#define TH_TENSOR_DIM_APPLY3_SIZE_EQ_EXCEPT_DIM(TENSOR1, TENSOR2, TENSOR3, DIMENSION)     \
  {                                                                                      \
    int TH_DIM_APPLY_d;                                                                  \
    for (TH_DIM_APPLY_d = 0; TH_DIM_APPLY_d < (TENSOR1)->nDimension; TH_DIM_APPLY_d++) {  \
      if (TH_DIM_APPLY_d == (DIMENSION)) continue;                                        \
      if ((TENSOR1)->size[TH_DIM_APPLY_d] != (TENSOR2)->size[TH_DIM_APPLY_d] ||           \
          (TENSOR1)->size[TH_DIM_APPLY_d] != (TENSOR3)->size[TH_DIM_APPLY_d])             \
        THError("Expected " #TENSOR1 ", " #TENSOR2 " and " #TENSOR3 " to have the same "  \
                "size apart from dimension %d; they differ in dimension %d (%lld, %lld, " \
                "%lld)", (int)(DIMENSION), TH_DIM_APPLY_d,                                \
                (long long)(TENSOR1)->size[TH_DIM_APPLY_d],                               \
                (long long)(TENSOR2)->size[TH_DIM_APPLY_d],                               \
                (long long)(TENSOR3)->size[TH_DIM_APPLY_d]);                              \
    }                                                                                    \
  }

/* Points T##_data etc. at the first slice. */
#define THFFI_DIM_APPLY_START(TYPE, TENSOR, DIMENSION)                                    \
  TENSOR##_data = (TYPE *)((TENSOR)->storage->data + (TENSOR)->storageOffset);            \
  TENSOR##_stride = (TENSOR)->stride[DIMENSION];                                         \
  TENSOR##_size = (TENSOR)->size[DIMENSION];                                             \
  (void)TENSOR##_stride;                                                                 \
  (void)TENSOR##_size;

/* Moves T##_data one step along dimension TH_TENSOR_DIM_APPLY_i, or back to
 * the start of that dimension when its counter wrapped. */
#define THFFI_DIM_APPLY_STEP(TENSOR)                                                      \
  if (TH_DIM_APPLY_wrapped)                                                              \
    TENSOR##_data -= (TENSOR)->stride[TH_TENSOR_DIM_APPLY_i] *                           \
                     ((TENSOR)->size[TH_TENSOR_DIM_APPLY_i] - 1);                         \
  else                                                                                   \
    TENSOR##_data += (TENSOR)->stride[TH_TENSOR_DIM_APPLY_i];

/* Runs CODE at every position of the dimensions but DIMENSION, in TH's
 * order (the first dimension varies fastest); STEPS moves every tensor's
 * pointer along dimension TH_TENSOR_DIM_APPLY_i (THFFI_DIM_APPLY_STEP). */
#define THFFI_DIM_APPLY_LOOP(TENSOR1, DIMENSION, CODE, STEPS)                             \
  int64_t *TH_TENSOR_DIM_APPLY_counter;                                                  \
  int TH_TENSOR_DIM_APPLY_hasFinished = 0;                                               \
  int TH_TENSOR_DIM_APPLY_i;                                                             \
  TH_TENSOR_DIM_APPLY_counter =                                                          \
      (int64_t *)THAlloc(sizeof(int64_t) * (TENSOR1)->nDimension);                       \
  for (TH_TENSOR_DIM_APPLY_i = 0; TH_TENSOR_DIM_APPLY_i < (TENSOR1)->nDimension;          \
       TH_TENSOR_DIM_APPLY_i++)                                                          \
    TH_TENSOR_DIM_APPLY_counter[TH_TENSOR_DIM_APPLY_i] = 0;                              \
  while (!TH_TENSOR_DIM_APPLY_hasFinished) {                                             \
    CODE                                                                                 \
    for (TH_TENSOR_DIM_APPLY_i = 0;; TH_TENSOR_DIM_APPLY_i++) {                          \
      int TH_DIM_APPLY_wrapped;                                                          \
      if (TH_TENSOR_DIM_APPLY_i == (TENSOR1)->nDimension) {                              \
        TH_TENSOR_DIM_APPLY_hasFinished = 1;                                             \
        break;                                                                           \
      }                                                                                  \
      if (TH_TENSOR_DIM_APPLY_i == (DIMENSION)) continue;                                \
      TH_DIM_APPLY_wrapped = ++TH_TENSOR_DIM_APPLY_counter[TH_TENSOR_DIM_APPLY_i] ==     \
                             (TENSOR1)->size[TH_TENSOR_DIM_APPLY_i];                     \
      if (TH_DIM_APPLY_wrapped) TH_TENSOR_DIM_APPLY_counter[TH_TENSOR_DIM_APPLY_i] = 0;  \
      STEPS                                                                              \
      if (!TH_DIM_APPLY_wrapped) break;                                                  \
    }                                                                                    \
  }                                                                                      \
  THFree(TH_TENSOR_DIM_APPLY_counter);

#define TH_TENSOR_DIM_APPLY(TYPE, TENSOR, DIMENSION, CODE)                               \
  {                                                                                      \
    TYPE *TENSOR##_data;                                                                 \
    int64_t TENSOR##_stride, TENSOR##_size;                                              \
    THFFI_DIM_APPLY_CHECK_DIM(TENSOR, DIMENSION)                                         \
    THFFI_DIM_APPLY_START(TYPE, TENSOR, DIMENSION)                                       \
    {                                                                                    \
      THFFI_DIM_APPLY_LOOP(TENSOR, DIMENSION, CODE, THFFI_DIM_APPLY_STEP(TENSOR))        \
    }                                                                                    \
  }

#define TH_TENSOR_DIM_APPLY2(TYPE1, TENSOR1, TYPE2, TENSOR2, DIMENSION, CODE)            \
  {                                                                                      \
    TYPE1 *TENSOR1##_data;                                                               \
    TYPE2 *TENSOR2##_data;                                                               \
    int64_t TENSOR1##_stride, TENSOR1##_size, TENSOR2##_stride, TENSOR2##_size;          \
    int TH_DIM_APPLY_d;                                                                  \
    THFFI_DIM_APPLY_CHECK_DIM(TENSOR1, DIMENSION)                                        \
    THFFI_DIM_APPLY_CHECK_NDIM(TENSOR1, TENSOR2)                                         \
    for (TH_DIM_APPLY_d = 0; TH_DIM_APPLY_d < (TENSOR1)->nDimension; TH_DIM_APPLY_d++)    \
      if (TH_DIM_APPLY_d != (DIMENSION) &&                                               \
          (TENSOR1)->size[TH_DIM_APPLY_d] != (TENSOR2)->size[TH_DIM_APPLY_d])             \
        THError("Expected " #TENSOR1 " and " #TENSOR2 " to have the same size apart "     \
                "from dimension %d; they differ in dimension %d (%lld, %lld)",            \
                (int)(DIMENSION), TH_DIM_APPLY_d,                                         \
                (long long)(TENSOR1)->size[TH_DIM_APPLY_d],                               \
                (long long)(TENSOR2)->size[TH_DIM_APPLY_d]);                              \
    THFFI_DIM_APPLY_START(TYPE1, TENSOR1, DIMENSION)                                     \
    THFFI_DIM_APPLY_START(TYPE2, TENSOR2, DIMENSION)                                     \
    {                                                                                    \
      THFFI_DIM_APPLY_LOOP(TENSOR1, DIMENSION, CODE,                                     \
                           THFFI_DIM_APPLY_STEP(TENSOR1) THFFI_DIM_APPLY_STEP(TENSOR2))  \
    }                                                                                    \
  }

#define TH_TENSOR_DIM_APPLY3(TYPE1, TENSOR1, TYPE2, TENSOR2, TYPE3, TENSOR3, DIMENSION,  \
                             SIZE_CHECK, CODE)                                           \
  {                                                                                      \
    TYPE1 *TENSOR1##_data;                                                               \
    TYPE2 *TENSOR2##_data;                                                               \
    TYPE3 *TENSOR3##_data;                                                               \
    int64_t TENSOR1##_stride, TENSOR1##_size, TENSOR2##_stride, TENSOR2##_size;          \
    int64_t TENSOR3##_stride, TENSOR3##_size;                                            \
    THFFI_DIM_APPLY_CHECK_DIM(TENSOR1, DIMENSION)                                        \
    THFFI_DIM_APPLY_CHECK_NDIM(TENSOR1, TENSOR2)                                         \
    THFFI_DIM_APPLY_CHECK_NDIM(TENSOR1, TENSOR3)                                         \
    SIZE_CHECK(TENSOR1, TENSOR2, TENSOR3, DIMENSION)                                     \
    THFFI_DIM_APPLY_START(TYPE1, TENSOR1, DIMENSION)                                     \
    THFFI_DIM_APPLY_START(TYPE2, TENSOR2, DIMENSION)                                     \
    THFFI_DIM_APPLY_START(TYPE3, TENSOR3, DIMENSION)                                     \
    {                                                                                    \
      THFFI_DIM_APPLY_LOOP(TENSOR1, DIMENSION, CODE,                                     \
                           THFFI_DIM_APPLY_STEP(TENSOR1) THFFI_DIM_APPLY_STEP(TENSOR2)   \
                           THFFI_DIM_APPLY_STEP(TENSOR3))                                \
    }                                                                                    \
  }

#endif
