int roi_pooling_forward_cuda(int pooled_height, int pooled_width, float spatial_scale,
                             THCudaTensor *features, THCudaTensor *rois,
                             THCudaTensor *output, THCudaIntTensor *argmax);
int roi_pooling_backward_cuda(int pooled_height, int pooled_width, float spatial_scale,
                              THCudaTensor *top_grad, THCudaTensor *rois,
                              THCudaIntTensor *argmax, THCudaTensor *bottom_grad);
int roi_pooling_forward_cuda_double(int pooled_height, int pooled_width, float spatial_scale,
                                    THCudaDoubleTensor *features, THCudaDoubleTensor *rois,
                                    THCudaDoubleTensor *output, THCudaIntTensor *argmax);
int roi_pooling_backward_cuda_double(int pooled_height, int pooled_width,
                                     float spatial_scale, THCudaDoubleTensor *top_grad,
                                     THCudaDoubleTensor *rois, THCudaIntTensor *argmax,
                                     THCudaDoubleTensor *bottom_grad);
