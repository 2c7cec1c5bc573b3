#ifndef ROI_POOLING_KERNEL_H
#define ROI_POOLING_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the RoI pooling kernels on `stream`; pointers are device pointers
 * to contiguous arrays (see src/generic/roi_pooling.c for the layouts).
 * Return the launch's error code. */
cudaError_t roi_pooling_forward_launch_float(
    const float *features, const float *rois, int64_t num_rois, int64_t channels,
    int64_t height, int64_t width, int pooled_height, int pooled_width,
    float spatial_scale, float *output, int *argmax, cudaStream_t stream);
cudaError_t roi_pooling_forward_launch_double(
    const double *features, const double *rois, int64_t num_rois, int64_t channels,
    int64_t height, int64_t width, int pooled_height, int pooled_width,
    float spatial_scale, double *output, int *argmax, cudaStream_t stream);
cudaError_t roi_pooling_backward_launch_float(
    const float *top_grad, const float *rois, const int *argmax, int64_t num_rois,
    int64_t channels, int64_t height, int64_t width, int pooled_height, int pooled_width,
    float *bottom_grad, cudaStream_t stream);
cudaError_t roi_pooling_backward_launch_double(
    const double *top_grad, const double *rois, const int *argmax, int64_t num_rois,
    int64_t channels, int64_t height, int64_t width, int pooled_height, int pooled_width,
    double *bottom_grad, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
