int my_lib_square_forward(THFloatTensor *input, THFloatTensor *output);
int my_lib_square_backward(THFloatTensor *grad_output, THFloatTensor *input,
			   THFloatTensor *grad_input);

int my_lib_square_forward_double(THDoubleTensor *input, THDoubleTensor *output);
int my_lib_square_backward_double(THDoubleTensor *grad_output, THDoubleTensor *input,
				  THDoubleTensor *grad_input);
