/* TH's functions on size storages (THLongStorage as a shape) and on any
 * storage type (TH/THStorage.h): legacy TH's shape inference and
 * broadcasting rules, and messages. */
#include "TH/TH.h"
#include "thffi_private.h"

THDescBuff THLongStorage_sizeDesc(const THLongStorage *size) {
  THArgCheck(size != NULL, 1, "expected a size storage, got NULL");
  return _THSizeDesc(size->data, size->size);
}

/* A copy of size with its one -1 (if any) replaced so that it holds
 * nElement elements. */
THLongStorage *THLongStorage_newInferSize(THLongStorage *size, ptrdiff_t nElement) {
  ptrdiff_t total = 1, infer = -1, d;
  THLongStorage *copy;
  THArgCheck(size != NULL, 1, "expected a size storage, got NULL");
  if (size->size == 0) total = 0;
  for (d = 0; d < size->size; d++) {
    if (size->data[d] == -1) {
      THArgCheck(infer == -1, 1, "only one dimension can be inferred");
      infer = d;
    } else {
      total *= size->data[d];
    }
  }
  if (infer != -1)
    THArgCheck(total > 0 && nElement % total == 0, 2,
               "size '%s' is invalid for input with %lld elements",
               THLongStorage_sizeDesc(size).str, (long long)nElement);
  else
    THArgCheck(nElement == total, 2, "size '%s' is invalid for input with %lld elements",
               THLongStorage_sizeDesc(size).str, (long long)nElement);
  copy = THLongStorage_newWithSize(size->size);
  memcpy(copy->data, size->data, size->size * sizeof(int64_t));
  if (infer != -1) copy->data[infer] = nElement / total;
  return copy;
}

/* The broadcast shape of n shapes (sizes[i] with dims[i] dimensions) into
 * output (resized); -1 with the reason in error_buffer when they do not
 * broadcast. */
int THLongStorage_inferSizeN(THLongStorage *output, int n, int64_t **sizes, int64_t *dims,
                             char *error_buffer, int buffer_len) {
  int64_t ndim = 0, *expanded;
  int i, j;
  THArgCheck(output != NULL, 1, "expected a size storage, got NULL");
  THArgCheck(n > 0, 2, "n must be greater than 0");
  THArgCheck(sizes != NULL && dims != NULL, 3, "sizes and dims must not be NULL");
  for (j = 0; j < n; j++) ndim = THMax(ndim, dims[j]);
  expanded = (int64_t *)THAlloc(sizeof(int64_t) * (ndim ? ndim : 1));
  for (i = (int)ndim - 1; i >= 0; i--) {
    int64_t target = 1, offset = ndim - 1 - i;
    for (j = 0; j < n; j++) {
      int64_t dim = dims[j] - 1 - offset, size = dim >= 0 ? sizes[j][dim] : 1;
      if (size == target || size == 1 || target == 1) {
        target = THMax(size, target);
      } else {
        THFree(expanded);
        snprintf(error_buffer, buffer_len,
                 "The size of tensor a (%" PRId64 ") must match the size of tensor b (%" PRId64
                 ") at non-singleton dimension %d.",
                 target, size, i);
        return -1;
      }
    }
    expanded[i] = target;
  }
  THLongStorage_resize(output, ndim);
  if (ndim > 0) memcpy(output->data, expanded, sizeof(int64_t) * ndim);
  THFree(expanded);
  return 0;
}

int THLongStorage_inferSize2(THLongStorage *output, int64_t *sizesA, int64_t dimsA,
                             int64_t *sizesB, int64_t dimsB, char *error_buffer,
                             int buffer_len) {
  int64_t *sizes[2], dims[2];
  THArgCheck(sizesA != NULL, 2, "sizesA must not be NULL");
  THArgCheck(sizesB != NULL, 4, "sizesB must not be NULL");
  sizes[0] = sizesA;
  sizes[1] = sizesB;
  dims[0] = dimsA;
  dims[1] = dimsB;
  return THLongStorage_inferSizeN(output, 2, sizes, dims, error_buffer, buffer_len);
}

/* The sizes and strides (THAlloc'ed, for the caller to THFree) of the
 * tensor (tensorSizes, tensorStrides, tensorDim) expanded to `sizes` (-1:
 * keep that size): its dimensions of size 1 get stride 0.  -1 with the
 * reason in error_buffer when it cannot expand. */
int THLongStorage_inferExpandGeometry(int64_t *tensorSizes, int64_t *tensorStrides,
                                      int64_t tensorDim, THLongStorage *sizes,
                                      int64_t **expandedSizes, int64_t **expandedStrides,
                                      char *error_buffer, int buffer_len) {
  ptrdiff_t ndim, i;
  int64_t *out_sizes, *out_strides;
  THArgCheck(sizes != NULL, 4, "expected a size storage, got NULL");
  ndim = sizes->size;
  out_sizes = (int64_t *)THAlloc(sizeof(int64_t) * (ndim ? ndim : 1));
  out_strides = (int64_t *)THAlloc(sizeof(int64_t) * (ndim ? ndim : 1));
  for (i = ndim - 1; i >= 0; i--) {
    int64_t dim = tensorDim - 1 - (ndim - 1 - i);
    int64_t size = dim >= 0 ? tensorSizes[dim] : 1;
    int64_t stride = dim >= 0 ? tensorStrides[dim]
                              : (i + 1 < ndim ? out_sizes[i + 1] * out_strides[i + 1] : 1);
    int64_t target = sizes->data[i];
    if (target == -1) {
      if (dim < 0) {
        THFree(out_sizes);
        THFree(out_strides);
        snprintf(error_buffer, buffer_len,
                 "The expanded size of the tensor (%" PRId64 ") isn't allowed in a leading, "
                 "non-existing dimension %lld.",
                 target, (long long)i);
        return -1;
      }
      target = size;
    }
    if (size != target) {
      if (size != 1) {
        THFree(out_sizes);
        THFree(out_strides);
        snprintf(error_buffer, buffer_len,
                 "The expanded size of the tensor (%" PRId64 ") must match the existing size (%"
                 PRId64 ") at non-singleton dimension %lld.",
                 target, size, (long long)i);
        return -1;
      }
      size = target;
      stride = 0;
    }
    out_sizes[i] = size;
    out_strides[i] = stride;
  }
  *expandedSizes = out_sizes;
  *expandedStrides = out_strides;
  return 0;
}

/* PyTorch 0.4's type-less THStorage_free: every storage type has one
 * layout and one way to be freed. */
void THStorage_free(void *storage) { THByteStorage_free((THByteStorage *)storage); }
