/* A fully connected layer with a bias, written as 2018 kernels for
 * binarized convolutions were: the bias is kept as a column (nout x 1), the
 * shape the loops below read it in, and a 1-d bias handed in is reshaped
 * to it in place. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/linear.c"
#else

/* output (batch x nout) = input (batch x nin) * weight^T (nin x nout) + bias */
int linear_(forward)(THTensor *input, THTensor *weight, THTensor *bias, THTensor *output)
{
  long batch, nin, nout, b, o, i;
  real *in, *w, *bi, *out;
  THArgCheck(THTensor_(nDimension)(input) == 2, 1, "input must be 2-d");
  batch = THTensor_(size)(input, 0);
  nin = THTensor_(size)(input, 1);
  nout = THTensor_(size)(weight, 0);
  THTensor_(resize2d)(bias, nout, 1);
  THTensor_(resize2d)(output, batch, nout);
  input = THTensor_(newContiguous)(input);
  weight = THTensor_(newContiguous)(weight);
  in = THTensor_(data)(input);
  w = THTensor_(data)(weight);
  bi = THTensor_(data)(bias);
  out = THTensor_(data)(output);
  for (b = 0; b < batch; b++)
    for (o = 0; o < nout; o++) {
      real sum = bi[o];
      for (i = 0; i < nin; i++)
        sum += in[b * nin + i] * w[o * nin + i];
      out[b * nout + o] = sum;
    }
  THTensor_(free)(input);
  THTensor_(free)(weight);
  return 1;
}

/* The gradients, each of its tensor's shape: grad_bias as bias is. */
int linear_(backward)(THTensor *input, THTensor *weight, THTensor *bias,
                      THTensor *grad_output, THTensor *grad_input,
                      THTensor *grad_weight, THTensor *grad_bias)
{
  long batch = THTensor_(size)(input, 0), nin = THTensor_(size)(input, 1);
  long nout = THTensor_(size)(weight, 0), b, o, i;
  real *in, *w, *go, *gi, *gw, *gb;
  THTensor_(resizeAs)(grad_input, input);
  THTensor_(resizeAs)(grad_weight, weight);
  THTensor_(resizeAs)(grad_bias, bias);
  THTensor_(zero)(grad_input);
  THTensor_(zero)(grad_weight);
  THTensor_(zero)(grad_bias);
  input = THTensor_(newContiguous)(input);
  weight = THTensor_(newContiguous)(weight);
  grad_output = THTensor_(newContiguous)(grad_output);
  in = THTensor_(data)(input);
  w = THTensor_(data)(weight);
  go = THTensor_(data)(grad_output);
  gi = THTensor_(data)(grad_input);
  gw = THTensor_(data)(grad_weight);
  gb = THTensor_(data)(grad_bias);
  for (b = 0; b < batch; b++)
    for (o = 0; o < nout; o++) {
      real g = go[b * nout + o];
      gb[o] += g;
      for (i = 0; i < nin; i++) {
        gi[b * nin + i] += g * w[o * nin + i];
        gw[o * nin + i] += g * in[b * nin + i];
      }
    }
  THTensor_(free)(input);
  THTensor_(free)(weight);
  THTensor_(free)(grad_output);
  return 1;
}

#endif
