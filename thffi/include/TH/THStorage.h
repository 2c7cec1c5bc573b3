#ifndef THFFI_TH_STORAGE_H
#define THFFI_TH_STORAGE_H

#include "THGeneral.h"

/* Legacy TH 0.3's direct element access. */
#define TH_STORAGE_GET(storage, idx) ((storage)->data[(idx)])
#define TH_STORAGE_SET(storage, idx, value) ((storage)->data[(idx)] = (value))

#define THStorage TH_CONCAT_3(TH, Real, Storage)
#define THStorage_(NAME) TH_CONCAT_4(TH, Real, Storage_, NAME)

#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#include "TH/THGenerateHalfType.h"

/* Shapes held in size storages, as legacy TH's THStorageFunctions. */
/* "[a x b x c]" */
TH_API THDescBuff THLongStorage_sizeDesc(const THLongStorage *size);
THFFI_PUN(THLongStorage_sizeDesc);
/* A copy of size whose one -1, if any, is inferred from nElement; raises
 * when size cannot hold nElement elements. */
TH_API THLongStorage *THLongStorage_newInferSize(THLongStorage *size, ptrdiff_t nElement);
THFFI_PUN(THLongStorage_newInferSize);
/* Broadcasting (PyTorch 0.3): the common shape of two or n shapes into
 * output, or -1 with the reason in error_buffer. */
TH_API int THLongStorage_inferSize2(THLongStorage *output, int64_t *sizesA, int64_t dimsA,
                                    int64_t *sizesB, int64_t dimsB, char *error_buffer,
                                    int buffer_len);
THFFI_PUN(THLongStorage_inferSize2);
TH_API int THLongStorage_inferSizeN(THLongStorage *output, int n, int64_t **sizes,
                                    int64_t *dims, char *error_buffer, int buffer_len);
THFFI_PUN(THLongStorage_inferSizeN);
/* The sizes and strides (THAlloc'ed: THFree them) of a tensor expanded to
 * `sizes`, or -1 with the reason in error_buffer. */
TH_API int THLongStorage_inferExpandGeometry(int64_t *tensorSizes, int64_t *tensorStrides,
                                             int64_t tensorDim, THLongStorage *sizes,
                                             int64_t **expandedSizes, int64_t **expandedStrides,
                                             char *error_buffer, int buffer_len);
THFFI_PUN(THLongStorage_inferExpandGeometry);
/* PyTorch 0.4's: frees a storage of any type. */
TH_API void THStorage_free(void *storage);

/* newWithAllocator(size, allocator, ctx) (PyTorch 0.3) or (size, allocator)
 * (0.4), told apart by the number of arguments. */
#define THFloatStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THFloatStorage_newWithAllocator, THFloatStorage_thffiNewWithAllocator2, THFloatStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THDoubleStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THDoubleStorage_newWithAllocator, THDoubleStorage_thffiNewWithAllocator2, THDoubleStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THByteStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THByteStorage_newWithAllocator, THByteStorage_thffiNewWithAllocator2, THByteStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THCharStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THCharStorage_newWithAllocator, THCharStorage_thffiNewWithAllocator2, THCharStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THShortStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THShortStorage_newWithAllocator, THShortStorage_thffiNewWithAllocator2, THShortStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THIntStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THIntStorage_newWithAllocator, THIntStorage_thffiNewWithAllocator2, THIntStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THLongStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THLongStorage_newWithAllocator, THLongStorage_thffiNewWithAllocator2, THLongStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)
#define THHalfStorage_newWithAllocator(...) \
  THFFI_FOURTH_ARG(__VA_ARGS__, THHalfStorage_newWithAllocator, THHalfStorage_thffiNewWithAllocator2, THHalfStorage_newWithAllocator_takes_2_or_3_arguments, 0)(__VA_ARGS__)

#endif
