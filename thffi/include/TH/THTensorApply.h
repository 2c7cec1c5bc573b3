/* Legacy TH's element-apply macros (TH/THTensorApply.h, as in TH 0.3 and
 * 0.4; included by TH.h).
 *
 * TH_TENSOR_APPLY(TYPE, T, CODE), TH_TENSOR_APPLY2(TYPE1, T1, TYPE2, T2,
 * CODE) and TH_TENSOR_APPLY3(..., CODE) run CODE once per element, in
 * logical (row-major) order, with for each tensor T:
 *   T##_data     a TYPE * to its current element
 *   T##_n        its number of elements
 *   T##_i, T##_size, T##_stride   the position in, length and stride of the
 *                run of elements the innermost loop walks
 * The _D forms (DIM >= 0) keep dimension DIM a dimension of its own and
 * give T##_dimOffset, an int64_t * to the current index along DIM.  Setting
 * TH_TENSOR_APPLY_hasFinished = 1 then `break` ends the loop early.  The
 * tensors of APPLY2/3 must have the same number of elements (else THError
 * names them).  Dimensions are merged where memory allows, as TH did; the
 * macros read the struct fields (nDimension, size, stride, storage->data +
 * storageOffset), so a tensor without elements runs no iteration. */
#ifndef THFFI_TH_TENSOR_APPLY_H
#define THFFI_TH_TENSOR_APPLY_H

#include "THGeneral.h"

/* Declares T's loop state and sets it to T's first element: its
 * dimensions outermost first, each merged into the one before when that
 * one's stride is this one's span (never DIM: T##_dimGroup is DIM's). */
#define __TH_TENSOR_APPLYX_PREAMBLE(TYPE, TENSOR, DIM, ALLOW_CONTIGUOUS)                      \
  TYPE *TENSOR##_data = NULL;                                                                \
  int64_t *TENSOR##_counter = NULL, *TENSOR##_sizes = NULL, *TENSOR##_strides = NULL;        \
  int64_t *TENSOR##_dimOffset = NULL;                                                        \
  int64_t TENSOR##_stride = 0, TENSOR##_size = 0, TENSOR##_dim = 0, TENSOR##_i = 0, TENSOR##_n; \
  int64_t TENSOR##_dimGroup = -1;                                                            \
  (void)(ALLOW_CONTIGUOUS);                                                                  \
  TENSOR##_n = (TENSOR)->nDimension ? 1 : 0;                                                 \
  for (TENSOR##_i = 0; TENSOR##_i < (TENSOR)->nDimension; TENSOR##_i++)                      \
    TENSOR##_n *= (TENSOR)->size[TENSOR##_i];                                                \
  if ((TENSOR)->nDimension == 0) {                                                           \
    TH_TENSOR_APPLY_hasFinished = 1;                                                         \
  } else {                                                                                   \
    TENSOR##_data = (TENSOR)->storage->data + (TENSOR)->storageOffset;                       \
    TENSOR##_counter = (int64_t *)THAlloc(sizeof(int64_t) * 3 * (TENSOR)->nDimension);       \
    TENSOR##_sizes = TENSOR##_counter + (TENSOR)->nDimension;                                \
    TENSOR##_strides = TENSOR##_sizes + (TENSOR)->nDimension;                                \
    for (TENSOR##_i = 0; TENSOR##_i < (TENSOR)->nDimension; TENSOR##_i++) {                  \
      if (TENSOR##_dim > 0 && TENSOR##_i != (DIM) && TENSOR##_i - 1 != (DIM) &&              \
          TENSOR##_strides[TENSOR##_dim - 1] ==                                              \
              (TENSOR)->stride[TENSOR##_i] * (TENSOR)->size[TENSOR##_i]) {                   \
        TENSOR##_sizes[TENSOR##_dim - 1] *= (TENSOR)->size[TENSOR##_i];                      \
        TENSOR##_strides[TENSOR##_dim - 1] = (TENSOR)->stride[TENSOR##_i];                   \
      } else {                                                                               \
        if (TENSOR##_i == (DIM)) TENSOR##_dimGroup = TENSOR##_dim;                           \
        TENSOR##_counter[TENSOR##_dim] = 0;                                                  \
        TENSOR##_sizes[TENSOR##_dim] = (TENSOR)->size[TENSOR##_i];                           \
        TENSOR##_strides[TENSOR##_dim] = (TENSOR)->stride[TENSOR##_i];                       \
        TENSOR##_dim++;                                                                      \
      }                                                                                      \
    }                                                                                        \
    if (TENSOR##_dimGroup >= 0)                                                              \
      TENSOR##_dimOffset = TENSOR##_dimGroup == TENSOR##_dim - 1                             \
                               ? &TENSOR##_i                                                 \
                               : &TENSOR##_counter[TENSOR##_dimGroup];                       \
    TENSOR##_size = TENSOR##_sizes[TENSOR##_dim - 1];                                        \
    TENSOR##_stride = TENSOR##_strides[TENSOR##_dim - 1];                                    \
  }                                                                                          \
  TENSOR##_i = 0;

/* After T's innermost run ends (or always, ALWAYS_UPDATE): steps the outer
 * counters like an odometer, moving T##_data, and ends the loop (break)
 * after the last element. */
#define __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR, ALWAYS_UPDATE)                           \
  if (TENSOR##_i == TENSOR##_size || (ALWAYS_UPDATE)) {                                      \
    if (TENSOR##_dim == 1) break;                                                            \
    TENSOR##_data -= TENSOR##_size * TENSOR##_stride;                                        \
    for (TENSOR##_i = TENSOR##_dim - 2; TENSOR##_i >= 0; TENSOR##_i--) {                     \
      TENSOR##_counter[TENSOR##_i]++;                                                        \
      TENSOR##_data += TENSOR##_strides[TENSOR##_i];                                         \
      if (TENSOR##_counter[TENSOR##_i] < TENSOR##_sizes[TENSOR##_i]) break;                  \
      if (TENSOR##_i == 0) {                                                                 \
        TH_TENSOR_APPLY_hasFinished = 1;                                                     \
        break;                                                                               \
      }                                                                                      \
      TENSOR##_data -= TENSOR##_counter[TENSOR##_i] * TENSOR##_strides[TENSOR##_i];          \
      TENSOR##_counter[TENSOR##_i] = 0;                                                      \
    }                                                                                        \
    TENSOR##_i = 0;                                                                          \
  }

#define TH_TENSOR_APPLY_D(TYPE, TENSOR, DIM, CODE)                                          \
  {                                                                                          \
    int TH_TENSOR_APPLY_hasFinished = 0;                                                     \
    __TH_TENSOR_APPLYX_PREAMBLE(TYPE, TENSOR, DIM, 0)                                        \
    while (!TH_TENSOR_APPLY_hasFinished) {                                                   \
      for (; TENSOR##_i < TENSOR##_size; TENSOR##_i++, TENSOR##_data += TENSOR##_stride) {   \
        CODE                                                                                 \
      }                                                                                      \
      __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR, 1)                                          \
    }                                                                                        \
    THFree(TENSOR##_counter);                                                                \
  }

#define TH_TENSOR_APPLY2_D(TYPE1, TENSOR1, TYPE2, TENSOR2, DIM, CODE)                       \
  {                                                                                          \
    int TH_TENSOR_APPLY_hasFinished = 0;                                                     \
    __TH_TENSOR_APPLYX_PREAMBLE(TYPE1, TENSOR1, DIM, 1)                                      \
    __TH_TENSOR_APPLYX_PREAMBLE(TYPE2, TENSOR2, DIM, 1)                                      \
    if (TENSOR1##_n != TENSOR2##_n) {                                                        \
      THDescBuff T1buff = _THSizeDesc((TENSOR1)->size, (TENSOR1)->nDimension);               \
      THDescBuff T2buff = _THSizeDesc((TENSOR2)->size, (TENSOR2)->nDimension);               \
      THFree(TENSOR1##_counter);                                                             \
      THFree(TENSOR2##_counter);                                                             \
      THError("inconsistent tensor size, expected %s %s and %s %s to have the same "         \
              "number of elements, but got %lld and %lld elements respectively",             \
              #TENSOR1, T1buff.str, #TENSOR2, T2buff.str, (long long)TENSOR1##_n,            \
              (long long)TENSOR2##_n);                                                       \
    }                                                                                        \
    while (!TH_TENSOR_APPLY_hasFinished) {                                                   \
      for (; TENSOR1##_i < TENSOR1##_size && TENSOR2##_i < TENSOR2##_size;                   \
           TENSOR1##_i++, TENSOR2##_i++, TENSOR1##_data += TENSOR1##_stride,                 \
           TENSOR2##_data += TENSOR2##_stride) {                                             \
        CODE                                                                                 \
      }                                                                                      \
      __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR1, 0)                                         \
      __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR2, 0)                                         \
    }                                                                                        \
    THFree(TENSOR1##_counter);                                                               \
    THFree(TENSOR2##_counter);                                                               \
  }

#define TH_TENSOR_APPLY3_D(TYPE1, TENSOR1, TYPE2, TENSOR2, TYPE3, TENSOR3, DIM, CODE)       \
  {                                                                                          \
    int TH_TENSOR_APPLY_hasFinished = 0;                                                     \
    __TH_TENSOR_APPLYX_PREAMBLE(TYPE1, TENSOR1, DIM, 1)                                      \
    __TH_TENSOR_APPLYX_PREAMBLE(TYPE2, TENSOR2, DIM, 1)                                      \
    __TH_TENSOR_APPLYX_PREAMBLE(TYPE3, TENSOR3, DIM, 1)                                      \
    if (TENSOR1##_n != TENSOR2##_n || TENSOR1##_n != TENSOR3##_n) {                          \
      THDescBuff T1buff = _THSizeDesc((TENSOR1)->size, (TENSOR1)->nDimension);               \
      THDescBuff T2buff = _THSizeDesc((TENSOR2)->size, (TENSOR2)->nDimension);               \
      THDescBuff T3buff = _THSizeDesc((TENSOR3)->size, (TENSOR3)->nDimension);               \
      THFree(TENSOR1##_counter);                                                             \
      THFree(TENSOR2##_counter);                                                             \
      THFree(TENSOR3##_counter);                                                             \
      THError("inconsistent tensor size, expected %s %s, %s %s and %s %s to have the same "  \
              "number of elements, but got %lld, %lld and %lld elements respectively",       \
              #TENSOR1, T1buff.str, #TENSOR2, T2buff.str, #TENSOR3, T3buff.str,              \
              (long long)TENSOR1##_n, (long long)TENSOR2##_n, (long long)TENSOR3##_n);       \
    }                                                                                        \
    while (!TH_TENSOR_APPLY_hasFinished) {                                                   \
      for (; TENSOR1##_i < TENSOR1##_size && TENSOR2##_i < TENSOR2##_size &&                 \
             TENSOR3##_i < TENSOR3##_size;                                                   \
           TENSOR1##_i++, TENSOR2##_i++, TENSOR3##_i++, TENSOR1##_data += TENSOR1##_stride,  \
           TENSOR2##_data += TENSOR2##_stride, TENSOR3##_data += TENSOR3##_stride) {         \
        CODE                                                                                 \
      }                                                                                      \
      __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR1, 0)                                         \
      __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR2, 0)                                         \
      __TH_TENSOR_APPLYX_UPDATE_COUNTERS(TENSOR3, 0)                                         \
    }                                                                                        \
    THFree(TENSOR1##_counter);                                                               \
    THFree(TENSOR2##_counter);                                                               \
    THFree(TENSOR3##_counter);                                                               \
  }

#define TH_TENSOR_APPLY(TYPE, TENSOR, CODE) TH_TENSOR_APPLY_D(TYPE, TENSOR, -1, CODE)
#define TH_TENSOR_APPLY2(TYPE1, TENSOR1, TYPE2, TENSOR2, CODE) \
  TH_TENSOR_APPLY2_D(TYPE1, TENSOR1, TYPE2, TENSOR2, -1, CODE)
#define TH_TENSOR_APPLY3(TYPE1, TENSOR1, TYPE2, TENSOR2, TYPE3, TENSOR3, CODE) \
  TH_TENSOR_APPLY3_D(TYPE1, TENSOR1, TYPE2, TENSOR2, TYPE3, TENSOR3, -1, CODE)

#endif
