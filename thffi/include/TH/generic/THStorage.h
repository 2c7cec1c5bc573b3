#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#else

/* Layout of TH 0.3's THStorage.  In thffi a storage describes the memory of
 * one torch tensor; it is owned by PyTorch, never by C. */
typedef struct THStorage {
  real *data;
  ptrdiff_t size;
  int refcount;
  char flag;
  void *allocator;
  void *allocatorContext;
  struct THStorage *view;
} THStorage;

TH_API real *THStorage_(data)(const THStorage *self);
TH_API ptrdiff_t THStorage_(size)(const THStorage *self);

#endif
