"""C that changes the shape of what it is handed, as PyTorch 0.4 let it:
a Parameter passed to a legacy Function whose C reshapes it
(`THFloatTensor_resize2d(bias, n, 1)`, thffi/tests/legacy_data) keeps being the
same Parameter, in the module and the optimizer, with the new shape as its
data; training goes on, its gradients of the new shape.  Every in-place
change of an argument's metadata TH has (resize, set, setStorage, views
made in place) lands the same way; a tensor that requires grad and is not a
leaf is refused."""

import pytest
import torch
from torch.autograd import Function, gradcheck


def _linear_function(lib, real):
    """A legacy Function of 2018 over linear_<real>_forward/backward: the
    input, weight and bias saved first, then the C called."""
    forward = getattr(lib, 'linear_%s_forward' % real)
    backward = getattr(lib, 'linear_%s_backward' % real)

    class LinearFunction(Function):
        def forward(self, input, weight, bias):
            self.save_for_backward(input, weight, bias)
            output = input.new()
            forward(input, weight, bias, output)
            return output

        def backward(self, grad_output):
            input, weight, bias = self.saved_tensors
            grad_input, grad_weight, grad_bias = input.new(), weight.new(), bias.new()
            backward(input, weight, bias, grad_output, grad_input, grad_weight, grad_bias)
            return grad_input, grad_weight, grad_bias

    return LinearFunction


def _module(function, weight, bias):
    class ColumnBiasLinear(torch.nn.Module):
        def __init__(self):
            super(ColumnBiasLinear, self).__init__()
            self.weight = torch.nn.Parameter(weight.clone())
            self.bias = torch.nn.Parameter(bias.clone())

        def forward(self, input):
            return function()(input, self.weight, self.bias)

    return ColumnBiasLinear()


def test_a_parameter_the_c_reshapes_stays_the_modules_and_trains(legacy_data):
    torch.manual_seed(0)
    weight, bias = torch.randn(4, 3), torch.randn(4)
    model = _module(_linear_function(legacy_data, 'Float'), weight, bias)
    parameter = model.bias
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    # The same training in plain PyTorch, with the bias a column from the start.
    ref_weight = torch.nn.Parameter(weight.clone())
    ref_bias = torch.nn.Parameter(bias.clone().view(4, 1))
    ref_optimizer = torch.optim.SGD([ref_weight, ref_bias], lr=0.1, momentum=0.9)
    losses = []
    for step in range(3):
        x = torch.randn(5, 3)
        output = model(x)
        assert torch.allclose(output, x @ ref_weight.detach().t() + ref_bias.detach().view(-1),
                              atol=1e-5)
        # The Parameter changed shape on the first call and is still the one
        # the module and the optimizer hold.
        assert model.bias is parameter and parameter.shape == (4, 1)
        assert dict(model.named_parameters())['bias'] is parameter
        assert optimizer.param_groups[0]['params'][1] is parameter
        assert parameter.requires_grad and parameter.is_leaf
        optimizer.zero_grad()
        loss = (output * torch.arange(1.0, 5.0)).sum()
        loss.backward()
        losses.append(loss)  # the graphs stay alive, as a training loop keeps its last
        ref_optimizer.zero_grad()
        ((x @ ref_weight.t() + ref_bias.view(-1)) * torch.arange(1.0, 5.0)).sum().backward()
        assert parameter.grad.shape == (4, 1)
        assert torch.allclose(parameter.grad, ref_bias.grad)
        assert torch.allclose(model.weight.grad, ref_weight.grad)
        optimizer.step()
        ref_optimizer.step()
        assert torch.allclose(parameter.detach(), ref_bias.detach(), atol=1e-5)
        assert torch.allclose(model.weight.detach(), ref_weight.detach(), atol=1e-5)


def test_gradcheck_after_the_change(legacy_data):
    function = _linear_function(legacy_data, 'Double')
    x = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    weight = torch.nn.Parameter(torch.randn(4, 2, dtype=torch.float64))
    bias = torch.nn.Parameter(torch.randn(4, dtype=torch.float64))
    function()(x, weight, bias).sum().backward()  # the call that reshapes
    assert bias.shape == (4, 1) and bias.grad.shape == (4, 1)
    assert torch.equal(bias.grad, torch.full((4, 1), 3.0, dtype=torch.float64))
    assert gradcheck(lambda *inputs: function()(*inputs), (x, weight, bias))


@pytest.mark.parametrize('how, torch_change', [
    (0, lambda t, o: t.resize_(6)),
    (1, lambda t, o: t.resize_(3, 2)),
    (2, lambda t, o: t.resize_(1, 2, 3)),
    (3, lambda t, o: t.resize_(1, 1, 2, 3)),
    (4, lambda t, o: t.resize_as_(o)),
    (5, lambda t, o: t.resize_(2, 3)),
    (6, lambda t, o: t.set_(o)),
    (7, lambda t, o: t.set_(t.untyped_storage(), 1, (2, 2), (2, 1))),
    (8, lambda t, o: t.t_()),
    (9, lambda t, o: t.set_(t[1])),
    (10, lambda t, o: t.set_(t[:, 1:3])),
    (11, lambda t, o: t.unsqueeze_(0)),
    (12, lambda t, o: t.squeeze_()),
    (13, lambda t, o: t.squeeze_(0)),
    (14, lambda t, o: t.set_(t.unfold(1, 2, 1))),
    (15, lambda t, o: t.set_(t.expand(2, 2, 3))),
], ids=['resize1d', 'resize2d', 'resize3d', 'resize4d', 'resizeAs', 'resize', 'set',
        'setStorage2d', 'transpose', 'select', 'narrow', 'unsqueeze1d', 'squeeze',
        'squeeze1d', 'unfold', 'expand'])
def test_every_change_in_place_lands_on_a_parameters_data(legacy_data, how, torch_change):
    other = torch.arange(10.0, 16.0).view(3, 2)
    parameter = torch.nn.Parameter(torch.arange(6.0).view(2, 3))
    expected = torch_change(torch.arange(6.0).view(2, 3), other)
    legacy_data.change_in_place(parameter, other, how)
    assert type(parameter) is torch.nn.Parameter
    assert parameter.requires_grad and parameter.is_leaf
    assert parameter.shape == expected.shape and parameter.stride() == expected.stride()
    assert torch.equal(parameter.detach(), expected)
    # Not an in-place operation of autograd's: a Function that saved the
    # Parameter before its C ran reads it in backward.
    assert parameter._version == 0


def test_a_leaf_that_requires_grad_changes_as_a_parameter_does(legacy_data):
    """Not only a Parameter: any leaf that requires grad, such as the tensor
    `port` hands C for `x.data` (`x = Variable(t, requires_grad=True)`), takes
    the C's change on its data and stays the same leaf."""
    t = torch.arange(6.0).view(2, 3).requires_grad_()
    assert legacy_data.change_in_place(t, None, 1) == 2
    assert type(t) is torch.Tensor and t.requires_grad and t.is_leaf
    assert t.shape == (3, 2) and torch.equal(t.detach(), torch.arange(6.0).view(3, 2))
    assert t._version == 0
    # In a legacy Function: the gradient of the new shape reaches .grad.
    function = _linear_function(legacy_data, 'Float')
    weight = torch.randn(4, 3, requires_grad=True)
    bias = torch.randn(4, requires_grad=True)
    function()(torch.randn(2, 3), weight, bias).sum().backward()
    assert bias.shape == (4, 1) and torch.equal(bias.grad, torch.full((4, 1), 2.0))
    assert weight.grad.shape == (4, 3)


def test_a_non_leaf_that_requires_grad_is_refused(legacy_data):
    result = torch.arange(6.0, requires_grad=True).view(2, 3) * 2
    with pytest.raises(RuntimeError, match=r'change_in_place: cannot resize argument 1 to '
                                           r'\(3, 2\): it requires grad and is not a leaf'):
        legacy_data.change_in_place(result, None, 1)
    assert result.shape == (2, 3)
    # Without grad, the same tensor is data as any.
    with torch.no_grad():
        plain = torch.arange(6.0, requires_grad=True).view(2, 3) * 2
    assert legacy_data.change_in_place(plain, None, 1) == 2 and plain.shape == (3, 2)


def test_views_made_in_c_of_a_parameter_are_data(legacy_data):
    parameter = torch.nn.Parameter(torch.arange(6.0).view(2, 3))
    row = legacy_data.first_row(parameter)
    assert not row.requires_grad and row.grad_fn is None
    assert row.data_ptr() == parameter.data_ptr() and torch.equal(row, torch.arange(3.0))


class Select(Function):
    """forward's C makes the (2, 3) Parameter its row 1 (3 elements);
    backward returns a gradient of the shape it is told."""

    def __init__(self, lib, grad_shape):
        super(Select, self).__init__()
        self.lib, self.grad_shape = lib, grad_shape

    def forward(self, parameter):
        self.lib.change_in_place(parameter, None, 9)
        return parameter.detach().sum().view(1)

    def backward(self, grad_output):
        return grad_output.expand(self.grad_shape).clone()


def test_gradients_after_a_change_of_element_count(legacy_data):
    parameter = torch.nn.Parameter(torch.arange(6.0).view(2, 3))
    Select(legacy_data, (3,))(parameter).backward()
    assert parameter.shape == (3,) and torch.equal(parameter.grad, torch.ones(3))
    parameter = torch.nn.Parameter(torch.arange(6.0).view(2, 3))
    with pytest.raises(RuntimeError, match=r'Select.backward: the gradient of input 0 has shape '
                                           r'\(2, 3\), but the C code that forward called made '
                                           r'that input \(which requires grad\) of shape \(3,\)'):
        Select(legacy_data, (2, 3))(parameter).backward()


def test_a_grad_of_the_old_shape_is_summed_in_the_new(legacy_data):
    function = _linear_function(legacy_data, 'Float')
    weight = torch.nn.Parameter(torch.randn(4, 3))
    bias = torch.nn.Parameter(torch.randn(4))
    bias.grad = torch.ones(4)  # not zeroed since an earlier step
    function()(torch.randn(2, 3), weight, bias).sum().backward()
    assert bias.grad.shape == (4, 1) and torch.equal(bias.grad, torch.full((4, 1), 3.0))
