/* tests/thc_test/generic/thc_api.c, one per type, and gemm. */
THCudaTensor *thc_api_Float_tour(THCudaTensor *input, THCudaTensor *row, THCudaTensor *narrowed,
    THCudaTensor *trans, THCudaTensor *twice, THCudaTensor *filled, THLongTensor *dims);
THCudaDoubleTensor *thc_api_Double_tour(THCudaDoubleTensor *input, THCudaDoubleTensor *row, THCudaDoubleTensor *narrowed,
    THCudaDoubleTensor *trans, THCudaDoubleTensor *twice, THCudaDoubleTensor *filled, THLongTensor *dims);
THCudaByteTensor *thc_api_Byte_tour(THCudaByteTensor *input, THCudaByteTensor *row, THCudaByteTensor *narrowed,
    THCudaByteTensor *trans, THCudaByteTensor *twice, THCudaByteTensor *filled, THLongTensor *dims);
THCudaCharTensor *thc_api_Char_tour(THCudaCharTensor *input, THCudaCharTensor *row, THCudaCharTensor *narrowed,
    THCudaCharTensor *trans, THCudaCharTensor *twice, THCudaCharTensor *filled, THLongTensor *dims);
THCudaShortTensor *thc_api_Short_tour(THCudaShortTensor *input, THCudaShortTensor *row, THCudaShortTensor *narrowed,
    THCudaShortTensor *trans, THCudaShortTensor *twice, THCudaShortTensor *filled, THLongTensor *dims);
THCudaIntTensor *thc_api_Int_tour(THCudaIntTensor *input, THCudaIntTensor *row, THCudaIntTensor *narrowed,
    THCudaIntTensor *trans, THCudaIntTensor *twice, THCudaIntTensor *filled, THLongTensor *dims);
THCudaLongTensor *thc_api_Long_tour(THCudaLongTensor *input, THCudaLongTensor *row, THCudaLongTensor *narrowed,
    THCudaLongTensor *trans, THCudaLongTensor *twice, THCudaLongTensor *filled, THLongTensor *dims);
void thc_api_sgemm(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c);
void thc_api_dgemm(THCudaDoubleTensor *a, THCudaDoubleTensor *b, THCudaDoubleTensor *c);
/* tests/thc_test/generic/thc_copy.c, one per type, and cuBLAS. */
void thc_copy_to_Float_tour(THCudaTensor *out, THFloatTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Float_tour(THCudaTensor *src, THFloatTensor *same, THFloatTensor *staged,
    THCudaTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_to_Double_tour(THCudaDoubleTensor *out, THDoubleTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Double_tour(THCudaDoubleTensor *src, THDoubleTensor *same, THDoubleTensor *staged,
    THCudaDoubleTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_to_Byte_tour(THCudaByteTensor *out, THByteTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Byte_tour(THCudaByteTensor *src, THByteTensor *same, THByteTensor *staged,
    THCudaByteTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_to_Char_tour(THCudaCharTensor *out, THCharTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Char_tour(THCudaCharTensor *src, THCharTensor *same, THCharTensor *staged,
    THCudaCharTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_to_Short_tour(THCudaShortTensor *out, THShortTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Short_tour(THCudaShortTensor *src, THShortTensor *same, THShortTensor *staged,
    THCudaShortTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_to_Int_tour(THCudaIntTensor *out, THIntTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Int_tour(THCudaIntTensor *src, THIntTensor *same, THIntTensor *staged,
    THCudaIntTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_to_Long_tour(THCudaLongTensor *out, THLongTensor *same,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
void thc_copy_from_Long_tour(THCudaLongTensor *src, THLongTensor *same, THLongTensor *staged,
    THCudaLongTensor *gsame,
    THByteTensor *b, THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd);
float thc_api_sdot(THCudaTensor *x, THCudaTensor *y);
double thc_api_ddot(THCudaDoubleTensor *x, THCudaDoubleTensor *y);
void thc_api_sgemv(THCudaTensor *a, THCudaTensor *x, THCudaTensor *y, float alpha, float beta,
    int transposed);
void thc_api_dgemv(THCudaDoubleTensor *a, THCudaDoubleTensor *x, THCudaDoubleTensor *y,
    double alpha, double beta, int transposed);
void thc_api_sger(THCudaTensor *a, THCudaTensor *x, THCudaTensor *y, float alpha);
void thc_api_dger(THCudaDoubleTensor *a, THCudaDoubleTensor *x, THCudaDoubleTensor *y,
    double alpha);
void thc_api_sgemm_batched(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c1, THCudaTensor *c2);
void thc_api_dgemm_batched(THCudaDoubleTensor *a, THCudaDoubleTensor *b, THCudaDoubleTensor *c1,
    THCudaDoubleTensor *c2);
