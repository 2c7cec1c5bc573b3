int roi_pooling_forward(int pooled_height, int pooled_width, float spatial_scale,
                        THFloatTensor *features, THFloatTensor *rois,
                        THFloatTensor *output, THIntTensor *argmax);
int roi_pooling_backward(int pooled_height, int pooled_width, float spatial_scale,
                         THFloatTensor *top_grad, THFloatTensor *rois,
                         THIntTensor *argmax, THFloatTensor *bottom_grad);
int roi_pooling_forward_double(int pooled_height, int pooled_width, float spatial_scale,
                               THDoubleTensor *features, THDoubleTensor *rois,
                               THDoubleTensor *output, THIntTensor *argmax);
int roi_pooling_backward_double(int pooled_height, int pooled_width, float spatial_scale,
                                THDoubleTensor *top_grad, THDoubleTensor *rois,
                                THIntTensor *argmax, THDoubleTensor *bottom_grad);
