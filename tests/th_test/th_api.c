#include <TH/TH.h>

#define TH_GENERIC_FILE "generic/th_api.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_copy.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_access.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_dimapply.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateByteType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateCharType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateShortType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateIntType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateLongType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateFloatType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateDoubleType.h"
