int scale_mul_forward(float alpha, THFloatTensor *input1, THFloatTensor *input2,
                      THFloatTensor *output);
int scale_mul_forward_double(double alpha, THDoubleTensor *input1, THDoubleTensor *input2,
                             THDoubleTensor *output);
