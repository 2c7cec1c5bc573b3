/* Legacy <TH/THMath.h>: the scalar functions TH's math used that C's
 * <math.h> lacks, as static inline functions (double, and float where TH
 * had a float form).  digamma, trigamma and erfinv are thffi's own
 * (THVector_(digamma)... use them); TH_digammaf returns a double, as
 * 0.4.1's did. */
#ifndef THFFI_TH_MATH_H
#define THFFI_TH_MATH_H

#include "THGeneral.h"

#define CENTRAL_RANGE 0.7
#define M_PIf 3.1415926535f

static inline double TH_sigmoid(double value) { return 1.0 / (1.0 + exp(-value)); }
static inline float TH_sigmoidf(float value) { return 1.0f / (1.0f + expf(-value)); }
/* x less its integer part, with x's sign */
static inline double TH_frac(double x) { return x - trunc(x); }
static inline float TH_fracf(float x) { return x - truncf(x); }
static inline double TH_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float TH_rsqrtf(float x) { return 1.0f / sqrtf(x); }
/* a + weight (b - a) */
static inline double TH_lerp(double a, double b, double weight) { return a + weight * (b - a); }
static inline float TH_lerpf(float a, float b, float weight) { return a + weight * (b - a); }
/* A[0] x^len + A[1] x^(len - 1) + ... + A[len]: len + 1 coefficients,
 * the highest power's first (Cephes's polevl). */
static inline double TH_polevl(double x, double *A, size_t len) {
  double result = 0;
  size_t i;
  for (i = 0; i <= len; i++) result = result * x + A[i];
  return result;
}
static inline float TH_polevlf(float x, float *A, size_t len) {
  float result = 0;
  size_t i;
  for (i = 0; i <= len; i++) result = result * x + A[i];
  return result;
}

/* digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the
 * asymptotic series; reflection for x < 0. */
static inline double TH_digamma(double x) {
  double r = 0, f;
  if (x == 0) return x == x ? -INFINITY : x;
  if (x < 0) {
    if (x == floor(x)) return NAN;
    return TH_digamma(1 - x) - M_PI / tan(M_PI * x);
  }
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  f = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

/* trigamma: psi'(x) = psi'(x + 1) + 1/x^2 up to x >= 6, then the asymptotic
 * series; reflection for x < 0. */
static inline double TH_trigamma(double x) {
  double r = 0, f;
  if (x <= 0 && x == floor(x)) return INFINITY;
  if (x < 0) {
    double s = sin(M_PI * x);
    return -TH_trigamma(1 - x) + M_PI * M_PI / (s * s);
  }
  while (x < 6) {
    r += 1 / (x * x);
    x += 1;
  }
  f = 1 / (x * x);
  return r + 1 / x + f / 2 +
         f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30))));
}

/* erfinv: Giles' single-precision approximation refined by two Newton
 * steps on erf. */
static inline double TH_erfinv(double y) {
  double w, x;
  int i;
  if (y <= -1) return y == -1 ? -INFINITY : NAN;
  if (y >= 1) return y == 1 ? INFINITY : NAN;
  w = -log((1 - y) * (1 + y));
  if (w < 5) {
    w -= 2.5;
    x = 2.81022636e-08;
    x = 3.43273939e-07 + x * w;
    x = -3.5233877e-06 + x * w;
    x = -4.39150654e-06 + x * w;
    x = 0.00021858087 + x * w;
    x = -0.00125372503 + x * w;
    x = -0.00417768164 + x * w;
    x = 0.246640727 + x * w;
    x = 1.50140941 + x * w;
  } else {
    w = sqrt(w) - 3;
    x = -0.000200214257;
    x = 0.000100950558 + x * w;
    x = 0.00134934322 + x * w;
    x = -0.00367342844 + x * w;
    x = 0.00573950773 + x * w;
    x = -0.0076224613 + x * w;
    x = 0.00943887047 + x * w;
    x = 1.00167406 + x * w;
    x = 2.83297682 + x * w;
  }
  x *= y;
  for (i = 0; i < 2; i++) x -= (erf(x) - y) / (2 / sqrt(M_PI) * exp(-x * x));
  return x;
}

static inline double TH_digammaf(float x) { return TH_digamma(x); }
static inline float TH_trigammaf(float x) { return (float)TH_trigamma(x); }

#endif
