/* TH element-wise ops (fill, zero, copy, cadd, storage fill) of the
 * floating types, with SIMD variants: the loops that run over data. */
#include "THTensorOpsCommon.h"

#define TH_GENERIC_FILE "generic/THTensorOps.c"
#include "TH/THGenerateFloatTypes.h"
