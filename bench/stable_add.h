// Declarations shared by stable_add.cpp and stable_add_cuda.cu.
#pragma once

#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

namespace stable_peer {

using torch::headeronly::ScalarType;
using torch::stable::Tensor;

// Raises (a RuntimeError in Python) unless a, b and out are float32 tensors
// of one size and out is contiguous.
void check_add_out(const Tensor& a, const Tensor& b, const Tensor& out);

}  // namespace stable_peer
