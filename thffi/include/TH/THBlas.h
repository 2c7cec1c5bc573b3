/* Legacy <TH/THBlas.h>: TH's raw BLAS wrappers, THFloatBlas_gemm(...) and
 * the like, column-major with Fortran BLAS's arguments (TH passed them on
 * to sgemm_...).  Float and double run on SciPy's BLAS, the integer types
 * are loops in C, as TH's were (csrc/THBlas.c). */
#ifndef THFFI_TH_BLAS_H
#define THFFI_TH_BLAS_H

#include "THGeneral.h"

#define THBlas_(NAME) TH_CONCAT_4(TH, Real, Blas_, NAME)

#define TH_GENERIC_FILE "TH/generic/THBlas.h"
#include "TH/THGenerateAllTypes.h"

#endif
