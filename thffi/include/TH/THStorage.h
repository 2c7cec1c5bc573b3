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
