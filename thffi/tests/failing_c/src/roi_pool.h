int roi_pool_forward(THFloatTensor *features, THFloatTensor *rois, THFloatTensor *output);
int roi_pool_backward(THFloatTensor *top_grad, THFloatTensor *rois,
                      THFloatTensor *bottom_grad);
int correlation_forward(THFloatTensor *input1, THFloatTensor *input2, int max_displacement,
                        THFloatTensor *output);
