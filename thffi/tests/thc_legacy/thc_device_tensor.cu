// THCDeviceTensor as 2018 kernels used it: made from a THC tensor by
// toDeviceTensor, indexed t[i][j] in the kernel; with THCNumerics<double>,
// powi and the 4-byte AtomicAddIntegerImpl alongside.
#include <THC/THC.h>
#include <THC/THCDeviceTensor.cuh>
#include <THC/THCDeviceTensorUtils.cuh>
#include <THC/THCNumerics.cuh>
#include <THC/THCAtomics.cuh>
#include <THC/THCDeviceUtils.cuh>

// out[i][j] = 2 * in[j][i] + i^2 (powi); *count gets one per element.
__global__ void transpose_twice(THCDeviceTensor<float, 2> out,
                                THCDeviceTensor<float, 2, int, RestrictPtrTraits> in,
                                int *count) {
  int i = blockIdx.x, j = threadIdx.x;
  if (i < out.getSize(0) && j < out.getSize(1)) {
    out[i][j] = (float)THCNumerics<double>::mul(2.0, in[j][i].ldg()) + (float)powi<int>(i, 2);
    AtomicAddIntegerImpl<int, sizeof(int)>()(count, 1);
  }
}

extern THCState *state;

// out (resized to in's transpose) as above; returns the elements counted.
extern "C" int thc_device_tensor_launch(THCudaTensor *out, THCudaTensor *in) {
  int *count, host = 0;
  THCudaTensor_resize2d(state, out, THCudaTensor_size(state, in, 1),
                        THCudaTensor_size(state, in, 0));
  THCDeviceTensor<float, 2> dout = toDeviceTensor<float, 2>(state, out);
  THCDeviceTensor<float, 2, int, RestrictPtrTraits> din =
      toDeviceTensor<float, 2, int, RestrictPtrTraits>(state, in);
  THCDeviceTensor<float, 1> flat = toDeviceTensor<float, 1>(state, out);
  THAssert(flat.numElements() == dout.numElements() && dout.isContiguous());
  THAssert(dout.transpose(0, 1).getStride(0) == 1 && dout.upcastOuter<3>().getSize(0) == 1);
  cudaStream_t stream = THCState_getCurrentStream(state);
  {  // the rest of legacy THCGeneral.h, as set-up code used it
    size_t free_bytes, total_bytes;
    void *pinned = THCudaHostAlloc(state, 64);
    int device = THCState_getCurrentDevice(state);
    THAssert(THCState_getNumDevices(state) > device && THCState_isCachingAllocatorEnabled(state));
    THAssert(THCState_getDeviceProperties(state, device)->major >= 1);
    THAssert(THCState_getCurrentStreamOnDevice(state, device) == stream);
    THCudaCheck(THCudaMemGetInfo(state, &free_bytes, &total_bytes));
    THAssert(free_bytes <= total_bytes && THCState_getPeerToPeerAccess(state, device, device));
    THCudaHostRecord(state, pinned);
    THCudaHostFree(state, pinned);
    THCublasCheck(0);
    THCusparseCheck(0);
    THAssert(THCState_getCurrentBlasHandle(state) != NULL);
    THAssert(THCState_getCurrentSparseHandle(state) != NULL);
    THCudaCheckWarn(cudaSuccess);
  }
  count = (int *)THCudaMalloc(state, sizeof(int));
  THCudaCheck(cudaMemsetAsync(count, 0, sizeof(int), stream));
  transpose_twice<<<dout.getSize(0), dout.getSize(1), 0, stream>>>(dout, din, count);
  THCudaCheck(cudaGetLastError());
  THCudaCheck(cudaMemcpyAsync(&host, count, sizeof(int), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  THCudaFree(state, count);
  return host;
}
