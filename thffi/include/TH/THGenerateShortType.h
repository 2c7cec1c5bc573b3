/* Legacy generic-code machinery (the single-type generators of TH 0.4):
 * includes TH_GENERIC_FILE once, for THShortTensor, with `real`, `accreal`,
 * `Real`, TH_CONVERT_*, TH_REAL_IS_SHORT and THInf defined as THGenerateAllTypes.h does. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateShortType.h"
#endif
#include <float.h>
#include <limits.h>
#include <stdint.h>

#define real int16_t
#define accreal int64_t
#define Real Short
#define TH_REAL_IS_SHORT
#define THInf SHRT_MAX
#define TH_CONVERT_REAL_TO_ACCREAL(_val) (accreal)(_val)
#define TH_CONVERT_ACCREAL_TO_REAL(_val) (real)(_val)
#define ureal uint16_t
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_SHORT
#undef THInf
#undef TH_CONVERT_REAL_TO_ACCREAL
#undef TH_CONVERT_ACCREAL_TO_REAL
#undef ureal
#ifndef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
