#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#else

TH_API void THTensor_(fill)(THTensor *self, real value);
THFFI_PUN(THTensor_(fill));
TH_API void THTensor_(zero)(THTensor *self);
THFFI_PUN(THTensor_(zero));
/* Element-wise in logical order; both must have the same number of elements. */
TH_API void THTensor_(copy)(THTensor *self, THTensor *src);
THFFI_PUN(THTensor_(copy));
/* r = t + value * src; r is resized like t; t and src must have the same
 * number of elements. */
TH_API void THTensor_(cadd)(THTensor *r, THTensor *t, real value, THTensor *src);
THFFI_PUN(THTensor_(cadd));

#endif
