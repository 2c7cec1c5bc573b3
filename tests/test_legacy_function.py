"""thffi.legacy.Function: autograd Functions written for PyTorch 0.3
(instance forward/backward, arguments to __init__, self.save_for_backward...)
run on today's autograd when called the legacy way, MyFn(args)(inputs)."""

import pytest
import torch
from torch.autograd import gradcheck

from thffi.legacy import Function


def double(*shape, requires_grad=True):
    return torch.randn(*shape, dtype=torch.float64, requires_grad=requires_grad)


class ScaleMul(Function):
    """alpha * x * y: __init__ arguments, saved tensors, an attribute set in
    forward and read in backward, needs_input_grad."""

    def __init__(self, alpha):
        super(ScaleMul, self).__init__()
        self.alpha = alpha

    def forward(self, x, y):
        self.save_for_backward(x, y)
        self.seen = self.needs_input_grad
        self.shape = x.size()
        return x * y * self.alpha

    def backward(self, grad_output):
        x, y = self.saved_tensors
        assert grad_output.shape == self.shape
        grad_x = grad_y = None
        if self.needs_input_grad[0]:
            grad_x = grad_output * y * self.alpha
        if self.needs_input_grad[1]:
            grad_y = grad_output * x * self.alpha
        return grad_x, grad_y


class Square(Function):
    """One input, one gradient returned as a tensor (not a tuple)."""

    def forward(self, x):
        self.save_for_backward(x)
        return x * x

    def backward(self, grad_output):
        x, = self.saved_variables
        return 2 * x * grad_output


class Clamp(Function):
    """Non-tensor inputs get None gradients."""

    def forward(self, x, low, high):
        self.save_for_backward(x)
        self.low, self.high = low, high
        return x.clamp(low, high)

    def backward(self, grad_output):
        x, = self.saved_tensors
        inside = (x >= self.low) & (x <= self.high)
        return grad_output * inside, None, None


class MaxRows(Function):
    """Several outputs, one of them non-differentiable (indices)."""

    def forward(self, x):
        values, indices = x.max(dim=1)
        self.mark_non_differentiable(indices)
        self.save_for_backward(indices)
        self.shape = x.shape
        return values, indices

    def backward(self, grad_values, grad_indices):
        indices, = self.saved_tensors
        grad = grad_values.new_zeros(self.shape)
        grad.scatter_(1, indices.unsqueeze(1), grad_values.unsqueeze(1))
        return grad


class SplitHalves(Function):
    """Two differentiable outputs; backward gets a gradient for each."""

    def forward(self, x):
        n = x.shape[0] // 2
        return x[:n] * 2, x[n:] * 3

    def backward(self, grad_a, grad_b):
        return torch.cat([grad_a * 2, grad_b * 3])


class ScaleInPlace(Function):
    """Changes its input in place and says so with mark_dirty."""

    def __init__(self, alpha):
        super(ScaleInPlace, self).__init__()
        self.alpha = alpha

    def forward(self, x):
        x.mul_(self.alpha)
        self.mark_dirty(x)
        return x

    def backward(self, grad_output):
        return grad_output * self.alpha


def test_init_arguments_saved_tensors_attributes_and_needs_input_grad():
    x, y = double(3, 4), double(3, 4, requires_grad=False)
    fn = ScaleMul(2.5)
    out = fn(x, y)
    assert fn.seen == (True, False)
    torch.testing.assert_close(out, x * y * 2.5)
    out.sum().backward()
    torch.testing.assert_close(x.grad, y * 2.5)
    assert y.grad is None
    y.requires_grad_()
    assert gradcheck(lambda a, b: ScaleMul(2.5)(a, b), (x, y))


@pytest.mark.parametrize('fn, inputs', [
    (lambda x: Square()(x), lambda: (double(5),)),
    (lambda x: Clamp()(x, -0.5, 0.5), lambda: (double(7),)),
    (lambda x: MaxRows()(x)[0], lambda: (double(3, 4),)),
    (lambda x: SplitHalves()(x), lambda: (double(6),)),
    (lambda x: ScaleInPlace(-1.5)(x.clone()), lambda: (double(2, 3),)),
], ids=['one-gradient', 'none-gradients', 'non-differentiable-output', 'two-outputs',
        'mark-dirty'])
def test_gradcheck(fn, inputs):
    torch.manual_seed(0)
    assert gradcheck(fn, inputs())


def test_outputs_and_grad_fn():
    x = double(3, 4)
    values, indices = MaxRows()(x)
    torch.testing.assert_close(values, x.max(dim=1).values)
    assert indices.dtype == torch.int64 and not indices.requires_grad
    assert type(values.grad_fn).__name__ == 'MaxRowsBackward'
    assert values.grad_fn.name() == 'MaxRowsBackward'
    assert ScaleMul(1.0)(x, x).grad_fn.name() == 'ScaleMulBackward'
    z = x.detach().clone() * 1
    z.requires_grad_()
    w = z * 1
    out = ScaleInPlace(3.0)(w)
    assert out is w and out.grad_fn.name() == 'ScaleInPlaceBackward'


class KeepsInput(Function):
    """Keeps state of its call in attributes only (no save_for_backward)."""

    def forward(self, x):
        self.x = x.clone()
        return x * x

    def backward(self, grad_output):
        return 2 * self.x * grad_output


def test_an_instance_called_twice_keeps_each_calls_state():
    # PyTorch 0.3 let the second call overwrite the first's attributes, so
    # the first backward used the second input.  Each call keeps its own.
    fn = KeepsInput()
    a, b = double(4), double(4)
    out_a, out_b = fn(a), fn(b)
    (out_a.sum() + 10 * out_b.sum()).backward()
    torch.testing.assert_close(a.grad, 2 * a.detach())
    torch.testing.assert_close(b.grad, 20 * b.detach())
    assert gradcheck(fn, (double(3),))  # gradcheck calls the one instance many times
    assert gradcheck(ScaleMul(0.5), (double(2, 3), double(2, 3)))


def test_double_backward_is_a_clear_error():
    x, y = double(3), double(3)
    (grad,) = torch.autograd.grad(ScaleMul(2.0)(x, y).sum(), x, create_graph=True)
    torch.testing.assert_close(grad, 2 * y)
    with pytest.raises(RuntimeError, match=r'ScaleMul: the gradients of a legacy Function '
                                           r'cannot be differentiated again \(double backward\)'):
        grad.sum().backward()
    # Without create_graph nothing changes, and the first order stays right.
    (again,) = torch.autograd.grad(ScaleMul(2.0)(x, y).sum(), x)
    assert again.grad_fn is None


def test_errors():
    with pytest.raises(TypeError, match=r'Modern.forward: thffi.legacy.Function is the base '
                                        r'of legacy Functions.*subclasses torch.autograd.Function'):
        class Modern(Function):
            @staticmethod
            def forward(ctx, x):
                return x
    with pytest.raises(RuntimeError, match=r'ScaleMul.saved_tensors: only available while '
                                           r'forward or backward of this Function runs'):
        ScaleMul(1.0).saved_tensors

    class TooFew(Function):
        def forward(self, x, y):
            return x + y

        def backward(self, grad_output):
            return grad_output

    out = TooFew()(double(2), double(2))
    with pytest.raises(RuntimeError, match=r'TooFew.backward returned 1 gradients, expected 2: '
                                           r'one per input of forward'):
        out.sum().backward()

    class NoBackward(Function):
        def forward(self, x):
            return x * 2

    with pytest.raises(NotImplementedError, match=r'NoBackward.backward is not defined'):
        NoBackward()(double(2)).sum().backward()


def test_inside_a_module_and_without_grad():
    class Scale(torch.nn.Module):
        def forward(self, x):
            return ScaleMul(3.0)(x, torch.ones_like(x))

    x = double(4)
    torch.testing.assert_close(Scale()(x), 3 * x)
    with torch.no_grad():
        out = Scale()(x)
    assert not out.requires_grad
