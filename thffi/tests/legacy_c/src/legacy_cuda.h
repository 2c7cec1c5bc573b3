int legacy_cuda_scale_c(THCudaTensor *output, THCudaTensor *input, float factor);
int legacy_cuda_scale_cxx(THCudaTensor *output, THCudaTensor *input, float factor);
int legacy_cuda_scale_cu(THCudaTensor *output, THCudaTensor *input, float factor);
int64_t legacy_cuda_punned(THCudaTensor *input, THCudaLongTensor *indices);
