/* Legacy THC generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once, for THCudaHalfTensor, with `real` (half, from
 * THCHalf.h), `accreal` (float), `Real` (Half), `CReal` (CudaHalf) and
 * THC_REAL_IS_HALF defined, as legacy THCGenerateHalfType.h did.  In C,
 * half is a struct (CUDA's __half_raw): generic code does arithmetic on it
 * only in CUDA C++ (or through THC_half2float), as legacy code did. */
#include "THC/THCHalf.h"
#include "THC/THCGenerateBegin.h"
#define real half
#define accreal float
#define Real Half
#define CReal CudaHalf
#define THC_REAL_IS_HALF
#line 1 THCFFI_GENERIC_FILE
#include THCFFI_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_HALF
#include "THC/THCGenerateEnd.h"
