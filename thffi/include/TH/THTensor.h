#ifndef THFFI_TH_TENSOR_H
#define THFFI_TH_TENSOR_H

#include "THStorage.h"

#define THTensor TH_CONCAT_3(TH, Real, Tensor)
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)

/* thffi's own per-tensor bookkeeping, the same for every tensor type.  Not
 * part of the legacy API: user code must not touch it. */
typedef struct THFFITensorPriv {
  /* Which Python tensor backs this struct: the 0-based position of the
   * argument in the current call, or -1 when there is none. */
  int64_t ref;
  /* The true number of dimensions (0 for a 0-d tensor).  The legacy field
   * nDimension is 0 for a tensor without elements, as in TH. */
  int dim;
  /* Shape and strides after a resize from C (the arrays passed in by the
   * caller are read-only). */
  int64_t size_buf[THFFI_MAX_DIMS];
  int64_t stride_buf[THFFI_MAX_DIMS];
} THFFITensorPriv;

#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#include "TH/THGenerateFloatTypes.h"

#endif
