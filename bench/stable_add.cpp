// The stable-ABI peer of bench/bench.py: the same add as src/my_lib.c, as a
// PyTorch operator built on the LibTorch Stable ABI (torch/csrc/stable/ and
// torch/headeronly/ only, so the library keeps loading across PyTorch
// upgrades without a rebuild). Built with TORCH_TARGET_VERSION set to
// PyTorch 2.10, the first release with the stable parallel_for and typed
// data pointers used here.
//
// Ops, in namespace stable_peer (torch.ops.stable_peer.<name>):
//   add_out(a, b, out):                 out = a + b; float32, same sizes,
//                                       `out` contiguous and allocated by
//                                       the caller (no resize in the ABI).
//   copy_out(grad_output, grad_input):  grad_input = grad_output, by
//                                       aten::copy_ through the dispatcher,
//                                       as the pybind11 peer's backward does.
// add_out's CUDA kernel is in stable_add_cuda.cu.

#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

#include "stable_add.h"

namespace stable_peer {

void check_add_out(const Tensor& a, const Tensor& b, const Tensor& out) {
  STD_TORCH_CHECK(
      a.scalar_type() == ScalarType::Float &&
          b.scalar_type() == ScalarType::Float &&
          out.scalar_type() == ScalarType::Float,
      "stable_peer::add_out: a, b and out must be float32 tensors");
  STD_TORCH_CHECK(
      a.sizes().equals(b.sizes()) && a.sizes().equals(out.sizes()),
      "stable_peer::add_out: a, b and out must have the same size");
  STD_TORCH_CHECK(
      out.is_contiguous(), "stable_peer::add_out: out must be contiguous");
}

namespace {

void add_out_cpu(Tensor a, Tensor b, Tensor out) {
  check_add_out(a, b, out);
  // As at::Tensor::contiguous(): a copy only when the input is not.
  if (!a.is_contiguous()) a = torch::stable::contiguous(a);
  if (!b.is_contiguous()) b = torch::stable::contiguous(b);
  const float* pa = a.const_data_ptr<float>();
  const float* pb = b.const_data_ptr<float>();
  float* po = out.mutable_data_ptr<float>();
  // The grain size of the pybind11 peer's at::parallel_for.
  torch::stable::parallel_for(0, a.numel(), 65536, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) po[i] = pa[i] + pb[i];
  });
}

void copy_out(Tensor grad_output, Tensor grad_input) {
  STD_TORCH_CHECK(
      grad_output.sizes().equals(grad_input.sizes()),
      "stable_peer::copy_out: grad_output and grad_input must have the same size");
  torch::stable::copy_(grad_input, grad_output);
}

}  // namespace

}  // namespace stable_peer

STABLE_TORCH_LIBRARY(stable_peer, m) {
  m.def("add_out(Tensor a, Tensor b, Tensor(a!) out) -> ()");
  m.def("copy_out(Tensor grad_output, Tensor(a!) grad_input) -> ()");
}

STABLE_TORCH_LIBRARY_IMPL(stable_peer, CPU, m) {
  m.impl("add_out", TORCH_BOX(&stable_peer::add_out_cpu));
}

// copy_out calls only aten ops: one kernel for every device.
STABLE_TORCH_LIBRARY_IMPL(stable_peer, CompositeExplicitAutograd, m) {
  m.impl("copy_out", TORCH_BOX(&stable_peer::copy_out));
}
