#include <THC/THC.h>
#include "scale_kernel.h"

/* The legacy global, defined by thffi's THC layer. */
extern THCState *state;

/* GPU twin of my_lib_scale_forward (src/scale.c): the same contract, on the
 * current stream of the tensors' device. */
int my_lib_scale_forward_cuda(THCudaTensor *input, float scale, float bias,
			      THCudaTensor *output)
{
  THCudaTensor_resizeAs(state, output, input);
  THArgCheck(THCudaTensor_isContiguous(state, output), 4, "output must be contiguous");
  THCudaTensor *in = THCudaTensor_newContiguous(state, input);
  THCudaCheck(my_lib_scale_launch_float(
      THCudaTensor_data(state, in), scale, bias, THCudaTensor_data(state, output),
      THCudaTensor_nElement(state, in), THCState_getCurrentStream(state)));
  THCudaTensor_free(state, in);
  return 1;
}

int my_lib_scale_backward_cuda(THCudaTensor *grad_output, float scale,
			       THCudaTensor *grad_input)
{
  return my_lib_scale_forward_cuda(grad_output, scale, 0.0f, grad_input);
}

int my_lib_scale_forward_cuda_double(THCudaDoubleTensor *input, double scale,
				     double bias, THCudaDoubleTensor *output)
{
  THCudaDoubleTensor_resizeAs(state, output, input);
  THArgCheck(THCudaDoubleTensor_isContiguous(state, output), 4,
	     "output must be contiguous");
  THCudaDoubleTensor *in = THCudaDoubleTensor_newContiguous(state, input);
  THCudaCheck(my_lib_scale_launch_double(
      THCudaDoubleTensor_data(state, in), scale, bias,
      THCudaDoubleTensor_data(state, output), THCudaDoubleTensor_nElement(state, in),
      THCState_getCurrentStream(state)));
  THCudaDoubleTensor_free(state, in);
  return 1;
}

int my_lib_scale_backward_cuda_double(THCudaDoubleTensor *grad_output,
				      double scale,
				      THCudaDoubleTensor *grad_input)
{
  return my_lib_scale_forward_cuda_double(grad_output, scale, 0.0, grad_input);
}
