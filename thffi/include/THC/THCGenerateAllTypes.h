/* Legacy generic-code machinery: includes TH_GENERIC_FILE once per CUDA tensor
 * type (THCGenerateFloatTypes.h, then THCGenerateIntTypes.h). */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif

#define THGenerateManyTypes
#include "THC/THCGenerateFloatTypes.h"
#include "THC/THCGenerateIntTypes.h"
#undef THGenerateManyTypes
#undef TH_GENERIC_FILE
