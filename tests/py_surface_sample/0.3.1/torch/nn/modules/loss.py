from .module import Module


def _assert_no_grad(variable):
    assert not variable.requires_grad


def _unlisted_private(x):
    return x


class L1Loss(Module):
    def __init__(self, size_average=True):
        super(L1Loss, self).__init__()
        self.size_average = size_average

    def forward(self, input, target):
        _assert_no_grad(target)
        return (input - target).abs().sum()
