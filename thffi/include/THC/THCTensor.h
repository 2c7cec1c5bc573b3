#ifndef THFFI_THC_TENSOR_H
#define THFFI_THC_TENSOR_H

#include <TH/TH.h>
#include "THCGeneral.h"
#include "THCHalf.h"

/* What THC's debug functions (THCTensor_(sizeDesc)) return. */
#define THC_DESC_BUFF_LEN TH_DESC_BUFF_LEN
typedef THDescBuff THCDescBuff;

/* Legacy THC 0.3's direct element access (host code cannot dereference
 * device memory: use THCStorage_(get)/(set)). */
#define THC_STORAGE_GET(storage, idx) ((storage)->data[(idx)])
#define THC_STORAGE_SET(storage, idx, value) ((storage)->data[(idx)] = (value))

#define THCStorage TH_CONCAT_3(TH, CReal, Storage)
#define THCStorage_(NAME) TH_CONCAT_4(TH, CReal, Storage_, NAME)
#define THCTensor TH_CONCAT_3(TH, CReal, Tensor)
#define THCTensor_(NAME) TH_CONCAT_4(TH, CReal, Tensor_, NAME)

#define TH_GENERIC_FILE "THC/generic/THCStorage.h"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "THC/generic/THCStorage.h"
#include "THC/THCGenerateHalfType.h"

/* The functions THC shares with TH, bound to THC: a leading state. */
#define THFFI_T THCTensor
#define THFFI_S THCStorage
#define THFFI_F(NAME) THCTensor_(NAME)
#define THFFI_SF(NAME) THCStorage_(NAME)
#define THFFI_STATE THCState *state,
#define THFFI_STATE_ONLY THCState *state
#define TH_GENERIC_FILE "TH/generic/THTensorMeta.h"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTensorMeta.h"
#include "THC/THCGenerateHalfType.h"
#undef THFFI_T
#undef THFFI_S
#undef THFFI_F
#undef THFFI_SF
#undef THFFI_STATE
#undef THFFI_STATE_ONLY

#define TH_GENERIC_FILE "THC/generic/THCTensor.h"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "THC/generic/THCTensor.h"
#include "THC/THCGenerateHalfType.h"

#endif
