#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "THC/generic/THCStorage.h"
#else

/* The storage and tensor structs of this type: the layout of the TH types
 * (TH/THGeneral.h).  Their data pointers are device pointers. */
THFFI_DEFINE_TENSOR(THCTensor, THCStorage, real);

/* The size of one element, in bytes. */
TH_API int THCStorage_(elementSize)(THCState *state);

/* Storages over device memory given to them, which they own from then on:
 * freed once the storage and every tensor viewing it are gone.  newWithData
 * takes memory from THCudaMalloc (legacy THC's default allocator). */
TH_API THCStorage *THCStorage_(newWithData)(THCState *state, real *data, ptrdiff_t size);
TH_API THCStorage *THCStorage_(newWithDataAndAllocator)(THCState *state, real *data,
                                                        ptrdiff_t size,
                                                        THCDeviceAllocator *allocator,
                                                        void *allocatorContext);
TH_API THCStorage *THCStorage_(newWithAllocator)(THCState *state, ptrdiff_t size,
                                                 THCDeviceAllocator *allocator,
                                                 void *allocatorContext);
/* Raises "not available yet for THCStorage", as legacy THC did. */
TH_API THCStorage *THCStorage_(newWithMapping)(THCState *state, const char *filename,
                                               ptrdiff_t size, int shared);

#endif
