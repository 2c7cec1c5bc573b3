/* thffi/tests/th_blas/th_blas.c and generic/th_blas.c (Float, Double, Long). */
void th_blas_Float_gemm(const char *trans, float alpha, THFloatTensor *a, THFloatTensor *b,
                        float beta, THFloatTensor *c);
void th_blas_Float_gemv(const char *trans, float alpha, THFloatTensor *a, THFloatTensor *x,
                        float beta, THFloatTensor *y);
void th_blas_Float_ger(float alpha, THFloatTensor *x, THFloatTensor *y, THFloatTensor *a);
float th_blas_Float_level1(float alpha, THFloatTensor *x, THFloatTensor *y, THFloatTensor *z);
void th_blas_Double_gemm(const char *trans, double alpha, THDoubleTensor *a, THDoubleTensor *b,
                         double beta, THDoubleTensor *c);
void th_blas_Double_gemv(const char *trans, double alpha, THDoubleTensor *a, THDoubleTensor *x,
                         double beta, THDoubleTensor *y);
void th_blas_Double_ger(double alpha, THDoubleTensor *x, THDoubleTensor *y, THDoubleTensor *a);
double th_blas_Double_level1(double alpha, THDoubleTensor *x, THDoubleTensor *y,
                             THDoubleTensor *z);
void th_blas_Long_gemm(const char *trans, long alpha, THLongTensor *a, THLongTensor *b,
                       long beta, THLongTensor *c);
void th_blas_Long_gemv(const char *trans, long alpha, THLongTensor *a, THLongTensor *x,
                       long beta, THLongTensor *y);
void th_blas_Long_ger(long alpha, THLongTensor *x, THLongTensor *y, THLongTensor *a);
long th_blas_Long_level1(long alpha, THLongTensor *x, THLongTensor *y, THLongTensor *z);
int th_blas_linear(THFloatTensor *input, THFloatTensor *weight, THFloatTensor *output);
int th_blas_gesv(THDoubleTensor *a, THDoubleTensor *b, THIntTensor *ipiv);
void th_blas_potrf(THFloatTensor *a, const char *uplo);
