/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaShortTensor, with `real` (int16_t), `accreal`
 * (int64_t), `Real` (Short), `CReal` (CudaShort), THC_REAL_IS_SHORT and THInf defined, as
 * legacy THCGenerateAllTypes.h did for this type. */
#include "THC/THCGenerateBegin.h"
#define real int16_t
#define accreal int64_t
#define Real Short
#define CReal CudaShort
#define THC_REAL_IS_SHORT
#define THInf SHRT_MAX
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_SHORT
#undef THInf
#include "THC/THCGenerateEnd.h"
