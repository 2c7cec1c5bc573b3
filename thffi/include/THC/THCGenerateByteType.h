/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaByteTensor, with `real` (uint8_t), `accreal`
 * (int64_t), `Real` (Byte), `CReal` (CudaByte), THC_REAL_IS_BYTE and THInf defined, as
 * legacy THCGenerateAllTypes.h did for this type. */
#include "THC/THCGenerateBegin.h"
#define real uint8_t
#define accreal int64_t
#define Real Byte
#define CReal CudaByte
#define THC_REAL_IS_BYTE
#define THInf UCHAR_MAX
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_BYTE
#undef THInf
#include "THC/THCGenerateEnd.h"
