/* Copies into this type from every TH type (THTensor_(copyByte) ...
 * copyDouble), written in the legacy generic idiom; tests/test_th_api.py
 * checks them against torch's conversions. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_copy.c"
#else

/* out is resized to n x 7 (n: the sources' element count); column k, a
 * strided view, receives the k-th source converted, in logical order. */
void TH_CONCAT_3(th_copy_, Real, _tour)(THTensor *out, THByteTensor *b, THCharTensor *c,
                                        THShortTensor *s, THIntTensor *i, THLongTensor *l,
                                        THFloatTensor *f, THDoubleTensor *d) {
  THTensor *column = THTensor_(new)();
  THTensor_(resize2d)(out, THByteTensor_nElement(b), 7);
  THTensor_(select)(column, out, 1, 0);
  THTensor_(copyByte)(column, b);
  THTensor_(select)(column, out, 1, 1);
  THTensor_(copyChar)(column, c);
  THTensor_(select)(column, out, 1, 2);
  THTensor_(copyShort)(column, s);
  THTensor_(select)(column, out, 1, 3);
  THTensor_(copyInt)(column, i);
  THTensor_(select)(column, out, 1, 4);
  THTensor_(copyLong)(column, l);
  THTensor_(select)(column, out, 1, 5);
  THTensor_(copyFloat)(column, f);
  THTensor_(select)(column, out, 1, 6);
  THTensor_(copyDouble)(column, d);
  THTensor_(free)(column);
}

#endif
