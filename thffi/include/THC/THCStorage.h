/* Legacy <THC/THCStorage.h>: THC's storages, which thffi declares with its
 * tensors. */
#include "THCTensor.h"
