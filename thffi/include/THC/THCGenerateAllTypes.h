/* Legacy generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once per CUDA tensor type (THCGenerateFloatTypes.h, then
 * THCGenerateIntTypes.h). */
#if !defined(THC_GENERIC_FILE) && !defined(TH_GENERIC_FILE)
#error "You must define THC_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif
#define THCGenerateAllTypes
#include "THC/THCGenerateFloatTypes.h"
#include "THC/THCGenerateIntTypes.h"
#undef THCGenerateAllTypes
#include "THC/THCGenerateEnd.h"
