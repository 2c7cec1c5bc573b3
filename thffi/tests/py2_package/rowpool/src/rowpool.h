int rowpool_forward(THFloatTensor *input, THFloatTensor *output, int window);
int rowpool_backward(THFloatTensor *grad_output, THFloatTensor *grad_input, int window);
