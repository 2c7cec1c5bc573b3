"""NestedIOFunction as PyTorch 0.4.1 ran it: forward_extended and
backward_extended on nests of tensors, save_for_backward of a nest,
called as Twice()(x).  thffi.legacy's (what port writes and thffi run
gives), and torch's own class in a process that imported torch.utils.ffi
through thffi's hook.  The Functions are ours, in the 2018 idiom."""

import os
import subprocess
import sys
import textwrap

import pytest
import torch
from torch.autograd import gradcheck

from support import ROOT
from thffi.legacy import NestedIOFunction


def double(*shape):
    return torch.randn(*shape, dtype=torch.float64, requires_grad=True)


class Twice(NestedIOFunction):
    def forward_extended(self, x):
        self.save_for_backward(x)
        return x * 2

    def backward_extended(self, grad_output):
        x, = self.saved_tensors
        assert self.retain_variables  # 0.4.1 always passed True
        return grad_output * 2


class ScaledPair(NestedIOFunction):
    """((a, b), c) -> (a * c, [b * c]): nested inputs and outputs, a nest
    saved, a None gradient for an input."""

    def forward_extended(self, pair, c, unused):
        a, b = pair
        self.save_for_backward((a, b), c)
        return a * c, [b * c]

    def backward_extended(self, grad_ac, grad_bc):
        (a, b), c = self.saved_tensors
        grad_bc, = grad_bc
        return (grad_ac * c, grad_bc * c), grad_ac * a + grad_bc * b, None


def test_a_nested_function_runs_forward_and_backward():
    x = double(4)
    y = Twice()(x)
    assert torch.equal(y, x * 2) and type(y.grad_fn).__name__ == 'TwiceBackward'
    y.sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, 2))
    assert gradcheck(lambda t: Twice()(t), (double(3),))


def test_nested_inputs_and_outputs_keep_their_shape():
    a, b, c, unused = double(3), double(3), double(3), double(3)
    ac, bc = ScaledPair()((a, b), c, unused)
    assert isinstance(bc, list) and len(bc) == 1
    torch.testing.assert_close(ac, a * c)
    (ac.sum() + bc[0].sum()).backward()
    torch.testing.assert_close(c.grad, a + b)
    assert unused.grad is None
    assert gradcheck(lambda a, b, c: (lambda r: (r[0], r[1][0]))(
        ScaledPair()((a, b), c, None)), (double(3), double(3), double(3)))


def test_what_is_not_a_tensor_nor_a_nest_is_refused():
    with pytest.raises(ValueError, match='NestedIOFunction: the inputs should be Tensors, or '
                                         'lists or tuples of them'):
        Twice()({'x': double(2)})
    with pytest.raises(NotImplementedError, match='Bare.forward_extended is not defined'):
        type('Bare', (NestedIOFunction,), {})()(double(2))


SCRIPT = '''\
import torch
from torch.autograd import Variable, gradcheck
from torch.autograd.function import NestedIOFunction
import torch.utils.ffi


class Twice(NestedIOFunction):
    def forward_extended(self, x, pair):
        a, b = pair
        self.save_for_backward(x, (a, b))
        return x * 2, (a + b,)

    def backward_extended(self, grad_x, grad_pair):
        x, (a, b) = self.saved_tensors
        grad_sum, = grad_pair
        return grad_x * 2, (grad_sum, grad_sum)


x = Variable(torch.randn(3).double(), requires_grad=True)
a = Variable(torch.randn(3).double(), requires_grad=True)
b = Variable(torch.randn(3).double(), requires_grad=True)
doubled, (total,) = Twice()(x, (a, b))
print(torch.equal(doubled, x * 2), torch.equal(total, a + b))
print(gradcheck(lambda x, a, b: (lambda r: (r[0], r[1][0]))(Twice()(x, (a, b))), (x, a, b)))
'''


@pytest.mark.parametrize('hook', [True, False])
def test_torchs_own_class_runs_where_torch_utils_ffi_was_imported(tmp_path, hook):
    """Unported, through thffi's hook (as its .pth installs it); without
    the hook, today's PyTorch fails as it does."""
    (tmp_path / 'nested.py').write_text(SCRIPT)
    starter = ('import sys, runpy; sys.path.insert(0, %r); from thffi import _hook; '
               '_hook.install(); runpy.run_path("nested.py", run_name="__main__")' % ROOT)
    if not hook:  # torch.utils.ffi is not there: the script's import fails first
        (tmp_path / 'nested.py').write_text(SCRIPT.replace('import torch.utils.ffi\n', ''))
        starter = 'import runpy; runpy.run_path("nested.py", run_name="__main__")'
    ran = subprocess.run([sys.executable, '-c', starter], cwd=str(tmp_path), capture_output=True,
                         text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=ROOT, THFFI_TORCH_UTILS_FFI='0'))
    if hook:
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.splitlines() == ['True True', 'True']
    else:
        assert ran.returncode != 0
        assert "'super' object has no attribute '_do_forward'" in ran.stderr, textwrap.shorten(
            ran.stderr, 2000)
