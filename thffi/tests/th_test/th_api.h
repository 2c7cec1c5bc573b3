/* tests/th_test/generic/th_api.c, one per type. */
THFloatTensor *th_api_Float_tour(THFloatTensor *input, THFloatTensor *row, THFloatTensor *narrowed,
    THFloatTensor *trans, THFloatTensor *twice, THFloatTensor *filled, THLongTensor *dims);
THDoubleTensor *th_api_Double_tour(THDoubleTensor *input, THDoubleTensor *row, THDoubleTensor *narrowed,
    THDoubleTensor *trans, THDoubleTensor *twice, THDoubleTensor *filled, THLongTensor *dims);
THByteTensor *th_api_Byte_tour(THByteTensor *input, THByteTensor *row, THByteTensor *narrowed,
    THByteTensor *trans, THByteTensor *twice, THByteTensor *filled, THLongTensor *dims);
THCharTensor *th_api_Char_tour(THCharTensor *input, THCharTensor *row, THCharTensor *narrowed,
    THCharTensor *trans, THCharTensor *twice, THCharTensor *filled, THLongTensor *dims);
THShortTensor *th_api_Short_tour(THShortTensor *input, THShortTensor *row, THShortTensor *narrowed,
    THShortTensor *trans, THShortTensor *twice, THShortTensor *filled, THLongTensor *dims);
THIntTensor *th_api_Int_tour(THIntTensor *input, THIntTensor *row, THIntTensor *narrowed,
    THIntTensor *trans, THIntTensor *twice, THIntTensor *filled, THLongTensor *dims);
THLongTensor *th_api_Long_tour(THLongTensor *input, THLongTensor *row, THLongTensor *narrowed,
    THLongTensor *trans, THLongTensor *twice, THLongTensor *filled, THLongTensor *dims);
/* tests/th_test/generic/th_copy.c, th_access.c, th_dimapply.c, th_single.c. */
void th_copy_Float_tour(THFloatTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
void th_copy_Double_tour(THDoubleTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
void th_copy_Byte_tour(THByteTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
void th_copy_Char_tour(THCharTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
void th_copy_Short_tour(THShortTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
void th_copy_Int_tour(THIntTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
void th_copy_Long_tour(THLongTensor *out, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d);
THFloatTensor *th_access_Float_tour(THFloatTensor *t);
THDoubleTensor *th_access_Double_tour(THDoubleTensor *t);
THByteTensor *th_access_Byte_tour(THByteTensor *t);
THCharTensor *th_access_Char_tour(THCharTensor *t);
THShortTensor *th_access_Short_tour(THShortTensor *t);
THIntTensor *th_access_Int_tour(THIntTensor *t);
THLongTensor *th_access_Long_tour(THLongTensor *t);
void th_dimapply_Float_tour(THFloatTensor *out, THFloatTensor *src, THLongTensor *index,
    THFloatTensor *cumsum, int dim);
void th_dimapply_Double_tour(THDoubleTensor *out, THDoubleTensor *src, THLongTensor *index,
    THDoubleTensor *cumsum, int dim);
void th_dimapply_Byte_tour(THByteTensor *out, THByteTensor *src, THLongTensor *index,
    THByteTensor *cumsum, int dim);
void th_dimapply_Char_tour(THCharTensor *out, THCharTensor *src, THLongTensor *index,
    THCharTensor *cumsum, int dim);
void th_dimapply_Short_tour(THShortTensor *out, THShortTensor *src, THLongTensor *index,
    THShortTensor *cumsum, int dim);
void th_dimapply_Int_tour(THIntTensor *out, THIntTensor *src, THLongTensor *index,
    THIntTensor *cumsum, int dim);
void th_dimapply_Long_tour(THLongTensor *out, THLongTensor *src, THLongTensor *index,
    THLongTensor *cumsum, int dim);
int th_single_Float_code(THFloatTensor *t);
int th_single_Double_code(THDoubleTensor *t);
int th_single_Byte_code(THByteTensor *t);
int th_single_Char_code(THCharTensor *t);
int th_single_Short_code(THShortTensor *t);
int th_single_Int_code(THIntTensor *t);
int th_single_Long_code(THLongTensor *t);
int th_single_Half_code(THHalfTensor *t);
/* tests/th_test/generic/th_struct.c, one per type. */
void th_struct_Float_tour(THFloatTensor *src, THLongTensor *geo);
void th_struct_Double_tour(THDoubleTensor *src, THLongTensor *geo);
void th_struct_Byte_tour(THByteTensor *src, THLongTensor *geo);
void th_struct_Char_tour(THCharTensor *src, THLongTensor *geo);
void th_struct_Short_tour(THShortTensor *src, THLongTensor *geo);
void th_struct_Int_tour(THIntTensor *src, THLongTensor *geo);
void th_struct_Long_tour(THLongTensor *src, THLongTensor *geo);
void th_struct_Half_tour(THHalfTensor *src, THLongTensor *geo);
void th_struct_bad_unfold(THFloatTensor *src);
void th_struct_bad_storage(THFloatTensor *src);
void th_half_convert(THFloatTensor *src, THShortTensor *bits, THFloatTensor *back);
int th_storage_given(THFloatTensor *out, THByteTensor *path);
void th_storage_bad_mapping(THByteTensor *path);
int th_storage_shapes(THLongTensor *out);
void th_storage_bad_infer(void);
int64_t th_apply_Float_tour(THFloatTensor *a, THFloatTensor *b, THFloatTensor *c, THFloatTensor *idx, int dim);
void th_apply_Float_mismatch(THFloatTensor *a, THFloatTensor *b);
int64_t th_apply_Double_tour(THDoubleTensor *a, THDoubleTensor *b, THDoubleTensor *c, THDoubleTensor *idx, int dim);
void th_apply_Double_mismatch(THDoubleTensor *a, THDoubleTensor *b);
int64_t th_apply_Long_tour(THLongTensor *a, THLongTensor *b, THLongTensor *c, THLongTensor *idx, int dim);
void th_apply_Long_mismatch(THLongTensor *a, THLongTensor *b);
void th_handled_error(int which);
int th_handled_seen(THByteTensor *out);
