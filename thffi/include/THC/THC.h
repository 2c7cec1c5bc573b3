/* thffi: drop-in replacement for the legacy <THC/THC.h>.  Compiles as C99,
 * as C++ and under nvcc. */
#ifndef THFFI_THC_H
#define THFFI_THC_H

#include <TH/TH.h>
#include <cuda_runtime_api.h>

#include "THCGeneral.h"
#include "THCBlas.h"
#include "THCSleep.h"
#include "THCTensor.h"
#include "THCTensorCopy.h"
#include "THCTensorMath.h"
#include "THCTensorRandom.h"

#endif
