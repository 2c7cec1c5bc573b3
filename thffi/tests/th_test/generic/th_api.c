/* One tour of the TH API per tensor type, written with the legacy generic
 * machinery (TH_GENERIC_FILE, THGenerateAllTypes.h, THTensor_(NAME), real,
 * accreal), as early torchaudio wrote its code.  tests/test_th_api.py
 * checks every output against PyTorch. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_api.c"
#else

#define TOUR TH_CONCAT_3(th_api_, Real, _tour)

/* input: 2-D, at least 3x4.  Outputs (any size on entry):
 *   row      becomes a view of input[1] (no copy)
 *   narrowed input[:, 1:3], copied
 *   trans    input.t(), made contiguous, copied
 *   twice    input + 2 * input, from a clone
 *   filled   resized to 1x2x1x3x1 and filled with 5, via its storage
 *   dims     [nDimension, nElement, size(1), stride(0), ...] of tensors made
 *            in C, and whether input.t() is contiguous
 * Returns a new 1-D tensor: sum over row (accreal), read through data/stride. */
THTensor *TOUR(THTensor *input, THTensor *row, THTensor *narrowed, THTensor *trans,
               THTensor *twice, THTensor *filled, THLongTensor *dims) {
  THTensor *view = THTensor_(new)();
  THTensor *contig, *clone, *result;
  THTensor *w1 = THTensor_(newWithSize1d)(3);
  THTensor *w2 = THTensor_(newWithSize2d)(2, 3);
  THTensor *w3 = THTensor_(newWithSize3d)(2, 3, 4);
  THTensor *w4 = THTensor_(newWithSize4d)(1, 2, 3, 4);
  THStorage *storage;
  int64_t sizes[2], i, k = 0;
  accreal sum = 0;
  real *data;

  THArgCheck(THTensor_(nDimension)(input) == 2, 1, "input must be 2-D");
  THArgCheck(THTensor_(size)(input, 0) >= 3 && THTensor_(size)(input, 1) >= 4, 1,
             "input must be at least 3x4");

  /* views */
  THTensor_(select)(row, input, 0, 1);
  THTensor_(narrow)(view, input, 1, 1, 2);
  THTensor_(resizeAs)(narrowed, view);
  THTensor_(copy)(narrowed, view);
  THTensor_(transpose)(view, input, 0, 1);
  contig = THTensor_(newContiguous)(view);
  THAssert(THTensor_(isContiguous)(contig));
  THTensor_(resizeAs)(trans, contig);
  THTensor_(copy)(trans, contig);

  /* clone and arithmetic */
  clone = THTensor_(newClone)(input);
  THAssert(THTensor_(isSameSizeAs)(clone, input) && THTensor_(data)(clone) != THTensor_(data)(input));
  THTensor_(cadd)(twice, clone, 2, input);

  /* resizing and storages */
  THTensor_(resize5d)(filled, 1, 2, 1, 3, 1);
  THTensor_(zero)(filled);
  storage = THTensor_(storage)(filled);
  THAssert(THStorage_(size)(storage) == 6 && THTensor_(storageOffset)(filled) == 0);
  THStorage_(fill)(storage, 5);
  THAssert(THStorage_(data)(storage)[5] == 5);

  /* tensors made in C: shapes, then reference counting */
  THLongTensor_resize1d(dims, 12);
  THLongTensor_fill(dims, -1);
  {
    int64_t *out = THLongTensor_data(dims);
    out[k++] = THTensor_(nDimension)(w1) + THTensor_(nDimension)(w2) +
               THTensor_(nDimension)(w3) + THTensor_(nDimension)(w4);
    out[k++] = THTensor_(nElement)(w4);
    out[k++] = THTensor_(size)(w3, 1);
    out[k++] = THTensor_(stride)(w3, 0);
    out[k++] = THTensor_(isContiguous)(view);
    sizes[0] = 4; sizes[1] = 5;
    THTensor_(resizeNd)(w2, 2, sizes, NULL);
    out[k++] = THTensor_(nElement)(w2);
    THTensor_(resize1d)(w1, 7);
    THTensor_(resize2d)(w1, 2, 2);
    THTensor_(resize3d)(w1, 1, 1, 3);
    THTensor_(resize4d)(w1, 1, 1, 1, 2);
    out[k++] = THTensor_(nElement)(w1);
    out[k++] = THTensor_(nDimension)(THTensor_(new)());  /* empty: 0, as in TH */
    THTensor_(fill)(w4, 1);
    THTensor_(retain)(w4);
    THTensor_(free)(w4);                  /* still one reference */
    out[k++] = (int64_t)THTensor_(data)(w4)[23];
    THTensor_(free)(w4);                  /* released */
    out[k++] = TH_CONCAT_2(1, 2) + TH_CONCAT_3(1, 2, 3) + TH_CONCAT_4(1, 2, 3, 4);
  }

  /* a sum over the view, through the struct fields as legacy code did */
  data = THTensor_(data)(row);
  for (i = 0; i < row->size[0]; i++) sum += data[i * row->stride[0]];
  result = THTensor_(newWithSize1d)(1);
  THTensor_(data)(result)[0] = (real)sum;

  THTensor_(free)(view);
  THTensor_(free)(contig);
  THTensor_(free)(clone);
  return result;  /* w1, w2, w3 are left for the call to release */
}

#undef TOUR

#endif
