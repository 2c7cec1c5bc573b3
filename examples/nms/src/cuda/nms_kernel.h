#ifndef NMS_KERNEL_H
#define NMS_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* boxes: n x 4 contiguous device floats.  mask: n x ceil(n / 64) words;
 * bit j of row i is set when box j > i overlaps box i by more than the
 * threshold.  Returns the launch's error code. */
cudaError_t nms_mask_launch(const float *boxes, int64_t n, float overlap_threshold,
                            uint64_t *mask, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
