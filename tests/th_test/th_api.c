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
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateHalfType.h"

#define TH_GENERIC_FILE "generic/th_struct.c"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/th_struct.c"
#include "TH/THGenerateHalfType.h"

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

/* TH_float2half on each element of src (contiguous) into bits (its int16
 * view), and TH_half2float of those back into back. */
void th_half_convert(THFloatTensor *src, THShortTensor *bits, THFloatTensor *back) {
  float *s = THFloatTensor_data(src), *b;
  int16_t *h;
  ptrdiff_t i, n = THFloatTensor_nElement(src);
  THShortTensor_resize1d(bits, n);
  THFloatTensor_resize1d(back, n);
  h = THShortTensor_data(bits);
  b = THFloatTensor_data(back);
  for (i = 0; i < n; i++) {
    THHalf half = TH_float2half(s[i]);
    h[i] = (int16_t)half.x;
    b[i] = TH_half2float(half);
  }
}
