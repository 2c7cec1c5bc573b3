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

/* Row 1 of a (2-D, 4 rows) goes to an addmm of shapes that do not fit, on
 * the second OpenMP thread, the others to sumall: an error on a thread of
 * ours, with no wrapped call to end. */
void th_math_omp_bad_row(THFloatTensor *a) {
  THFloatTensor *rows[4];
  int i;
  THArgCheck(THFloatTensor_size(a, 0) == 4, 1, "4 rows");
  for (i = 0; i < 4; i++) {
    rows[i] = THFloatTensor_new();
    THFloatTensor_select(rows[i], a, 0, i);
  }
#pragma omp parallel for num_threads(4) schedule(static, 1)
  for (i = 0; i < 4; i++) {
    if (i == 1)
      THFloatTensor_addmm(a, 1, a, 1, a, a);
    else
      THFloatTensor_sumall(rows[i]);
  }
}

/* THVector over x's memory (contiguous): digamma, trigamma, erfinv of x/4
 * and x * x; returns THLogAdd(log 2, log 3) - THLogSub(log 7, log 2)
 * (log 5 - log 5 = 0). */
double th_math_vector(THDoubleTensor *x, THDoubleTensor *dig, THDoubleTensor *trig,
                      THDoubleTensor *erfinv, THDoubleTensor *sq) {
  ptrdiff_t n = THDoubleTensor_nElement(x);
  THArgCheck(THDoubleTensor_isContiguous(x), 1, "x must be contiguous");
  THDoubleTensor_resizeAs(dig, x);
  THDoubleTensor_resizeAs(trig, x);
  THDoubleTensor_resizeAs(erfinv, x);
  THDoubleTensor_resizeAs(sq, x);
  THDoubleVector_digamma(THDoubleTensor_data(dig), THDoubleTensor_data(x), n);
  THDoubleVector_trigamma(THDoubleTensor_data(trig), THDoubleTensor_data(x), n);
  THDoubleVector_divs(THDoubleTensor_data(erfinv), THDoubleTensor_data(x), 4, n);
  THDoubleVector_erfinv(THDoubleTensor_data(erfinv), THDoubleTensor_data(erfinv), n);
  THDoubleVector_cmul(THDoubleTensor_data(sq), THDoubleTensor_data(x), THDoubleTensor_data(x), n);
  return THLogAdd(log(2), log(3)) - THLogSub(log(7), log(2));
}
