/* TH element-wise ops (fill, zero, copy, cadd, storage fill) for every type:
 * the loops that run over data, compiled with full optimisation. */
#include "TH/TH.h"
#include "thffi_private.h"

#define TH_GENERIC_FILE "generic/THTensorOps.c"
#include "TH/THGenerateAllTypes.h"
