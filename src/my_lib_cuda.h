int my_lib_add_forward_cuda(THCudaTensor *input1, THCudaTensor *input2,
			    THCudaTensor *output);
int my_lib_add_backward_cuda(THCudaTensor *grad_output, THCudaTensor *grad_input);

int my_lib_add_forward_cuda_double(THCudaDoubleTensor *input1,
				   THCudaDoubleTensor *input2,
				   THCudaDoubleTensor *output);
int my_lib_add_backward_cuda_double(THCudaDoubleTensor *grad_output,
				    THCudaDoubleTensor *grad_input);
