/* Legacy THC's cuSPARSE handle (THCState_getCurrentSparseHandle).
 * cuSPARSE is found at run time, as cuBLAS is (THCBlas.c): the library
 * PyTorch loaded if it did, else the one the loader finds; building needs no
 * cuSPARSE headers or library. */
#include <dlfcn.h>
#include <pthread.h>
#include "THC/THC.h"
#include "thffi_private.h"

/* cusparseCreate and cusparseSetStream, status as int (0: success). */
static struct {
  int (*create)(void **handle);
  int (*set_stream)(void *handle, cudaStream_t stream);
  char error[256];
} thcffi_cusparse;
static pthread_once_t thcffi_cusparse_once = PTHREAD_ONCE_INIT;

static void thcffi_load_cusparse(void) {
  /* cuSPARSE's soname major is its own: the toolkit's, then earlier ones */
  char names[4][32];
  void *lib = NULL;
  int i;
  snprintf(names[0], sizeof names[0], "libcusparse.so.%d", CUDART_VERSION / 1000);
  snprintf(names[1], sizeof names[1], "libcusparse.so.%d", CUDART_VERSION / 1000 - 1);
  snprintf(names[2], sizeof names[2], "libcusparse.so.%d", CUDART_VERSION / 1000 - 2);
  snprintf(names[3], sizeof names[3], "libcusparse.so");
  for (i = 0; i < 4 && lib == NULL; i++) lib = dlopen(names[i], RTLD_NOW | RTLD_NOLOAD);
  for (i = 0; i < 4 && lib == NULL; i++) lib = dlopen(names[i], RTLD_NOW);
  if (lib == NULL) {
    snprintf(thcffi_cusparse.error, sizeof thcffi_cusparse.error,
             "cuSPARSE (%s) could not be loaded: %s", names[0], dlerror());
    return;
  }
  *(void **)&thcffi_cusparse.create = dlsym(lib, "cusparseCreate");
  *(void **)&thcffi_cusparse.set_stream = dlsym(lib, "cusparseSetStream");
  if (thcffi_cusparse.create == NULL || thcffi_cusparse.set_stream == NULL)
    snprintf(thcffi_cusparse.error, sizeof thcffi_cusparse.error,
             "cuSPARSE lacks cusparseCreate or cusparseSetStream");
}

struct cusparseContext *THCState_getCurrentSparseHandle(THCState *s) {
  static __thread void *handles[THCFFI_MAX_DEVICES];
  int device = THCState_getCurrentDevice(s), status;
  pthread_once(&thcffi_cusparse_once, thcffi_load_cusparse);
  if (thcffi_cusparse.error[0]) THError("%s", thcffi_cusparse.error);
  if (handles[device] == NULL && (status = thcffi_cusparse.create(&handles[device])) != 0)
    THError("cusparse runtime error : cusparseCreate failed with status %d", status);
  if ((status = thcffi_cusparse.set_stream(handles[device], THCState_getCurrentStream(s))) != 0)
    THError("cusparse runtime error : cusparseSetStream failed with status %d", status);
  return (struct cusparseContext *)handles[device];
}
