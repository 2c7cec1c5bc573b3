#ifndef THFFI_TH_STORAGE_H
#define THFFI_TH_STORAGE_H

#include "THGeneral.h"

#define THStorage TH_CONCAT_3(TH, Real, Storage)
#define THStorage_(NAME) TH_CONCAT_4(TH, Real, Storage_, NAME)

#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#include "TH/THGenerateHalfType.h"

#endif
