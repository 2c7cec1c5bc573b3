/* TH/THHalf.h: float <-> IEEE binary16 on the CPU, rounding to nearest even
 * (as PyTorch's float16 conversion), with infinities and NaN kept. */
#include <string.h>
#include "TH/THHalf.h"
#include "thffi_private.h"

void TH_float2halfbits(float *src, unsigned short *dest) {
  uint32_t f, sign, mag;
  unsigned short h;
  memcpy(&f, src, sizeof f);
  sign = (f >> 16) & 0x8000u;
  mag = f & 0x7fffffffu;
  if (mag >= 0x7f800000u) {             /* inf or NaN (kept quiet) */
    h = (unsigned short)(mag > 0x7f800000u ? 0x7e00u : 0x7c00u);
  } else if (mag >= 0x477ff000u) {      /* rounds beyond 65504: inf */
    h = 0x7c00u;
  } else if (mag < 0x38800000u) {       /* below 2^-14: subnormal or 0 */
    int shift = 126 - (int)(mag >> 23); /* the units of 2^-24 */
    uint32_t m = (mag & 0x7fffffu) | 0x800000u, half_ulp, rest;
    if (shift > 24) {
      h = 0;
    } else {
      half_ulp = 1u << (shift - 1);
      rest = m & ((1u << shift) - 1);
      h = (unsigned short)(m >> shift);
      if (rest > half_ulp || (rest == half_ulp && (h & 1))) h++;
    }
  } else {                              /* normal: rebias, round 13 bits off */
    uint32_t v = mag - 0x38000000u;     /* exponent 127 -> 15 */
    uint32_t rest = v & 0x1fffu;
    h = (unsigned short)(v >> 13);
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) h++;
  }
  *dest = (unsigned short)(h | sign);
}

void TH_halfbits2float(unsigned short *src, float *dest) {
  uint32_t h = *src, sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, m = h & 0x3ffu, f;
  if (exp == 0x1f) {
    f = sign | 0x7f800000u | (m << 13);
  } else if (exp != 0) {
    f = sign | ((exp + 112) << 23) | (m << 13);
  } else if (m == 0) {
    f = sign;
  } else {                              /* subnormal: normalize */
    exp = 113;
    while (!(m & 0x400u)) { m <<= 1; exp--; }
    f = sign | (exp << 23) | ((m & 0x3ffu) << 13);
  }
  memcpy(dest, &f, sizeof f);
}

THHalf TH_float2half(float a) {
  THHalf h;
  TH_float2halfbits(&a, &h.x);
  return h;
}

float TH_half2float(THHalf a) {
  float f;
  TH_halfbits2float(&a.x, &f);
  return f;
}
