int shift_cpu(THFloatTensor *data, float by);
