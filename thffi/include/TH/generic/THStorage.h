#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#else

/* The storage and tensor structs of this type (THGeneral.h). */
THFFI_DEFINE_TENSOR(TH_CONCAT_3(TH, Real, Tensor), THStorage, real);

/* The size of one element, in bytes. */
TH_API size_t THStorage_(elementSize)(void);

/* Storages over memory given to them, which they own from then on: freed
 * (with free, or the allocator's free) once the storage and every tensor
 * viewing it are gone.  Not resizable.  newWithData takes memory from
 * malloc or THAlloc.  newWithAllocator has PyTorch 0.3's three arguments
 * and 0.4's two (no context), told apart by their number (TH/THStorage.h). */
TH_API THStorage *THStorage_(newWithData)(real *data, ptrdiff_t size);
TH_API THStorage *THStorage_(newWithDataAndAllocator)(real *data, ptrdiff_t size,
                                                      THAllocator *allocator,
                                                      void *allocatorContext);
TH_API THStorage *THStorage_(newWithAllocator)(ptrdiff_t size, THAllocator *allocator,
                                               void *allocatorContext);
TH_API THStorage *THStorage_(thffiNewWithAllocator2)(ptrdiff_t size, THAllocator *allocator);
/* `size` elements of the file (0: all of it), mapped: flags
 * TH_ALLOCATOR_MAPPED_SHARED shares them with the file (created or grown
 * as needed), 0 maps a private copy. */
TH_API THStorage *THStorage_(newWithMapping)(const char *filename, ptrdiff_t size, int flags);

#endif
