/* Kernels that make views on OpenMP threads, as 2018 CPU code did: each
 * thread of the team creates, resizes and frees tensors and storages of its
 * own, from the input the call was given. */
#include <TH.h>
#include <stdio.h>
#include <stdlib.h>

/* output[i] = input[i][0], through a view of row i. */
int rows_first(THFloatTensor *input, THFloatTensor *output)
{
  int rows = THFloatTensor_size(input, 0);
  float *out;
  int i;
  THFloatTensor_resize1d(output, rows);
  out = THFloatTensor_data(output);
#pragma omp parallel for
  for (i = 0; i < rows; i++) {
    THFloatTensor *row = THFloatTensor_newSelect(input, 0, i);
    out[i] = THFloatTensor_data(row)[0];
    THFloatTensor_free(row);
  }
  return 1;
}

/* Every allocation family on each row i of input (rows x cols, cols >= 3),
 * into output[i] (8 values):
 *   0: sum of row i through newSelect, then a newNarrow of its first 2
 *      (their sum), 1: that narrow's sum,
 *   2: newTranspose of a newWithSize2d(cols, 1) filled with row i, made
 *      contiguous (newContiguous): its sum,
 *   3: newClone of row i, resized in place to 2 x 1 then to 1 (resize2d,
 *      resize1d): its one element,
 *   4: a storage of 3 from THFloatStorage_newWithSize holding row i's first
 *      3 values, viewed by newWithStorage1d: their sum,
 *   5: newWithSize1d(cols) then resize3d(1, cols, 1) and resize4d: its
 *      element count,
 *   6: the transpose's size 1 (cols), 7: 1 once every tensor is freed.
 * Each thread also retains and frees the input's storage.  Returns the
 * input storage's reference count after the loop (1, as before it). */
int rows_views(THFloatTensor *input, THFloatTensor *output)
{
  int rows = THFloatTensor_size(input, 0), cols = THFloatTensor_size(input, 1);
  float *out;
  int i;
  THArgCheck(cols >= 3, 1, "need 3 columns");
  THFloatTensor_resize2d(output, rows, 8);
  out = THFloatTensor_data(output);
#pragma omp parallel for schedule(dynamic)
  for (i = 0; i < rows; i++) {
    THFloatTensor *row = THFloatTensor_newSelect(input, 0, i);
    THFloatTensor *head = THFloatTensor_newNarrow(row, 0, 0, 2);
    THFloatTensor *col = THFloatTensor_newWithSize2d(cols, 1);
    THFloatTensor *t, *flat, *copy, *view, *grown;
    THFloatStorage *storage, *shared;
    float *o = out + 8 * i, sum = 0;
    int k;

    for (k = 0; k < cols; k++) sum += THFloatTensor_get1d(row, k);
    o[0] = sum;
    o[1] = THFloatTensor_get1d(head, 0) + THFloatTensor_get1d(head, 1);

    for (k = 0; k < cols; k++) THFloatTensor_set2d(col, k, 0, THFloatTensor_get1d(row, k));
    t = THFloatTensor_newTranspose(col, 0, 1);
    flat = THFloatTensor_newContiguous(t);
    sum = 0;
    for (k = 0; k < cols; k++) sum += THFloatTensor_data(flat)[k];
    o[2] = sum;

    copy = THFloatTensor_newClone(row);
    THFloatTensor_resize2d(copy, 2, 1);
    THFloatTensor_resize1d(copy, 1);
    o[3] = THFloatTensor_data(copy)[0];

    storage = THFloatStorage_newWithSize(3);
    for (k = 0; k < 3; k++) THFloatStorage_set(storage, k, THFloatTensor_get1d(row, k));
    view = THFloatTensor_newWithStorage1d(storage, 0, 3, 1);
    THFloatStorage_free(storage);
    o[4] = THFloatTensor_get1d(view, 0) + THFloatTensor_get1d(view, 1) +
           THFloatTensor_get1d(view, 2);

    grown = THFloatTensor_newWithSize1d(cols);
    THFloatTensor_resize3d(grown, 1, cols, 1);
    THFloatTensor_resize4d(grown, 2, 1, cols, 1);
    o[5] = THFloatTensor_nElement(grown);

    shared = THFloatTensor_storage(input);
    THFloatStorage_retain(shared);
    o[6] = THFloatTensor_size(t, 1);
    THFloatStorage_free(shared);

    THFloatTensor_free(grown);
    THFloatTensor_free(view);
    THFloatTensor_free(copy);
    THFloatTensor_free(flat);
    THFloatTensor_free(t);
    THFloatTensor_free(col);
    THFloatTensor_free(head);
    THFloatTensor_free(row);
    o[7] = 1;
  }
  return THFloatTensor_storage(input)->refcount;
}

/* rows_first, but row bad_row is selected one past the end: THArgCheck
 * fails on whichever thread has that row. */
int rows_check(THFloatTensor *input, THFloatTensor *output, int bad_row)
{
  int rows = THFloatTensor_size(input, 0);
  float *out;
  int i;
  THFloatTensor_resize1d(output, rows);
  out = THFloatTensor_data(output);
#pragma omp parallel for
  for (i = 0; i < rows; i++) {
    THFloatTensor *row = THFloatTensor_newSelect(input, 0, i == bad_row ? rows : i);
    out[i] = THFloatTensor_data(row)[0];
    THFloatTensor_free(row);
  }
  return 1;
}

/* exit(-1) on a bad row, as 2018 code checked its input on the threads. */
int rows_exit(THFloatTensor *input, int bad_row)
{
  int rows = THFloatTensor_size(input, 0);
  int i;
#pragma omp parallel for
  for (i = 0; i < rows; i++) {
    if (i == bad_row) {
      fprintf(stderr, "bad row %d\n", i);
      exit(-1);
    }
  }
  return 1;
}

/* A parallel loop that works, then a failed check on the calling thread:
 * the call's own error, after its threads were done. */
int rows_abort_after_threads(THFloatTensor *input, THFloatTensor *output)
{
  THArgCheck(rows_first(input, output), 2, "rows_first failed");
  THArgCheck(THFloatTensor_size(input, 1) > 100, 1, "need more than 100 columns, got %ld",
             THFloatTensor_size(input, 1));
  return 1;
}

/* The sum of input's first column, added up by the team in one variable
 * without synchronisation: the data race ThreadSanitizer must report. */
static float racy_total;

float rows_racy_sum(THFloatTensor *input)
{
  int rows = THFloatTensor_size(input, 0);
  float *data = THFloatTensor_data(input);
  int i;
  racy_total = 0;
#pragma omp parallel for
  for (i = 0; i < rows; i++)
    racy_total += data[i * THFloatTensor_stride(input, 0)];
  return racy_total;
}
