#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "THC/generic/THCStorage.h"
#else

/* The storage and tensor structs of this type: the layout of the TH types
 * (TH/THGeneral.h).  Their data pointers are device pointers. */
THFFI_DEFINE_TENSOR(THCTensor, THCStorage, real);

/* The size of one element, in bytes. */
TH_API int THCStorage_(elementSize)(THCState *state);

#endif
