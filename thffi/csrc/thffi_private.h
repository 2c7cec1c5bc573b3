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

/* Resizes the torch tensor that is argument `ref` of the current call to
 * `dim` sizes, in place, then reports its strides and data pointer. */
int _thffi_resize_cb(int64_t ref, int dim, const int64_t *size,
                     int64_t *stride_out, uintptr_t *data_out,
                     char *err, size_t errlen);

/* CUDA builds only: PyTorch's current stream on `device` (-1: the current
 * device) for the calling thread. */
int _thffi_stream_cb(int device, uintptr_t *stream_out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
