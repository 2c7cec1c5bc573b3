/* TH element-wise ops of the integer types (and half's fill, zero and copy): apart from the floating ones,
 * so that the two compile in parallel and these without SIMD variants. */
#include "THTensorOpsCommon.h"

#define TH_GENERIC_FILE "generic/THTensorOps.c"
#include "TH/THGenerateIntTypes.h"
#define TH_GENERIC_FILE "generic/THTensorOps.c"
#include "TH/THGenerateHalfType.h"
