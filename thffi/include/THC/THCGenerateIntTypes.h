/* Legacy generic-code machinery: includes THC_GENERIC_FILE (or TH_GENERIC_FILE) once per CUDA integer type (CudaByte, CudaChar, CudaShort, CudaInt, CudaLong),
 * with `real` (the element type), `accreal` (its accumulation type), `Real`
 * (its name in function names), `CReal` (the type as THC spells it), THC_REAL_IS_* and THInf defined. */
/* Legacy THC code names its generic file THC_GENERIC_FILE; thffi's own and
 * the TH idiom use TH_GENERIC_FILE: either works, THC_GENERIC_FILE first. */
#undef THCFFI_GENERIC_IS_THC
#if defined(THC_GENERIC_FILE)
#define THCFFI_GENERIC_FILE THC_GENERIC_FILE
#define THCFFI_GENERIC_IS_THC
#elif defined(TH_GENERIC_FILE)
#define THCFFI_GENERIC_FILE TH_GENERIC_FILE
#else
#error "You must define THC_GENERIC_FILE (or TH_GENERIC_FILE) before including THCGenerateIntTypes.h"
#endif
#include <float.h>
#include <limits.h>
#include <stdint.h>

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
#ifndef THGenerateManyTypes
#ifdef THCFFI_GENERIC_IS_THC
#undef THC_GENERIC_FILE
#undef THCFFI_GENERIC_IS_THC
#else
#undef TH_GENERIC_FILE
#endif
#endif
#undef THCFFI_GENERIC_FILE
