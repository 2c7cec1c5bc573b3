/* tests/thc_legacy: generic THC code built with every THC generator, and a
 * kernel on the legacy THC device headers. */
int64_t thc_struct_Cuda_single(THCudaTensor *src);
int64_t thc_struct_CudaHalf_single(THCudaHalfTensor *src);
int64_t thc_struct_CudaLong_all(THCudaLongTensor *src);
int64_t thc_struct_CudaDouble_floating(THCudaDoubleTensor *src);
int64_t thc_struct_CudaByte_integer(THCudaByteTensor *src);
int thc_legacy_headers_launch(THCudaDoubleTensor *out, THCudaDoubleTensor *in,
                              THCudaHalfTensor *hout, THCudaHalfTensor *hin);
int thc_device_tensor_launch(THCudaTensor *out, THCudaTensor *in);
