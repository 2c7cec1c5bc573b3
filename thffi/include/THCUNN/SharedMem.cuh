// Legacy <THCUNN/SharedMem.cuh> (PyTorch 0.4.1's wheel): a kernel's dynamic
// shared memory (the launch's third argument) as an array of T, in code
// generic over T: SharedMem<T>().getPointer().  Float, double and half;
// another T has no definition, so using it fails to compile.
#ifndef THFFI_THCUNN_SHARED_MEM_CUH
#define THFFI_THCUNN_SHARED_MEM_CUH

#include "THC/THCHalf.h"

template <typename T>
struct SharedMem;

// One extern __shared__ array a type: CUDA gives each kernel's dynamic
// shared memory to every such declaration, and they must not share a name
// across types.
template <>
struct SharedMem<float> {
  __device__ float *getPointer() {
    extern __shared__ float s_float[];
    return s_float;
  }
};

template <>
struct SharedMem<double> {
  __device__ double *getPointer() {
    extern __shared__ double s_double[];
    return s_double;
  }
};

template <>
struct SharedMem<half> {
  __device__ half *getPointer() {
    extern __shared__ half s_half[];
    return s_half;
  }
};

#endif
