"""Qinka/octnet (the installed octnet._ext.octnet; run from core/): the core library's C API
declared over its own `octree` struct, called through cffi pointers. An octree of shallow trees
(every grid cell one leaf of 8x8x8 voxels, random features) made with octree_new_cpu,
octree_resize_cpu, octree_clr_trees_cpu and the leaf counts updated; octree_to_cdhw_cpu's dense
grid against each leaf's features repeated over its 8x8x8 block, and cdhw_to_octree_avg_cpu of
a random dense grid against its 8x8x8 average pooling."""

import torch
import torch.nn.functional as F
from corpus_check import close, extension, imported

extension()
import octnet  # noqa: F401  (the package; its _ext is the wrapper)
from octnet._ext import octnet as lib
imported()
ffi = lib._ffi

n, gd, gh, gw, f = 2, 1, 2, 3, 3
cells = n * gd * gh * gw
grid = lib.octree_new_cpu()
lib.octree_resize_cpu(n, gd, gh, gw, f, cells, grid)
lib.octree_clr_trees_cpu(grid)
lib.octree_upd_n_leafs_cpu(grid)
lib.octree_upd_prefix_leafs_cpu(grid)
assert grid.n_leafs == cells, 'n_leafs %d, expected %d' % (grid.n_leafs, cells)

g = torch.Generator().manual_seed(0)
features = torch.rand(cells, f, generator=g)
ffi.memmove(grid.data, ffi.cast('float *', features.data_ptr()), features.numel() * 4)

dense = torch.zeros(n, f, 8 * gd, 8 * gh, 8 * gw)
lib.octree_to_cdhw_cpu(grid, 8 * gd, 8 * gh, 8 * gw, ffi.cast('float *', dense.data_ptr()))
want = features.view(n, gd, gh, gw, f).permute(0, 4, 1, 2, 3)
for dim in (2, 3, 4):
    want = want.repeat_interleave(8, dim)
close('octree_to_cdhw', dense, want)

values = torch.rand(n, f, 8 * gd, 8 * gh, 8 * gw, generator=g)
out = lib.octree_new_cpu()
lib.cdhw_to_octree_avg_cpu(grid, 8 * gd, 8 * gh, 8 * gw, ffi.cast('float *', values.data_ptr()), f, out)
assert out.n_leafs == cells, 'n_leafs %d, expected %d' % (out.n_leafs, cells)
got = torch.tensor([out.data[i] for i in range(cells * f)]).view(n, gd, gh, gw, f)
close('cdhw_to_octree_avg', got, F.avg_pool3d(values, 8).permute(0, 2, 3, 4, 1))
lib.octree_free_cpu(grid)
lib.octree_free_cpu(out)
