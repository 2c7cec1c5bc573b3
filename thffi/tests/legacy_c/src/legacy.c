/* CPU code as torch.utils.ffi projects wrote it: TH found as "TH.h" (torch
 * put lib/include/TH on the include path), and <math.h>, <float.h>,
 * <string.h>, <stdio.h> coming with it. */
#include "TH.h"

/* output = input rounded towards zero to whole numbers, capped at +-limit
 * (limit < 0: no cap). */
int legacy_soft_threshold(THFloatTensor *output, THFloatTensor *input, float limit)
{
  float *in, *out;
  long i, n;
  float cap = limit < 0 ? FLT_MAX : limit;

  THArgCheck(THFloatTensor_isContiguous(input), 2, "input must be contiguous");
  THFloatTensor_resizeAs(output, input);
  n = THFloatTensor_nElement(input);
  in = THFloatTensor_data(input);
  out = THFloatTensor_data(output);
  memset(out, 0, n * sizeof(float));
  for (i = 0; i < n; i++) {
    float v = in[i] >= 0 ? floor(in[i]) : ceil(in[i]);
    out[i] = fmaxf(fminf(v, cap), -cap);
  }
  return 1;
}

/* Greedy NMS over dets (N, 5: x1, y1, x2, y2, score), visiting the boxes in
 * `order` (indices by decreasing score).  keep_out is resized to the
 * indices kept; returns how many. */
int legacy_cpu_nms(THLongTensor *keep_out, THFloatTensor *dets, THLongTensor *order,
                   float nms_overlap_thresh)
{
  long boxes_num, boxes_dim, i, j, num_out = 0;
  long *order_flat, *keep;
  float *boxes_flat;
  unsigned char *suppressed;

  THArgCheck(THLongTensor_isContiguous(order), 2, "order must be contiguous");
  THArgCheck(THFloatTensor_isContiguous(dets), 1, "dets must be contiguous");
  boxes_num = THLongTensor_size(order, 0);
  boxes_dim = THFloatTensor_size(dets, 1);
  THLongTensor_resize1d(keep_out, boxes_num);

  order_flat = THLongTensor_data(order);
  boxes_flat = THFloatTensor_data(dets);
  keep = THLongTensor_data(keep_out);
  suppressed = (unsigned char *)calloc(boxes_num > 0 ? boxes_num : 1, 1);

  for (i = 0; i < boxes_num; i++) {
    long a = order_flat[i];
    float *p = boxes_flat + a * boxes_dim;
    float area_a = (p[2] - p[0] + 1) * (p[3] - p[1] + 1);
    if (suppressed[a]) continue;
    keep[num_out++] = a;
    for (j = i + 1; j < boxes_num; j++) {
      long b = order_flat[j];
      float *q = boxes_flat + b * boxes_dim;
      float w = fmaxf(0.0f, fminf(p[2], q[2]) - fmaxf(p[0], q[0]) + 1);
      float h = fmaxf(0.0f, fminf(p[3], q[3]) - fmaxf(p[1], q[1]) + 1);
      float inter = w * h;
      float area_b = (q[2] - q[0] + 1) * (q[3] - q[1] + 1);
      if (inter / (area_a + area_b - inter) >= nms_overlap_thresh) suppressed[b] = 1;
    }
  }
  free(suppressed);
  THLongTensor_resize1d(keep_out, num_out);
  return num_out;
}

int legacy_describe(THFloatTensor *input)
{
  printf("legacy_describe: %d-D tensor of %ld elements\n", THFloatTensor_nDimension(input),
         (long)THFloatTensor_nElement(input));
  fflush(stdout);
  return 1;
}

/* A scratch buffer of `size` floats, zeroed, as layers kept one across
 * calls. */
int legacy_workspace(THFloatTensor *buffer, int64_t size)
{
  THFloatTensor_resize1d(buffer, size);
  THFloatTensor_zero(buffer);
  return 1;
}
