/* tests/thc_legacy: generic THC code built with every THC generator, a
 * kernel on the legacy THC device headers, and kernels on an extension's
 * own copy of THCAtomics.cuh. */
int64_t thc_struct_Cuda_single(THCudaTensor *src);
int64_t thc_struct_CudaHalf_single(THCudaHalfTensor *src);
int64_t thc_struct_CudaLong_all(THCudaLongTensor *src);
int64_t thc_struct_CudaDouble_floating(THCudaDoubleTensor *src);
int64_t thc_struct_CudaByte_integer(THCudaByteTensor *src);
int thc_legacy_headers_launch(THCudaDoubleTensor *out, THCudaDoubleTensor *in,
                              THCudaHalfTensor *hout, THCudaHalfTensor *hin);
int thc_device_tensor_launch(THCudaTensor *out, THCudaTensor *in);
int thc_atomics_CudaHalf_sum_own(THCudaHalfTensor *out, THCudaHalfTensor *in);
int thc_atomics_Cuda_sum_own(THCudaTensor *out, THCudaTensor *in);
int thc_atomics_CudaDouble_sum_own(THCudaDoubleTensor *out, THCudaDoubleTensor *in);
int thc_atomics_CudaLong_sum_own(THCudaLongTensor *out, THCudaLongTensor *in);
int thc_atomics_CudaHalf_sum_thffi(THCudaHalfTensor *out, THCudaHalfTensor *in);
