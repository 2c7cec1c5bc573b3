int nms_cpu(THLongTensor *keep, THFloatTensor *boxes, float overlap_threshold);
