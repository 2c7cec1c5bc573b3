/* Element accessors (THTensor_(get1d) ... set4d) and _nDimension, in the
 * legacy generic idiom, checked by tests/test_th_api.py. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_access.c"
#else

/* t: 4-D, at least 2x2x2x3.  Returns a new 1-D tensor of what get4d ...
 * get1d read through views of t: t[1,0,0,1], t[1,0,1,0], t[1,0,1,1],
 * t[1,0,0,1]; then writes with set4d ... set1d: t[0,0,0,0] += 1,
 * t[1,0,0,0] = 2, t[1,0,1,0] = 3, t[1,0,0,2] = 4. */
THTensor *TH_CONCAT_3(th_access_, Real, _tour)(THTensor *t) {
  THTensor *v3 = THTensor_(new)(), *v2 = THTensor_(new)(), *v1 = THTensor_(new)();
  THTensor *result = THTensor_(newWithSize1d)(4);
  THArgCheck(THTensor_(_nDimension)(t) == 4, 1, "t must be 4-D with elements");
  THTensor_(select)(v3, t, 0, 1);  /* t[1] */
  THTensor_(select)(v2, v3, 0, 0); /* t[1, 0] */
  THTensor_(select)(v1, v2, 0, 0); /* t[1, 0, 0] */
  THTensor_(set1d)(result, 0, THTensor_(get4d)(t, 1, 0, 0, 1));
  THTensor_(set1d)(result, 1, THTensor_(get3d)(v3, 0, 1, 0));
  THTensor_(set1d)(result, 2, THTensor_(get2d)(v2, 1, 1));
  THTensor_(set1d)(result, 3, THTensor_(get1d)(v1, 1));
  THTensor_(set4d)(t, 0, 0, 0, 0, THTensor_(get4d)(t, 0, 0, 0, 0) + 1);
  THTensor_(set3d)(v3, 0, 0, 0, 2);
  THTensor_(set2d)(v2, 1, 0, 3);
  THTensor_(set1d)(v1, 2, 4);
  THTensor_(free)(v1);
  THTensor_(free)(v2);
  THTensor_(free)(v3);
  return result;
}

#endif
