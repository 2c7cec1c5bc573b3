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
