/* One tour of the THC API per CUDA tensor type, with the legacy THC generic
 * machinery (THCGenerateAllTypes.h, THCTensor_(NAME), real, CReal); the GPU
 * twin of tests/th_test/generic/th_api.c, checked by tests/test_th_api.py. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/thc_api.c"
#else

#define TOUR TH_CONCAT_3(thc_api_, Real, _tour)

THCTensor *TOUR(THCTensor *input, THCTensor *row, THCTensor *narrowed, THCTensor *trans,
                THCTensor *twice, THCTensor *filled, THLongTensor *dims) {
  THCTensor *view = THCTensor_(new)(state);
  THCTensor *contig, *clone, *result;
  THCTensor *w1 = THCTensor_(newWithSize1d)(state, 3);
  THCTensor *w2 = THCTensor_(newWithSize2d)(state, 2, 3);
  THCTensor *w3 = THCTensor_(newWithSize3d)(state, 2, 3, 4);
  THCTensor *w4 = THCTensor_(newWithSize4d)(state, 1, 2, 3, 4);
  THCStorage *storage;
  int64_t sizes[2], k = 0;
  real last;
  void *scratch = NULL;

  THCAssertSameGPU(THCTensor_(checkGPU)(state, 6, input, row, narrowed, trans, twice, filled));
  THArgCheck(THCTensor_(nDimension)(state, input) == 2, 1, "input must be 2-D");
  THArgCheck(THCTensor_(size)(state, input, 0) >= 3 && THCTensor_(size)(state, input, 1) >= 4,
             1, "input must be at least 3x4");

  THCTensor_(select)(state, row, input, 0, 1);
  THCTensor_(narrow)(state, view, input, 1, 1, 2);
  THCTensor_(resizeAs)(state, narrowed, view);
  THCTensor_(copy)(state, narrowed, view);
  THCTensor_(transpose)(state, view, input, 0, 1);
  contig = THCTensor_(newContiguous)(state, view);
  THAssert(THCTensor_(isContiguous)(state, contig));
  THCTensor_(resizeAs)(state, trans, contig);
  THCTensor_(copy)(state, trans, contig);

  clone = THCTensor_(newClone)(state, input);
  THAssert(THCTensor_(isSameSizeAs)(state, clone, input));
  THCTensor_(cadd)(state, twice, clone, 2, input);

  THCTensor_(resize5d)(state, filled, 1, 2, 1, 3, 1);
  THCTensor_(zero)(state, filled);
  storage = THCTensor_(storage)(state, filled);
  THAssert(THCStorage_(size)(state, storage) == 6 && THCTensor_(storageOffset)(state, filled) == 0);
  THCStorage_(fill)(state, storage, 5);
  THCudaCheck(cudaMemcpyAsync(&last, THCStorage_(data)(state, storage) + 5, sizeof(real),
                              cudaMemcpyDeviceToHost, THCState_getCurrentStream(state)));
  THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state)));
  THAssert(last == 5);

  THCudaCheck(THCudaMalloc(state, &scratch, 1024));
  THCudaCheck(cudaMemsetAsync(scratch, 0, 1024, THCState_getCurrentStream(state)));
  THCudaCheck(THCudaFree(state, scratch));
  THAssert(THCState_getCurrentDeviceProperties(state)->multiProcessorCount > 0);

  THLongTensor_resize1d(dims, 12);
  THLongTensor_fill(dims, -1);
  {
    int64_t *out = THLongTensor_data(dims);
    out[k++] = THCTensor_(nDimension)(state, w1) + THCTensor_(nDimension)(state, w2) +
               THCTensor_(nDimension)(state, w3) + THCTensor_(nDimension)(state, w4);
    out[k++] = THCTensor_(nElement)(state, w4);
    out[k++] = THCTensor_(size)(state, w3, 1);
    out[k++] = THCTensor_(stride)(state, w3, 0);
    out[k++] = THCTensor_(isContiguous)(state, view);
    sizes[0] = 4; sizes[1] = 5;
    THCTensor_(resizeNd)(state, w2, 2, sizes, NULL);
    out[k++] = THCTensor_(nElement)(state, w2);
    THCTensor_(resize1d)(state, w1, 7);
    THCTensor_(resize2d)(state, w1, 2, 2);
    THCTensor_(resize3d)(state, w1, 1, 1, 3);
    THCTensor_(resize4d)(state, w1, 1, 1, 1, 2);
    out[k++] = THCTensor_(nElement)(state, w1);
    out[k++] = THCTensor_(nDimension)(state, THCTensor_(new)(state));
    THCTensor_(fill)(state, w4, 1);
    THCTensor_(retain)(state, w4);
    THCTensor_(free)(state, w4);
    THCudaCheck(cudaMemcpyAsync(&last, THCTensor_(data)(state, w4) + 23, sizeof(real),
                                cudaMemcpyDeviceToHost, THCState_getCurrentStream(state)));
    THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state)));
    out[k++] = (int64_t)last;
    THCTensor_(free)(state, w4);
    out[k++] = TH_CONCAT_2(1, 2) + TH_CONCAT_3(1, 2, 3) + TH_CONCAT_4(1, 2, 3, 4);
  }

  /* the sum over row, computed by the GPU-free test side: here a copy */
  result = THCTensor_(newWithSize1d)(state, THCTensor_(size)(state, row, 0));
  THCTensor_(copy)(state, result, row);
  THCTensor_(free)(state, view);
  THCTensor_(free)(state, contig);
  THCTensor_(free)(state, clone);
  return result;
}

#undef TOUR

#endif
