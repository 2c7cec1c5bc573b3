/* As roi_pooling_(forward) in generic/roi_pooling.c, on the GPU: a kernel
 * per call on the current stream. */
int roi_pooling_cuda_(forward)(int pooled_height, int pooled_width, float spatial_scale,
                               THCTensor *features, THCTensor *rois, THCTensor *output,
                               THCudaIntTensor *argmax)
{
  THCTensor *feats, *boxes;
  int64_t num_rois, channels, height, width;

  THCAssertSameGPU(THCTensor_(checkGPU)(state, 3, features, rois, output));
  THArgCheck(THCTensor_(nDimension)(state, features) == 4, 4,
             "features must be 4-D (N, C, H, W)");
  THArgCheck(THCTensor_(nDimension)(state, rois) == 2 &&
             THCTensor_(size)(state, rois, 1) == 5, 5, "rois must be (R, 5)");
  THArgCheck(pooled_height > 0 && pooled_width > 0, 1, "pooled size must be positive");

  feats = THCTensor_(newContiguous)(state, features);
  boxes = THCTensor_(newContiguous)(state, rois);
  num_rois = THCTensor_(size)(state, boxes, 0);
  channels = THCTensor_(size)(state, feats, 1);
  height = THCTensor_(size)(state, feats, 2);
  width = THCTensor_(size)(state, feats, 3);
  THCTensor_(resize4d)(state, output, num_rois, channels, pooled_height, pooled_width);
  THCudaIntTensor_resize4d(state, argmax, num_rois, channels, pooled_height, pooled_width);
  THArgCheck(THCTensor_(isContiguous)(state, output), 6, "output must be contiguous");
  THArgCheck(THCudaIntTensor_isContiguous(state, argmax), 7, "argmax must be contiguous");

  THCudaCheck(roi_launch_(forward)(
      THCTensor_(data)(state, feats), THCTensor_(data)(state, boxes), num_rois, channels,
      height, width, pooled_height, pooled_width, spatial_scale,
      THCTensor_(data)(state, output), THCudaIntTensor_data(state, argmax),
      THCState_getCurrentStream(state)));
  THCTensor_(free)(state, feats);
  THCTensor_(free)(state, boxes);
  return 1;
}

int roi_pooling_cuda_(backward)(int pooled_height, int pooled_width, float spatial_scale,
                                THCTensor *top_grad, THCTensor *rois,
                                THCudaIntTensor *argmax, THCTensor *bottom_grad)
{
  THCTensor *grad, *boxes;
  int64_t num_rois, channels;
  (void)spatial_scale;

  THArgCheck(THCTensor_(nDimension)(state, bottom_grad) == 4, 7,
             "bottom_grad must be 4-D (N, C, H, W)");
  THArgCheck(THCTensor_(isContiguous)(state, bottom_grad), 7,
             "bottom_grad must be contiguous");
  THArgCheck(THCudaIntTensor_isContiguous(state, argmax), 6, "argmax must be contiguous");
  num_rois = THCTensor_(size)(state, rois, 0);
  channels = THCTensor_(size)(state, bottom_grad, 1);
  THArgCheck(THCTensor_(nElement)(state, top_grad) ==
             num_rois * channels * pooled_height * pooled_width, 4,
             "top_grad must have R * C * pooled_height * pooled_width elements");

  grad = THCTensor_(newContiguous)(state, top_grad);
  boxes = THCTensor_(newContiguous)(state, rois);
  THCudaCheck(roi_launch_(backward)(
      THCTensor_(data)(state, grad), THCTensor_(data)(state, boxes),
      THCudaIntTensor_data(state, argmax), num_rois, channels,
      THCTensor_(size)(state, bottom_grad, 2), THCTensor_(size)(state, bottom_grad, 3),
      pooled_height, pooled_width, THCTensor_(data)(state, bottom_grad),
      THCState_getCurrentStream(state)));
  THCTensor_(free)(state, grad);
  THCTensor_(free)(state, boxes);
  return 1;
}
