/* Legacy generic-code machinery: includes TH_GENERIC_FILE once per floating type (Float, Double),
 * with `real` (the element type), `accreal` (its accumulation type), `Real`
 * (its name in function names), TH_REAL_IS_* and THInf defined. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateFloatTypes.h"
#endif
#include <float.h>
#include <limits.h>
#include <stdint.h>

#define real float
#define accreal double
#define Real Float
#define TH_REAL_IS_FLOAT
#define THInf FLT_MAX
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_FLOAT
#undef THInf
#define real double
#define accreal double
#define Real Double
#define TH_REAL_IS_DOUBLE
#define THInf DBL_MAX
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_DOUBLE
#undef THInf
#ifndef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
