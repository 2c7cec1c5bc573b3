#include <stdlib.h>
#include <THC/THC.h>
#include "cuda/nms_kernel.h"

extern THCState *state;

/* nms_cpu (src/nms.c) with the overlaps on the GPU: a kernel computes, for
 * each box, a bit mask of the later boxes it suppresses (64 per word); the
 * greedy pass then runs over the masks on the CPU.  keep is a CPU tensor. */
int nms_cuda(THLongTensor *keep, THCudaTensor *boxes, float overlap_threshold)
{
  THCudaTensor *sorted;
  uint64_t *mask_dev = NULL, *mask, *removed;
  int64_t *kept;
  int64_t n, words, i, j, count = 0;
  cudaStream_t stream = THCState_getCurrentStream(state);

  if (THCudaTensor_nElement(state, boxes) == 0) {  /* nDimension is 0 then, as in TH */
    THLongTensor_resize1d(keep, 0);
    return 0;
  }
  THArgCheck(THCudaTensor_nDimension(state, boxes) == 2 &&
             THCudaTensor_size(state, boxes, 1) == 4, 2, "boxes must be (N, 4)");
  n = THCudaTensor_size(state, boxes, 0);
  THLongTensor_resize1d(keep, n);
  sorted = THCudaTensor_newContiguous(state, boxes);
  words = (n + 63) / 64;

  THCudaCheck(THCudaMalloc(state, (void **)&mask_dev, n * words * sizeof(uint64_t)));
  THCudaCheck(nms_mask_launch(THCudaTensor_data(state, sorted), n, overlap_threshold,
                              mask_dev, stream));
  mask = (uint64_t *)malloc(n * words * sizeof(uint64_t));
  removed = (uint64_t *)calloc(words, sizeof(uint64_t));
  if (mask == NULL || removed == NULL) {
    free(mask);
    free(removed);
    THError("out of memory for a %lld-box mask", (long long)n);
  }
  THCudaCheck(cudaMemcpyAsync(mask, mask_dev, n * words * sizeof(uint64_t),
                              cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));

  kept = THLongTensor_data(keep);
  for (i = 0; i < n; i++) {
    if (removed[i / 64] & (1ULL << (i % 64))) continue;
    kept[count++] = i;
    for (j = 0; j < words; j++) removed[j] |= mask[i * words + j];
  }
  THLongTensor_resize1d(keep, count);

  free(mask);
  free(removed);
  THCudaCheck(THCudaFree(state, mask_dev));
  THCudaTensor_free(state, sorted);
  return (int)count;
}
