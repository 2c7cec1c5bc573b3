#include <THC/THC.h>
#include "square_kernel.h"

/* The legacy global, defined by thffi's THC layer. */
extern THCState *state;

/* GPU twins of src/square.c's functions: the same contracts, on the
 * current stream of the tensors' device. */
int my_lib_square_forward_cuda(THCudaTensor *input, THCudaTensor *output)
{
  THCudaTensor_resizeAs(state, output, input);
  THArgCheck(THCudaTensor_isContiguous(state, output), 2, "output must be contiguous");
  THCudaTensor *in = THCudaTensor_newContiguous(state, input);
  THCudaCheck(my_lib_square_forward_launch_float(
      THCudaTensor_data(state, in), THCudaTensor_data(state, output),
      THCudaTensor_nElement(state, in), THCState_getCurrentStream(state)));
  THCudaTensor_free(state, in);
  return 1;
}

int my_lib_square_backward_cuda(THCudaTensor *grad_output, THCudaTensor *input,
				THCudaTensor *grad_input)
{
  THArgCheck(THCudaTensor_isSameSizeAs(state, grad_output, input), 2,
	     "input must have grad_output's size");
  THCudaTensor_resizeAs(state, grad_input, grad_output);
  THArgCheck(THCudaTensor_isContiguous(state, grad_input), 3,
	     "grad_input must be contiguous");
  THCudaTensor *g = THCudaTensor_newContiguous(state, grad_output);
  THCudaTensor *in = THCudaTensor_newContiguous(state, input);
  THCudaCheck(my_lib_square_backward_launch_float(
      THCudaTensor_data(state, g), THCudaTensor_data(state, in),
      THCudaTensor_data(state, grad_input), THCudaTensor_nElement(state, in),
      THCState_getCurrentStream(state)));
  THCudaTensor_free(state, in);
  THCudaTensor_free(state, g);
  return 1;
}

int my_lib_square_forward_cuda_double(THCudaDoubleTensor *input,
				      THCudaDoubleTensor *output)
{
  THCudaDoubleTensor_resizeAs(state, output, input);
  THArgCheck(THCudaDoubleTensor_isContiguous(state, output), 2,
	     "output must be contiguous");
  THCudaDoubleTensor *in = THCudaDoubleTensor_newContiguous(state, input);
  THCudaCheck(my_lib_square_forward_launch_double(
      THCudaDoubleTensor_data(state, in), THCudaDoubleTensor_data(state, output),
      THCudaDoubleTensor_nElement(state, in), THCState_getCurrentStream(state)));
  THCudaDoubleTensor_free(state, in);
  return 1;
}

int my_lib_square_backward_cuda_double(THCudaDoubleTensor *grad_output,
				       THCudaDoubleTensor *input,
				       THCudaDoubleTensor *grad_input)
{
  THArgCheck(THCudaDoubleTensor_isSameSizeAs(state, grad_output, input), 2,
	     "input must have grad_output's size");
  THCudaDoubleTensor_resizeAs(state, grad_input, grad_output);
  THArgCheck(THCudaDoubleTensor_isContiguous(state, grad_input), 3,
	     "grad_input must be contiguous");
  THCudaDoubleTensor *g = THCudaDoubleTensor_newContiguous(state, grad_output);
  THCudaDoubleTensor *in = THCudaDoubleTensor_newContiguous(state, input);
  THCudaCheck(my_lib_square_backward_launch_double(
      THCudaDoubleTensor_data(state, g), THCudaDoubleTensor_data(state, in),
      THCudaDoubleTensor_data(state, grad_input), THCudaDoubleTensor_nElement(state, in),
      THCState_getCurrentStream(state)));
  THCudaDoubleTensor_free(state, in);
  THCudaDoubleTensor_free(state, g);
  return 1;
}
