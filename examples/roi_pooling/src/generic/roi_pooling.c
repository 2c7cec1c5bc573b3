/* RoI max pooling, CPU.  features: (N, C, H, W); rois: (R, 5) rows of
 * (batch index, x1, y1, x2, y2) in input image coordinates, scaled by
 * spatial_scale onto the feature map.  output: (R, C, pooled_height,
 * pooled_width); argmax: the index (h * W + w) of each output's maximum in
 * its feature plane, -1 for an empty bin (output 0).  Returns 1. */
int roi_pooling_(forward)(int pooled_height, int pooled_width, float spatial_scale,
                          THTensor *features, THTensor *rois,
                          THTensor *output, THIntTensor *argmax)
{
  THTensor *feats, *boxes;
  real *data, *roi, *out;
  int *arg;
  int64_t num_rois, channels, height, width, r, c, ph, pw, h, w;

  THArgCheck(THTensor_(nDimension)(features) == 4, 4,
             "features must be 4-D (N, C, H, W)");
  THArgCheck(THTensor_(nDimension)(rois) == 2 &&
             THTensor_(size)(rois, 1) == 5, 5, "rois must be (R, 5)");
  THArgCheck(pooled_height > 0 && pooled_width > 0, 1, "pooled size must be positive");

  feats = THTensor_(newContiguous)(features);
  boxes = THTensor_(newContiguous)(rois);
  num_rois = THTensor_(size)(boxes, 0);
  channels = THTensor_(size)(feats, 1);
  height = THTensor_(size)(feats, 2);
  width = THTensor_(size)(feats, 3);

  THTensor_(resize4d)(output, num_rois, channels, pooled_height, pooled_width);
  THIntTensor_resize4d(argmax, num_rois, channels, pooled_height, pooled_width);
  THArgCheck(THTensor_(isContiguous)(output), 6, "output must be contiguous");
  THArgCheck(THIntTensor_isContiguous(argmax), 7, "argmax must be contiguous");
  data = THTensor_(data)(feats);
  out = THTensor_(data)(output);
  arg = THIntTensor_data(argmax);

  for (r = 0; r < num_rois; r++) {
    int64_t batch, start_w, start_h, end_w, end_h;
    accreal roi_height, roi_width, bin_h, bin_w;
    roi = THTensor_(data)(boxes) + r * 5;
    batch = (int64_t)roi[0];
    THArgCheck(batch >= 0 && batch < THTensor_(size)(feats, 0), 5,
               "roi %lld: batch index %lld out of range", (long long)r, (long long)batch);
    start_w = (int64_t)round(roi[1] * spatial_scale);
    start_h = (int64_t)round(roi[2] * spatial_scale);
    end_w = (int64_t)round(roi[3] * spatial_scale);
    end_h = (int64_t)round(roi[4] * spatial_scale);
    roi_width = (accreal)THMax(end_w - start_w + 1, 1);
    roi_height = (accreal)THMax(end_h - start_h + 1, 1);
    bin_h = roi_height / pooled_height;
    bin_w = roi_width / pooled_width;

    for (c = 0; c < channels; c++) {
      real *plane = data + (batch * channels + c) * height * width;
      for (ph = 0; ph < pooled_height; ph++) {
        for (pw = 0; pw < pooled_width; pw++) {
          int64_t hstart = (int64_t)floor(ph * bin_h) + start_h;
          int64_t wstart = (int64_t)floor(pw * bin_w) + start_w;
          int64_t hend = (int64_t)ceil((ph + 1) * bin_h) + start_h;
          int64_t wend = (int64_t)ceil((pw + 1) * bin_w) + start_w;
          int64_t best = -1;
          real maxval = 0;
          hstart = THMin(THMax(hstart, 0), height);
          hend = THMin(THMax(hend, 0), height);
          wstart = THMin(THMax(wstart, 0), width);
          wend = THMin(THMax(wend, 0), width);
          for (h = hstart; h < hend; h++) {
            for (w = wstart; w < wend; w++) {
              int64_t index = h * width + w;
              if (best < 0 || plane[index] > maxval) {
                maxval = plane[index];
                best = index;
              }
            }
          }
          *out++ = maxval;
          *arg++ = (int)best;
        }
      }
    }
  }
  THTensor_(free)(feats);
  THTensor_(free)(boxes);
  return 1;
}

/* bottom_grad (N, C, H, W), zeroed by the caller, receives each output's
 * gradient at its argmax. */
int roi_pooling_(backward)(int pooled_height, int pooled_width, float spatial_scale,
                           THTensor *top_grad, THTensor *rois,
                           THIntTensor *argmax, THTensor *bottom_grad)
{
  THTensor *grad;
  real *top, *bottom, *roi;
  int *arg;
  int64_t num_rois, channels, plane, r, c, k, per_channel;
  (void)spatial_scale;

  THArgCheck(THTensor_(nDimension)(bottom_grad) == 4, 7,
             "bottom_grad must be 4-D (N, C, H, W)");
  THArgCheck(THTensor_(isContiguous)(bottom_grad), 7, "bottom_grad must be contiguous");
  THArgCheck(THIntTensor_isContiguous(argmax), 6, "argmax must be contiguous");
  num_rois = THTensor_(size)(rois, 0);
  channels = THTensor_(size)(bottom_grad, 1);
  plane = THTensor_(size)(bottom_grad, 2) * THTensor_(size)(bottom_grad, 3);
  per_channel = (int64_t)pooled_height * pooled_width;
  THArgCheck(THTensor_(nElement)(top_grad) == num_rois * channels * per_channel, 4,
             "top_grad must have R * C * pooled_height * pooled_width elements");

  grad = THTensor_(newContiguous)(top_grad);
  top = THTensor_(data)(grad);
  bottom = THTensor_(data)(bottom_grad);
  arg = THIntTensor_data(argmax);
  for (r = 0; r < num_rois; r++) {
    roi = THTensor_(data)(rois) + r * THTensor_(stride)(rois, 0);
    for (c = 0; c < channels; c++) {
      real *dst = bottom + ((int64_t)roi[0] * channels + c) * plane;
      for (k = 0; k < per_channel; k++, top++, arg++)
        if (*arg >= 0) dst[*arg] += *top;
    }
  }
  THTensor_(free)(grad);
  return 1;
}
