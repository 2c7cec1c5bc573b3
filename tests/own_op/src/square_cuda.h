int my_lib_square_forward_cuda(THCudaTensor *input, THCudaTensor *output);
int my_lib_square_backward_cuda(THCudaTensor *grad_output, THCudaTensor *input,
				THCudaTensor *grad_input);

int my_lib_square_forward_cuda_double(THCudaDoubleTensor *input,
				      THCudaDoubleTensor *output);
int my_lib_square_backward_cuda_double(THCudaDoubleTensor *grad_output,
				       THCudaDoubleTensor *input,
				       THCudaDoubleTensor *grad_input);
