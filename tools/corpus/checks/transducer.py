"""awni/transducer: the checkout imported as the package `transducer` (as its README's
`python -m transducer.test` does, from outside it), functions/transducer.py's Transducer: the
costs and gradients of the RNN transducer loss against its recursion written in PyTorch."""

import os
import sys
import tempfile

import torch
from corpus_check import close, extension, imported

extension()
outside = tempfile.mkdtemp()
os.symlink(os.getcwd(), os.path.join(outside, 'transducer'))
sys.path.insert(0, outside)
from transducer.functions.transducer import Transducer
imported()


def reference(log_probs, labels, lengths, label_lengths, blank):
    """Graves 2012: alpha over (t, u); the cost of each example is -log P(labels)."""
    costs, start = [], 0
    for b in range(log_probs.shape[0]):
        T, U = int(lengths[b]), int(label_lengths[b])
        y = labels[start:start + U].long()
        start += U
        lp = log_probs[b]
        alpha = [[None] * (U + 1) for _ in range(T)]
        for t in range(T):
            for u in range(U + 1):
                terms = []
                if t == 0 and u == 0:
                    terms.append(lp.new_zeros(()))
                if t > 0:
                    terms.append(alpha[t - 1][u] + lp[t - 1, u, blank])
                if u > 0:
                    terms.append(alpha[t][u - 1] + lp[t, u - 1, y[u - 1]])
                alpha[t][u] = torch.logsumexp(torch.stack(terms), 0)
        costs.append(-(alpha[T - 1][U] + lp[T - 1, U, blank]))
    return torch.stack(costs)


torch.manual_seed(0)
B, T, U, V = 3, 6, 4, 5
log_probs = torch.randn(B, T, U + 1, V).log_softmax(3).requires_grad_()
lengths = torch.tensor([6, 5, 3], dtype=torch.int)
label_lengths = torch.tensor([4, 2, 3], dtype=torch.int)
labels = torch.randint(0, V - 1, (int(label_lengths.sum()),), dtype=torch.int)
costs = Transducer()(log_probs, labels, lengths, label_lengths)
want = reference(log_probs, labels, lengths, label_lengths, V - 1)
close('transducer costs', costs, want)
close('transducer gradients', torch.autograd.grad(costs.sum(), log_probs)[0],
      torch.autograd.grad(want.sum(), log_probs)[0])
