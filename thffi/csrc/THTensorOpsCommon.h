/* What the element-wise op files share (THTensorOps.c, THTensorOpsInt.c,
 * THTensorCopy.c). */
#ifndef THFFI_TENSOR_OPS_COMMON_H
#define THFFI_TENSOR_OPS_COMMON_H

#include "TH/TH.h"
#include "thffi_private.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* The loops over data are compiled for AVX-512, AVX2 and plain x86-64, and
 * the best the CPU runs is picked when the library loads (the library must
 * run on any x86-64 machine it is copied to, so no -march=native). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define THFFI_SIMD __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define THFFI_SIMD
#endif

/* A function the compiler must not copy into each caller: THFFI_PARALLEL
 * calls its range twice (serial and parallel branches), and 49 inlined
 * conversions doubled THTensorCopy.c's compile time. */
#if defined(__GNUC__)
#define THFFI_NOINLINE __attribute__((noinline))
#else
#define THFFI_NOINLINE
#endif

/* Below this many elements an op runs on the calling thread: starting the
 * threads would cost more than they save. */
#define THFFI_GRAIN 65536

/* Runs RANGE (an expression using BEGIN and END) over [0, n), if n > 0: on the
 * calling thread for small n, else in even parts on PyTorch's OpenMP
 * threads.  thffi links the OpenMP runtime by its soname (libgomp.so.1), so
 * in a process where torch loaded its own, that one serves both: one pool,
 * torch.set_num_threads() applies, and no threads fight over the cores. */
#ifdef _OPENMP
#define THFFI_PARALLEL(n, BEGIN, END, RANGE)                                  \
  do {                                                                         \
    int64_t n_ = (n);                                                          \
    if (n_ <= 0) break;                                                        \
    if (n_ < THFFI_GRAIN || omp_in_parallel() || omp_get_max_threads() == 1) { \
      int64_t BEGIN = 0, END = n_;                                             \
      RANGE;                                                                   \
    } else {                                                                   \
      _Pragma("omp parallel")                                                  \
      {                                                                        \
        int64_t t_ = omp_get_thread_num(), T_ = omp_get_num_threads();         \
        int64_t BEGIN = n_ / T_ * t_ + THMin(t_, n_ % T_);                     \
        int64_t END = BEGIN + n_ / T_ + (t_ < n_ % T_);                        \
        RANGE;                                                                 \
      }                                                                        \
    }                                                                          \
  } while (0)
#else
#define THFFI_PARALLEL(n, BEGIN, END, RANGE) \
  do {                                       \
    int64_t BEGIN = 0, END = (n);            \
    if (END > 0) RANGE;                      \
  } while (0)
#endif

#endif
