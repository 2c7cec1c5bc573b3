#include <TH/TH.h>

/* output = input * input, elementwise.  output is resized to input's size
 * and must be contiguous (the Python side allocates it so); input may have
 * any layout.  Returns 1. */
int my_lib_square_forward(THFloatTensor *input, THFloatTensor *output)
{
  THFloatTensor_resizeAs(output, input);
  THArgCheck(THFloatTensor_isContiguous(output), 2, "output must be contiguous");
  THFloatTensor *in = THFloatTensor_newContiguous(input);
  float *x = THFloatTensor_data(in), *y = THFloatTensor_data(output);
  ptrdiff_t n = THFloatTensor_nElement(in);
  for (ptrdiff_t i = 0; i < n; i++)
    y[i] = x[i] * x[i];
  THFloatTensor_free(in);
  return 1;
}

/* d(input * input)/d(input) = 2 * input: grad_input = 2 * input *
 * grad_output, with the input that forward saved.  grad_output and input
 * have the same size and any layout; grad_input is resized to it and must
 * be contiguous.  Returns 1. */
int my_lib_square_backward(THFloatTensor *grad_output, THFloatTensor *input,
			   THFloatTensor *grad_input)
{
  THArgCheck(THFloatTensor_isSameSizeAs(grad_output, input), 2,
	     "input must have grad_output's size");
  THFloatTensor_resizeAs(grad_input, grad_output);
  THArgCheck(THFloatTensor_isContiguous(grad_input), 3, "grad_input must be contiguous");
  THFloatTensor *g = THFloatTensor_newContiguous(grad_output);
  THFloatTensor *in = THFloatTensor_newContiguous(input);
  float *dy = THFloatTensor_data(g), *x = THFloatTensor_data(in);
  float *dx = THFloatTensor_data(grad_input);
  ptrdiff_t n = THFloatTensor_nElement(in);
  for (ptrdiff_t i = 0; i < n; i++)
    dx[i] = 2.0f * x[i] * dy[i];
  THFloatTensor_free(in);
  THFloatTensor_free(g);
  return 1;
}

int my_lib_square_forward_double(THDoubleTensor *input, THDoubleTensor *output)
{
  THDoubleTensor_resizeAs(output, input);
  THArgCheck(THDoubleTensor_isContiguous(output), 2, "output must be contiguous");
  THDoubleTensor *in = THDoubleTensor_newContiguous(input);
  double *x = THDoubleTensor_data(in), *y = THDoubleTensor_data(output);
  ptrdiff_t n = THDoubleTensor_nElement(in);
  for (ptrdiff_t i = 0; i < n; i++)
    y[i] = x[i] * x[i];
  THDoubleTensor_free(in);
  return 1;
}

int my_lib_square_backward_double(THDoubleTensor *grad_output, THDoubleTensor *input,
				  THDoubleTensor *grad_input)
{
  THArgCheck(THDoubleTensor_isSameSizeAs(grad_output, input), 2,
	     "input must have grad_output's size");
  THDoubleTensor_resizeAs(grad_input, grad_output);
  THArgCheck(THDoubleTensor_isContiguous(grad_input), 3, "grad_input must be contiguous");
  THDoubleTensor *g = THDoubleTensor_newContiguous(grad_output);
  THDoubleTensor *in = THDoubleTensor_newContiguous(input);
  double *dy = THDoubleTensor_data(g), *x = THDoubleTensor_data(in);
  double *dx = THDoubleTensor_data(grad_input);
  ptrdiff_t n = THDoubleTensor_nElement(in);
  for (ptrdiff_t i = 0; i < n; i++)
    dx[i] = 2.0 * x[i] * dy[i];
  THDoubleTensor_free(in);
  THDoubleTensor_free(g);
  return 1;
}
