#include <TH/TH.h>
#include <omp.h>

#define TH_GENERIC_FILE "generic/th_math.c"
#include "TH/THGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/th_math.c"
#include "TH/THGenerateLongType.h"

/* The sum of each row of a (2-D, at most 64 rows), each computed by
 * THFloatTensor_sumall on an OpenMP thread of ours, into sums. */
void th_math_omp_row_sums(THFloatTensor *a, THDoubleTensor *sums) {
  THFloatTensor *rows[64];
  double got[64];
  int n = (int)THFloatTensor_size(a, 0), i;
  THArgCheck(n <= 64, 1, "at most 64 rows");
  for (i = 0; i < n; i++) {
    rows[i] = THFloatTensor_new();
    THFloatTensor_select(rows[i], a, 0, i);
  }
#pragma omp parallel for num_threads(4) schedule(static, 1)
  for (i = 0; i < n; i++) got[i] = THFloatTensor_sumall(rows[i]);
  THDoubleTensor_resize1d(sums, n);
  for (i = 0; i < n; i++) {
    THDoubleTensor_set1d(sums, i, got[i]);
    THFloatTensor_free(rows[i]);
  }
}
