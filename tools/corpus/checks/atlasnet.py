"""ThibaultGROUEIX/AtlasNet (from nndistance/): modules/nnd.py's NNDModule, the squared chamfer
distances both ways, forward and backward, against pairwise distances in PyTorch."""

import torch
from corpus_check import close, extension, imported

extension()
from modules.nnd import NNDModule
imported()
torch.manual_seed(0)
xyz1 = torch.rand(2, 7, 3, requires_grad=True)
xyz2 = torch.rand(2, 5, 3, requires_grad=True)
dist1, dist2 = NNDModule()(xyz1, xyz2)
squared = ((xyz1[:, :, None, :] - xyz2[:, None, :, :]) ** 2).sum(3)
want1, want2 = squared.min(2)[0], squared.min(1)[0]
close('chamfer dist1', dist1, want1)
close('chamfer dist2', dist2, want2)
g1, g2 = torch.rand(2, 7), torch.rand(2, 5)
got = torch.autograd.grad((dist1, dist2), (xyz1, xyz2), (g1, g2))
ref = torch.autograd.grad((want1, want2), (xyz1, xyz2), (g1, g2))
close('chamfer backward (xyz1)', got[0], ref[0])
close('chamfer backward (xyz2)', got[1], ref[1])
