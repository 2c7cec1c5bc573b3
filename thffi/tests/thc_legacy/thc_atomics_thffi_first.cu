// The other order: thffi's <THC/THCAtomics.cuh> first, then the
// extension's own copy (skipped by the include guard they share).
#include <THC/THC.h>
#include <THC/THCDeviceUtils.cuh>
#include <THC/THCAtomics.cuh>
#include "THCAtomics.cuh"

extern THCState *state;

#define SUFFIX thffi
#include "generic/thc_atomics.cu"
#include <THC/THCGenerateHalfType.h>
#include "generic/thc_atomics.cu"
#include <THC/THCGenerateFloatType.h>
#include "generic/thc_atomics.cu"
#include <THC/THCGenerateDoubleType.h>
#undef SUFFIX
