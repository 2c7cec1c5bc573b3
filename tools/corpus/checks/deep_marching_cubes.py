"""yiyiliao/deep_marching_cubes (from marching_cube/model/cffi; its wrappers import `_ext`, and
functions/smooth_constraint.py imports model.table from marching_cube/): the wrappers' legacy
Functions, forward and backward, against references of ours.

forward_utils: OccupancyToTopology (each cell's 256 topology probabilities: the product over
its 8 corners of p or 1 - p as the topology's bit for that corner says, corners at the offsets
the C's vertex table lists) and GridPooling (points (N, 3) in grid units, the features of the
points in each cell max-pooled, empty cells 0; the gradient to the arg max).
occupancy: OccupancyConnectivity (the sum of |p - q| over neighbouring grid points)."""

import os
import sys

import torch
from corpus_check import close, extension, imported

name = extension()
sys.path.insert(1, os.path.abspath(os.path.join('..', '..')))   # marching_cube/, for model.table
if name == 'forward_utils':
    from functions.occupancy_to_topology import OccupancyToTopology
    from functions.grid_pooling import GridPooling
else:
    from functions.smooth_constraint import OccupancyConnectivity
imported()

g = torch.Generator().manual_seed(0)
CORNERS = [(0, 1, 0), (1, 1, 0), (1, 0, 0), (0, 0, 0), (0, 1, 1), (1, 1, 1), (1, 0, 1), (0, 0, 1)]


def topology(occ):
    W, H, D = [s - 1 for s in occ.shape]
    corners = torch.stack([occ[a:a + W, b:b + H, c:c + D].reshape(-1) for a, b, c in CORNERS], 1)
    bits = (torch.arange(256)[:, None] >> torch.arange(8)[None, :]) & 1      # (256, 8)
    p = torch.where(bits[None].bool(), 1 - corners[:, None, :], corners[:, None, :])
    return p.prod(2)                                                         # (cells, 256)


def grid_pool(feat, points, shape):
    W, H, D = shape
    cell = points.floor().long()
    index = (cell[:, 0] * H + cell[:, 1]) * D + cell[:, 2]
    rows = []
    for c in range(W * H * D):
        mine = index == c
        rows.append(feat[mine].max(0)[0] if mine.any() else feat.new_zeros(feat.shape[1]))
    return torch.stack(rows)


if name == 'forward_utils':
    occ = torch.rand(3, 4, 3, generator=g).requires_grad_()
    got = OccupancyToTopology()(occ)
    want = topology(occ)
    close('OccupancyToTopology forward', got, want)
    grad = torch.rand(want.shape, generator=g)
    close('OccupancyToTopology backward', torch.autograd.grad(got, occ, grad)[0],
          torch.autograd.grad(want, occ, grad)[0])

    shape = torch.LongTensor([3, 2, 2])
    points = torch.rand(30, 3, generator=g) * torch.tensor([3.0, 2.0, 2.0])
    points[:, 2].clamp_(max=0.99)      # leave the cells with k = 1 empty
    feat = torch.rand(30, 4, generator=g).requires_grad_()
    got = GridPooling()(feat, points, shape)
    want = grid_pool(feat, points, (3, 2, 2))
    close('GridPooling forward', got, want)
    grad = torch.rand(want.shape, generator=g)
    close('GridPooling backward', torch.autograd.grad(got, feat, grad)[0],
          torch.autograd.grad(want, feat, grad)[0])
else:
    occ = torch.rand(3, 4, 5, generator=g).requires_grad_()
    got = OccupancyConnectivity()(occ)
    want = ((occ[1:] - occ[:-1]).abs().sum() + (occ[:, 1:] - occ[:, :-1]).abs().sum() +
            (occ[:, :, 1:] - occ[:, :, :-1]).abs().sum()).reshape(1)
    close('OccupancyConnectivity forward', got, want)
    close('OccupancyConnectivity backward', torch.autograd.grad(got, occ, torch.full((1,), 0.7))[0],
          torch.autograd.grad(want, occ, torch.full((1,), 0.7))[0])
