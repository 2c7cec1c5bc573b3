// RoI max pooling kernels: one thread per output element, grid-stride.
// CPU reference: src/generic/roi_pooling.c (same arithmetic, in double).
#include <math.h>
#include "roi_pooling_kernel.h"

namespace {

const int kThreads = 256;

unsigned blocks_for(int64_t n) {
  int64_t blocks = (n + kThreads - 1) / kThreads;
  return (unsigned)(blocks < 65536 ? blocks : 65536);
}

template <typename T>
__global__ void forward_kernel(const T *features, const T *rois, int64_t n, int64_t channels,
                               int64_t height, int64_t width, int pooled_height,
                               int pooled_width, float spatial_scale, T *output,
                               int *argmax) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    int64_t pw = i % pooled_width, ph = (i / pooled_width) % pooled_height;
    int64_t c = (i / pooled_width / pooled_height) % channels;
    int64_t r = i / pooled_width / pooled_height / channels;
    const T *roi = rois + r * 5;
    int64_t batch = (int64_t)roi[0];
    int64_t start_w = (int64_t)round(roi[1] * spatial_scale);
    int64_t start_h = (int64_t)round(roi[2] * spatial_scale);
    int64_t end_w = (int64_t)round(roi[3] * spatial_scale);
    int64_t end_h = (int64_t)round(roi[4] * spatial_scale);
    double bin_h = (double)max(end_h - start_h + 1, (int64_t)1) / pooled_height;
    double bin_w = (double)max(end_w - start_w + 1, (int64_t)1) / pooled_width;
    int64_t hstart = min(max((int64_t)floor(ph * bin_h) + start_h, (int64_t)0), height);
    int64_t hend = min(max((int64_t)ceil((ph + 1) * bin_h) + start_h, (int64_t)0), height);
    int64_t wstart = min(max((int64_t)floor(pw * bin_w) + start_w, (int64_t)0), width);
    int64_t wend = min(max((int64_t)ceil((pw + 1) * bin_w) + start_w, (int64_t)0), width);
    const T *plane = features + (batch * channels + c) * height * width;
    T best_value = 0;
    int64_t best = -1;
    for (int64_t h = hstart; h < hend; h++) {
      for (int64_t w = wstart; w < wend; w++) {
        int64_t index = h * width + w;
        if (best < 0 || plane[index] > best_value) {
          best_value = plane[index];
          best = index;
        }
      }
    }
    output[i] = best_value;
    argmax[i] = (int)best;
  }
}

template <typename T>
__global__ void backward_kernel(const T *top_grad, const T *rois, const int *argmax,
                                int64_t n, int64_t channels, int64_t plane, int per_channel,
                                T *bottom_grad) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    if (argmax[i] < 0) continue;
    int64_t c = (i / per_channel) % channels, r = i / per_channel / channels;
    int64_t batch = (int64_t)rois[r * 5];
    atomicAdd(bottom_grad + (batch * channels + c) * plane + argmax[i], top_grad[i]);
  }
}

template <typename T>
cudaError_t forward_launch(const T *features, const T *rois, int64_t num_rois,
                           int64_t channels, int64_t height, int64_t width, int pooled_height,
                           int pooled_width, float spatial_scale, T *output, int *argmax,
                           cudaStream_t stream) {
  int64_t n = num_rois * channels * pooled_height * pooled_width;
  if (n == 0) return cudaSuccess;
  forward_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(
      features, rois, n, channels, height, width, pooled_height, pooled_width,
      spatial_scale, output, argmax);
  return cudaGetLastError();
}

template <typename T>
cudaError_t backward_launch(const T *top_grad, const T *rois, const int *argmax,
                            int64_t num_rois, int64_t channels, int64_t height, int64_t width,
                            int pooled_height, int pooled_width, T *bottom_grad,
                            cudaStream_t stream) {
  int64_t n = num_rois * channels * pooled_height * pooled_width;
  if (n == 0) return cudaSuccess;
  backward_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(
      top_grad, rois, argmax, n, channels, height * width, pooled_height * pooled_width,
      bottom_grad);
  return cudaGetLastError();
}

}  // namespace

extern "C" cudaError_t roi_pooling_forward_launch_float(
    const float *features, const float *rois, int64_t num_rois, int64_t channels,
    int64_t height, int64_t width, int pooled_height, int pooled_width,
    float spatial_scale, float *output, int *argmax, cudaStream_t stream) {
  return forward_launch(features, rois, num_rois, channels, height, width, pooled_height,
                        pooled_width, spatial_scale, output, argmax, stream);
}

extern "C" cudaError_t roi_pooling_forward_launch_double(
    const double *features, const double *rois, int64_t num_rois, int64_t channels,
    int64_t height, int64_t width, int pooled_height, int pooled_width,
    float spatial_scale, double *output, int *argmax, cudaStream_t stream) {
  return forward_launch(features, rois, num_rois, channels, height, width, pooled_height,
                        pooled_width, spatial_scale, output, argmax, stream);
}

extern "C" cudaError_t roi_pooling_backward_launch_float(
    const float *top_grad, const float *rois, const int *argmax, int64_t num_rois,
    int64_t channels, int64_t height, int64_t width, int pooled_height, int pooled_width,
    float *bottom_grad, cudaStream_t stream) {
  return backward_launch(top_grad, rois, argmax, num_rois, channels, height, width,
                         pooled_height, pooled_width, bottom_grad, stream);
}

extern "C" cudaError_t roi_pooling_backward_launch_double(
    const double *top_grad, const double *rois, const int *argmax, int64_t num_rois,
    int64_t channels, int64_t height, int64_t width, int pooled_height, int pooled_width,
    double *bottom_grad, cudaStream_t stream) {
  return backward_launch(top_grad, rois, argmax, num_rois, channels, height, width,
                         pooled_height, pooled_width, bottom_grad, stream);
}
