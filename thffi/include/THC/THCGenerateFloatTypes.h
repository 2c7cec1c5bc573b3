/* Legacy generic-code machinery: includes THC_GENERIC_FILE (or
 * TH_GENERIC_FILE) once per CUDA floating type, Float (THCudaTensor) and
 * Double, through THCGenerateFloatType.h and THCGenerateDoubleType.h.
 * Legacy THC also generated Half here; thffi leaves it to
 * THCGenerateHalfType.h (docs/porting/th_structures.md). */
#if !defined(THC_GENERIC_FILE) && !defined(TH_GENERIC_FILE)
#error "You must define THC_GENERIC_FILE before including THCGenerateFloatTypes.h"
#endif
#ifndef THCGenerateFloatTypes
#define THCGenerateFloatTypes
#define THCFFI_FLOAT_TYPES_OUTERMOST
#endif
#include "THC/THCGenerateFloatType.h"
#include "THC/THCGenerateDoubleType.h"
#ifdef THCFFI_FLOAT_TYPES_OUTERMOST
#undef THCFFI_FLOAT_TYPES_OUTERMOST
#undef THCGenerateFloatTypes
#include "THC/THCGenerateEnd.h"
#endif
