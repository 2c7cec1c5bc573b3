/* thffi/tests/th_headers/th_headers.c */
void th_headers_math(THDoubleTensor *x, THDoubleTensor *out);
long th_headers_size(THLongTensor *a, THLongTensor *b);
long th_headers_atomic(void);
double th_headers_fast_get(THDoubleTensor *t);
int th_headers_half_literals(void);
