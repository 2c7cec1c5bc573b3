void correlation_cpu(const float *a, const float *b, float *out, int n, int max_displacement);
