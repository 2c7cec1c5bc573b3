#ifndef THFFI_THC_TENSOR_COPY_H
#define THFFI_THC_TENSOR_COPY_H

#include "THCTensor.h"

/* Copies between THC types and between the GPU and the CPU
 * (generic/THCTensorCopy.h), as legacy THC's THCTensorCopy.h;
 * THCTensor_(copy) itself is declared in generic/THCTensor.h. */
#define TH_GENERIC_FILE "THC/generic/THCTensorCopy.h"
#include "THC/THCGenerateAllTypes.h"

#endif
