#include <TH/TH.h>

#define TH_GENERIC_FILE "generic/th_api.c"
#include "TH/THGenerateAllTypes.h"
