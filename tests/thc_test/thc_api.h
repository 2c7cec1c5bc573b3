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
