int nms_cuda(THLongTensor *keep, THCudaTensor *boxes, float overlap_threshold);
