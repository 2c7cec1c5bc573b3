#ifndef THFFI_TH_TENSOR_H
#define THFFI_TH_TENSOR_H

#include "THStorage.h"
#include "THTensorMacros.h"

#define THTensor TH_CONCAT_3(TH, Real, Tensor)
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)

/* The functions TH shares with THC, bound to TH: no state argument. */
#define THFFI_T THTensor
#define THFFI_S THStorage
#define THFFI_F(NAME) THTensor_(NAME)
#define THFFI_SF(NAME) THStorage_(NAME)
#define THFFI_STATE
#define THFFI_STATE_ONLY void
#define TH_GENERIC_FILE "TH/generic/THTensorMeta.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensorMeta.h"
#include "TH/THGenerateHalfType.h"
#undef THFFI_T
#undef THFFI_S
#undef THFFI_F
#undef THFFI_SF
#undef THFFI_STATE
#undef THFFI_STATE_ONLY

#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#include "TH/THGenerateHalfType.h"

#endif
