/* TH tensor functions that only the CPU types have: element accessors. */
#include "TH/TH.h"
#include "thffi_private.h"

#define TH_GENERIC_FILE "generic/THTensor.c"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/THTensor.c"
#include "TH/THGenerateHalfType.h"
