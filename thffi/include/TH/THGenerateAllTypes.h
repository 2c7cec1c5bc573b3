/* Legacy generic-code machinery: includes TH_GENERIC_FILE once per tensor
 * type (THGenerateFloatTypes.h, then THGenerateIntTypes.h). */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateAllTypes.h"
#endif

#define THGenerateManyTypes
#include "TH/THGenerateFloatTypes.h"
#include "TH/THGenerateIntTypes.h"
#undef THGenerateManyTypes
#undef TH_GENERIC_FILE
