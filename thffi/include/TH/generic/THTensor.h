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
#ifndef TH_REAL_IS_HALF
/* r = t + value * src; r is resized like t; t and src must have the same
 * number of elements.  (Not for half, which has no arithmetic in C.) */
TH_API void THTensor_(cadd)(THTensor *r, THTensor *t, real value, THTensor *src);
THFFI_PUN(THTensor_(cadd));
#endif

/* Element accessors, as legacy TH's: the tensor must have exactly that many
 * dimensions and the indices must be in range (else THArgCheck names which). */
TH_API real THTensor_(get1d)(const THTensor *self, int64_t x0);
THFFI_PUN(THTensor_(get1d));
TH_API real THTensor_(get2d)(const THTensor *self, int64_t x0, int64_t x1);
THFFI_PUN(THTensor_(get2d));
TH_API real THTensor_(get3d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2);
THFFI_PUN(THTensor_(get3d));
TH_API real THTensor_(get4d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2,
                             int64_t x3);
THFFI_PUN(THTensor_(get4d));
TH_API void THTensor_(set1d)(THTensor *self, int64_t x0, real value);
THFFI_PUN(THTensor_(set1d));
TH_API void THTensor_(set2d)(THTensor *self, int64_t x0, int64_t x1, real value);
THFFI_PUN(THTensor_(set2d));
TH_API void THTensor_(set3d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, real value);
THFFI_PUN(THTensor_(set3d));
TH_API void THTensor_(set4d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3,
                             real value);
THFFI_PUN(THTensor_(set4d));

#endif
