#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensorCopy.h"
#else

/* self[i] = (real)src[i] for every i, in logical order, whatever the two
 * tensors' strides; both must have the same number of elements (their
 * shapes may differ).  The conversion is C's: floating values become
 * integers by truncation toward zero, and a value the type cannot hold
 * gives an unspecified result. */
TH_API void THTensor_(copyByte)(THTensor *self, THByteTensor *src);
THFFI_PUN(THTensor_(copyByte));
TH_API void THTensor_(copyChar)(THTensor *self, THCharTensor *src);
THFFI_PUN(THTensor_(copyChar));
TH_API void THTensor_(copyShort)(THTensor *self, THShortTensor *src);
THFFI_PUN(THTensor_(copyShort));
TH_API void THTensor_(copyInt)(THTensor *self, THIntTensor *src);
THFFI_PUN(THTensor_(copyInt));
TH_API void THTensor_(copyLong)(THTensor *self, THLongTensor *src);
THFFI_PUN(THTensor_(copyLong));
TH_API void THTensor_(copyFloat)(THTensor *self, THFloatTensor *src);
THFFI_PUN(THTensor_(copyFloat));
TH_API void THTensor_(copyDouble)(THTensor *self, THDoubleTensor *src);
THFFI_PUN(THTensor_(copyDouble));

#endif
