#include <TH/TH.h>

/* output = input1 + input2.  Returns 0 (and leaves output alone) when the
 * inputs differ in size, 1 otherwise.  output is resized as needed. */
int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2,
		       THFloatTensor *output)
{
  if (!THFloatTensor_isSameSizeAs(input1, input2))
    return 0;
  THFloatTensor_resizeAs(output, input1);
  THFloatTensor_cadd(output, input1, 1.0, input2);
  return 1;
}

/* d(input1 + input2)/d(input_i) is the identity, so each input's gradient
 * is grad_output itself.  (The legacy demo filled grad_input with 1s, which
 * is only right when grad_output is all 1s.) */
int my_lib_add_backward(THFloatTensor *grad_output, THFloatTensor *grad_input)
{
  THFloatTensor_resizeAs(grad_input, grad_output);
  THFloatTensor_copy(grad_input, grad_output);
  return 1;
}

int my_lib_add_forward_double(THDoubleTensor *input1, THDoubleTensor *input2,
			      THDoubleTensor *output)
{
  if (!THDoubleTensor_isSameSizeAs(input1, input2))
    return 0;
  THDoubleTensor_resizeAs(output, input1);
  THDoubleTensor_cadd(output, input1, 1.0, input2);
  return 1;
}

int my_lib_add_backward_double(THDoubleTensor *grad_output,
			       THDoubleTensor *grad_input)
{
  THDoubleTensor_resizeAs(grad_input, grad_output);
  THDoubleTensor_copy(grad_input, grad_output);
  return 1;
}
