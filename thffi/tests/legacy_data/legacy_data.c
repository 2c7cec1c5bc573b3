/* C of the 2017-2018 kind that works on the tensors it is handed as data:
 * it reshapes them (a bias kept as a column, views made in place on an
 * argument) and reads them through THFloatTensor_data, with and without
 * looking at their strides first. */
#include <TH/TH.h>
#include "legacy_data.h"

#define linear_(NAME) TH_CONCAT_4(linear_, Real, _, NAME)
#define TH_GENERIC_FILE "generic/linear.c"
#include "TH/THGenerateFloatTypes.h"

/* Changes t's shape, strides or memory in place, one TH function per `how`
 * (other: a second tensor for set). */
int change_in_place(THFloatTensor *t, THFloatTensor *other, int how)
{
  THLongStorage *size;
  switch (how) {
  case 0: THFloatTensor_resize1d(t, 6); break;
  case 1: THFloatTensor_resize2d(t, 3, 2); break;
  case 2: THFloatTensor_resize3d(t, 1, 2, 3); break;
  case 3: THFloatTensor_resize4d(t, 1, 1, 2, 3); break;
  case 4: THFloatTensor_resizeAs(t, other); break;
  case 5:
    size = THLongStorage_newWithSize2(2, 3);
    THFloatTensor_resize(t, size, NULL);
    THLongStorage_free(size);
    break;
  case 6: THFloatTensor_set(t, other); break;
  case 7:
    THFloatTensor_setStorage2d(t, THFloatTensor_storage(t), 1, 2, 2, 2, 1);
    break;
  case 8: THFloatTensor_transpose(t, NULL, 0, 1); break;
  case 9: THFloatTensor_select(t, NULL, 0, 1); break;
  case 10: THFloatTensor_narrow(t, NULL, 1, 1, 2); break;
  case 11: THFloatTensor_unsqueeze1d(t, NULL, 0); break;
  case 12: THFloatTensor_squeeze(t, NULL); break;
  case 13: THFloatTensor_squeeze1d(t, NULL, 0); break;
  case 14: THFloatTensor_unfold(t, NULL, 1, 2, 1); break;
  case 15:
    size = THLongStorage_newWithSize3(2, 2, 3);
    THFloatTensor_expand(t, t, size);
    THLongStorage_free(size);
    break;
  default: THArgCheck(0, 3, "unknown change %d", how);
  }
  return THFloatTensor_nDimension(t);
}

/* Bugs of that era: t indexed as if contiguous. */
float sum_as_contiguous(THFloatTensor *t)
{
  float *data = THFloatTensor_data(t), sum = 0;
  long i, n = THFloatTensor_nElement(t);
  for (i = 0; i < n; i++) sum += data[i];
  return sum;
}

float sum_two_as_contiguous(THFloatTensor *a, THFloatTensor *b)
{
  return sum_as_contiguous(a) + sum_as_contiguous(b);
}

/* Right: the strides read first (a 2-d t). */
float sum_after_stride(THFloatTensor *t)
{
  long s0 = THFloatTensor_stride(t, 0), s1 = THFloatTensor_stride(t, 1), i, j;
  float *data = THFloatTensor_data(t), sum = 0;
  for (i = 0; i < THFloatTensor_size(t, 0); i++)
    for (j = 0; j < THFloatTensor_size(t, 1); j++)
      sum += data[i * s0 + j * s1];
  return sum;
}

/* Right: refuses what it cannot index. */
float sum_after_is_contiguous(THFloatTensor *t)
{
  THArgCheck(THFloatTensor_isContiguous(t), 1, "t must be contiguous");
  return sum_as_contiguous(t);
}

/* Right: indexes a contiguous copy. */
float sum_of_contiguous_copy(THFloatTensor *t)
{
  THFloatTensor *c = THFloatTensor_newContiguous(t);
  float sum = sum_as_contiguous(c);
  THFloatTensor_free(c);
  return sum;
}

/* A view made in C of an argument, returned. */
THFloatTensor *first_row(THFloatTensor *t)
{
  return THFloatTensor_newSelect(t, 0, 0);
}
