// Legacy <THC/THCAtomics.cuh> (PyTorch 0.4.1): atomicAdd for the element
// types CUDA has none for (uint8_t, int8_t, int16_t, int64_t, and half on
// devices before sm_70), as compare-and-swap loops.  CUDA's own overloads
// (int, unsigned, float, unsigned long long, double since sm_60, __half
// since sm_70) are never redefined, so code that adds its own
// `#if CUDA_VERSION < 8000` atomicAdd(double *, double) still compiles:
// CUDA_VERSION comes with THC.h.
#ifndef THFFI_THC_ATOMICS_CUH
#define THFFI_THC_ATOMICS_CUH

#include "THC/THCHalf.h"

// The byte (n == 1) or short (n == 2) at `address`, updated by a CAS loop on
// the aligned 32-bit word holding it; 4 and 8 bytes through CUDA's unsigned
// atomicAdd (two's complement: the same bits as a signed add).
template <typename T, size_t n>
struct AtomicAddIntegerImpl;

template <typename T>
struct AtomicAddIntegerImpl<T, 1> {
  __device__ void operator()(T *address, T val) {
    size_t offset = (size_t)address & 3;
    uint32_t *base = (uint32_t *)((char *)address - offset);
    uint32_t shift = offset * 8, old = *base, assumed;
    do {
      assumed = old;
      uint8_t cur = (uint8_t)((old >> shift) & 0xff);
      uint8_t sum = (uint8_t)(cur + (uint8_t)val);
      old = atomicCAS(base, assumed, (old & ~(0xffu << shift)) | ((uint32_t)sum << shift));
    } while (assumed != old);
  }
};

template <typename T>
struct AtomicAddIntegerImpl<T, 2> {
  __device__ void operator()(T *address, T val) {
    size_t offset = (size_t)address & 2;
    uint32_t *base = (uint32_t *)((char *)address - offset);
    uint32_t shift = offset * 8, old = *base, assumed;
    do {
      assumed = old;
      uint16_t cur = (uint16_t)((old >> shift) & 0xffff);
      uint16_t sum = (uint16_t)(cur + (uint16_t)val);
      old = atomicCAS(base, assumed, (old & ~(0xffffu << shift)) | ((uint32_t)sum << shift));
    } while (assumed != old);
  }
};

template <typename T>
struct AtomicAddIntegerImpl<T, 4> {
  __device__ void operator()(T *address, T val) {
    atomicAdd((unsigned int *)address, (unsigned int)val);
  }
};

template <typename T>
struct AtomicAddIntegerImpl<T, 8> {
  __device__ void operator()(T *address, T val) {
    atomicAdd((unsigned long long *)address, (unsigned long long)val);
  }
};

static inline __device__ void atomicAdd(uint8_t *address, uint8_t val) {
  AtomicAddIntegerImpl<uint8_t, sizeof(uint8_t)>()(address, val);
}

static inline __device__ void atomicAdd(int8_t *address, int8_t val) {
  AtomicAddIntegerImpl<int8_t, sizeof(int8_t)>()(address, val);
}

static inline __device__ void atomicAdd(int16_t *address, int16_t val) {
  AtomicAddIntegerImpl<int16_t, sizeof(int16_t)>()(address, val);
}

static inline __device__ void atomicAdd(int64_t *address, int64_t val) {
  AtomicAddIntegerImpl<int64_t, sizeof(int64_t)>()(address, val);
}

// bool as legacy THC had it: a logical or
static inline __device__ void atomicAdd(bool *address, bool val) {
  *address = *address || val;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
static inline __device__ void atomicAdd(half *address, half val) {
  size_t offset = (size_t)address & 2;
  uint32_t *base = (uint32_t *)((char *)address - offset);
  uint32_t shift = offset * 8, old = *base, assumed;
  do {
    assumed = old;
    __half_raw cur;
    cur.x = (unsigned short)((old >> shift) & 0xffff);
    __half sum = __float2half(__half2float(cur) + __half2float(val));
    __half_raw bits = sum;
    old = atomicCAS(base, assumed, (old & ~(0xffffu << shift)) | ((uint32_t)bits.x << shift));
  } while (assumed != old);
}
#endif

// CUDA has had atomicAdd(double *, double) since 8.0 on sm_60 and later.
#if CUDA_VERSION < 8000 || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600)
static inline __device__ void atomicAdd(double *address, double val) {
  unsigned long long *p = (unsigned long long *)address, old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
}
#endif

#endif
