/* Copies between this THC type and every TH and THC type, in the legacy
 * THC generic idiom (THC_GENERIC_FILE); tests/test_th_api.py checks them
 * against torch. */
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "generic/thc_copy.c"
#else

/* Into this type.  out is resized to n x 16 (n: the sources' element
 * count); column k, a strided view, receives:
 *   0 .. 6   the CPU sources b .. d, with THCTensor_(copyByte) ... copyDouble
 *   7 .. 13  the GPU sources gb .. gd, with THCTensor_(copyCudaByte) ...
 *   14       same (a CPU tensor of this type), with THCTensor_(copyCPU)
 *   15       same through THCTensor_(copyAsyncCPU) into a contiguous GPU
 *            tensor, then THCTensor_(copyCuda) */
void TH_CONCAT_3(thc_copy_to_, Real, _tour)(
    THCTensor *out, THTensor *same, THByteTensor *b, THCharTensor *c, THShortTensor *s,
    THIntTensor *i, THLongTensor *l, THFloatTensor *f, THDoubleTensor *d,
    THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs, THCudaIntTensor *gi,
    THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd) {
  int64_t n = THTensor_(nElement)(same);
  THCTensor *column = THCTensor_(new)(state);
  THCTensor *staged = THCTensor_(newWithSize1d)(state, n);
  THTensor *contiguous = THTensor_(newContiguous)(same);

  THCAssertSameGPU(THCTensor_(checkGPU)(state, 2, out, gf));
  THCTensor_(resize2d)(state, out, n, 16);
  THAssert(THCTensor_(getDevice)(state, out) == THCState_getCurrentDevice(state));
  THAssert(THCTensor_(_nDimension)(state, out) == (n ? 2 : 0));
  THCTensor_(select)(state, column, out, 1, 0);
  THCTensor_(copyByte)(state, column, b);
  THCTensor_(select)(state, column, out, 1, 1);
  THCTensor_(copyChar)(state, column, c);
  THCTensor_(select)(state, column, out, 1, 2);
  THCTensor_(copyShort)(state, column, s);
  THCTensor_(select)(state, column, out, 1, 3);
  THCTensor_(copyInt)(state, column, i);
  THCTensor_(select)(state, column, out, 1, 4);
  THCTensor_(copyLong)(state, column, l);
  THCTensor_(select)(state, column, out, 1, 5);
  THCTensor_(copyFloat)(state, column, f);
  THCTensor_(select)(state, column, out, 1, 6);
  THCTensor_(copyDouble)(state, column, d);
  THCTensor_(select)(state, column, out, 1, 7);
  THCTensor_(copyCudaByte)(state, column, gb);
  THCTensor_(select)(state, column, out, 1, 8);
  THCTensor_(copyCudaChar)(state, column, gc);
  THCTensor_(select)(state, column, out, 1, 9);
  THCTensor_(copyCudaShort)(state, column, gs);
  THCTensor_(select)(state, column, out, 1, 10);
  THCTensor_(copyCudaInt)(state, column, gi);
  THCTensor_(select)(state, column, out, 1, 11);
  THCTensor_(copyCudaLong)(state, column, gl);
  THCTensor_(select)(state, column, out, 1, 12);
  THCTensor_(copyCudaFloat)(state, column, gf);
  THCTensor_(select)(state, column, out, 1, 13);
  THCTensor_(copyCudaDouble)(state, column, gd);
  THCTensor_(select)(state, column, out, 1, 14);
  THCTensor_(copyCPU)(state, column, same);
  THCTensor_(copyAsyncCPU)(state, staged, contiguous);
  THCTensor_(select)(state, column, out, 1, 15);
  THCTensor_(copyCuda)(state, column, staged);
  /* the CPU source of the asynchronous copy must live until it ran */
  THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state)));
  THTensor_(free)(contiguous);
  THCTensor_(free)(state, staged);
  THCTensor_(free)(state, column);
}

/* From this type: src (on the GPU) is copied into
 *   b .. d      (CPU, any layout) with TH<Type>Tensor_copyCuda<Real>
 *   gb .. gd    (GPU, any layout) with THCuda<Type>Tensor_copyCuda<Real>
 *   same        (CPU, this type) with THTensor_(copyCuda)
 *   staged      (CPU, contiguous) with THTensor_(copyAsyncCuda), then the
 *               stream is synchronized
 *   gsame       (GPU, this type) with THCTensor_(copyIgnoringOverlaps) */
void TH_CONCAT_3(thc_copy_from_, Real, _tour)(
    THCTensor *src, THTensor *same, THTensor *staged, THCTensor *gsame, THByteTensor *b,
    THCharTensor *c, THShortTensor *s, THIntTensor *i, THLongTensor *l, THFloatTensor *f,
    THDoubleTensor *d, THCudaByteTensor *gb, THCudaCharTensor *gc, THCudaShortTensor *gs,
    THCudaIntTensor *gi, THCudaLongTensor *gl, THCudaTensor *gf, THCudaDoubleTensor *gd) {
  TH_CONCAT_2(THByteTensor_copyCuda, Real)(state, b, src);
  TH_CONCAT_2(THCharTensor_copyCuda, Real)(state, c, src);
  TH_CONCAT_2(THShortTensor_copyCuda, Real)(state, s, src);
  TH_CONCAT_2(THIntTensor_copyCuda, Real)(state, i, src);
  TH_CONCAT_2(THLongTensor_copyCuda, Real)(state, l, src);
  TH_CONCAT_2(THFloatTensor_copyCuda, Real)(state, f, src);
  TH_CONCAT_2(THDoubleTensor_copyCuda, Real)(state, d, src);
  TH_CONCAT_2(THCudaByteTensor_copyCuda, Real)(state, gb, src);
  TH_CONCAT_2(THCudaCharTensor_copyCuda, Real)(state, gc, src);
  TH_CONCAT_2(THCudaShortTensor_copyCuda, Real)(state, gs, src);
  TH_CONCAT_2(THCudaIntTensor_copyCuda, Real)(state, gi, src);
  TH_CONCAT_2(THCudaLongTensor_copyCuda, Real)(state, gl, src);
  TH_CONCAT_2(THCudaTensor_copyCuda, Real)(state, gf, src);
  TH_CONCAT_2(THCudaDoubleTensor_copyCuda, Real)(state, gd, src);
  THTensor_(copyCuda)(state, same, src);
  THTensor_(copyAsyncCuda)(state, staged, src);
  THCudaCheck(cudaStreamSynchronize(THCState_getCurrentStream(state)));
  THCTensor_(copyIgnoringOverlaps)(state, gsame, src);
}

#endif
