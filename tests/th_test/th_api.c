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

#define TH_GENERIC_FILE "generic/th_struct.c"
#include "TH/THGenerateAllTypes.h"

/* Views TH refused, for tests/test_th_struct.py. */
void th_struct_bad_unfold(THFloatTensor *src) {
  THFloatTensor *unfolded = THFloatTensor_newUnfold(src, 2, 6, 1);
  THFloatTensor_free(unfolded);
}

void th_struct_bad_storage(THFloatTensor *src) {
  THFloatTensor *view = THFloatTensor_new();
  THFloatTensor_setStorage1d(view, THFloatTensor_storage(src), 1, 60, 1);
  THFloatTensor_free(view);
}
