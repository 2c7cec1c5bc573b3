/* TH/THVector.h: plain loops over contiguous arrays, once per type. */
#include "TH/TH.h"
#include "thffi_private.h"

/* Special functions C's <math.h> lacks, in double precision. */

/* digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the
 * asymptotic series; reflection for x < 0. */
static double thffi_digamma(double x) {
  double r = 0, f;
  if (x == 0) return x == x ? -INFINITY : x;
  if (x < 0) {
    if (x == floor(x)) return NAN;
    return thffi_digamma(1 - x) - M_PI / tan(M_PI * x);
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
static double thffi_trigamma(double x) {
  double r = 0, f;
  if (x <= 0 && x == floor(x)) return INFINITY;
  if (x < 0) {
    double s = sin(M_PI * x);
    return -thffi_trigamma(1 - x) + M_PI * M_PI / (s * s);
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
static double thffi_erfinv(double y) {
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

#define TH_GENERIC_FILE "generic/THVector.c"
#include "TH/THGenerateAllTypes.h"
