"""cooooorn/Pytorch-XNOR-Net (from csrc/binop/, where `make` leaves the `binop` package; util/ is
imported from the checkout's root): util.bin_linear on the CPU, the XNOR product of the signs of
input and weight (weights encoded by binop.encode_rows_cpu) scaled by alpha, plus bias, against
sign(input) @ sign(weight).T in PyTorch."""

import os
import sys

import torch
from corpus_check import close, extension, imported

extension()
sys.path.insert(0, os.path.abspath(os.path.join('..', '..')))
import binop
from util.util import bin_linear
imported()
torch.manual_seed(0)
m, n, k = 5, 64, 6                                  # n: whole 32-bit words
x, w = torch.randn(m, n), torch.randn(k, n)
alpha, bias = torch.rand(k, 1), torch.randn(k)
bits = torch.IntTensor()
binop.encode_rows_cpu(w, bits)
out = bin_linear(x, bits, bias, alpha)
close('bin_linear', out, x.sign() @ w.sign().t() * alpha.t() + bias)
