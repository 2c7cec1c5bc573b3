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

cudaStream_t THCState_getCurrentStream(THCState *s) {
  char err[THFFI_MSG_LEN];
  THFFIFrame *frame = THFFI_currentFrame();
  uintptr_t stream;
  (void)s;
  /* Read by the entry point (THFFIPy_cudaStream) or else fetched here once
   * per call: the stream cannot change while the call runs, since it holds
   * the calling thread.  The threads the call starts have it too
   * (thcffi_share); one that thffi did not see start, outside every call,
   * gets PyTorch's current stream for it, each time. */
  if (frame == NULL) {
    if (_thffi_stream_cb(-1, &stream, err, sizeof err) != 0) THError("%s", err);
    return (cudaStream_t)stream;
  }
  if (!frame->has_stream) {
    if (_thffi_stream_cb(frame->device, &frame->stream, err, sizeof err) != 0)
      THError("%s", err);
    frame->has_stream = 1;
  }
  return (cudaStream_t)frame->stream;
}

/* Threads of a CUDA call: they use the call's stream, read on the calling
 * thread before the first starts (PyTorch's current stream is per thread),
 * and its device, current on them while they work for it. */
static void thcffi_share(THFFIFrame *frame) {
  if (frame->device >= 0) THCState_getCurrentStream(state);
}

static THFFICudaHooks thcffi_hooks = {thcffi_share, THCFFI_enterDevice, THCFFI_leaveDevice};

__attribute__((constructor)) static void thcffi_install_hooks(void) {
  THFFI_cudaHooks = &thcffi_hooks;
}

int THCState_getCurrentDevice(THCState *s) {
  int device;
  (void)s;
  THCudaCheck(cudaGetDevice(&device));
  THArgCheck(device >= 0 && device < THCFFI_MAX_DEVICES, 1, "device %d beyond the %d supported",
             device, THCFFI_MAX_DEVICES);
  return device;
}

struct cudaDeviceProp *THCState_getDeviceProperties(THCState *s, int device) {
  static struct cudaDeviceProp props[THCFFI_MAX_DEVICES];
  static int loaded[THCFFI_MAX_DEVICES];
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  cudaError_t err = cudaSuccess;
  (void)s;
  THArgCheck(device >= 0 && device < THCFFI_MAX_DEVICES, 2, "device %d beyond the %d supported",
             device, THCFFI_MAX_DEVICES);
  pthread_mutex_lock(&lock);
  if (!loaded[device]) {
    err = cudaGetDeviceProperties(&props[device], device);
    loaded[device] = err == cudaSuccess;
  }
  pthread_mutex_unlock(&lock);
  THCudaCheck(err);
  return &props[device];
}

struct cudaDeviceProp *THCState_getCurrentDeviceProperties(THCState *s) {
  return THCState_getDeviceProperties(s, THCState_getCurrentDevice(s));
}

/* Tells PyTorch's caching allocator to free ptr; never raises. */
static void thcffi_release(uintptr_t ptr) {
  char err[THFFI_MSG_LEN];
  _thffi_cuda_memory_cb(-1, 0, 0, &ptr, err, sizeof err);
}

/* THCSetGCHandler's: run when an allocation fails, before one retry. */
static void (*thcffi_gc_handler)(void *data) = NULL;
static void *thcffi_gc_data = NULL;

void THCSetGCHandler(THCState *s, void (*torchGCHandlerFunction)(void *data), void *data) {
  (void)s;
  thcffi_gc_handler = torchGCHandlerFunction;
  thcffi_gc_data = data;
}

cudaError_t THCudaMalloc(THCState *s, void **ptr, size_t size) {
  char err[THFFI_MSG_LEN];
  uintptr_t p = 0;
  THFFIAlloc *node;
  THArgCheck(ptr != NULL, 2, "expected a pointer to store the address in");
  *ptr = NULL;
  if (size == 0) return cudaSuccess;
  node = (THFFIAlloc *)malloc(sizeof *node);
  if (node == NULL) THError("out of memory");
  if (_thffi_cuda_memory_cb(THCState_getCurrentDevice(s),
                            (uintptr_t)THCState_getCurrentStream(s), size, &p, err,
                            sizeof err) != 0 &&
      (thcffi_gc_handler == NULL || (thcffi_gc_handler(thcffi_gc_data), 0) ||
       _thffi_cuda_memory_cb(THCState_getCurrentDevice(s),
                             (uintptr_t)THCState_getCurrentStream(s), size, &p, err,
                             sizeof err) != 0)) {
    free(node);
    THError("%s", err);
  }
  node->ptr = p;
  /* outside a live call the block is the caller's to free, as in legacy THC */
  if (!THFFI_trackAlloc(node)) free(node);
  *ptr = (void *)p;
  return cudaSuccess;
}

void *THFFI_cudaMallocPtr(THCState *s, size_t size) {
  void *ptr;
  THCudaMalloc(s, &ptr, size);
  return ptr;
}

cudaError_t THCudaFree(THCState *s, void *ptr) {
  (void)s;
  if (ptr == NULL) return cudaSuccess;
  THFFI_untrackAlloc((uintptr_t)ptr);
  thcffi_release((uintptr_t)ptr);
  return cudaSuccess;
}

void THCFFI_keepAlloc(uintptr_t ptr) { THFFI_untrackAlloc(ptr); }

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

/* ---- the rest of legacy THCGeneral.h ---- */

THCState *THCState_alloc(void) {
  THCState *s = (THCState *)calloc(1, sizeof(THCState));
  if (s == NULL) THError("out of memory allocating a THCState");
  return s;
}

void THCState_free(THCState *s) {
  if (s != &thffi_state) free(s);
}

/* PyTorch initialized CUDA, cuBLAS and its allocators already. */
void THCudaInit(THCState *s) { (void)s; }
void THCudaShutdown(THCState *s) { (void)s; }
void THCMagma_init(THCState *s) { (void)s; }

int THCState_getNumDevices(THCState *s) {
  int count;
  (void)s;
  THCudaCheck(cudaGetDeviceCount(&count));
  return count;
}

cudaStream_t THCState_getCurrentStreamOnDevice(THCState *s, int device) {
  char err[THFFI_MSG_LEN];
  uintptr_t stream;
  (void)s;
  THArgCheck(device >= 0 && device < THCState_getNumDevices(s), 2, "invalid device %d", device);
  if (_thffi_stream_cb(device, &stream, err, sizeof err) != 0) THError("%s", err);
  return (cudaStream_t)stream;
}

int THCState_isCachingAllocatorEnabled(THCState *s) {
  (void)s;
  return 1;  /* THCudaMalloc is PyTorch's caching allocator */
}

/* Kernels reading another device's memory: whether thffi code may (a flag
 * legacy code consults), and CUDA's peer access between two devices. */
static int thcffi_kernel_p2p = 1;

int THCState_getKernelPeerToPeerAccessEnabled(THCState *s) {
  (void)s;
  return thcffi_kernel_p2p;
}

void THCState_setKernelPeerToPeerAccessEnabled(THCState *s, int val) {
  (void)s;
  thcffi_kernel_p2p = val != 0;
}

int THCState_getPeerToPeerAccess(THCState *s, int dev, int devToAccess) {
  int can;
  int n = THCState_getNumDevices(s);
  THArgCheck(dev >= 0 && dev < n, 2, "%d is not a device", dev);
  THArgCheck(devToAccess >= 0 && devToAccess < n, 3, "%d is not a device", devToAccess);
  if (dev == devToAccess) return 1;
  THCudaCheck(cudaDeviceCanAccessPeer(&can, dev, devToAccess));
  return can;
}

void THCState_setPeerToPeerAccess(THCState *s, int dev, int devToAccess, int enable) {
  int previous;
  cudaError_t err;
  THArgCheck(THCState_getPeerToPeerAccess(s, dev, devToAccess) || !enable, 3,
             "device %d cannot access device %d", dev, devToAccess);
  if (dev == devToAccess) return;
  THCudaCheck(cudaGetDevice(&previous));
  THCudaCheck(cudaSetDevice(dev));
  err = enable ? cudaDeviceEnablePeerAccess(devToAccess, 0) : cudaDeviceDisablePeerAccess(devToAccess);
  cudaSetDevice(previous);
  /* already in the state asked for: fine, as legacy THC */
  if (err == cudaErrorPeerAccessAlreadyEnabled || err == cudaErrorPeerAccessNotEnabled) {
    cudaGetLastError();
    err = cudaSuccess;
  }
  THCudaCheck(err);
}

/* Pinned host memory (THCState_getCudaHostAllocator, THCudaHostAlloc) and
 * managed memory (the UVA allocator), straight from CUDA. */
static void *thcffi_host_malloc(void *ctx, ptrdiff_t size) {
  void *ptr = NULL;
  (void)ctx;
  if (size > 0) THCudaCheck(cudaHostAlloc(&ptr, (size_t)size, cudaHostAllocDefault));
  return ptr;
}

static void thcffi_host_free(void *ctx, void *ptr) {
  (void)ctx;
  if (ptr != NULL) THCudaCheck(cudaFreeHost(ptr));
}

static void *thcffi_uva_malloc(void *ctx, ptrdiff_t size) {
  void *ptr = NULL;
  (void)ctx;
  if (size > 0) THCudaCheck(cudaMallocManaged(&ptr, (size_t)size, cudaMemAttachGlobal));
  return ptr;
}

static void thcffi_uva_free(void *ctx, void *ptr) {
  (void)ctx;
  if (ptr != NULL) THCudaCheck(cudaFree(ptr));
}

static THAllocator thcffi_host_allocator = {thcffi_host_malloc, NULL, thcffi_host_free};
static THAllocator thcffi_uva_allocator = {thcffi_uva_malloc, NULL, thcffi_uva_free};

THAllocator *THCState_getCudaHostAllocator(THCState *s) {
  (void)s;
  return &thcffi_host_allocator;
}

THAllocator *THCState_getCudaUVAAllocator(THCState *s) {
  (void)s;
  return &thcffi_uva_allocator;
}

void *THCudaHostAlloc(THCState *s, size_t size) {
  (void)s;
  return thcffi_host_malloc(NULL, (ptrdiff_t)size);
}

void THCudaHostFree(THCState *s, void *ptr) {
  (void)s;
  thcffi_host_free(NULL, ptr);
}

/* Pinned memory here is never reused behind the caller's back (it is not
 * cached), so there is no use to record. */
void THCudaHostRecord(THCState *s, void *ptr) {
  (void)s;
  (void)ptr;
}

cudaError_t THCudaMemGetInfo(THCState *s, size_t *freeBytes, size_t *totalBytes) {
  (void)s;
  THArgCheck(freeBytes != NULL && totalBytes != NULL, 2, "expected two size_t pointers");
  return cudaMemGetInfo(freeBytes, totalBytes);
}

void __THCudaCheckWarn(cudaError_t err, const char *file, const int line) {
  if (err != cudaSuccess)
    fprintf(stderr, "THCudaCheckWarn FAIL file=%s line=%i error=%i : %s\n", file, line,
            (int)err, cudaGetErrorString(err));
}

void __THCublasCheck(int status, const char *file, const int line) {
  const char *text;
  if (status == 0) return;
  switch (status) {  /* cublasStatus_t's values */
    case 1: text = "library not initialized"; break;
    case 3: text = "resource allocation failed"; break;
    case 7: text = "an invalid numeric value was used as an argument"; break;
    case 8: text = "an absent device architectural feature is required"; break;
    case 11: text = "an access to GPU memory space failed"; break;
    case 13: text = "the GPU program failed to execute"; break;
    case 14: text = "an internal operation failed"; break;
    case 15: text = "the functionality requested is not supported"; break;
    default: text = "unknown error"; break;
  }
  _THError(file, line, "cublas runtime error : %s", text);
}

void __THCusparseCheck(int status, const char *file, const int line) {
  const char *text;
  if (status == 0) return;
  switch (status) {  /* cusparseStatus_t's values */
    case 1: text = "library not initialized"; break;
    case 2: text = "resource allocation failed"; break;
    case 3: text = "an invalid numeric value was used as an argument"; break;
    case 4: text = "an absent device architectural feature is required"; break;
    case 5: text = "an access to GPU memory space failed"; break;
    case 6: text = "the GPU program failed to execute"; break;
    case 7: text = "an internal operation failed"; break;
    case 8: text = "the matrix type is not supported by this function"; break;
    default: text = "unknown error"; break;
  }
  _THError(file, line, "cusparse runtime error : %s", text);
}
