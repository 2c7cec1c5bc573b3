int thcunn_half_softsign(THCudaTensor *input, THCudaTensor *output, THCudaTensor *sum);
int thcunn_half_softsign_half(THCudaHalfTensor *input, THCudaHalfTensor *output,
                              THCudaHalfTensor *sum);
void thcunn_half_host(float a, float b, THFloatTensor *out);
int thcunn_half_blocks(int n);
