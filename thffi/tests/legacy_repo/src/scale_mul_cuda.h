int scale_mul_forward_cuda(float alpha, THCudaTensor *input1, THCudaTensor *input2,
                           THCudaTensor *output);
