// Legacy <THC/THCDeviceTensorUtils-inl.cuh>: toDeviceTensor's definitions,
// which thffi keeps in THCDeviceTensorUtils.cuh.
#include "THCDeviceTensorUtils.cuh"
