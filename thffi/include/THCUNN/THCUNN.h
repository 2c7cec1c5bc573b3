// Legacy <THCUNN/THCUNN.h> (PyTorch 0.3-0.4's source tree; the wheels
// shipped THCUNN's *.cuh only): what THCUNN-style code written beside
// THCUNN took from it, THC's API and the names of THCUNN's generic code.
// THNN_(NAME) names a function of the type being generated
// (THNN_CudaName, THNN_CudaDoubleName, THNN_CudaHalfName), as THCUNN named
// its own; THCIndexTensor is its index type, THCudaLongTensor.
//
// THCUNN's own layer functions (generic/THCUNN.h: THNN_CudaSpatial...
// _updateOutput and the others) are not declared: thffi does not provide
// them (docs/porting/not_supported.md); call torch.nn.functional from
// Python before or after the C call.
#ifndef THFFI_THCUNN_H
#define THFFI_THCUNN_H

#include "THC/THC.h"

#ifndef THCIndexTensor
#define THCIndexTensor THCudaLongTensor
#define THCIndexTensor_(NAME) THCudaLongTensor_##NAME
#endif
typedef int64_t THCIndex_t;

#define THNN_(NAME) TH_CONCAT_3(THNN_, CReal, NAME)

#endif
