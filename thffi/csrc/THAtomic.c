/* TH/THAtomic.h, once per integer type, on gcc's __atomic builtins. */
#include "TH/TH.h"
#include "TH/THAtomic.h"

#define THFFI_ATOMIC(SUFFIX, T)                                                         \
  void THAtomicSet##SUFFIX(T volatile *a, T newvalue) {                                 \
    __atomic_store_n(a, newvalue, __ATOMIC_SEQ_CST);                                    \
  }                                                                                     \
  T THAtomicGet##SUFFIX(T volatile *a) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
  T THAtomicAdd##SUFFIX(T volatile *a, T value) {                                       \
    return __atomic_fetch_add(a, value, __ATOMIC_SEQ_CST);                              \
  }                                                                                     \
  T THAtomicCompareAndSwap##SUFFIX(T volatile *a, T oldvalue, T newvalue) {             \
    return __atomic_compare_exchange_n(a, &oldvalue, newvalue, 0, __ATOMIC_SEQ_CST,     \
                                       __ATOMIC_SEQ_CST);                               \
  }

THFFI_ATOMIC(, int32_t)
THFFI_ATOMIC(Long, int64_t)
THFFI_ATOMIC(Ptrdiff, ptrdiff_t)

void THAtomicIncrementRef(int32_t volatile *a) { THAtomicAdd(a, 1); }

int32_t THAtomicDecrementRef(int32_t volatile *a) { return THAtomicAdd(a, -1) == 1; }
