/* Legacy <TH/THAtomic.h> (PyTorch 0.3): atomic operations on 32-bit,
 * 64-bit and ptrdiff_t integers, sequentially consistent (gcc's __atomic
 * builtins). */
#ifndef THFFI_TH_ATOMIC_H
#define THFFI_TH_ATOMIC_H

#include "THGeneral.h"

/* *a = newvalue; return *a */
TH_API void THAtomicSet(int32_t volatile *a, int32_t newvalue);
TH_API int32_t THAtomicGet(int32_t volatile *a);
/* *a += value, returning the previous *a */
TH_API int32_t THAtomicAdd(int32_t volatile *a, int32_t value);
/* if *a == oldvalue: *a = newvalue and 1; else 0 */
TH_API int32_t THAtomicCompareAndSwap(int32_t volatile *a, int32_t oldvalue, int32_t newvalue);
/* ++*a; --*a, returning 1 when it reached 0 */
TH_API void THAtomicIncrementRef(int32_t volatile *a);
TH_API int32_t THAtomicDecrementRef(int32_t volatile *a);

TH_API void THAtomicSetLong(int64_t volatile *a, int64_t newvalue);
TH_API int64_t THAtomicGetLong(int64_t volatile *a);
TH_API int64_t THAtomicAddLong(int64_t volatile *a, int64_t value);
TH_API int64_t THAtomicCompareAndSwapLong(int64_t volatile *a, int64_t oldvalue,
                                          int64_t newvalue);

TH_API void THAtomicSetPtrdiff(ptrdiff_t volatile *a, ptrdiff_t newvalue);
TH_API ptrdiff_t THAtomicGetPtrdiff(ptrdiff_t volatile *a);
TH_API ptrdiff_t THAtomicAddPtrdiff(ptrdiff_t volatile *a, ptrdiff_t value);
TH_API ptrdiff_t THAtomicCompareAndSwapPtrdiff(ptrdiff_t volatile *a, ptrdiff_t oldvalue,
                                               ptrdiff_t newvalue);

#endif
