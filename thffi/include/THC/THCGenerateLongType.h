/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaLongTensor, with `real` (int64_t), `accreal`
 * (int64_t), `Real` (Long), `CReal` (CudaLong), THC_REAL_IS_LONG and THInf defined, as
 * legacy THCGenerateAllTypes.h did for this type. */
#include "THC/THCGenerateBegin.h"
#define real int64_t
#define accreal int64_t
#define Real Long
#define CReal CudaLong
#define THC_REAL_IS_LONG
#define THInf INT64_MAX
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_LONG
#undef THInf
#include "THC/THCGenerateEnd.h"
