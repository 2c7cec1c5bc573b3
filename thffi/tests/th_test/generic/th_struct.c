/* TH's structure functions, one tour per type: views of `src` made in C,
 * their geometry written into `geo` (a row per view: storageOffset,
 * nDimension, four sizes, four strides, and whether its storage data is
 * src's), and values written through them; checked by
 * tests/test_th_struct.py against the same views made by torch. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_struct.c"
#else

#define STRUCT_(NAME) TH_CONCAT_4(th_struct_, Real, _, NAME)
/* A number as real, and a real as a number (half goes through float). */
#ifdef TH_REAL_IS_HALF
#define STRUCT_REAL(v) TH_float2half(v)
#define STRUCT_NUM(x) TH_half2float(x)
#else
#define STRUCT_REAL(v) ((real)(v))
#define STRUCT_NUM(x) (x)
#endif

static void STRUCT_(record)(THLongTensor *geo, int row, THTensor *t, THTensor *src) {
  int d;
  THLongTensor_set2d(geo, row, 0, THTensor_(storageOffset)(t));
  THLongTensor_set2d(geo, row, 1, THTensor_(nDimension)(t));
  for (d = 0; d < THTensor_(nDimension)(t) && d < 4; d++) {
    THLongTensor_set2d(geo, row, 2 + d, THTensor_(size)(t, d));
    THLongTensor_set2d(geo, row, 6 + d, THTensor_(stride)(t, d));
  }
  THLongTensor_set2d(geo, row, 10,
                     THTensor_(storage)(t) != NULL &&
                         THTensor_(storage)(t)->data == THTensor_(storage)(src)->data);
}

/* src is 3 x 4 x 5 (any strides). */
void STRUCT_(tour)(THTensor *src, THLongTensor *geo) {
  THTensor *narrowed, *selected, *transposed, *unfolded, *reshaped, *over, *expanded, *first;
  THTensor *empty, *fresh;
  THStorage *storage;
  THLongStorage *size;
  ptrdiff_t offset = THTensor_(storageOffset)(src);

  THLongTensor_resize2d(geo, 12, 11);
  THLongTensor_fill(geo, -1);
  narrowed = THTensor_(newNarrow)(src, 1, 1, 2);
  STRUCT_(record)(geo, 0, narrowed, src);
  selected = THTensor_(newSelect)(src, 0, 2);
  STRUCT_(record)(geo, 1, selected, src);
  transposed = THTensor_(newTranspose)(src, 0, 2);
  STRUCT_(record)(geo, 2, transposed, src);
  unfolded = THTensor_(newUnfold)(src, 2, 2, 1);
  STRUCT_(record)(geo, 3, unfolded, src);
  reshaped = THTensor_(new)();
  THTensor_(unsqueeze1d)(reshaped, src, 1);
  STRUCT_(record)(geo, 4, reshaped, src);
  THTensor_(squeeze)(reshaped, NULL);
  THAssert(THTensor_(isSetTo)(reshaped, src));
  THTensor_(squeeze1d)(reshaped, narrowed, 0);
  STRUCT_(record)(geo, 5, reshaped, src);
  over = THTensor_(newWithStorage2d)(THTensor_(storage)(src), offset + 1, 2, 5, 3, 1);
  STRUCT_(record)(geo, 6, over, src);
  THTensor_(setStorage1d)(over, THTensor_(storage)(src), offset + 3, 4, 2);
  STRUCT_(record)(geo, 7, over, src);
  first = THTensor_(newNarrow)(src, 0, 0, 1);
  size = THTensor_(newSizeOf)(src);
  expanded = THTensor_(newExpand)(first, size);
  THLongStorage_free(size);
  STRUCT_(record)(geo, 8, expanded, src);
  empty = THTensor_(new)();
  THAssert(THTensor_(nElement)(empty) == 0);
  STRUCT_(record)(geo, 9, empty, empty);

  /* writes through the views reach src */
  THTensor_(set3d)(transposed, 4, 1, 2, STRUCT_REAL(7));  /* src[2][1][4] */
  THTensor_(set2d)(selected, 3, 0, STRUCT_REAL(5));      /* src[2][3][0] */

  /* a storage made in C, seen by a tensor */
  storage = THStorage_(newWithSize)(6);
  THStorage_(fill)(storage, STRUCT_REAL(2));
  THStorage_(set)(storage, 5, STRUCT_REAL(9));
  fresh = THTensor_(newWithStorage1d)(storage, 1, 5, 1);
  THStorage_(free)(storage);
  STRUCT_(record)(geo, 10, fresh, fresh);
  THLongTensor_set2d(geo, 11, 0, (int64_t)STRUCT_NUM(THTensor_(get1d)(fresh, 4)));
  THLongTensor_set2d(geo, 11, 1, (int64_t)THStorage_(elementSize)());
  THLongTensor_set2d(geo, 11, 2, strcmp(THTensor_(sizeDesc)(src).str, "[3 x 4 x 5]") == 0);
  THLongTensor_set2d(geo, 11, 3, THTensor_(isContiguous)(transposed));

  THTensor_(free)(narrowed);
  THTensor_(free)(selected);
  THTensor_(free)(transposed);
  THTensor_(free)(unfolded);
  THTensor_(free)(reshaped);
  THTensor_(freeCopyTo)(over, over);
  THTensor_(free)(first);
  THTensor_(free)(expanded);
  THTensor_(free)(empty);
  THTensor_(free)(fresh);
}

#undef STRUCT_
#undef STRUCT_REAL
#undef STRUCT_NUM

#endif
