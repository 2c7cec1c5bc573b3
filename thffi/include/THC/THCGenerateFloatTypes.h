/* Legacy generic-code machinery: includes TH_GENERIC_FILE once per CUDA floating type (THCudaTensor is float, THCudaDoubleTensor),
 * with `real` (the element type), `accreal` (its accumulation type), `Real`
 * (its name in function names), `CReal` (the type as THC spells it: Cuda, CudaDouble), THC_REAL_IS_* and THInf defined. */
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THCGenerateFloatTypes.h"
#endif
#include <float.h>
#include <limits.h>
#include <stdint.h>

#define real float
#define accreal float
#define Real Float
#define CReal Cuda
#define THC_REAL_IS_FLOAT
#define THInf FLT_MAX
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_FLOAT
#undef THInf
#define real double
#define accreal double
#define Real Double
#define CReal CudaDouble
#define THC_REAL_IS_DOUBLE
#define THInf DBL_MAX
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_DOUBLE
#undef THInf
#ifndef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
