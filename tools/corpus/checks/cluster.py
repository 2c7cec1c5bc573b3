"""rusty1s/pytorch_cluster: the installed grid_cluster against voxel indices computed in PyTorch,
and graclus_cluster (unweighted and weighted) against the greedy matching written in Python,
its random orderings replayed under the same seed."""

import torch
from corpus_check import close, extension, imported

extension()
from torch_cluster import graclus_cluster, grid_cluster
imported()


def graclus(row, col, weight, num_nodes, weights_follow_edges=True):
    """graclus_cluster's orderings (edges shuffled, then grouped by a shuffled row order, self
    loops dropped), then the greedy matching: an unmatched node takes its first unmatched
    neighbour, or with weights the heaviest (> 0), and both get the smaller index."""
    eid = torch.arange(row.size(0))
    perm = torch.randperm(row.size(0))
    row, col, eid = row[perm], col[perm], eid[perm]
    node_rid = torch.randperm(num_nodes)
    _, perm = node_rid[row].sort()
    row, col, eid = row[perm], col[perm], eid[perm]
    keep = row != col
    row, col, eid = row[keep].tolist(), col[keep].tolist(), eid[keep]
    w = None if weight is None else (weight[eid] if weights_follow_edges else weight).tolist()
    cluster = [-1] * num_nodes
    e = 0
    while e < len(row):
        r, matched, best = row[e], row[e], 0.0
        if cluster[r] < 0:
            while e < len(row) and row[e] == r:
                c = col[e]
                if cluster[c] < 0:
                    if w is None:
                        matched = c
                        break
                    if w[e] > best:
                        matched, best = c, w[e]
                e += 1
            cluster[r] = cluster[matched] = min(r, matched)
        while e < len(row) and row[e] == r:
            e += 1
    return cluster


pos = torch.rand(20, 3) * 10
size = torch.tensor([2.0, 3.0, 1.5])
start = pos.min(0)[0]
count = ((pos.max(0)[0] - start) / size).long() + 1
cells = ((pos - start) / size).long()
want = cells[:, 0] + count[0] * (cells[:, 1] + count[1] * cells[:, 2])
close('grid_cluster', grid_cluster(pos, size), want)

g = torch.Generator().manual_seed(5)
n = 12
row = torch.randint(0, n, (30,), generator=g)
col = torch.randint(0, n, (30,), generator=g)
row, col = torch.cat([row, col]), torch.cat([col, row])        # undirected
weight = torch.rand(row.size(0), generator=g)
for weighted in (False, True):
    for seed in range(3):
        torch.manual_seed(seed)
        got = graclus_cluster(row, col, weight if weighted else None, n).tolist()
        torch.manual_seed(seed)
        want = graclus(row, col, weight if weighted else None, n)
        if got == want:
            continue
        what = 'graclus_cluster (%s, seed %d) differs from the PyTorch reference: %s vs %s' % (
            'weighted' if weighted else 'unweighted', seed, got, want)
        torch.manual_seed(seed)
        if weighted and got == graclus(row, col, weight, n, weights_follow_edges=False):
            what += ('; it equals the reference with the weights left in their original order '
                     'while the edges are permuted (graclus_cluster passes `weight` unpermuted '
                     'to C)')
        raise AssertionError(what)
