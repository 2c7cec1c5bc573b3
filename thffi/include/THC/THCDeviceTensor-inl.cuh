// Legacy <THC/THCDeviceTensor-inl.cuh>: THCDeviceTensor's member definitions,
// which thffi keeps in THCDeviceTensor.cuh.
#include "THCDeviceTensor.cuh"
