#ifndef THFFI_TH_TENSOR_COPY_H
#define THFFI_TH_TENSOR_COPY_H

#include "THTensor.h"

/* Copies between the TH types (generic/THTensorCopy.h), as legacy TH's
 * THTensorCopy.h; THTensor_(copy) itself is declared in generic/THTensor.h. */
#define TH_GENERIC_FILE "TH/generic/THTensorCopy.h"
#include "TH/THGenerateAllTypes.h"

#endif
