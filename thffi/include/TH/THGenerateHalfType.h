/* Legacy generic-code machinery (TH 0.4's THGenerateHalfType.h): includes
 * TH_GENERIC_FILE once, for THHalfTensor, with `real` (THHalf, a struct of
 * the bits: no arithmetic in C), `accreal` (float), `Real` (Half),
 * TH_CONVERT_* (through float) and TH_REAL_IS_HALF.  THGenerateAllTypes.h
 * does not include it, as legacy TH's did not. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateHalfType.h"
#endif
#include "TH/THHalf.h"

#define real THHalf
#define accreal float
#define Real Half
#define TH_REAL_IS_HALF
#define TH_CONVERT_REAL_TO_ACCREAL(_val) TH_half2float(_val)
#define TH_CONVERT_ACCREAL_TO_REAL(_val) TH_float2half(_val)
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_HALF
#undef TH_CONVERT_REAL_TO_ACCREAL
#undef TH_CONVERT_ACCREAL_TO_REAL
#ifndef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
