/* Legacy generic-code machinery: includes THC_GENERIC_FILE (or TH_GENERIC_FILE) once per CUDA floating type (THCudaTensor is float, THCudaDoubleTensor),
 * with `real` (the element type), `accreal` (its accumulation type), `Real`
 * (its name in function names), `CReal` (the type as THC spells it: Cuda, CudaDouble), THC_REAL_IS_* and THInf defined. */
/* Legacy THC code names its generic file THC_GENERIC_FILE; thffi's own and
 * the TH idiom use TH_GENERIC_FILE: either works, THC_GENERIC_FILE first. */
#undef THCFFI_GENERIC_IS_THC
#if defined(THC_GENERIC_FILE)
#define THCFFI_GENERIC_FILE THC_GENERIC_FILE
#define THCFFI_GENERIC_IS_THC
#elif defined(TH_GENERIC_FILE)
#define THCFFI_GENERIC_FILE TH_GENERIC_FILE
#else
#error "You must define THC_GENERIC_FILE (or TH_GENERIC_FILE) before including THCGenerateFloatTypes.h"
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
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
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
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_DOUBLE
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
