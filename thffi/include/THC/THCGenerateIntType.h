/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaIntTensor, with `real` (int32_t), `accreal`
 * (int64_t), `Real` (Int), `CReal` (CudaInt), THC_REAL_IS_INT and THInf defined, as
 * legacy THCGenerateAllTypes.h did for this type. */
#include "THC/THCGenerateBegin.h"
#define real int32_t
#define accreal int64_t
#define Real Int
#define CReal CudaInt
#define THC_REAL_IS_INT
#define THInf INT_MAX
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_INT
#undef THInf
#include "THC/THCGenerateEnd.h"
