#include <THC/THC.h>
#include "cuda/roi_pooling_kernel.h"

extern THCState *state;

/* GPU twins of src/roi_pooling.c, float and double from one generic file. */
#define roi_pooling_cuda_(NAME) TH_CONCAT_4(roi_pooling_, NAME, _cuda, ROI_SUFFIX)
#define roi_launch_(NAME) TH_CONCAT_4(roi_pooling_, NAME, _launch_, real)

#define ROI_SUFFIX
#define real float
#define CReal Cuda
#include "generic/roi_pooling_cuda.c"
#undef ROI_SUFFIX
#undef real
#undef CReal

#define ROI_SUFFIX _double
#define real double
#define CReal CudaDouble
#include "generic/roi_pooling_cuda.c"
#undef ROI_SUFFIX
#undef real
#undef CReal
