"""HawkAaron/warp-transducer: the installed warprnnt_pytorch's RNNTLoss (log-probabilities in,
blank 0, labels (B, U) padded, the costs summed) against the RNN transducer loss's recursion
written in PyTorch (corpus_check.rnnt_costs), and its gradient to the log-probabilities."""

import torch
from corpus_check import close, extension, imported, rnnt_costs

extension()
from warprnnt_pytorch import RNNTLoss
imported()
torch.manual_seed(0)
B, T, U, V = 3, 6, 4, 5
log_probs = torch.randn(B, T, U + 1, V).log_softmax(3).requires_grad_()
lengths = torch.tensor([6, 5, 3], dtype=torch.int)
label_lengths = torch.tensor([4, 2, 3], dtype=torch.int)
labels = torch.randint(1, V, (B, U), dtype=torch.int)     # past each length: padding
cost = RNNTLoss()(log_probs, labels, lengths, label_lengths)
targets = [labels[b, :int(label_lengths[b])].long() for b in range(B)]
want = rnnt_costs(log_probs, targets, lengths, 0).sum()
close('warp-transducer cost', cost.reshape(()), want)
close('warp-transducer gradient', torch.autograd.grad(cost.sum(), log_probs)[0],
      torch.autograd.grad(want, log_probs)[0])
