int my_lib_scale_forward(THFloatTensor *input, float scale, float bias,
			 THFloatTensor *output);
int my_lib_scale_backward(THFloatTensor *grad_output, float scale,
			  THFloatTensor *grad_input);

int my_lib_scale_forward_double(THDoubleTensor *input, double scale, double bias,
				THDoubleTensor *output);
int my_lib_scale_backward_double(THDoubleTensor *grad_output, double scale,
				 THDoubleTensor *grad_input);
