/* Legacy generic-code machinery: includes TH_GENERIC_FILE once per CUDA integer type (CudaByte, CudaChar, CudaShort, CudaInt, CudaLong),
 * with `real` (the element type), `accreal` (its accumulation type), `Real`
 * (its name in function names), `CReal` (the type as THC spells it), THC_REAL_IS_* and THInf defined. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THCGenerateIntTypes.h"
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
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
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
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
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
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
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
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
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
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_LONG
#undef THInf
#ifndef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
