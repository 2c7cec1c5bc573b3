/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaTensor, with `real` (float), `accreal`
 * (float), `Real` (Float), `CReal` (Cuda), THC_REAL_IS_FLOAT and THInf defined, as
 * legacy THCGenerateAllTypes.h did for this type. */
#include "THC/THCGenerateBegin.h"
#define real float
#define accreal float
#define Real Float
#define CReal Cuda
#define THC_REAL_IS_FLOAT
#define THInf FLT_MAX
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_FLOAT
#undef THInf
#include "THC/THCGenerateEnd.h"
