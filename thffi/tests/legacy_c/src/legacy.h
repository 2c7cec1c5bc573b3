int legacy_soft_threshold(THFloatTensor *output, THFloatTensor *input, float limit);
int legacy_cpu_nms(THLongTensor *keep_out, THFloatTensor *dets, THLongTensor *order,
                   float nms_overlap_thresh);
int legacy_describe(THFloatTensor *input);
int64_t legacy_punned_size(THLongTensor *indices, int dim);
int legacy_punned_contiguous(THLongTensor *indices);
int legacy_workspace(THFloatTensor *buffer, int64_t size);
