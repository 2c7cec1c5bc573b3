/* Callbacks into Python, defined by the cffi module of each extension
 * (extern "Python+C" in the builder's cdef).  They run with the GIL taken by
 * cffi and never raise: a failure returns non-zero with a message in `err`. */
#ifndef THFFI_CALLBACKS_H
#define THFFI_CALLBACKS_H

#include <stddef.h>
#include <stdint.h>

/* Resizes the torch tensor that is argument `ref` of the current call to
 * `dim` sizes, in place, then reports its strides and data pointer. */
int _thffi_resize_cb(int64_t ref, int dim, const int64_t *size,
                     int64_t *stride_out, uintptr_t *data_out,
                     char *err, size_t errlen);

#endif
