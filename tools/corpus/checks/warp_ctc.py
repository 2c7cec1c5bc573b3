"""SeanNaren/warp-ctc: the installed warpctc_pytorch's CTCLoss (softmax inside) against
F.ctc_loss on log_softmax, summed over the batch, and its gradient to the activations."""

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

extension()
from warpctc_pytorch import CTCLoss
imported()
torch.manual_seed(0)
acts = torch.randn(12, 3, 6, requires_grad=True)          # (T, batch, alphabet), blank 0
act_lens = torch.tensor([12, 10, 7], dtype=torch.int)
label_lens = torch.tensor([4, 3, 2], dtype=torch.int)
labels = torch.randint(1, 6, (int(label_lens.sum()),), dtype=torch.int)
cost = CTCLoss()(acts, labels, act_lens, label_lens)
want = F.ctc_loss(acts.log_softmax(2), labels.long(), act_lens.long(), label_lens.long(),
                  blank=0, reduction='sum')
close('warp-ctc cost', cost.reshape(()), want)
close('warp-ctc gradient', torch.autograd.grad(cost.sum(), acts)[0],
      torch.autograd.grad(want, acts)[0])
