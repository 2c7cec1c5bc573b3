/* TH copies between tensor types (THTensor_(copyByte) ... copyDouble): one
 * strided conversion loop per pair of types, run on PyTorch's OpenMP
 * threads for large tensors as THTensor_(copy) is. */
#include "THTensorOpsCommon.h"

#define TH_GENERIC_FILE "generic/THTensorCopy.c"
#include "TH/THGenerateAllTypes.h"
