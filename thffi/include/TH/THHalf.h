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

/* Round to nearest even, as PyTorch's float -> float16 conversion. */
TH_API THHalf TH_float2half(float a);
TH_API float TH_half2float(THHalf a);
/* The same on the bits, one element at the addresses given. */
TH_API void TH_float2halfbits(float *src, unsigned short *dest);
TH_API void TH_halfbits2float(unsigned short *src, float *dest);

#endif
