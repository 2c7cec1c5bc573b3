#include <TH/TH.h>

/* output = input * scale + bias, elementwise.  output is resized to input's
 * size and must be contiguous (the Python side allocates it so); input may
 * have any layout.  Returns 1. */
int my_lib_scale_forward(THFloatTensor *input, float scale, float bias,
			 THFloatTensor *output)
{
  THFloatTensor_resizeAs(output, input);
  THArgCheck(THFloatTensor_isContiguous(output), 4, "output must be contiguous");
  THFloatTensor *in = THFloatTensor_newContiguous(input);
  float *x = THFloatTensor_data(in), *y = THFloatTensor_data(output);
  ptrdiff_t n = THFloatTensor_nElement(in);
  for (ptrdiff_t i = 0; i < n; i++)
    y[i] = x[i] * scale + bias;
  THFloatTensor_free(in);
  return 1;
}

/* d(input * scale + bias)/d(input) = scale: grad_input = grad_output * scale. */
int my_lib_scale_backward(THFloatTensor *grad_output, float scale,
			  THFloatTensor *grad_input)
{
  return my_lib_scale_forward(grad_output, scale, 0.0f, grad_input);
}

int my_lib_scale_forward_double(THDoubleTensor *input, double scale, double bias,
				THDoubleTensor *output)
{
  THDoubleTensor_resizeAs(output, input);
  THArgCheck(THDoubleTensor_isContiguous(output), 4, "output must be contiguous");
  THDoubleTensor *in = THDoubleTensor_newContiguous(input);
  double *x = THDoubleTensor_data(in), *y = THDoubleTensor_data(output);
  ptrdiff_t n = THDoubleTensor_nElement(in);
  for (ptrdiff_t i = 0; i < n; i++)
    y[i] = x[i] * scale + bias;
  THDoubleTensor_free(in);
  return 1;
}

int my_lib_scale_backward_double(THDoubleTensor *grad_output, double scale,
				 THDoubleTensor *grad_input)
{
  return my_lib_scale_forward_double(grad_output, scale, 0.0, grad_input);
}
