/* Launchers of the add kernels in my_lib_kernel.cu, callable from C.  All
 * pointers are device pointers to n contiguous elements; the kernel runs on
 * `stream`.  Returns the launch's error code (cudaSuccess when it started). */
#ifndef MY_LIB_KERNEL_H
#define MY_LIB_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t my_lib_add_forward_launch_float(const float *input1, const float *input2,
                                            float *output, int64_t n,
                                            cudaStream_t stream);
cudaError_t my_lib_add_forward_launch_double(const double *input1, const double *input2,
                                             double *output, int64_t n,
                                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
