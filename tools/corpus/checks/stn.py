"""fxia22/stn.pytorch (from script/): modules/stn.py's STN (BHWD) forward and backward against
grid_sample; the gradient fed is contiguous (the C reads gradOutput as contiguous, as under
PyTorch 0.3)."""

import torch
from corpus_check import bhwd_sampler, close, extension, imported

extension()
from modules.stn import STN
imported()
torch.manual_seed(0)
images = torch.rand(2, 6, 7, 3, requires_grad=True)
grids = (torch.rand(2, 5, 4, 2) * 2.4 - 1.2).requires_grad_()
out = STN()(images, grids)
want = bhwd_sampler(images, grids)
close('STN forward', out, want)
grad = torch.rand(want.shape)
got = torch.autograd.grad(out, (images, grids), grad)
ref = torch.autograd.grad(want, (images, grids), grad)
close('STN backward (images)', got[0], ref[0])
close('STN backward (grids)', got[1], ref[1])
