"""JubilantJerry/VigilantOptimizer (from the checkout's root): the CPU library vigilant._ext.cpu,
imported through its wrapper vigilant.optim, its two C functions (statsUpdate, stepUpdate: one
step of the optimizer's per-element statistics and of its parameter update) against a
reference of ours written from the update rule."""

import torch
from corpus_check import close, extension, imported

extension()
import vigilant.optim  # noqa: F401  (the wrapper)
from vigilant._ext import cpu
imported()

FINITE_DIFF = 0.145
g = torch.Generator().manual_seed(0)
n, min_sample = 64, 3
grads = torch.randn(n, generator=g)
sample = torch.randint(1, 8, (n,), generator=g, dtype=torch.int)
mean = torch.randn(n, generator=g) * 0.5
mean_sq = mean * mean + torch.rand(n, generator=g)
old_mean = torch.randn(n, generator=g)
time = torch.randint(0, 4, (n,), generator=g, dtype=torch.int)

# the reference: running mean and mean square over a sample size that grows while the variance
# dominates the squared mean and shrinks otherwise; the weight, the sign of the acceleration
# every sample size / 2 steps
frac = 1.0 / sample.float()
r_mean = (1 - frac) * mean + frac * grads
r_mean_sq = (1 - frac) * mean_sq + frac * grads * grads
r_mean_sq = torch.where(r_mean_sq <= 0, torch.ones_like(r_mean_sq), r_mean_sq)
sq_mean = r_mean * r_mean
r_sample = sample.float() + torch.where(sq_mean * sample.float() < r_mean_sq - sq_mean, 1.0, -1.0)
r_sample = r_sample.clamp(min=min_sample)
r_weight = sq_mean / r_mean_sq.sqrt()
r_time = time + 1
due = r_time.float() > r_sample / 2
sign = torch.where(old_mean > 0, 1.0, -1.0)
acc = torch.where(sign * (old_mean - r_mean) < sign * old_mean * FINITE_DIFF, 1.0, -1.0)
r_acc = torch.where(due, acc, torch.zeros_like(acc))
r_old = torch.where(due, r_mean, old_mean)
r_time = torch.where(due, torch.zeros_like(r_time), r_time)

weight, w_sample, w_acc = torch.zeros(n), torch.zeros(n), torch.zeros(n)
cpu.statsUpdate(min_sample, sample, mean, mean_sq, old_mean, time, weight, w_sample, w_acc, grads)
close('statsUpdate mean', mean, r_mean)
close('statsUpdate meanSq', mean_sq, r_mean_sq)
close('statsUpdate sampleSize', sample, r_sample)
close('statsUpdate time', time, r_time)
close('statsUpdate oldMean', old_mean, r_old)
close('statsUpdate weight', weight, r_weight)
close('statsUpdate weightedSampleSize', w_sample, r_weight * r_sample)
close('statsUpdate weightedAcceler', w_acc, r_weight * r_acc)

# stepUpdate: a decayed step normalized by the root mean square, clipped, applied with momentum
max_update, decay, factor = 0.05, 0.9, 0.3
step = torch.randn(n, generator=g) * 0.1
prev = torch.randn(n, generator=g) * 0.01
data = torch.randn(n, generator=g)
r_step = decay * step + (1 - decay) * grads / mean_sq.sqrt()
update = (factor * r_step).clamp(-max_update, max_update)
r_data = data + (prev - update) - decay * update
r_prev = decay * update
cpu.stepUpdate(max_update, mean, mean_sq, step, prev, decay, factor, grads, data)
close('stepUpdate step', step, r_step)
close('stepUpdate data', data, r_data)
close('stepUpdate prevUpdate', prev, r_prev)
