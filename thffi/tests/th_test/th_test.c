#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <ctype.h>
#include <string.h>
#include <time.h>
#include <TH/TH.h>
#include "th_test.h"

int raise_error(int code) {
  THError("custom failure %d", code);
  return 1;
}

int check_positive(int x) {
  THArgCheck(x > 0, 1, "x must be positive, got %d", x);
  return 2 * x;
}

int nested_error(int depth) {
  if (depth == 0) THError("bottom reached");
  return nested_error(depth - 1) + 1;
}

int assert_fails(void) {
  THAssert(1 + 1 == 3);
  return 0;
}

int assert_msg_fails(int four) {
  THAssertMsg(four == 5, "%s: %d is not 5", TH_CONCAT_STRING_3(TH, Float, Tensor), four);
  return 0;
}

int is_null(THFloatTensor *t) { return t == NULL; }
int ndim(THFloatTensor *t) { return THFloatTensor_nDimension(t); }
int64_t nelement(THFloatTensor *t) { return THFloatTensor_nElement(t); }
int64_t size_of(THFloatTensor *t, int dim) { return THFloatTensor_size(t, dim); }
int64_t stride_of(THFloatTensor *t, int dim) { return THFloatTensor_stride(t, dim); }
int is_contiguous(THFloatTensor *t) { return THFloatTensor_isContiguous(t); }
int same_size(THFloatTensor *a, THFloatTensor *b) { return THFloatTensor_isSameSizeAs(a, b); }

/* Reads the struct fields directly, as much legacy code does. */
double sum_by_fields(THDoubleTensor *t) {
  double *data = t->storage->data + t->storageOffset, total = 0;
  int64_t index[8] = {0}, i, n = THDoubleTensor_nElement(t);
  int d, dims = t->nDimension;
  if (THDoubleTensor_data(t) != data) THError("data pointer mismatch");
  for (i = 0; i < n; i++) {
    int64_t offset = 0;
    for (d = 0; d < dims; d++) offset += index[d] * t->stride[d];
    total += data[offset];
    for (d = dims - 1; d >= 0; d--) {
      if (++index[d] < t->size[d]) break;
      index[d] = 0;
    }
  }
  return total;
}

void resize_nd(THFloatTensor *t, int n, int64_t s0, int64_t s1, int64_t s2, int64_t s3) {
  switch (n) {
    case 1: THFloatTensor_resize1d(t, s0); break;
    case 2: THFloatTensor_resize2d(t, s0, s1); break;
    case 3: THFloatTensor_resize3d(t, s0, s1, s2); break;
    case 4: THFloatTensor_resize4d(t, s0, s1, s2, s3); break;
    default: THError("resize_nd: n must be 1..4, got %d", n);
  }
}

void resize_as(THDoubleTensor *t, THDoubleTensor *like) { THDoubleTensor_resizeAs(t, like); }
void fill(THFloatTensor *t, float value) { THFloatTensor_fill(t, value); }
void zero(THDoubleTensor *t) { THDoubleTensor_zero(t); }
void copy(THFloatTensor *dst, THFloatTensor *src) { THFloatTensor_copy(dst, src); }
void cadd(THDoubleTensor *r, THDoubleTensor *t, double value, THDoubleTensor *src) {
  THDoubleTensor_cadd(r, t, value, src);
}

int resize_then_fail(THFloatTensor *t) {
  THFloatTensor_resize1d(t, 5);
  THFloatTensor_fill(t, 3);
  THError("failed after resizing");
  return 0;
}

double scale(double x, float factor, unsigned int times) { return x * factor * times; }
int64_t most_negative(void) { return INT64_MIN; }
double not_a_number(void) { return NAN; }
unsigned long long largest(void) { return 18446744073709551615ULL; }
void *echo_pointer(float *p) { return p; }
int string_length(const char *s) { return (int)strlen(s); }
int shout_first(char *s) {
  s[0] = (char)toupper((unsigned char)s[0]);
  return s[0];
}

/* 64-bit indexing: these run over tensors of more than 2^31 elements. */
void byte_fill(THByteTensor *t, int value) { THByteTensor_fill(t, (uint8_t)value); }

int64_t byte_count(THByteTensor *t, int value) {
  THByteTensor *c = THByteTensor_newContiguous(t);
  uint8_t *data = THByteTensor_data(c);
  int64_t i, n = THByteTensor_nElement(c), count = 0;
  for (i = 0; i < n; i++) count += data[i] == (uint8_t)value;
  THByteTensor_free(c);
  return count;
}

void byte_copy(THByteTensor *dst, THByteTensor *src) { THByteTensor_copy(dst, src); }

void byte_cadd(THByteTensor *r, THByteTensor *t, int value, THByteTensor *src) {
  THByteTensor_cadd(r, t, (uint8_t)value, src);
}

/* Holds the calling thread in C, to show calls run with the GIL released. */
void sleep_ms(int ms) {
  struct timespec wait;
  wait.tv_sec = ms / 1000;
  wait.tv_nsec = (long)(ms % 1000) * 1000000L;
  nanosleep(&wait, NULL);
}

/* THAlloc, THRealloc and THFree: the integers 0 .. 2n-1 in a block that
 * grows from n to 2n, summed. */
int64_t alloc_roundtrip(int64_t n) {
  int64_t *p = (int64_t *)THAlloc(n * (ptrdiff_t)sizeof(int64_t)), i, sum = 0;
  for (i = 0; i < n; i++) p[i] = i;
  p = (int64_t *)THRealloc(p, 2 * n * (ptrdiff_t)sizeof(int64_t));
  for (i = n; i < 2 * n; i++) p[i] = i;
  for (i = 0; i < 2 * n; i++) sum += p[i];
  THFree(p);
  return sum;
}

/* 1 when THAlloc(bytes) gives NULL (0 bytes); bad sizes raise. */
int alloc_is_null(int64_t bytes) {
  void *p = THAlloc((ptrdiff_t)bytes);
  THFree(p);
  return p == NULL;
}

double get2d_double(THDoubleTensor *t, int64_t i, int64_t j) {
  return THDoubleTensor_get2d(t, i, j);
}
