/* TH/THSize.h. */
#include "TH/TH.h"

int THSize_isSameSizeAs(const int64_t *sizeA, int64_t dimsA, const int64_t *sizeB,
                        int64_t dimsB) {
  int64_t d;
  if (dimsA != dimsB) return 0;
  for (d = 0; d < dimsA; d++)
    if (sizeA[d] != sizeB[d]) return 0;
  return 1;
}

ptrdiff_t THSize_nElement(int64_t dims, int64_t *size) {
  ptrdiff_t n = 1;
  int64_t d;
  if (dims == 0) return 0;
  for (d = 0; d < dims; d++) n *= size[d];
  return n;
}
