int shift_cuda(THCudaTensor *data, float by);
