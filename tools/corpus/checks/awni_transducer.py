"""awni/transducer: the checkout imported as the package `transducer` (as its README's
`python -m transducer.test` does, from outside it), functions/transducer.py's Transducer: the
costs and gradients of the RNN transducer loss against its recursion written in PyTorch
(corpus_check.rnnt_costs)."""

import os
import sys
import tempfile

import torch
from corpus_check import close, extension, imported, rnnt_costs

extension()
outside = tempfile.mkdtemp()
os.symlink(os.getcwd(), os.path.join(outside, 'transducer'))
sys.path.insert(0, outside)
from transducer.functions.transducer import Transducer
imported()

torch.manual_seed(0)
B, T, U, V = 3, 6, 4, 5
log_probs = torch.randn(B, T, U + 1, V).log_softmax(3).requires_grad_()
lengths = torch.tensor([6, 5, 3], dtype=torch.int)
label_lengths = torch.tensor([4, 2, 3], dtype=torch.int)
labels = torch.randint(0, V - 1, (int(label_lengths.sum()),), dtype=torch.int)
costs = Transducer()(log_probs, labels, lengths, label_lengths)
targets = labels.long().split(label_lengths.tolist())
want = rnnt_costs(log_probs, targets, lengths, V - 1)
close('transducer costs', costs, want)
close('transducer gradients', torch.autograd.grad(costs.sum(), log_probs)[0],
      torch.autograd.grad(want.sum(), log_probs)[0])
