/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaCharTensor, with `real` (int8_t), `accreal`
 * (int64_t), `Real` (Char), `CReal` (CudaChar), THC_REAL_IS_CHAR and THInf defined, as
 * legacy THCGenerateAllTypes.h did for this type. */
#include "THC/THCGenerateBegin.h"
#define real int8_t
#define accreal int64_t
#define Real Char
#define CReal CudaChar
#define THC_REAL_IS_CHAR
#define THInf SCHAR_MAX
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_CHAR
#undef THInf
#include "THC/THCGenerateEnd.h"
