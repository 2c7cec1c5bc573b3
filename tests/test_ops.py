"""thffi.ops' helpers on their own: what they refuse, with which message
(their use by the demo op is tested in test_add.py and test_integration.py)."""

import inspect
import re
import warnings

import pytest
import torch
from torch import Tensor
from torch.autograd import Function

from _ext import my_lib
from functions.add import add_forward
from thffi import adapts_inputs, c_function, register_function


def test_c_function_has_the_prototype_parameters():
    assert list(inspect.signature(add_forward).parameters) == ['input1', 'input2', 'output']
    out = torch.empty(3, dtype=torch.float64)
    assert add_forward(input2=torch.ones(3, dtype=torch.float64),
                       input1=torch.ones(3, dtype=torch.float64), output=out) == 1
    assert torch.equal(out, torch.full((3,), 2.0, dtype=torch.float64))
    assert 'int my_lib_add_forward_double(THDoubleTensor *input1' in add_forward.__doc__


def test_c_function_explains_what_it_cannot_call():
    with pytest.raises(TypeError, match=r'^MyAddFunction: input1 must be a tensor, got int$'):
        add_forward(3, torch.ones(3), torch.empty(3))
    with pytest.raises(ValueError, match=r"c_function: _ext.my_lib has no function "
                                         r"'my_lib_add_forwards'"):
        c_function(my_lib, 'my_lib_add_forwards', 'MyAddFunction')


def test_adapts_inputs_needs_annotated_positional_parameters():
    def forward(ctx, *inputs: Tensor):
        return inputs[0]

    with pytest.raises(TypeError, match=r'adapts_inputs: .*forward takes \*args'):
        adapts_inputs()(forward)

    def forward(ctx, input1, input2):
        return input1

    with pytest.raises(TypeError, match=r'adapts_inputs: .*forward has no parameter annotated '
                                        r'torch.Tensor'):
        adapts_inputs()(forward)


def test_register_function_states_its_contract():
    class Unannotated(Function):
        @staticmethod
        def forward(ctx, input1, input2):
            return input1

    with pytest.raises(TypeError, match=r"register_function\('thffi_test::unannotated', "
                                        r"Unannotated\): forward must be annotated"):
        register_function('thffi_test::unannotated', Unannotated)

    class KeepsShape(Function):
        @staticmethod
        def forward(ctx, input1: Tensor, input2: Tensor) -> Tensor:
            ctx.shape = input1.shape
            output = torch.empty_like(input1)
            add_forward(input1, input2, output)
            return output

    op = register_function('thffi_test::keeps_shape', KeepsShape)
    if not hasattr(torch.library, 'custom_op'):  # no op: nothing runs forward in an op
        return
    with pytest.raises(TypeError, match=r'forward stored shape on ctx, which backward could not '
                                        r'read in compiled code'):
        op.op(torch.ones(2), torch.ones(2))


# Functions whose backward reads what forward saved, computed by the demo's
# C function, which cannot run on the fake tensors of tracing (register_function
# learns what they save by running forward on real ones).
def _c_sum(input1, input2):
    output = torch.empty_like(input1, memory_format=torch.contiguous_format)
    add_forward(input1, input2, output)
    return output


class SavesInputs(Function):
    """(x + y) * x."""

    @staticmethod
    def forward(ctx, x: Tensor, y: Tensor) -> Tensor:
        ctx.save_for_backward(x, y)
        return _c_sum(x, y) * x

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return (2 * x + y) * grad_output, x * grad_output


class SavesOutput(Function):
    """exp(x + x) * scale."""

    @staticmethod
    def forward(ctx, x: Tensor, scale: float) -> Tensor:
        ctx.scale = scale
        output = _c_sum(x, x).exp_().mul_(scale)
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        output, = ctx.saved_tensors
        return 2 * output * grad_output, None


class SavesBoth(Function):
    """exp(x) + x, saving the output, None and the input twice."""

    @staticmethod
    def forward(ctx, x: Tensor) -> Tensor:
        output = _c_sum(x.exp(), x)
        ctx.save_for_backward(output, None, x, x)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        output, nothing, x, again = ctx.saved_tensors
        assert nothing is None and again is x, ctx.saved_tensors
        return (output - x + 1) * grad_output


X, Y = torch.randn(2, 3, 4, dtype=torch.float64)


@pytest.mark.parametrize('function, args', [
    (SavesInputs, (X, Y)), (SavesOutput, (X, 0.5)), (SavesBoth, (X.t(),)),
], ids=['inputs', 'output', 'both'])
def test_register_function_gives_backward_what_forward_saved(function, args):
    if not hasattr(torch.library, 'custom_op'):
        pytest.skip('torch %s has no torch.library.custom_op' % torch.__version__)
    op = register_function('thffi_test::' + function.__name__.lower(), function)

    def leaves():
        return [a.clone().requires_grad_() if isinstance(a, Tensor) else a for a in args]

    def run(call):
        inputs = leaves()
        output = call(*inputs)
        output.backward(torch.linspace(-1, 1, output.numel(), dtype=output.dtype)
                        .view_as(output))
        return [output] + [a.grad for a in inputs if isinstance(a, Tensor)]

    # Traced before the op ever ran: setup_context sees fake tensors only.
    compiled = torch.compile(op, backend='aot_eager', fullgraph=True)
    expected = run(function.apply)
    torch.testing.assert_close(run(compiled), expected)
    torch.testing.assert_close(run(op.op), expected)
    torch.library.opcheck(op.op, leaves())
    assert torch.autograd.gradcheck(op.op, leaves(), eps=1e-6, atol=1e-8)


def test_register_function_keeps_the_output_non_differentiable():
    class Doubled(Function):
        @staticmethod
        def forward(ctx, x: Tensor) -> Tensor:
            output = _c_sum(x, x)
            ctx.mark_non_differentiable(output)
            return output

    if not hasattr(torch.library, 'custom_op'):
        pytest.skip('torch %s has no torch.library.custom_op' % torch.__version__)
    op = register_function('thffi_test::doubled', Doubled)
    output = op.op(torch.ones(2, requires_grad=True))
    assert torch.equal(output, torch.full((2,), 2.0)) and not output.requires_grad


class SavesAnIntermediate(Function):
    @staticmethod
    def forward(ctx, x: Tensor, y: Tensor) -> Tensor:
        total = _c_sum(x, y)
        ctx.save_for_backward(x, total)
        return total * x

    @staticmethod
    def backward(ctx, grad_output):
        x, total = ctx.saved_tensors
        return (total + x) * grad_output, x * grad_output


INTERMEDIATE = (r"register_function\('thffi_test::saves_intermediate(_traced)?', "
                r"SavesAnIntermediate\): the 2nd tensor forward saved with "
                r"ctx.save_for_backward is neither one of its tensor inputs \(x, y\) nor the "
                r"tensor it returns, so compiled code cannot give it to backward: save inputs or "
                r"the output and compute the rest in backward, or register the op with "
                r"register_op")


def test_register_function_refuses_an_intermediate_saved_at_the_first_call_or_trace():
    if not hasattr(torch.library, 'custom_op'):
        pytest.skip('torch %s has no torch.library.custom_op' % torch.__version__)
    x = torch.randn(3, requires_grad=True)
    op = register_function('thffi_test::saves_intermediate', SavesAnIntermediate)
    assert torch.equal(op(x, x), 2 * x * x)  # eager calls run the Function as written
    with pytest.raises(TypeError, match=INTERMEDIATE):
        op.op(x, x)
    traced = register_function('thffi_test::saves_intermediate_traced', SavesAnIntermediate)
    with pytest.raises(Exception, match=INTERMEDIATE):
        torch.compile(traced, backend='aot_eager', fullgraph=True)(x, x)


class Twice(Function):
    """input1 + input2 by the demo's C function, for the tests below."""

    @staticmethod
    @adapts_inputs(autocast_to=torch.float32)
    def forward(ctx, input1: Tensor, input2: Tensor) -> Tensor:
        output = torch.empty_like(input1, memory_format=torch.contiguous_format)
        add_forward(input1, input2, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


def test_without_custom_op_calls_run_eagerly_and_a_warning_names_the_release(monkeypatch):
    # As on torch 2.0-2.3: torch.library has no custom_op.
    from thffi import ops
    monkeypatch.setattr(ops, '_CUSTOM_OP', None)
    monkeypatch.setattr(ops, '_warned_no_custom_op', False)
    with pytest.warns(UserWarning, match=r'torch %s has no torch.library.custom_op .*'
                                         r'thffi_test::eager_only .*graph' % re.escape(torch.__version__)):
        twice = register_function('thffi_test::eager_only', Twice)
    assert twice.op is None
    x = torch.randn(4, requires_grad=True)
    out = twice(x, x)
    assert torch.equal(out, 2 * x)
    out.sum().backward()
    assert torch.equal(x.grad, torch.full((4,), 2.0))
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # said once per process
        register_function('thffi_test::eager_only_again', Twice)
    if hasattr(torch, 'compiler'):  # torch.compile around it breaks the graph there
        compiled = torch.compile(lambda a, b: twice(a, b) * 2, backend='eager')
        assert torch.equal(compiled(x.detach(), x.detach()), 4 * x.detach())


def test_without_register_autocast_the_traced_call_casts(monkeypatch):
    # As on torch 2.4: custom_op without register_autocast.
    from thffi import ops
    if ops._CUSTOM_OP is None:
        pytest.skip('torch %s has no torch.library.custom_op' % torch.__version__)
    monkeypatch.setattr(ops, '_REGISTER_AUTOCAST', None)
    twice = register_function('thffi_test::cast_in_call', Twice)
    x = torch.randn(4)
    compiled = torch.compile(lambda a, b: twice(a, b), backend='eager', fullgraph=True)
    with torch.autocast('cpu', dtype=torch.bfloat16):
        out = compiled(x.bfloat16(), x.bfloat16())
    assert out.dtype is torch.float32
    assert torch.equal(out, 2 * x.bfloat16().float())
