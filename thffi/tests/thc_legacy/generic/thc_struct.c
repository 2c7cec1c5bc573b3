/* THC's structure functions in generic THC code (THC_GENERIC_FILE, CReal),
 * built with every THC generator: the multi-type ones and each single-type
 * one, Half included.  src is 3 x 4 and contiguous: its element [0][0] is
 * copied to [1][2] through the element accessors.  Returns the transposed
 * view's first stride. */
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
  THCTensor *folded = THCTensor_(newFoldBatchDim)(state, src);
  cudaTextureObject_t texture = THCTensor_(getTextureObject)(state, src);
  THAssert(THCTensor_(nDimension)(state, folded) == 1 && THCTensor_(size)(state, folded, 0) == 12);
  THAssert(THCStorage_(getDevice)(state, storage) == THCTensor_(getDevice)(state, src));
  THAssert(THCTypeIdx_(Real) >= THCTypeIdxByte && THCTypeIdx_(Real) <= THCTypeIdxHalf);
  THCTensor_(set2d)(state, src, 1, 2, THCTensor_(get2d)(state, src, 0, 0));
  THCudaCheck(cudaDestroyTextureObject(texture));
  {  /* storages over memory given to them, freed with them */
    real *data;
    THCStorage *given, *allocated;
    THCudaCheck(THCudaMalloc(state, (void **)&data, 4 * sizeof(real)));
    given = THCStorage_(newWithData)(state, data, 4);
    allocated = THCStorage_(newWithAllocator)(state, 4, THCState_getDeviceAllocator(state), NULL);
    THAssert(THCStorage_(size)(state, given) == 4 && THCStorage_(size)(state, allocated) == 4);
    THCStorage_(free)(state, given);
    THCStorage_(free)(state, allocated);
  }
  THCTensor_(free)(state, folded);
  THCTensor_(free)(state, narrowed);
  THCTensor_(free)(state, transposed);
  return stride;
}

#endif
