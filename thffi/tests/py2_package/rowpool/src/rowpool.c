#include <TH/TH.h>

/* Sums each row's windows of `window` columns: output is rows x cols/window. */
int rowpool_forward(THFloatTensor *input, THFloatTensor *output, int window)
{
  int rows = THFloatTensor_size(input, 0);
  int cols = THFloatTensor_size(input, 1);
  int pooled = cols / window;
  float *in = THFloatTensor_data(input);
  float *out = THFloatTensor_data(output);
  int i, j, k;
  for (i = 0; i < rows; i++)
    for (j = 0; j < pooled; j++) {
      float sum = 0;
      for (k = 0; k < window; k++)
        sum += in[i * cols + j * window + k];
      out[i * pooled + j] = sum;
    }
  return 1;
}

/* Each input column gets the gradient of the window it was summed into. */
int rowpool_backward(THFloatTensor *grad_output, THFloatTensor *grad_input, int window)
{
  int rows = THFloatTensor_size(grad_input, 0);
  int cols = THFloatTensor_size(grad_input, 1);
  int pooled = cols / window;
  float *go = THFloatTensor_data(grad_output);
  float *gi = THFloatTensor_data(grad_input);
  int i, j;
  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++)
      gi[i * cols + j] = j / window < pooled ? go[i * pooled + j / window] : 0;
  return 1;
}
