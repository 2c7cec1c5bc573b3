/* Legacy <TH/THVector.h>: loops over contiguous arrays of one element type
 * (THFloatVector_cmul(z, x, y, n)...), in C. */
#ifndef THFFI_TH_VECTOR_H
#define THFFI_TH_VECTOR_H

#include "THGeneral.h"
#include "THRandom.h"

#define THVector_(NAME) TH_CONCAT_4(TH, Real, Vector_, NAME)

#define TH_GENERIC_FILE "TH/generic/THVector.h"
#include "TH/THGenerateAllTypes.h"

#endif
