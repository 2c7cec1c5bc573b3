/* Launchers of the square kernels in square_kernel.cu, callable from C,
 * for n contiguous elements of device memory, on `stream`:
 * forward: output[i] = input[i] * input[i];
 * backward: grad_input[i] = 2 * input[i] * grad_output[i].
 * Each returns the launch's error code. */
#ifndef SQUARE_KERNEL_H
#define SQUARE_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t my_lib_square_forward_launch_float(const float *input, float *output, int64_t n,
                                               cudaStream_t stream);
cudaError_t my_lib_square_forward_launch_double(const double *input, double *output,
                                                int64_t n, cudaStream_t stream);
cudaError_t my_lib_square_backward_launch_float(const float *grad_output, const float *input,
                                                float *grad_input, int64_t n,
                                                cudaStream_t stream);
cudaError_t my_lib_square_backward_launch_double(const double *grad_output,
                                                 const double *input, double *grad_input,
                                                 int64_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
