/* Legacy <TH/THSize.h>: arrays of sizes (THTensor's size field). */
#ifndef THFFI_TH_SIZE_H
#define THFFI_TH_SIZE_H

#include "THGeneral.h"

/* 1 when the two arrays have as many dimensions and the same sizes. */
TH_API int THSize_isSameSizeAs(const int64_t *sizeA, int64_t dimsA, const int64_t *sizeB,
                               int64_t dimsB);
/* The product of the sizes; 0 for no dimension, as TH's. */
TH_API ptrdiff_t THSize_nElement(int64_t dims, int64_t *size);

#endif
