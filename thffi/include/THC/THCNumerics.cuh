// Legacy <THC/THCNumerics.cuh> (PyTorch 0.4.1): THCNumerics<T>, the
// comparisons, arithmetic and math functions of each THC element type as
// static device functions (half computing in float), and ScalarConvert /
// ScalarNegate / ScalarInv between them.
#ifndef THFFI_THC_NUMERICS_CUH
#define THFFI_THC_NUMERICS_CUH

#include <cuda.h>
#include <limits.h>
#include <stdint.h>
#include "THC/THCHalf.h"

template <typename T>
struct THCNumerics {};

// What every type has: limits, comparisons, arithmetic.
template <typename T>
struct THCFFINumericsBase {
  static inline __host__ __device__ bool lt(T a, T b) { return a < b; }
  static inline __host__ __device__ bool le(T a, T b) { return a <= b; }
  static inline __host__ __device__ bool gt(T a, T b) { return a > b; }
  static inline __host__ __device__ bool ge(T a, T b) { return a >= b; }
  static inline __host__ __device__ bool eq(T a, T b) { return a == b; }
  static inline __host__ __device__ bool ne(T a, T b) { return a != b; }
  static inline __host__ __device__ T add(T a, T b) { return a + b; }
  static inline __host__ __device__ T sub(T a, T b) { return a - b; }
  static inline __host__ __device__ T mul(T a, T b) { return a * b; }
  static inline __host__ __device__ T div(T a, T b) { return a / b; }
  static inline __host__ __device__ T neg(T a) { return -a; }
  static inline __host__ __device__ T abs(T a) { return a < 0 ? -a : a; }
  static inline __host__ __device__ bool isnan(T) { return false; }
  static inline __host__ __device__ bool isinf(T) { return false; }
};

// a to the integer power b, by squaring (PyTorch 0.4.1's); a negative b
// gives 1 / a^-b truncated, as integer division would.
template <typename scalar_t>
static inline __host__ __device__ scalar_t powi(scalar_t a, scalar_t b) {
  scalar_t r = 1;
  if (b < 0) return a == 1 ? 1 : (a == -1 ? (b % 2 ? -1 : 1) : 0);
  while (b) {
    if (b & 1) r *= a;
    b /= 2;
    a *= a;
  }
  return r;
}

template <typename T>
struct THCFFIIntegerNumerics : THCFFINumericsBase<T> {
  static inline __host__ __device__ T mod(T a, T b) { return a % b; }
  static inline __host__ __device__ T pow(T a, T b) { return powi<T>(a, b); }
};

template <>
struct THCNumerics<uint8_t> : THCFFIIntegerNumerics<uint8_t> {
  static inline __host__ __device__ uint8_t min() { return 0; }
  static inline __host__ __device__ uint8_t max() { return UCHAR_MAX; }
  static inline __host__ __device__ uint8_t neg(uint8_t a) { return (uint8_t)-a; }
  static inline __host__ __device__ uint8_t abs(uint8_t a) { return a; }
};
template <>
struct THCNumerics<int8_t> : THCFFIIntegerNumerics<int8_t> {
  static inline __host__ __device__ int8_t min() { return SCHAR_MIN; }
  static inline __host__ __device__ int8_t max() { return SCHAR_MAX; }
};
template <>
struct THCNumerics<int16_t> : THCFFIIntegerNumerics<int16_t> {
  static inline __host__ __device__ int16_t min() { return SHRT_MIN; }
  static inline __host__ __device__ int16_t max() { return SHRT_MAX; }
};
template <>
struct THCNumerics<int32_t> : THCFFIIntegerNumerics<int32_t> {
  static inline __host__ __device__ int32_t min() { return INT_MIN; }
  static inline __host__ __device__ int32_t max() { return INT_MAX; }
};
template <>
struct THCNumerics<int64_t> : THCFFIIntegerNumerics<int64_t> {
  static inline __host__ __device__ int64_t min() { return INT64_MIN; }
  static inline __host__ __device__ int64_t max() { return INT64_MAX; }
};

// float and double: CUDA's math functions of that precision (F: their
// suffix).
#define THCFFI_FLOATING_NUMERICS(T, F, MIN, MAX)                                        \
    static inline __host__ __device__ T min() { return MIN; }                          \
    static inline __host__ __device__ T max() { return MAX; }                          \
    static inline __host__ __device__ bool isnan(T a) { return ::isnan(a); }           \
    static inline __host__ __device__ bool isinf(T a) { return ::isinf(a); }           \
    static inline __host__ __device__ T exp(T a) { return ::exp##F(a); }               \
    static inline __host__ __device__ T exp10(T a) { return ::exp10##F(a); }           \
    static inline __host__ __device__ T log(T a) { return ::log##F(a); }               \
    static inline __host__ __device__ T log10(T a) { return ::log10##F(a); }           \
    static inline __host__ __device__ T log1p(T a) { return ::log1p##F(a); }           \
    static inline __host__ __device__ T log2(T a) { return ::log2##F(a); }             \
    static inline __host__ __device__ T lgamma(T a) { return ::lgamma##F(a); }         \
    static inline __host__ __device__ T expm1(T a) { return ::expm1##F(a); }           \
    static inline __host__ __device__ T cos(T a) { return ::cos##F(a); }               \
    static inline __host__ __device__ T sin(T a) { return ::sin##F(a); }               \
    static inline __host__ __device__ T sqrt(T a) { return ::sqrt##F(a); }             \
    static inline __host__ __device__ T rsqrt(T a) { return 1 / ::sqrt##F(a); }        \
    static inline __host__ __device__ T ceil(T a) { return ::ceil##F(a); }             \
    static inline __host__ __device__ T floor(T a) { return ::floor##F(a); }           \
    static inline __host__ __device__ T trunc(T a) { return ::trunc##F(a); }           \
    static inline __host__ __device__ T acos(T a) { return ::acos##F(a); }             \
    static inline __host__ __device__ T cosh(T a) { return ::cosh##F(a); }             \
    static inline __host__ __device__ T acosh(T a) { return ::acosh##F(a); }           \
    static inline __host__ __device__ T asin(T a) { return ::asin##F(a); }             \
    static inline __host__ __device__ T sinh(T a) { return ::sinh##F(a); }             \
    static inline __host__ __device__ T asinh(T a) { return ::asinh##F(a); }           \
    static inline __host__ __device__ T tan(T a) { return ::tan##F(a); }               \
    static inline __host__ __device__ T atan(T a) { return ::atan##F(a); }             \
    static inline __host__ __device__ T tanh(T a) { return ::tanh##F(a); }             \
    static inline __host__ __device__ T erf(T a) { return ::erf##F(a); }               \
    static inline __host__ __device__ T erfc(T a) { return ::erfc##F(a); }             \
    static inline __host__ __device__ T erfinv(T a) { return ::erfinv##F(a); }         \
    static inline __host__ __device__ T abs(T a) { return ::fabs##F(a); }              \
    static inline __host__ __device__ T round(T a) { return ::round##F(a); }           \
    static inline __host__ __device__ T frac(T a) { return a - ::trunc##F(a); }        \
    static inline __host__ __device__ T cinv(T a) { return 1 / a; }                    \
    static inline __host__ __device__ T mod(T a, T b) { return ::fmod##F(a, b); }      \
    static inline __host__ __device__ T pow(T a, T b) { return ::pow##F(a, b); }       \
    static inline __host__ __device__ T atan2(T a, T b) { return ::atan2##F(a, b); }
template <>
struct THCNumerics<float> : THCFFINumericsBase<float> {
  THCFFI_FLOATING_NUMERICS(float, f, -FLT_MAX, FLT_MAX)
};
template <>
struct THCNumerics<double> : THCFFINumericsBase<double> {
  THCFFI_FLOATING_NUMERICS(double, , -DBL_MAX, DBL_MAX)
};
#undef THCFFI_FLOATING_NUMERICS

// half: every function computes in float and rounds back.
template <>
struct THCNumerics<half> {
  typedef THCNumerics<float> F;
  static inline __host__ __device__ float f(half a) { return __half2float(a); }
  static inline __host__ __device__ half h(float a) { return __float2half(a); }
  static inline __host__ __device__ half min() { __half_raw r; r.x = 0xfbff; return r; }
  static inline __host__ __device__ half max() { __half_raw r; r.x = 0x7bff; return r; }
  static inline __host__ __device__ bool lt(half a, half b) { return f(a) < f(b); }
  static inline __host__ __device__ bool le(half a, half b) { return f(a) <= f(b); }
  static inline __host__ __device__ bool gt(half a, half b) { return f(a) > f(b); }
  static inline __host__ __device__ bool ge(half a, half b) { return f(a) >= f(b); }
  static inline __host__ __device__ bool eq(half a, half b) { return f(a) == f(b); }
  static inline __host__ __device__ bool ne(half a, half b) { return f(a) != f(b); }
  static inline __host__ __device__ bool isnan(half a) { return F::isnan(f(a)); }
  static inline __host__ __device__ bool isinf(half a) { return F::isinf(f(a)); }
#define THCFFI_HALF_1(NAME) \
  static inline __host__ __device__ half NAME(half a) { return h(F::NAME(f(a))); }
#define THCFFI_HALF_2(NAME) \
  static inline __host__ __device__ half NAME(half a, half b) { return h(F::NAME(f(a), f(b))); }
  THCFFI_HALF_1(exp) THCFFI_HALF_1(exp10) THCFFI_HALF_1(log) THCFFI_HALF_1(log10)
  THCFFI_HALF_1(log1p) THCFFI_HALF_1(log2) THCFFI_HALF_1(lgamma) THCFFI_HALF_1(expm1)
  THCFFI_HALF_1(cos) THCFFI_HALF_1(sin) THCFFI_HALF_1(sqrt) THCFFI_HALF_1(rsqrt)
  THCFFI_HALF_1(ceil) THCFFI_HALF_1(floor) THCFFI_HALF_1(trunc) THCFFI_HALF_1(neg)
  THCFFI_HALF_1(acos) THCFFI_HALF_1(cosh) THCFFI_HALF_1(acosh) THCFFI_HALF_1(asin)
  THCFFI_HALF_1(sinh) THCFFI_HALF_1(asinh) THCFFI_HALF_1(tan) THCFFI_HALF_1(atan)
  THCFFI_HALF_1(tanh) THCFFI_HALF_1(erf) THCFFI_HALF_1(erfc) THCFFI_HALF_1(erfinv)
  THCFFI_HALF_1(abs) THCFFI_HALF_1(round) THCFFI_HALF_1(frac) THCFFI_HALF_1(cinv)
  THCFFI_HALF_2(add) THCFFI_HALF_2(sub) THCFFI_HALF_2(mul) THCFFI_HALF_2(div)
  THCFFI_HALF_2(mod) THCFFI_HALF_2(pow) THCFFI_HALF_2(atan2)
#undef THCFFI_HALF_1
#undef THCFFI_HALF_2
};

// Conversion between element types; through float for half.
template <typename In, typename Out>
struct ScalarConvert {
  static __host__ __device__ Out to(const In v) { return (Out)v; }
};
template <typename Out>
struct ScalarConvert<half, Out> {
  static __host__ __device__ Out to(const half v) { return (Out)__half2float(v); }
};
template <typename In>
struct ScalarConvert<In, half> {
  static __host__ __device__ half to(const In v) { return __float2half((float)v); }
};
template <>
struct ScalarConvert<half, half> {
  static __host__ __device__ half to(const half v) { return v; }
};

template <typename T, typename U>
__host__ __device__ T scalar_cast(U u) {
  return ScalarConvert<U, T>::to(u);
}

template <typename T>
struct ScalarNegate {
  static __host__ __device__ T to(const T v) { return -v; }
};
template <>
struct ScalarNegate<half> {
  static __host__ __device__ half to(const half v) { return __float2half(-__half2float(v)); }
};

template <typename T>
struct ScalarInv {
  static __host__ __device__ T to(const T v) { return ((T)1) / v; }
};
template <>
struct ScalarInv<half> {
  static __host__ __device__ half to(const half v) {
    return __float2half(1.0f / __half2float(v));
  }
};

#endif
