#include <THC/THC.h>

extern THCState *state;

#define SUFFIX all
#include "generic/thc_struct.c"
#include "THCGenerateAllTypes.h"
#undef SUFFIX

#define SUFFIX single
#include "generic/thc_struct.c"
#include "THCGenerateHalfType.h"
#include "generic/thc_struct.c"
#include "THCGenerateFloatType.h"
#include "generic/thc_struct.c"
#include "THCGenerateDoubleType.h"
#include "generic/thc_struct.c"
#include "THCGenerateByteType.h"
#include "generic/thc_struct.c"
#include "THCGenerateCharType.h"
#include "generic/thc_struct.c"
#include "THCGenerateShortType.h"
#include "generic/thc_struct.c"
#include "THCGenerateIntType.h"
#include "generic/thc_struct.c"
#include "THCGenerateLongType.h"
#undef SUFFIX

#define SUFFIX floating
#include "generic/thc_struct.c"
#include "THCGenerateFloatTypes.h"
#undef SUFFIX

#define SUFFIX integer
#include "generic/thc_struct.c"
#include "THCGenerateIntTypes.h"
#undef SUFFIX
