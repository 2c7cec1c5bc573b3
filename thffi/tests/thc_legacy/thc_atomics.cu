// A 2018 extension's kernels on its own copy of THCAtomics.cuh (included
// first), then on thffi's <THC/THCAtomics.cuh> as well: the include guard
// they share keeps the first.
#include <type_traits>
#include <THC/THC.h>
#include <THC/THCDeviceUtils.cuh>
#include "THCAtomics.cuh"
#include <THC/THCAtomics.cuh>

extern THCState *state;

#define SUFFIX own
#include "generic/thc_atomics.cu"
#include <THC/THCGenerateAllTypes.h>
#include "generic/thc_atomics.cu"
#include <THC/THCGenerateHalfType.h>
#undef SUFFIX

// For half arguments the call is the extension's own atomicAdd (void), not
// CUDA's (__half).
static_assert(std::is_same<decltype(atomicAdd((half *)0, half())), void>::value,
              "atomicAdd(half *, half) is not the extension's own");
