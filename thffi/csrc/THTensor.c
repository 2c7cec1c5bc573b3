/* TH tensor functions for every type (generic/THTensor.c once per type). */
#include "TH/TH.h"
#include "thffi_callbacks.h"

#define TH_GENERIC_FILE "generic/THTensor.c"
#include "TH/THGenerateFloatTypes.h"
