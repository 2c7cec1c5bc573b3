/* Legacy <TH/THHalf.h> (PyTorch 0.4.1): the CPU half type of THHalfTensor
 * and THHalfStorage, IEEE binary16 held as its bits (C has no arithmetic on
 * it: convert to float), and its conversions. */
#ifndef THFFI_TH_HALF_H
#define THFFI_TH_HALF_H

#include "THGeneral.h"

typedef struct __THHalf {
  unsigned short x;
} __THHalf;
typedef __THHalf THHalf;
/* Two halves in one word, and the bits of a half's special values (an
 * initializer: THHalf h = TH_HALF_BITS_TO_LITERAL(TH_HALF_INF);). */
typedef struct __THHalf2 {
  unsigned int x;
} __THHalf2;
typedef __THHalf2 THHalf2;
#define TH_HALF_BITS_TO_LITERAL(n) \
  { n }
#define TH_HALF_ZERO 0x0U
#define TH_HALF_INF 0x7C00U
/* Alignment of n bytes (gcc, clang and nvcc's host compilers). */
#define __thalign__(n) __attribute__((aligned(n)))

/* Round to nearest even, as PyTorch's float -> float16 conversion. */
TH_API THHalf TH_float2half(float a);
TH_API float TH_half2float(THHalf a);
/* The same on the bits, one element at the addresses given. */
TH_API void TH_float2halfbits(float *src, unsigned short *dest);
TH_API void TH_halfbits2float(unsigned short *src, float *dest);

#endif
