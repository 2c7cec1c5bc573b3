/* Legacy <TH/THLapack.h>: TH's raw LAPACK wrappers, THFloatLapack_gesv(...)
 * and the like, LAPACK's own routines with its arguments by value
 * (column-major; info set as LAPACK sets it), run on SciPy's LAPACK
 * (csrc/THLapack.c).  Declared for every type, as TH's header did; only
 * float and double are defined, as in TH, whose library had no integer
 * LAPACK (a call of THIntLapack_gesv never linked). */
#ifndef THFFI_TH_LAPACK_H
#define THFFI_TH_LAPACK_H

#include "THGeneral.h"

#define THLapack_(NAME) TH_CONCAT_4(TH, Real, Lapack_, NAME)

/* THError with `fmt` (given func and info) when LAPACK's info says it
 * failed; an illegal argument (info < 0) has its own message. */
#define THLapackCheck(fmt, func, info, ...)                              \
  if (info < 0) {                                                        \
    THError("Lapack Error in %s : Illegal Argument %d", func, -info);    \
  } else if (info > 0) {                                                 \
    THError(fmt, func, info, ##__VA_ARGS__);                             \
  }
/* The same, running the statements `cleanup` first. */
#define THLapackCheckWithCleanup(fmt, cleanup, func, info, ...)          \
  if (info < 0) {                                                        \
    cleanup                                                              \
    THError("Lapack Error in %s : Illegal Argument %d", func, -info);    \
  } else if (info > 0) {                                                 \
    cleanup                                                              \
    THError(fmt, func, info, ##__VA_ARGS__);                             \
  }

#define TH_GENERIC_FILE "TH/generic/THLapack.h"
#include "TH/THGenerateAllTypes.h"

#endif
