"""parlance/ctcdecode (named apart from the package it imports): the installed CTCBeamDecoder with the plain Scorer, its beam wider than
the number of prefixes (so beam search is exact), against every labelling scored by F.ctc_loss:
the best labelling, and its log-probability (compared in magnitude: the decoder's sign is its
own)."""

import itertools

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

extension()
from ctcdecode import CTCBeamDecoder, Scorer
imported()
torch.manual_seed(0)
T, classes = 4, 4                                   # blank 0 and three labels
log_probs = torch.randn(T, 1, classes).log_softmax(2)
best, best_logp = None, -float('inf')
for length in range(T + 1):
    for labelling in itertools.product(range(1, classes), repeat=length):
        logp = -F.ctc_loss(log_probs, torch.tensor([labelling], dtype=torch.long),
                           torch.tensor([T]), torch.tensor([length]), reduction='sum',
                           zero_infinity=False).item()
        if logp > best_logp:
            best, best_logp = list(labelling), logp
decoder = CTCBeamDecoder(Scorer(), '_abc', top_paths=1, beam_width=200, blank_index=0)
output, scores, out_len = decoder.decode(log_probs)[:3]
got = output[0, 0, :int(out_len[0, 0])].tolist()
if got != best:
    raise AssertionError('ctc beam decode: best labelling %s, the PyTorch reference %s' % (got, best))
close('ctc beam decode score (magnitude)', abs(float(scores[0, 0])), abs(best_logp))
