/* TH/THVector.h: plain loops over contiguous arrays, once per type. */
#include "TH/TH.h"
#include "TH/THMath.h"
#include "thffi_private.h"

#define TH_GENERIC_FILE "generic/THVector.c"
#include "TH/THGenerateAllTypes.h"
