/* Legacy generic-code machinery: includes TH_GENERIC_FILE once per floating
 * type (Float, Double) through the single-type generators
 * TH/THGenerate<Type>Type.h, each defining `real` (the element type),
 * `accreal` (its accumulation type), `Real` (its name in function names),
 * TH_REAL_IS_* and THInf. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateFloatTypes.h"
#endif

/* The single-type generators forget TH_GENERIC_FILE after their type unless
 * THGenerateManyTypes is defined: this one keeps it for all its types, and
 * forgets it after the last unless its own includer (THGenerateAllTypes.h)
 * still needs it. */
#ifndef THGenerateManyTypes
#define THFFI_FLOAT_TYPES_OUTERMOST
#define THGenerateManyTypes
#endif
#include "TH/THGenerateFloatType.h"
#include "TH/THGenerateDoubleType.h"
#ifdef THFFI_FLOAT_TYPES_OUTERMOST
#undef THFFI_FLOAT_TYPES_OUTERMOST
#undef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
