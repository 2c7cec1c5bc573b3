int my_lib_scale_forward_cuda(THCudaTensor *input, float scale, float bias,
			      THCudaTensor *output);
int my_lib_scale_backward_cuda(THCudaTensor *grad_output, float scale,
			       THCudaTensor *grad_input);

int my_lib_scale_forward_cuda_double(THCudaDoubleTensor *input, double scale,
				     double bias, THCudaDoubleTensor *output);
int my_lib_scale_backward_cuda_double(THCudaDoubleTensor *grad_output,
				      double scale,
				      THCudaDoubleTensor *grad_input);
