#include <THC/THC.h>
#include "cuda/shift_kernel.h"

extern THCState *state;

int shift_cuda(THCudaTensor *data, float by)
{
    return shift_launcher(THCudaTensor_data(state, data),
                          THCudaTensor_nElement(state, data), by,
                          THCState_getCurrentStream(state));
}
