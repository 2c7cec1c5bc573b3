# Runs rowpool on a small batch and prints what it computed, as JSON.
import json

import torch
from torch.autograd import Variable

import rowpool

x = Variable(torch.FloatTensor(range(28)).view(4, 7), requires_grad=True)
pools = rowpool.RowPool([2, 3])
outs = pools(x)
total = outs[0].sum() + outs[1].sum()
total.backward()
weights, weight_sum = rowpool.harmonic_weights(4)
stats = {'windows': len(outs), 'half': len(outs) / 2}
print rowpool.describe(stats)
print json.dumps({
    'outs': [o.data.tolist() for o in outs],
    'grad': x.grad.data.tolist(),
    'total': total.data[0],
    'weights': weights.tolist(),
    'weight_sum': weight_sum,
    'half': stats['half'],
    'pooled': rowpool.pooled_length(7, 2),
    'fraction': rowpool.window_fraction(1.0, pools.windows),
})
