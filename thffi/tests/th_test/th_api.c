#include <TH/TH.h>

#define TH_GENERIC_FILE "generic/th_api.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_copy.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_access.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_dimapply.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_apply.c"
#include "TH/THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateByteType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateCharType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateShortType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateIntType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateLongType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateFloatType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateDoubleType.h"
#define TH_GENERIC_FILE "generic/th_single.c"
#include "TH/THGenerateHalfType.h"

#define TH_GENERIC_FILE "generic/th_struct.c"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/th_struct.c"
#include "TH/THGenerateHalfType.h"

/* Views TH refused, for tests/test_th_struct.py. */
void th_struct_bad_unfold(THFloatTensor *src) {
  THFloatTensor *unfolded = THFloatTensor_newUnfold(src, 2, 6, 1);
  THFloatTensor_free(unfolded);
}

void th_struct_bad_storage(THFloatTensor *src) {
  THFloatTensor *view = THFloatTensor_new();
  THFloatTensor_setStorage1d(view, THFloatTensor_storage(src), 1, 60, 1);
  THFloatTensor_free(view);
}

/* TH_float2half on each element of src (contiguous) into bits (its int16
 * view), and TH_half2float of those back into back. */
void th_half_convert(THFloatTensor *src, THShortTensor *bits, THFloatTensor *back) {
  float *s = THFloatTensor_data(src), *b;
  int16_t *h;
  ptrdiff_t i, n = THFloatTensor_nElement(src);
  THShortTensor_resize1d(bits, n);
  THFloatTensor_resize1d(back, n);
  h = THShortTensor_data(bits);
  b = THFloatTensor_data(back);
  for (i = 0; i < n; i++) {
    THHalf half = TH_float2half(s[i]);
    h[i] = (int16_t)half.x;
    b[i] = TH_half2float(half);
  }
}

/* An allocator counting its calls in *ctx: 1 per malloc, 100 per free. */
static void *counting_malloc(void *ctx, ptrdiff_t size) {
  *(int *)ctx += 1;
  return malloc(size);
}

static void counting_free(void *ctx, void *ptr) {
  *(int *)ctx += 100;
  free(ptr);
}

static THAllocator counting_allocator = {counting_malloc, NULL, counting_free};

/* Storages over memory given to them: out (3 x 3) gets a row seen through
 * each of newWithData, newWithAllocator (0.3's three arguments) and
 * newWithMapping of the file named by path (its bytes, NUL-terminated),
 * shared: the row is written into the file.  Returns the counting
 * allocator's tally once every storage is freed. */
int th_storage_given(THFloatTensor *out, THByteTensor *path) {
  int events = 0, i;
  float *data = (float *)THAlloc(3 * sizeof(float));
  THFloatStorage *given, *counted, *mapped;
  THDoubleStorage *plain;
  THFloatTensor *view = THFloatTensor_new(), *row = THFloatTensor_new();
  for (i = 0; i < 3; i++) data[i] = (float)(i + 1);
  THFloatTensor_resize2d(out, 3, 3);

  given = THFloatStorage_newWithData(data, 3);
  THFloatTensor_setStorage1d(view, given, 0, 3, 1);
  THFloatStorage_free(given);  /* view keeps the memory */
  THFloatTensor_select(row, out, 0, 0);
  THFloatTensor_copy(row, view);

  counted = THFloatStorage_newWithAllocator(3, &counting_allocator, &events);
  THFloatStorage_fill(counted, 7);
  THFloatTensor_setStorage1d(view, counted, 0, 3, 1);
  THFloatStorage_free(counted);
  THFloatTensor_select(row, out, 0, 1);
  THFloatTensor_copy(row, view);

  mapped = THFloatStorage_newWithMapping((const char *)THByteTensor_data(path), 3,
                                         TH_ALLOCATOR_MAPPED_SHARED);
  for (i = 0; i < 3; i++) THFloatStorage_set(mapped, i, (float)(10 + i));
  THFloatTensor_setStorage1d(view, mapped, 0, 3, 1);
  THFloatStorage_free(mapped);
  THFloatTensor_select(row, out, 0, 2);
  THFloatTensor_copy(row, view);

  /* 0.4's two arguments: TH's default allocator */
  plain = THDoubleStorage_newWithAllocator(2, &THDefaultAllocator);
  THAssert(THDoubleStorage_size(plain) == 2);
  THDoubleStorage_free(plain);
  THFloatTensor_free(view);  /* the last references: the memory is freed */
  THFloatTensor_free(row);
  return events;
}

/* newWithMapping of a file that is not there, without creating it. */
void th_storage_bad_mapping(THByteTensor *path) {
  THFloatStorage *mapped = THFloatStorage_newWithMapping((const char *)THByteTensor_data(path),
                                                         3, 0);
  THFloatStorage_free(mapped);
}

/* TH's shape functions on size storages: writes into out the broadcast of
 * 3 x 1 x 5 with 4 x 1, the expansion of a 3 x 1 tensor (strides 1, 1) to
 * 2 x 3 x 4 as sizes then strides, and 12 elements inferred into 4 x -1;
 * returns 1 when each refusal gives TH's message and "[4 x 3]" describes
 * the inferred size. */
int th_storage_shapes(THLongTensor *out) {
  char error[128];
  int64_t a[3] = {3, 1, 5}, b[2] = {4, 1}, t_sizes[2] = {3, 1}, t_strides[2] = {1, 1};
  int64_t *e_sizes, *e_strides, *both[2];
  int64_t dims[2] = {3, 2};
  int i, ok = 1;
  THLongStorage *output = THLongStorage_new(), *target = THLongStorage_newWithSize3(2, 3, 4);
  THLongStorage *wanted = THLongStorage_newWithSize2(4, -1), *inferred;
  THLongTensor_resize1d(out, 12);
  THAssert(THLongStorage_inferSize2(output, a, 3, b, 2, error, sizeof error) == 0);
  for (i = 0; i < 3; i++) THLongTensor_set1d(out, i, output->data[i]);
  THAssert(THLongStorage_inferExpandGeometry(t_sizes, t_strides, 2, target, &e_sizes,
                                             &e_strides, error, sizeof error) == 0);
  for (i = 0; i < 3; i++) {
    THLongTensor_set1d(out, 3 + i, e_sizes[i]);
    THLongTensor_set1d(out, 6 + i, e_strides[i]);
  }
  THFree(e_sizes);
  THFree(e_strides);
  inferred = THLongStorage_newInferSize(wanted, 12);
  THLongTensor_set1d(out, 9, inferred->data[0]);
  THLongTensor_set1d(out, 10, inferred->data[1]);
  ok &= strcmp(THLongStorage_sizeDesc(inferred).str, "[4 x 3]") == 0;
  b[1] = 2;
  both[0] = a;
  both[1] = b;
  ok &= THLongStorage_inferSizeN(output, 2, both, dims, error, sizeof error) == -1 &&
        strcmp(error, "The size of tensor a (5) must match the size of tensor b (2) at "
                      "non-singleton dimension 2.") == 0;
  t_sizes[1] = 2;
  ok &= THLongStorage_inferExpandGeometry(t_sizes, t_strides, 2, target, &e_sizes, &e_strides,
                                          error, sizeof error) == -1 &&
        strcmp(error, "The expanded size of the tensor (4) must match the existing size (2) "
                      "at non-singleton dimension 2.") == 0;
  THLongTensor_set1d(out, 11, ok);
  THLongStorage_free(output);
  THLongStorage_free(target);
  THLongStorage_free(wanted);
  THStorage_free(inferred);
  return ok;
}

/* newInferSize refused: 4 x -1 cannot hold 10 elements. */
void th_storage_bad_infer(void) {
  THLongStorage *wanted = THLongStorage_newWithSize2(4, -1);
  THLongStorage *inferred = THLongStorage_newInferSize(wanted, 10);
  THLongStorage_free(inferred);
  THLongStorage_free(wanted);
}

/* Error handlers (THSetErrorHandler, THSetArgErrorHandler) that record
 * the message and return, leaving the error to thffi. */
static char handled[256];
static int handled_arg, cleaned;

static void record_error(const char *msg, void *data) {
  snprintf(handled, sizeof handled, "%s: %s", (const char *)data, msg);
}

static void record_arg_error(int argNumber, const char *msg, void *data) {
  (void)data;
  handled_arg = argNumber;
  snprintf(handled, sizeof handled, "%s", msg);
}

/* which 0: THError; 1: THArgCheck; 2: THArgCheckWithCleanup, whose cleanup
 * counts. */
void th_handled_error(int which) {
  THSetErrorHandler(record_error, (void *)"mine");
  THSetArgErrorHandler(record_arg_error, NULL);
  if (which == 0) THError("boom %d", 5);
  if (which == 1) THArgCheck(0, 3, "bad %d", 7);
  THArgCheckWithCleanup(0, THCleanup(cleaned++;), 2, "dirty");
}

/* What the handlers saw into out (bytes, NUL-terminated), handlers reset;
 * returns the argument number + 10 * the cleanups run, 0 when TH's general
 * helpers (THLog1p, THExpm1, THLog2, THGetNumThreads, THGetNumCores) are
 * wrong. */
int th_handled_seen(THByteTensor *out) {
  size_t n = strlen(handled) + 1;
  THSetErrorHandler(NULL, NULL);
  THSetArgErrorHandler(NULL, NULL);
  THByteTensor_resize1d(out, (int64_t)n);
  memcpy(THByteTensor_data(out), handled, n);
  if (fabs(THLog1p(1e-10) - 1e-10) > 1e-20 || fabs(THExpm1(1e-10) - 1e-10) > 1e-20 ||
      THLog2(8.0) != 3.0 || THGetNumThreads() < 1 || THGetNumCores() < 1)
    return 0;
  return handled_arg + 10 * cleaned;
}
