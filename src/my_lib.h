int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2,
		       THFloatTensor *output);
int my_lib_add_backward(THFloatTensor *grad_output, THFloatTensor *grad_input);

int my_lib_add_forward_double(THDoubleTensor *input1, THDoubleTensor *input2,
			      THDoubleTensor *output);
int my_lib_add_backward_double(THDoubleTensor *grad_output,
			       THDoubleTensor *grad_input);
