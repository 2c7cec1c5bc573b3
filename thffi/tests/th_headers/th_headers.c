/* The small TH headers as 2018 C used them: THMath.h's scalar functions,
 * THSize.h on a tensor's size array, THAtomic.h's reference counting,
 * THTensorMacros.h's unchecked access, THHalf.h's literals. */
#include <TH/TH.h>
#include <TH/THMath.h>

/* out[i, :] = sigmoid, frac, rsqrt, lerp(x, 10, .25), digamma, trigamma,
 * erfinv(x / 4), polevl(x; 1, 2, 3) of x[i] (out: n x 8, contiguous) */
void th_headers_math(THDoubleTensor *x, THDoubleTensor *out) {
  long i, n = THDoubleTensor_nElement(x);
  double coefficients[3] = {1, 2, 3};
  THDoubleTensor_resize2d(out, n, 8);
  for (i = 0; i < n; i++) {
    double v = THDoubleTensor_get1d(x, i), *row = THDoubleTensor_data(out) + 8 * i;
    row[0] = TH_sigmoid(v);
    row[1] = TH_frac(v);
    row[2] = TH_rsqrt(v);
    row[3] = TH_lerp(v, 10, 0.25);
    row[4] = TH_digamma(v);
    row[5] = TH_trigamma(v);
    row[6] = TH_erfinv(v / 4);
    row[7] = TH_polevl(v, coefficients, 2);
  }
}

/* 1000 * THSize_isSameSizeAs(a, b) + THSize_nElement(a) */
long th_headers_size(THLongTensor *a, THLongTensor *b) {
  return 1000 * THSize_isSameSizeAs(a->size, a->nDimension, b->size, b->nDimension) +
         (long)THSize_nElement(a->nDimension, a->size);
}

/* A reference count taken to 3 and back: the digits of what the calls return. */
long th_headers_atomic(void) {
  volatile int32_t count = 0;
  volatile int64_t big = 5;
  long r = 0;
  THAtomicSet(&count, 1);
  THAtomicIncrementRef(&count);
  r = r * 10 + THAtomicAdd(&count, 1);                /* 2, count 3 */
  r = r * 10 + THAtomicCompareAndSwap(&count, 3, 1);  /* 1, count 1 */
  r = r * 10 + THAtomicCompareAndSwap(&count, 3, 7);  /* 0 */
  r = r * 10 + THAtomicDecrementRef(&count);          /* 1: reached 0 */
  r = r * 10 + THAtomicGet(&count);                   /* 0 */
  r = r * 10 + THAtomicAddLong(&big, 2);              /* 5 */
  r = r * 10 + THAtomicGetLong(&big);                 /* 7 */
  return r;
}

/* t[1][2] read and t[0][1] set to it, by THTensor_fastGet2d/Set2d */
double th_headers_fast_get(THDoubleTensor *t) {
  double v = THTensor_fastGet2d(t, 1, 2);
  THTensor_fastSet2d(t, 0, 1, v);
  return v;
}

/* A half infinity from its bits, converted: 1 when it is +inf. */
int th_headers_half_literals(void) {
  THHalf inf = TH_HALF_BITS_TO_LITERAL(TH_HALF_INF);
  THHalf zero = TH_HALF_BITS_TO_LITERAL(TH_HALF_ZERO);
  return TH_half2float(inf) > 1e30f && TH_half2float(zero) == 0.0f && sizeof(THHalf2) == 4;
}
