#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#else

/* The storage and tensor structs of this type (THGeneral.h). */
THFFI_DEFINE_TENSOR(TH_CONCAT_3(TH, Real, Tensor), THStorage, real);

/* The size of one element, in bytes. */
TH_API size_t THStorage_(elementSize)(void);

#endif
