/* Launchers of the scale kernel in scale_kernel.cu, callable from C:
 * output[i] = input[i] * scale + bias for n contiguous elements of device
 * memory, on `stream`.  Returns the launch's error code. */
#ifndef SCALE_KERNEL_H
#define SCALE_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t my_lib_scale_launch_float(const float *input, float scale, float bias,
                                      float *output, int64_t n, cudaStream_t stream);
cudaError_t my_lib_scale_launch_double(const double *input, double scale, double bias,
                                       double *output, int64_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
