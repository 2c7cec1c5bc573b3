#include <TH/TH.h>

/* Greedy non-maximum suppression.  boxes: (N, 4) rows of (x1, y1, x2, y2),
 * sorted by decreasing score.  keep is resized to the indices (into boxes)
 * of the boxes kept, in order: a box is dropped when its intersection over
 * union with a kept box exceeds overlap_threshold.  Returns how many. */
int nms_cpu(THLongTensor *keep, THFloatTensor *boxes, float overlap_threshold)
{
  THFloatTensor *sorted, *areas;
  THByteTensor *suppressed;
  float *b, *area;
  unsigned char *dropped;
  int64_t *kept;
  int64_t n, i, j, count = 0;

  if (THFloatTensor_nElement(boxes) == 0) {  /* nDimension is 0 then, as in TH */
    THLongTensor_resize1d(keep, 0);
    return 0;
  }
  THArgCheck(THFloatTensor_nDimension(boxes) == 2 && THFloatTensor_size(boxes, 1) == 4, 2,
             "boxes must be (N, 4)");
  n = THFloatTensor_size(boxes, 0);
  sorted = THFloatTensor_newContiguous(boxes);
  areas = THFloatTensor_newWithSize1d(n);
  suppressed = THByteTensor_newWithSize1d(n);
  THByteTensor_fill(suppressed, 0);
  THLongTensor_resize1d(keep, n);
  THArgCheck(THLongTensor_isContiguous(keep), 1, "keep must be contiguous");

  b = THFloatTensor_data(sorted);
  area = THFloatTensor_data(areas);
  dropped = THByteTensor_data(suppressed);
  kept = THLongTensor_data(keep);
  for (i = 0; i < n; i++)
    area[i] = (b[4 * i + 2] - b[4 * i]) * (b[4 * i + 3] - b[4 * i + 1]);

  for (i = 0; i < n; i++) {
    if (dropped[i]) continue;
    kept[count++] = i;
    for (j = i + 1; j < n; j++) {
      float w, h, inter;
      if (dropped[j]) continue;
      w = THMin(b[4 * i + 2], b[4 * j + 2]) - THMax(b[4 * i], b[4 * j]);
      h = THMin(b[4 * i + 3], b[4 * j + 3]) - THMax(b[4 * i + 1], b[4 * j + 1]);
      inter = THMax(w, 0.0f) * THMax(h, 0.0f);
      if (inter / (area[i] + area[j] - inter) > overlap_threshold) dropped[j] = 1;
    }
  }
  THLongTensor_resize1d(keep, count);

  THFloatTensor_free(sorted);
  THFloatTensor_free(areas);
  THByteTensor_free(suppressed);
  return (int)count;
}
