/* Functions that exercise the THC layer from C, for tests/test_cuda.py. */
uint64_t current_stream(THCudaTensor *t);
int current_device(THCudaTensor *t);
int launch_invalid(THCudaTensor *t);
void cuda_fill(THCudaTensor *t, float value);
void cuda_zero_long(THCudaLongTensor *t);
void cuda_fill_int(THCudaIntTensor *t, int value);
void cuda_copy(THCudaTensor *dst, THCudaTensor *src);
void cuda_cadd(THCudaDoubleTensor *r, THCudaDoubleTensor *t, double value,
               THCudaDoubleTensor *src);
void cuda_resize4d(THCudaTensor *t, int64_t a, int64_t b, int64_t c, int64_t d);
int64_t cuda_size(THCudaTensor *t, int dim);
int64_t cuda_stride(THCudaTensor *t, int dim);
int cuda_ndim(THCudaTensor *t);
int64_t cuda_nelement(THCudaTensor *t);
int cuda_same_size(THCudaTensor *a, THCudaTensor *b);
int pointers_match(THCudaTensor *t);
void library_checks(THCudaTensor *t, int cublas, int cusparse);
