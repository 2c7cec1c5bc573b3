/* Private to thffi's own C sources. */
#ifndef THFFI_PRIVATE_H
#define THFFI_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function checks its tensor arguments for NULL (a None from Python),
 * so a missing argument is an error rather than a crash. */
#define THFFI_NONNULL(t, argn) \
  THArgCheck((t) != NULL, argn, "expected a tensor, got NULL (None)")

/* Callbacks into Python, defined by the cffi module of each extension
 * (extern "Python+C" in the builder's cdef).  They run with the GIL taken by
 * cffi and never raise: a failure returns non-zero with a message in `err`. */

/* Does `op` (THFFI_OP_*) to the torch tensor `ref` (see
 * THFFITensorPriv.ref), `src_ref` being the source of views and copies, or
 * makes a new one (NEW: `dtype`, `device` (-1: CPU), sizes `args`); then
 * reports the result's reference, number of dimensions, sizes, strides and
 * data pointer.  RELEASE drops a created tensor and reports nothing. */
int _thffi_tensor_cb(int op, int64_t ref, int64_t src_ref, int dtype, int device, int n,
                     const int64_t *args, int64_t *ref_out, int *dim_out,
                     int64_t *size_out, int64_t *stride_out, uintptr_t *data_out,
                     char *err, size_t errlen);

/* CUDA builds only: PyTorch's current stream on `device` (-1: the current
 * device) for the calling thread. */
int _thffi_stream_cb(int device, uintptr_t *stream_out, char *err, size_t errlen);
/* CUDA builds only: PyTorch's caching allocator.  `size` > 0 allocates on
 * `device` for `stream` into *ptr; size 0 frees *ptr. */
int _thffi_cuda_memory_cb(int device, uintptr_t stream, size_t size, uintptr_t *ptr,
                          char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
