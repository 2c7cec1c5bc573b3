/* THC layer: the legacy global state, devices, streams, CUDA error checks,
 * and the THC tensor functions that need no kernel. */
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
  /* Fetched from PyTorch once per call: the stream cannot change while the
   * call runs, since it holds the calling thread. */
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
  return device;
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
#define THFFI_ST state,
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#include "THC/THCGenerateAllTypes.h"
