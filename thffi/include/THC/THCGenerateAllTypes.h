/* Legacy generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once per CUDA tensor type (THCGenerateFloatTypes.h, then
 * THCGenerateIntTypes.h). */
#if !defined(THC_GENERIC_FILE) && !defined(TH_GENERIC_FILE)
#error "You must define THC_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif
/* Numbers for the types, as legacy THC's, for generic code comparing
 * THCTypeIdx_(Real) with THCTypeIdx_(Half). */
#ifndef THCTypeIdx_
#define THCTypeIdxByte 1
#define THCTypeIdxChar 2
#define THCTypeIdxShort 3
#define THCTypeIdxInt 4
#define THCTypeIdxLong 5
#define THCTypeIdxFloat 6
#define THCTypeIdxDouble 7
#define THCTypeIdxHalf 8
#define THCTypeIdx_(T) TH_CONCAT_2(THCTypeIdx, T)
#endif
#define THCGenerateAllTypes
#include "THC/THCGenerateFloatTypes.h"
#include "THC/THCGenerateIntTypes.h"
#undef THCGenerateAllTypes
#include "THC/THCGenerateEnd.h"
