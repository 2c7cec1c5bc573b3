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

#endif
