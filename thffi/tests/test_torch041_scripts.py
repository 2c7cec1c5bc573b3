"""A 2018 repository using PyTorch 0.4.1 names today's PyTorch removed
(`_assert_no_grad` in a wrapper's loss, a NestedIOFunction subclass,
torch.potrf/gels/btrifact/btrisolve/symeig and their tensor methods): it
fails as it is, runs under `python -m thffi run -- python demo.py` with
0.4.1's meaning, and after `python -m thffi port --write` runs on today's
PyTorch with the same results.  The repository is ours, written as 2018
code was; the expected numbers come from NumPy."""

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np

from support import ROOT

ENV = dict(os.environ, PYTHONPATH=ROOT)

REPO = {
    'functions/__init__.py': '',
    'functions/smooth_l1.py': '''\
        from torch.nn.modules.loss import _assert_no_grad
        import torch
        from torch.nn import Module


        class SmoothL1Loss(Module):
            """The Huber loss, its target checked as 2018 wrappers did."""

            def forward(self, input, target):
                _assert_no_grad(target)
                diff = torch.abs(input - target)
                loss = torch.where(diff < 1, 0.5 * diff * diff, diff - 0.5)
                return loss.sum() / input.size(0)
        ''',
    'functions/twice.py': '''\
        from torch.autograd.function import NestedIOFunction


        class TwicePair(NestedIOFunction):
            """(x, (a, b)) -> (2 x, (a b,))"""

            def forward_extended(self, x, pair):
                a, b = pair
                self.save_for_backward(x, (a, b))
                return x * 2, (a * b,)

            def backward_extended(self, grad_x, grad_pair):
                x, (a, b) = self.saved_tensors
                grad_ab, = grad_pair
                return grad_x * 2, (grad_ab * b, grad_ab * a)
        ''',
    'demo.py': '''\
        from __future__ import print_function
        import torch
        from torch.autograd import Variable, gradcheck
        from functions.smooth_l1 import SmoothL1Loss
        from functions.twice import TwicePair

        torch.manual_seed(0)
        A = torch.DoubleTensor([[4, 2, 0.6], [2, 5, 1], [0.6, 1, 3]])
        U = torch.potrf(A)
        print('potrf upper:', bool((U == U.triu()).all()), bool((U.t().mm(U) - A).abs().max() < 1e-12))
        L = A.potrf(False)
        print('potrf lower:', bool((L == L.tril()).all()), bool((L.mm(L.t()) - A).abs().max() < 1e-12))
        M = torch.DoubleTensor([[1, 2], [3, 4], [5, 7], [2, 1]])
        B = torch.DoubleTensor([[1], [2], [2], [1]])
        X, QR = torch.gels(B, M)
        print('gels sizes:', tuple(X.size()), tuple(QR.size()))
        print('gels solution:', ' '.join('%.6f' % v for v in X[:2].view(-1).tolist()))
        print('gels residual: %.6f' % (X[2:] ** 2).sum())
        LU, pivots = torch.btrifact(A.unsqueeze(0))
        print('btrifact pivots:', pivots.tolist(), pivots.type())
        x = torch.btrisolve(torch.DoubleTensor([[1, 2, 3]]), LU, pivots)
        print('btrisolve:', ' '.join('%.6f' % v for v in x.view(-1).tolist()))
        e, V = torch.symeig(A)
        print('symeig:', ' '.join('%.6f' % v for v in e.tolist()), float(V.abs().sum()))
        e, V = A.symeig(eigenvectors=True)
        print('symeig vectors:', bool((A.mm(V) - V * e).abs().max() < 1e-12))
        a = Variable(torch.randn(3, 3).double(), requires_grad=True)
        eye = Variable(torch.eye(3).double())
        print('potrf gradcheck:', gradcheck(lambda m: torch.potrf(m.mm(m.t()) + 3 * eye), (a,)))

        crit = SmoothL1Loss()
        pred = Variable(torch.DoubleTensor([0.5, 2.0, -1.0]), requires_grad=True)
        target = Variable(torch.zeros(3).double())
        loss = crit(pred, target)
        loss.backward()
        print('loss: %.4f' % loss.item(), pred.grad.tolist())
        try:
            crit(pred, pred)
        except AssertionError:
            print('a target requiring grad: AssertionError')

        x = Variable(torch.randn(3).double(), requires_grad=True)
        p = Variable(torch.randn(3).double(), requires_grad=True)
        q = Variable(torch.randn(3).double(), requires_grad=True)
        doubled, (prod,) = TwicePair()(x, (p, q))
        print('nested:', bool((doubled == 2 * x).all()), bool((prod == p * q).all()))
        pair = lambda x, p, q: (lambda r: (r[0], r[1][0]))(TwicePair()(x, (p, q)))
        print('nested gradcheck:', gradcheck(pair, (x, p, q)))
        ''',
}


def _write(folder):
    for name, text in REPO.items():
        path = os.path.join(str(folder), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(textwrap.dedent(text))


def _run(args, cwd):
    return subprocess.run(args, cwd=str(cwd), env=ENV, capture_output=True, text=True,
                          timeout=600)


def _expected():
    """What demo.py prints with 0.4.1's meaning, from NumPy."""
    a = np.array([[4, 2, 0.6], [2, 5, 1], [0.6, 1, 3]])
    m = np.array([[1, 2], [3, 4], [5, 7], [2, 1]], dtype=float)
    b = np.array([[1], [2], [2], [1]], dtype=float)
    solution, residual = np.linalg.lstsq(m, b, rcond=None)[:2]
    pred = np.array([0.5, 2.0, -1.0])
    huber = np.where(abs(pred) < 1, 0.5 * pred ** 2, abs(pred) - 0.5)
    return [
        'potrf upper: True True',
        'potrf lower: True True',
        'gels sizes: (4, 1) (4, 2)',
        'gels solution: ' + ' '.join('%.6f' % v for v in solution.ravel()),
        'gels residual: %.6f' % residual[0],
        "btrifact pivots: [[1, 2, 3]] torch.IntTensor",  # A's first pivots need no swap
        'btrisolve: ' + ' '.join('%.6f' % v for v in np.linalg.solve(a, [1, 2, 3])),
        'symeig: ' + ' '.join('%.6f' % v for v in np.linalg.eigvalsh(a)) + ' 0.0',
        'symeig vectors: True',
        'potrf gradcheck: True',
        'loss: %.4f %s' % (huber.sum() / 3, (np.clip(pred, -1, 1) / 3).tolist()),
        'a target requiring grad: AssertionError',
        'nested: True True',
        'nested gradcheck: True']


def test_a_2018_repository_runs_under_thffi_run_and_after_port(tmp_path):
    repo = tmp_path / 'repo'
    _write(repo)
    bare = _run([sys.executable, 'demo.py'], repo)
    assert bare.returncode != 0 and "cannot import name '_assert_no_grad'" in bare.stderr

    ran = _run([sys.executable, '-m', 'thffi', 'run', '--', 'python', 'demo.py'], repo)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == _expected()
    said = [line for line in ran.stderr.splitlines() if line.startswith('thffi run:')]
    for name in ('functions/smooth_l1.py:1: torch.nn.modules.loss._assert_no_grad',
                 'functions/twice.py:1: torch.autograd.function.NestedIOFunction',
                 'demo.py:9: torch.potrf', 'demo.py:11: torch.Tensor.potrf',
                 'demo.py:15: torch.gels', 'demo.py:19: torch.btrifact',
                 'demo.py:21: torch.btrisolve', 'demo.py:23: torch.symeig',
                 'demo.py:25: torch.Tensor.symeig'):
        assert any(line.startswith('thffi run: ' + name + ' is gone') for line in said), name

    ported = tmp_path / 'ported'
    shutil.copytree(str(repo), str(ported))
    port = _run([sys.executable, '-m', 'thffi', 'port', '--write', '.'], ported)
    assert port.returncode == 0, port.stderr
    for change in ('+from thffi.torch041 import _assert_no_grad\n',
                   '+from thffi.legacy import NestedIOFunction\n',
                   '+U = thffi.torch041.potrf(A)\n', '+L = thffi.torch041.potrf(A, False)\n',
                   '+X, QR = thffi.torch041.gels(B, M)\n',
                   '+e, V = thffi.torch041.symeig(A, eigenvectors=True)\n'):
        assert change in port.stdout, change
    after = _run([sys.executable, 'demo.py'], ported)
    assert after.returncode == 0, after.stderr
    assert after.stdout == ran.stdout
