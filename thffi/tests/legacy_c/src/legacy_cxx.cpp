// C++ as PyTorch 0.4 allowed it: one tensor type for all, so a long tensor
// went to THFloatTensor_* functions that only look at its shape.
#include <TH.h>

extern "C" {

int64_t legacy_punned_size(THLongTensor *indices, int dim)
{
  return THFloatTensor_size(indices, dim);
}

int legacy_punned_contiguous(THLongTensor *indices)
{
  return THFloatTensor_isContiguous(indices) && THFloatTensor_nElement(indices) >= 0;
}

}
