/* THC's structure functions in generic THC code (THC_GENERIC_FILE, CReal),
 * built with every THC generator: the multi-type ones and each single-type
 * one, Half included.  Returns the transposed view's first stride. */
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "generic/thc_struct.c"
#else

int64_t TH_CONCAT_4(thc_struct_, CReal, _, SUFFIX)(THCTensor *src) {
  THCTensor *transposed = THCTensor_(newTranspose)(state, src, 0, 1);
  THCTensor *narrowed = THCTensor_(newNarrow)(state, transposed, 0, 0, 1);
  THCStorage *storage = THCTensor_(storage)(state, narrowed);
  int64_t stride = THCTensor_(stride)(state, transposed, 0);
  THAssert(THCStorage_(elementSize)(state) == (int)sizeof(real));
  THAssert(THCTensor_(storageOffset)(state, narrowed) == 0 && storage != NULL);
  THCTensor_(free)(state, narrowed);
  THCTensor_(free)(state, transposed);
  return stride;
}

#endif
