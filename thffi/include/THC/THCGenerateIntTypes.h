/* Legacy generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once per CUDA integer type (CudaByte, CudaChar,
 * CudaShort, CudaInt, CudaLong) through the single-type generators. */
#if !defined(THC_GENERIC_FILE) && !defined(TH_GENERIC_FILE)
#error "You must define THC_GENERIC_FILE before including THCGenerateIntTypes.h"
#endif
#ifndef THCGenerateIntTypes
#define THCGenerateIntTypes
#define THCFFI_INT_TYPES_OUTERMOST
#endif
#include "THC/THCGenerateByteType.h"
#include "THC/THCGenerateCharType.h"
#include "THC/THCGenerateShortType.h"
#include "THC/THCGenerateIntType.h"
#include "THC/THCGenerateLongType.h"
#ifdef THCFFI_INT_TYPES_OUTERMOST
#undef THCFFI_INT_TYPES_OUTERMOST
#undef THCGenerateIntTypes
#include "THC/THCGenerateEnd.h"
#endif
