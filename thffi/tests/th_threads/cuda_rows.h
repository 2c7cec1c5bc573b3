int cuda_rows_first(THCudaTensor *input, THCudaTensor *output);
int cuda_workers_first(THCudaTensor *input, THCudaTensor *output, int nthreads);
