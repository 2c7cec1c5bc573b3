#include <THC/THC.h>
#include "my_lib_kernel.h"

/* The legacy global, defined by thffi's THC layer. */
extern THCState *state;

/* GPU twin of my_lib_add_forward (src/my_lib.c).  Contiguous tensors go to
 * our kernel; any other layout to THC's strided cadd. */
int my_lib_add_forward_cuda(THCudaTensor *input1, THCudaTensor *input2,
			    THCudaTensor *output)
{
  if (!THCudaTensor_isSameSizeAs(state, input1, input2))
    return 0;
  THCudaTensor_resizeAs(state, output, input1);
  if (THCudaTensor_isContiguous(state, input1) &&
      THCudaTensor_isContiguous(state, input2) &&
      THCudaTensor_isContiguous(state, output)) {
    THCudaCheck(my_lib_add_forward_launch_float(
        THCudaTensor_data(state, input1), THCudaTensor_data(state, input2),
        THCudaTensor_data(state, output), THCudaTensor_nElement(state, output),
        THCState_getCurrentStream(state)));
  } else {
    THCudaTensor_cadd(state, output, input1, 1.0f, input2);
  }
  return 1;
}

int my_lib_add_backward_cuda(THCudaTensor *grad_output, THCudaTensor *grad_input)
{
  THCudaTensor_resizeAs(state, grad_input, grad_output);
  THCudaTensor_copy(state, grad_input, grad_output);
  return 1;
}

int my_lib_add_forward_cuda_double(THCudaDoubleTensor *input1,
				   THCudaDoubleTensor *input2,
				   THCudaDoubleTensor *output)
{
  if (!THCudaDoubleTensor_isSameSizeAs(state, input1, input2))
    return 0;
  THCudaDoubleTensor_resizeAs(state, output, input1);
  if (THCudaDoubleTensor_isContiguous(state, input1) &&
      THCudaDoubleTensor_isContiguous(state, input2) &&
      THCudaDoubleTensor_isContiguous(state, output)) {
    THCudaCheck(my_lib_add_forward_launch_double(
        THCudaDoubleTensor_data(state, input1), THCudaDoubleTensor_data(state, input2),
        THCudaDoubleTensor_data(state, output), THCudaDoubleTensor_nElement(state, output),
        THCState_getCurrentStream(state)));
  } else {
    THCudaDoubleTensor_cadd(state, output, input1, 1.0, input2);
  }
  return 1;
}

int my_lib_add_backward_cuda_double(THCudaDoubleTensor *grad_output,
				    THCudaDoubleTensor *grad_input)
{
  THCudaDoubleTensor_resizeAs(state, grad_input, grad_output);
  THCudaDoubleTensor_copy(state, grad_input, grad_output);
  return 1;
}
