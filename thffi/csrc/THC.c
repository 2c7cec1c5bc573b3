/* THC layer: the legacy global state, devices, streams, CUDA error checks,
 * device memory, and the THC tensor functions that need no kernel. */
#include <pthread.h>
#include "THC/THC.h"
#include "thffi_private.h"

struct THCState {
  int unused;
};
static THCState thffi_state;
THCState *state = &thffi_state;

static THFFIFrame *thffi_frame(void) {
  THFFIFrame *frame = THFFI_currentFrame();
  if (frame == NULL) THError("THC function called outside a wrapped call");
  return frame;
}

cudaStream_t THCState_getCurrentStream(THCState *s) {
  char err[THFFI_MSG_LEN];
  THFFIFrame *frame = thffi_frame();
  (void)s;
  /* Read by the entry point (THFFIPy_cudaStream) or else fetched here once
   * per call: the stream cannot change while the call runs, since it holds
   * the calling thread. */
  if (!frame->has_stream) {
    if (_thffi_stream_cb(frame->device, &frame->stream, err, sizeof err) != 0)
      THError("%s", err);
    frame->has_stream = 1;
  }
  return (cudaStream_t)frame->stream;
}

int THCState_getCurrentDevice(THCState *s) {
  int device;
  (void)s;
  THCudaCheck(cudaGetDevice(&device));
  THArgCheck(device >= 0 && device < THCFFI_MAX_DEVICES, 1, "device %d beyond the %d supported",
             device, THCFFI_MAX_DEVICES);
  return device;
}

struct cudaDeviceProp *THCState_getCurrentDeviceProperties(THCState *s) {
  static struct cudaDeviceProp props[THCFFI_MAX_DEVICES];
  static int loaded[THCFFI_MAX_DEVICES];
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  int device = THCState_getCurrentDevice(s);
  cudaError_t err = cudaSuccess;
  pthread_mutex_lock(&lock);
  if (!loaded[device]) {
    err = cudaGetDeviceProperties(&props[device], device);
    loaded[device] = err == cudaSuccess;
  }
  pthread_mutex_unlock(&lock);
  THCudaCheck(err);
  return &props[device];
}

/* Tells PyTorch's caching allocator to free ptr; never raises. */
static void thcffi_release(uintptr_t ptr) {
  char err[THFFI_MSG_LEN];
  _thffi_cuda_memory_cb(-1, 0, 0, &ptr, err, sizeof err);
}

cudaError_t THCudaMalloc(THCState *s, void **ptr, size_t size) {
  char err[THFFI_MSG_LEN];
  uintptr_t p = 0;
  THFFIFrame *frame = thffi_frame();
  THFFIAlloc *node;
  THArgCheck(ptr != NULL, 2, "expected a pointer to store the address in");
  *ptr = NULL;
  if (size == 0) return cudaSuccess;
  node = (THFFIAlloc *)malloc(sizeof *node);
  if (node == NULL) THError("out of memory");
  if (_thffi_cuda_memory_cb(THCState_getCurrentDevice(s),
                            (uintptr_t)THCState_getCurrentStream(s), size, &p, err,
                            sizeof err) != 0) {
    free(node);
    THError("%s", err);
  }
  node->ptr = p;
  node->next = frame->allocs;
  frame->allocs = node;
  *ptr = (void *)p;
  return cudaSuccess;
}

void *THFFI_cudaMallocPtr(THCState *s, size_t size) {
  void *ptr;
  THCudaMalloc(s, &ptr, size);
  return ptr;
}

/* Stops tracking ptr in the call that allocated it, if one still runs. */
static void thcffi_forget(uintptr_t ptr) {
  THFFIFrame *frame;
  for (frame = THFFI_currentFrame(); frame != NULL; frame = frame->prev) {
    THFFIAlloc **link = &frame->allocs;
    for (; *link != NULL; link = &(*link)->next) {
      if ((*link)->ptr == ptr) {
        THFFIAlloc *node = *link;
        *link = node->next;
        free(node);
        return;
      }
    }
  }
}

cudaError_t THCudaFree(THCState *s, void *ptr) {
  (void)s;
  if (ptr == NULL) return cudaSuccess;
  thcffi_forget((uintptr_t)ptr);
  thcffi_release((uintptr_t)ptr);
  return cudaSuccess;
}

void THCFFI_keepAlloc(uintptr_t ptr) { thcffi_forget(ptr); }

void THCFFI_releaseCudaMalloc(void *allocator, void *ctx, void *data) {
  (void)allocator;
  (void)ctx;
  thcffi_release((uintptr_t)data);
}

void THCFFI_releaseWithDeviceAllocator(void *allocator, void *ctx, void *data) {
  THCDeviceAllocator *a = (THCDeviceAllocator *)allocator;
  if (a->free != NULL) a->free(ctx, data);
}

/* THCState_getDeviceAllocator's: PyTorch's caching allocator on the current
 * device; what it gives is the caller's (not freed when the call fails). */
static cudaError_t thcffi_allocator_malloc(void *ctx, void **ptr, size_t size,
                                           cudaStream_t stream) {
  char err[THFFI_MSG_LEN];
  uintptr_t p = 0;
  int device;
  (void)ctx;
  *ptr = NULL;
  if (size == 0) return cudaSuccess;
  if (cudaGetDevice(&device) != cudaSuccess ||
      _thffi_cuda_memory_cb(device, (uintptr_t)stream, size, &p, err, sizeof err) != 0)
    return cudaErrorMemoryAllocation;
  *ptr = (void *)p;
  return cudaSuccess;
}

static cudaError_t thcffi_allocator_free(void *ctx, void *ptr) {
  (void)ctx;
  if (ptr != NULL) thcffi_release((uintptr_t)ptr);
  return cudaSuccess;
}

static THCDeviceAllocator thcffi_device_allocator = {
    thcffi_allocator_malloc, NULL, thcffi_allocator_free, NULL, NULL, NULL};

THCDeviceAllocator *THCState_getDeviceAllocator(THCState *state) {
  (void)state;
  return &thcffi_device_allocator;
}

void THCFFI_freeAllocs(THFFIFrame *frame) {
  while (frame->allocs != NULL) {
    THFFIAlloc *node = frame->allocs;
    frame->allocs = node->next;
    thcffi_release(node->ptr);
    free(node);
  }
}

void __THCudaCheck(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess)
    _THError(file, line, "cuda runtime error (%d) : %s", (int)err, cudaGetErrorString(err));
}

int THCFFI_enterDevice(int device) {
  int previous;
  if (device < 0) return -1;
  THCudaCheck(cudaGetDevice(&previous));
  if (previous == device) return -1;
  THCudaCheck(cudaSetDevice(device));
  return previous;
}

void THCFFI_leaveDevice(int previous) {
  /* Restoring runs after the call, also after an error: it must not raise. */
  if (previous >= 0) cudaSetDevice(previous);
}

#define THFFI_T THCTensor
#define THFFI_S THCStorage
#define THFFI_F(NAME) THCTensor_(NAME)
#define THFFI_SF(NAME) THCStorage_(NAME)
#define THFFI_STATE THCState *state,
#define THFFI_NEW_DEVICE THCState_getCurrentDevice(state)
#define THFFI_STATE_ONLY THCState *state
#define THFFI_ST state,
#define THFFI_THC
#define THFFI_TYPE_NAME "torch.cuda." TH_CONCAT_STRING_2(Real, Tensor)
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#include "THC/THCGenerateHalfType.h"
#define TH_GENERIC_FILE "generic/THCTensor.c"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/THCTensor.c"
#include "THC/THCGenerateHalfType.h"
