import collections

import numpy as np
import torch
from torch.autograd import Function
from _ext import rowpool as _rowpool


class RowPoolFunction(Function):
    """Sums each row's windows of `window` columns (the last ones left over
    are dropped)."""

    def __init__(self, window):
        super(RowPoolFunction, self).__init__()
        self.window = window

    def forward(self, input):
        window = int(self.window)
        output = input.new(input.size(0), input.size(1) / window).zero_()
        try:
            _rowpool.rowpool_forward(input.contiguous(), output, window)
        except RuntimeError, e:
            print "rowpool_forward failed:", e
            raise
        self.save_for_backward(input)
        return output

    def backward(self, grad_output):
        input, = self.saved_tensors
        grad_input = input.new(input.size()).zero_()
        _rowpool.rowpool_backward(grad_output.contiguous(), grad_input, int(self.window))
        return grad_input


class RowPool(torch.nn.Module):
    def __init__(self, windows):
        super(RowPool, self).__init__()
        if not isinstance(windows, collections.Iterable):
            windows = [windows]
        self.windows = list(windows)

    def forward(self, x):
        return [RowPoolFunction(w)(x) for w in self.windows]


def describe(stats):
    parts = []
    for name, value in sorted(stats.iteritems()):
        if stats.has_key(name):
            parts.append('%s=%s' % (name, value))
    return ', '.join(parts)


def harmonic_weights(n):
    w = np.zeros(n, dtype=np.float)
    for i in xrange(n):
        w[i] = 1.0 / (i + 1)
    return w, np.asscalar(w.sum())
