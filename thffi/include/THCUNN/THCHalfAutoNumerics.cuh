// Legacy <THCUNN/THCHalfAutoNumerics.cuh> (PyTorch 0.4.1's wheel): arithmetic,
// comparisons and math functions on `half` as free functions, so that CUDA
// code generic over its element type (real = half, float or double) can
// write a + b, a < 0, exp(a).  half with half (or an int) gives a half,
// computed in float and rounded (THCNumerics<half>); with a float or a double,
// that type.  Exact overloads for thffi's `half` (THC/THCHalf.h), so they
// are the ones chosen over cuda_fp16.h's operators on __half.
#ifndef THFFI_THCUNN_HALF_AUTO_NUMERICS_CUH
#define THFFI_THCUNN_HALF_AUTO_NUMERICS_CUH

#include "THC/THCHalf.h"
#include "THC/THCNumerics.cuh"

#define THFFI_HD inline __host__ __device__

// The larger of two values (of the wider type).
THFFI_HD half fmaxType(half x, half y) { return THCNumerics<half>::ge(x, y) ? x : y; }
THFFI_HD float fmaxType(float x, half y) { return fmaxf(x, ScalarConvert<half, float>::to(y)); }
THFFI_HD float fmaxType(float x, float y) { return fmaxf(x, y); }
THFFI_HD double fmaxType(double x, double y) { return fmax(x, y); }

// half with half or an int: a half.
THFFI_HD half operator+(half a, half b) { return THCNumerics<half>::add(a, b); }
THFFI_HD half operator+(half a, int b) { return a + ScalarConvert<int, half>::to(b); }
THFFI_HD half operator-(half a) { return THCNumerics<half>::neg(a); }
THFFI_HD half operator-(half a, half b) { return THCNumerics<half>::sub(a, b); }
THFFI_HD half operator-(half a, int b) { return a - ScalarConvert<int, half>::to(b); }
THFFI_HD half operator-(int a, half b) { return ScalarConvert<int, half>::to(a) - b; }
THFFI_HD half operator*(half a, half b) { return THCNumerics<half>::mul(a, b); }
THFFI_HD half operator*(half a, int b) { return a * ScalarConvert<int, half>::to(b); }
THFFI_HD half operator*(half a, bool b) { return a * ScalarConvert<bool, half>::to(b); }
THFFI_HD half operator/(half a, half b) { return THCNumerics<half>::div(a, b); }
THFFI_HD half operator/(half a, int b) { return a / ScalarConvert<int, half>::to(b); }
THFFI_HD half operator/(int a, half b) { return ScalarConvert<int, half>::to(a) / b; }

// half with a float or a double: that type.
#define THFFI_HALF_MIXED(T)                                                              \
  THFFI_HD T operator+(half a, T b) { return ScalarConvert<half, T>::to(a) + b; }        \
  THFFI_HD T operator+(T a, half b) { return a + ScalarConvert<half, T>::to(b); }        \
  THFFI_HD T operator-(half a, T b) { return ScalarConvert<half, T>::to(a) - b; }        \
  THFFI_HD T operator-(T a, half b) { return a - ScalarConvert<half, T>::to(b); }        \
  THFFI_HD T operator*(half a, T b) { return ScalarConvert<half, T>::to(a) * b; }        \
  THFFI_HD T operator*(T a, half b) { return a * ScalarConvert<half, T>::to(b); }        \
  THFFI_HD T operator/(half a, T b) { return ScalarConvert<half, T>::to(a) / b; }        \
  THFFI_HD T operator/(T a, half b) { return a / ScalarConvert<half, T>::to(b); }
THFFI_HALF_MIXED(float)
THFFI_HALF_MIXED(double)
#undef THFFI_HALF_MIXED

// Compound assignment.
THFFI_HD half &operator+=(half &lhs, const half &rhs) { return lhs = lhs + rhs; }
THFFI_HD float &operator+=(float &lhs, const half &rhs) { return lhs = lhs + rhs; }
THFFI_HD float &operator-=(float &lhs, const half &rhs) { return lhs = lhs - rhs; }
THFFI_HD half &operator*=(half &lhs, const half &rhs) { return lhs = lhs * rhs; }
THFFI_HD half &operator/=(half &lhs, const int &rhs) { return lhs = lhs / rhs; }
THFFI_HD half &operator/=(half &lhs, const half &rhs) { return lhs = lhs / rhs; }

// Comparisons with a half or an int.
THFFI_HD bool operator<(half a, half b) { return THCNumerics<half>::lt(a, b); }
THFFI_HD bool operator<=(half a, half b) { return THCNumerics<half>::le(a, b); }
THFFI_HD bool operator>(half a, half b) { return THCNumerics<half>::gt(a, b); }
THFFI_HD bool operator>=(half a, half b) { return THCNumerics<half>::ge(a, b); }
THFFI_HD bool operator<(half a, int b) { return a < ScalarConvert<int, half>::to(b); }
THFFI_HD bool operator<=(half a, int b) { return a <= ScalarConvert<int, half>::to(b); }
THFFI_HD bool operator>(half a, int b) { return a > ScalarConvert<int, half>::to(b); }
THFFI_HD bool operator>=(half a, int b) { return a >= ScalarConvert<int, half>::to(b); }

// Math functions of a half, through THCNumerics<half> (in float, rounded).
THFFI_HD half abs(half a) { return THCNumerics<half>::abs(a); }
THFFI_HD half exp(half a) { return THCNumerics<half>::exp(a); }
THFFI_HD half log10(half a) { return THCNumerics<half>::log10(a); }
THFFI_HD half log1p(half a) { return THCNumerics<half>::log1p(a); }
THFFI_HD half log2(half a) { return THCNumerics<half>::log2(a); }
THFFI_HD half expm1(half a) { return THCNumerics<half>::expm1(a); }
THFFI_HD half pow(half a, half b) { return THCNumerics<half>::pow(a, b); }
THFFI_HD half sqrt(half a) { return THCNumerics<half>::sqrt(a); }
THFFI_HD half tanh(half a) { return THCNumerics<half>::tanh(a); }

#undef THFFI_HD

#endif
