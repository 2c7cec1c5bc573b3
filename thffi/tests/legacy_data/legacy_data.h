int linear_Float_forward(THFloatTensor *input, THFloatTensor *weight, THFloatTensor *bias,
                         THFloatTensor *output);
int linear_Float_backward(THFloatTensor *input, THFloatTensor *weight, THFloatTensor *bias,
                          THFloatTensor *grad_output, THFloatTensor *grad_input,
                          THFloatTensor *grad_weight, THFloatTensor *grad_bias);
int linear_Double_forward(THDoubleTensor *input, THDoubleTensor *weight, THDoubleTensor *bias,
                          THDoubleTensor *output);
int linear_Double_backward(THDoubleTensor *input, THDoubleTensor *weight, THDoubleTensor *bias,
                           THDoubleTensor *grad_output, THDoubleTensor *grad_input,
                           THDoubleTensor *grad_weight, THDoubleTensor *grad_bias);
int change_in_place(THFloatTensor *t, THFloatTensor *other, int how);
float sum_as_contiguous(THFloatTensor *t);
float sum_after_stride(THFloatTensor *t);
float sum_after_is_contiguous(THFloatTensor *t);
float sum_of_contiguous_copy(THFloatTensor *t);
float sum_two_as_contiguous(THFloatTensor *a, THFloatTensor *b);
THFloatTensor *first_row(THFloatTensor *t);
