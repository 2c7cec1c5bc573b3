// The CUDA kernel of the stable-ABI peer's add_out (see stable_add.cpp),
// launched on PyTorch's current stream of the tensors' device. Built with
// -DUSE_CUDA, which declares the stable shim's CUDA stream functions.

#include <cuda_runtime.h>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/util/shim_utils.h>

#include "stable_add.h"

namespace stable_peer {

namespace {

__global__ void add_out_kernel(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x)
    out[i] = a[i] + b[i];
}

void add_out_cuda(Tensor a, Tensor b, Tensor out) {
  check_add_out(a, b, out);
  STD_TORCH_CHECK(
      a.get_device_index() == out.get_device_index() &&
          b.get_device_index() == out.get_device_index(),
      "stable_peer::add_out: a, b and out must be on one GPU");
  if (!a.is_contiguous()) a = torch::stable::contiguous(a);
  if (!b.is_contiguous()) b = torch::stable::contiguous(b);
  int64_t n = a.numel();
  if (n == 0) return;
  torch::stable::accelerator::DeviceGuard guard(out.get_device_index());
  void* stream = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(out.get_device_index(), &stream));
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  add_out_kernel<<<(unsigned)(blocks < 65535 ? blocks : 65535), threads, 0,
                   static_cast<cudaStream_t>(stream)>>>(
      a.const_data_ptr<float>(), b.const_data_ptr<float>(), out.mutable_data_ptr<float>(), n);
  cudaError_t err = cudaGetLastError();
  STD_TORCH_CHECK(err == cudaSuccess, "stable_peer::add_out: ", cudaGetErrorString(err));
}

}  // namespace

}  // namespace stable_peer

STABLE_TORCH_LIBRARY_IMPL(stable_peer, CUDA, m) {
  m.impl("add_out", TORCH_BOX(&stable_peer::add_out_cuda));
}
