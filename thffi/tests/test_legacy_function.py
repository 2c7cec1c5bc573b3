"""thffi.legacy.Function: autograd Functions written for PyTorch 0.3
(instance forward/backward, arguments to __init__, self.save_for_backward...)
run on today's autograd when called the legacy way, MyFn(args)(inputs);
and, unported, as subclasses of torch.autograd.Function in a process that
loaded a thffi-built extension."""

import os
import subprocess
import sys

import pytest
import torch
from torch.autograd import gradcheck

from support import ROOT
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


# A 2018 script, unported: its legacy Function subclasses torch.autograd.Function
# and calls a thffi-built extension (th_test's cadd: r = t + value * src).
UNPORTED_SCRIPT = '''
import os
import warnings
import torch
from torch.autograd import Function, Variable, gradcheck
from _thffi_th_test import th_test


class AddScaled(Function):
    def __init__(self, alpha):
        super(AddScaled, self).__init__()
        self.alpha = alpha

    def forward(self, x, y):
        self.save_for_backward(y)
        output = x.new()
        th_test.cadd(output, x, self.alpha, y)
        return output

    def backward(self, grad_output):
        y, = self.saved_tensors
        grad_y = grad_output * self.alpha if self.needs_input_grad[1] else None
        return grad_output, grad_y


class Modern(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


x = Variable(torch.randn(3, 4).double(), requires_grad=True)
y = Variable(torch.randn(3, 4).double(), requires_grad=True)
print('modern', type(Modern.apply(x).grad_fn).__name__)  # .name(): PyTorch 2.5+
for call in (Modern, lambda: Modern()(x)):  # as torch has them
    try:
        call()
    except (RuntimeError, DeprecationWarning) as exc:
        print('modern instance:', type(exc).__name__)
    warnings.simplefilter('ignore', DeprecationWarning)
if os.environ.get('THFFI_LEGACY_FUNCTIONS') != '0':  # then torch warns, as it does
    warnings.simplefilter('error', DeprecationWarning)
out = AddScaled(2.5)(x, y)
assert torch.equal(out, x + 2.5 * y) and out.grad_fn.name() == 'AddScaledBackward'
print('gradcheck', gradcheck(AddScaled(2.5), (x, y)))
'''


def test_a_process_that_loaded_an_extension_runs_legacy_functions_unported(th_test, tmp_path):
    """Without port: a legacy torch.autograd.Function runs once a thffi-built
    extension is loaded (gradcheck in float64); modern Functions keep
    torch's behaviour; THFFI_LEGACY_FUNCTIONS=0 gives PyTorch's error."""
    script = tmp_path / 'test.py'
    script.write_text(UNPORTED_SCRIPT)
    folder = os.path.dirname(os.path.dirname(os.path.dirname(th_test.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, ROOT]))
    ran = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0] == 'modern ModernBackward' and lines[-1] == 'gradcheck True'
    env['THFFI_LEGACY_FUNCTIONS'] = '0'
    ran = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert ran.returncode != 0 and ran.stdout.splitlines() == lines[:-1]
    assert 'Legacy autograd function with non-static forward method' in ran.stderr
