"""The demo op in today's PyTorch: torch.compile, torch.export, opcheck,
autocast, DistributedDataParallel and copying into a project (pip
installs: test_template_install.py)."""

import os
import socket
import subprocess
import sys
import textwrap

import pytest
import torch

from demo_support import HIDE_INSTALLED_THFFI, copy_demo
from functions.add import MyAddFunction, my_add
from modules.add import MyAddModule


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)
        self.add = MyAddModule()

    def forward(self, x, y):
        return torch.relu(self.add(self.linear(x), y.t()))


def _model_and_inputs(dtype=torch.float32):
    torch.manual_seed(0)
    model = Net().to(dtype)
    x = torch.randn(3, 4, dtype=dtype, requires_grad=True)
    y = torch.randn(4, 3, dtype=dtype, requires_grad=True)
    return model, x, y


def _forward_backward(fn, model, x, y):
    for t in (x, y, *model.parameters()):
        t.grad = None
    out = fn(x, y)
    out.pow(2).sum().backward()
    return out.detach(), [t.grad.clone() for t in (x, y, *model.parameters())]


def test_no_graph_breaks():
    model, x, y = _model_and_inputs()
    explanation = torch._dynamo.explain(model)(x, y)
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1


@pytest.mark.parametrize('backend', ['aot_eager', 'inductor'])
@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
def test_compiled_fullgraph_matches_eager(backend, dtype):
    model, x, y = _model_and_inputs(dtype)
    compiled = torch.compile(model, fullgraph=True, backend=backend)
    out, grads = _forward_backward(compiled, model, x, y)
    out_eager, grads_eager = _forward_backward(model, model, x, y)
    torch.testing.assert_close(out, out_eager)
    for got, want in zip(grads, grads_eager):
        torch.testing.assert_close(got, want)


def test_export():
    model, x, y = _model_and_inputs()
    program = torch.export.export(model, (x.detach(), y.detach()))
    assert 'torch.ops.extension_ffi.add.default' in program.graph_module.code
    torch.testing.assert_close(program.module()(x, y), model(x, y))


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
@pytest.mark.parametrize('shape', [(), (5,), (3, 4), (0, 2)])
def test_opcheck(dtype, shape):
    a = torch.randn(shape, dtype=dtype, requires_grad=True)
    b = torch.randn(shape, dtype=dtype, requires_grad=True)
    torch.library.opcheck(my_add.op, (a, b))
    torch.library.opcheck(my_add.op, (a.detach(), b.detach()))


def test_op_errors_match_eager():
    with pytest.raises(ValueError, match=r'same size, got \(2,\) and \(3,\)'):
        my_add.op(torch.randn(2), torch.randn(3))
    compiled = torch.compile(lambda a, b: MyAddModule()(a, b), fullgraph=True,
                             backend='aot_eager')
    with pytest.raises(Exception, match=r'same size, got \(2,\) and \(3,\)'):
        compiled(torch.randn(2), torch.randn(3))


@pytest.mark.parametrize('compiled', [False, True])
def test_autocast_runs_in_float32(compiled):
    # Documented: under torch.autocast the op computes in float32 (its
    # kernels' type), from float16/bfloat16 inputs cast up; the output is
    # float32, as for PyTorch's own float32-only ops.
    a = torch.randn(3, 4).bfloat16().requires_grad_()
    b = torch.randn(3, 4, requires_grad=True)
    fn = MyAddModule()
    if compiled:
        fn = torch.compile(fn, fullgraph=True, backend='aot_eager')
    with torch.autocast('cpu', dtype=torch.bfloat16):
        out = fn(a, b)
    assert out.dtype == torch.float32
    torch.testing.assert_close(out, a.float() + b, rtol=0, atol=0)
    out.sum().backward()
    assert a.grad.dtype == torch.bfloat16 and torch.equal(a.grad, torch.ones(3, 4).bfloat16())
    assert torch.equal(b.grad, torch.ones(3, 4))


def test_low_precision_without_autocast_is_a_clear_error():
    with pytest.raises(TypeError, match=r'MyAddFunction: input1 must be a float32 or float64 '
                                        r'CPU.* tensor, got torch.bfloat16 on cpu'):
        MyAddFunction.apply(torch.ones(2).bfloat16(), torch.ones(2).bfloat16())


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@pytest.mark.parametrize('backend', [
    'gloo', pytest.param('nccl', marks=pytest.mark.skipif(
        not (torch.cuda.is_available() and torch.cuda.device_count() >= 2),
        reason='NCCL needs two CUDA GPUs'))])
def test_distributed_data_parallel_matches_single_process(tmp_path, backend):
    sys.path.insert(0, os.path.dirname(__file__))
    import ddp_worker
    port, world = _free_port(), 2
    workers = [subprocess.Popen([sys.executable, ddp_worker.__file__, backend, str(rank),
                                 str(world), str(port), str(tmp_path / ('rank%d.pt' % rank))],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for rank in range(world)]
    for worker in workers:
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
    x, target = ddp_worker.batch()
    expected = ddp_worker.grads(ddp_worker.model(), x, target)
    for rank in range(world):
        got = torch.load(tmp_path / ('rank%d.pt' % rank), map_location='cpu')
        assert got.keys() == expected.keys()
        for name in expected:
            torch.testing.assert_close(got[name], expected[name], rtol=1e-6, atol=1e-7)


CHECK = textwrap.dedent('''
    import sys
    import torch
    from {package}.modules.add import MyAddModule
    from {package}.functions import c_function
    a, b = torch.randn(4, 3, requires_grad=True), torch.randn(3, 4).t()
    out = MyAddModule()(a, b)
    out.sum().backward()
    assert torch.equal(out, a + b) and torch.equal(a.grad, torch.ones(4, 3))
    compiled = torch.compile(MyAddModule(), fullgraph=True, backend='aot_eager')
    assert torch.equal(compiled(a, b), a + b)
    print(sys.modules[c_function.__module__].__file__)
    ''')


def test_copied_into_another_project_as_a_subpackage(tmp_path):
    ops = tmp_path / 'proj' / 'ops'
    copy_demo(ops / 'myext')
    for package in (tmp_path / 'proj', ops):
        (package / '__init__.py').write_text('')
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()
    built = subprocess.run([sys.executable, str(ops / 'myext' / 'build.py')], cwd=elsewhere,
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    # With no thffi installed, the copy's own thffi/ serves.
    ran = subprocess.run([sys.executable, '-c',
                          HIDE_INSTALLED_THFFI + CHECK.format(package='proj.ops.myext')],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[-1] == str(ops / 'myext' / 'thffi' / 'ops.py')
    # ... and the folder's own script layout still works there.
    demo = subprocess.run([sys.executable, 'test.py'], cwd=ops / 'myext', capture_output=True,
                          text=True, timeout=300)
    assert demo.returncode == 0, demo.stderr
