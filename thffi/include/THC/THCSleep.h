/* Legacy <THC/THCSleep.h>. */
#ifndef THFFI_THC_SLEEP_H
#define THFFI_THC_SLEEP_H

#include "THCGeneral.h"

/* Enqueues on the call's current stream a kernel that spins for `cycles`
 * clock cycles. */
THC_API void THC_sleep(THCState *state, int64_t cycles);

#endif
