/* TH/THLapack.h: TH's raw LAPACK wrappers, for float and double (TH's
 * library had no others), each SciPy's LAPACK routine of its name
 * (THFFI_scipyFunction, THBlas.c: why SciPy's) with its scalar arguments
 * passed by address. */
#include "TH/TH.h"
#include "thffi_private.h"

#define TH_GENERIC_FILE "generic/THLapack.c"
#include "TH/THGenerateFloatTypes.h"
