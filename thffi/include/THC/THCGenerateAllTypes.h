/* Legacy THC generic-code machinery: includes TH_GENERIC_FILE once per CUDA
 * tensor type with `real`, `accreal`, `Real`, `CReal` and `THC_REAL_IS_*`
 * defined.  CReal names the type as THC spells it: THCudaTensor is float. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif

#define real float
#define accreal float
#define Real Float
#define CReal Cuda
#define THC_REAL_IS_FLOAT
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_FLOAT

#define real double
#define accreal double
#define Real Double
#define CReal CudaDouble
#define THC_REAL_IS_DOUBLE
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_DOUBLE

#define real int
#define accreal int64_t
#define Real Int
#define CReal CudaInt
#define THC_REAL_IS_INT
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_INT

#define real int64_t
#define accreal int64_t
#define Real Long
#define CReal CudaLong
#define THC_REAL_IS_LONG
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_LONG

#undef TH_GENERIC_FILE
