"""ppengtang/pcl.pytorch (from lib/): pcl_losses. Its wrapper moves the loss to CUDA whatever
the input, so the check imports it and calls the CPU C functions it calls, forward and backward,
against a reference of ours: the image-level class 0 (background) loss summed over the proposals
labelled background, each class's over its proposal clusters, classes absent from the image
contributing nothing; the gradient to each proposal's probability."""

import torch
from corpus_check import close, extension, imported

extension()
import model.pcl_losses.functions.pcl_losses  # noqa: F401  (the wrapper)
from model.pcl_losses._ext import pcl_losses
imported()

g = torch.Generator().manual_seed(0)
n, c, k = 12, 5, 4                         # proposals, classes (0: background), clusters
probs = torch.rand(n, c, generator=g) * 0.98 + 0.01
im_labels = torch.tensor([[1., 1., 0., 1., 1.]])
pc_labels = torch.tensor([[1., 3., 4., 3.]])          # each cluster's class
pc_probs = torch.rand(1, k, generator=g) * 0.98 + 0.01
pc_count = torch.randint(1, 4, (1, k), generator=g).float()
img_weights = torch.rand(1, k, generator=g)
gt_assignment = torch.randint(0, k, (n,), generator=g)
labels = pc_labels[0, gt_assignment].clone()
labels[torch.rand(n, generator=g) < 0.4] = 0          # background proposals
labels[0] = 0                                         # at least one
cls_weights = torch.rand(n, generator=g)
labels, gt_assignment_f = labels.view(1, n), gt_assignment.float().view(1, n)
cls_weights = cls_weights.view(1, n)

# forward: one loss a class
output = torch.zeros(1, c)
pcl_losses.pcl_losses_forward(probs, labels, cls_weights, pc_labels, pc_probs, img_weights,
                              im_labels, output)
want = torch.zeros(1, c)
for cls in range(c):
    if im_labels[0, cls] == 0:
        continue
    if cls == 0:
        bg = labels[0] == 0
        want[0, 0] = -(cls_weights[0, bg] * probs[bg, 0].clamp(min=1e-6).log()).sum()
    else:
        mine = pc_labels[0] == cls
        want[0, cls] = -(img_weights[0, mine] * pc_probs[0, mine].clamp(min=1e-6).log()).sum()
close('pcl_losses forward', output, want)

# backward: the gradient of the loss to each proposal's class probabilities
grad_out = torch.ones(1)
grad = torch.zeros(n, c)
pcl_losses.pcl_losses_backward(probs, labels, cls_weights, gt_assignment_f, pc_labels, pc_probs,
                               pc_count, img_weights, im_labels, grad_out, grad)
ref = torch.zeros(n, c)
for i in range(n):
    for cls in range(c):
        if im_labels[0, cls] == 0:
            continue
        if cls == 0 and labels[0, i] == 0:
            ref[i, 0] = -cls_weights[0, i] / probs[i, 0].clamp(min=1e-5)
        elif cls > 0 and labels[0, i] == cls:
            j = int(gt_assignment[i])
            ref[i, cls] = -img_weights[0, j] / (pc_count[0, j] * pc_probs[0, j]).clamp(min=1e-5)
close('pcl_losses backward', grad, ref)
