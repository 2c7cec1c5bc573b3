"""The demo op: forward, backward, gradients and errors, CPU."""

import os

import pytest
import torch
from torch.autograd import gradcheck

from _ext import my_lib
from functions.add import WITH_CUDA, MyAddFunction, add_forward
from modules.add import MyAddModule
from thffi import ops

needs_gpu = pytest.mark.skipif(
    not (torch.cuda.is_available() and WITH_CUDA),
    reason='needs a CUDA GPU and a library built with CUDA' + (
        '' if WITH_CUDA else ' (this one was built without)'))
DEVICES = ['cpu', pytest.param('cuda', marks=needs_gpu)]


def _reference(a, b):
    return a + b


def _case(kind, dtype, device='cpu'):
    """Two inputs of the same shape, built so that `kind` describes their layout."""
    g = torch.Generator().manual_seed(0)

    def rand(*shape):
        return torch.randn(*shape, generator=g, dtype=dtype).to(device)

    if kind == '0-d':
        return rand(()), rand(())
    if kind == 'empty':
        return rand(0), rand(0)
    if kind == 'empty-2d':
        return rand(0, 3), rand(0, 3)
    if kind == 'one':
        return rand(1), rand(1)
    if kind == 'odd':
        return rand(7, 13), rand(7, 13)
    if kind == 'size-1 dims':
        return rand(5, 1, 3, 1), rand(5, 1, 3, 1)
    if kind == 'transposed':
        return rand(6, 5).t(), rand(5, 6)
    if kind == 'sliced':
        return rand(9, 10)[2:7, ::3], rand(5, 4)
    if kind == 'stepped':
        return rand(30)[::3], rand(40)[1::4]
    if kind == 'expanded':
        return rand(1, 4).expand(3, 4), rand(3, 1).expand(3, 4)
    if kind == 'permuted-3d':
        return rand(2, 3, 4).permute(2, 0, 1), rand(4, 2, 3)
    raise ValueError(kind)


KINDS = ['0-d', 'empty', 'empty-2d', 'one', 'odd', 'size-1 dims', 'transposed',
         'sliced', 'stepped', 'expanded', 'permuted-3d']
DTYPES = [torch.float32, torch.float64]


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('kind', KINDS)
def test_module_forward_matches_reference(kind, dtype, device):
    a, b = _case(kind, dtype, device)
    a0, b0 = a.clone(), b.clone()
    out = MyAddModule()(a, b)
    assert out.shape == a.shape and out.dtype == dtype and out.device == a.device
    torch.testing.assert_close(out, _reference(a, b), rtol=0, atol=0)
    assert torch.equal(a, a0) and torch.equal(b, b0)  # inputs untouched


@pytest.mark.parametrize('kind', KINDS)
def test_wrapper_resizes_empty_output_in_place(kind):
    a, b = _case(kind, torch.float32)
    out = torch.empty(0)
    assert my_lib.my_lib_add_forward(a, b, out) == 1
    assert out.shape == a.shape
    torch.testing.assert_close(out, a + b, rtol=0, atol=0)


def test_wrapper_writes_through_strides_of_a_presized_output():
    a, b = _case('odd', torch.float32)
    base = torch.zeros(13, 7)
    out = base.t()  # (7, 13), not contiguous
    ptr, stride = out.data_ptr(), out.stride()
    assert my_lib.my_lib_add_forward(a, b, out) == 1
    assert out.data_ptr() == ptr and out.stride() == stride  # no reallocation
    torch.testing.assert_close(base.t(), a + b, rtol=0, atol=0)


def test_wrapper_in_place_add_into_an_input():
    a, b = _case('odd', torch.float64)
    expected = a + b
    assert my_lib.my_lib_add_forward_double(a, b, a) == 1
    torch.testing.assert_close(a, expected, rtol=0, atol=0)


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('kind', ['odd', 'transposed', 'expanded', '0-d', 'empty'])
def test_backward_passes_grad_output_through(kind, device):
    a, b = (t.detach().clone().requires_grad_() for t in _case(kind, torch.float64, device))
    out = MyAddFunction.apply(a, b)
    grad = torch.randn_like(out)
    if kind == 'expanded' and out.numel():
        grad = torch.randn(1, out.shape[-1], dtype=out.dtype, device=device).expand_as(out)
    out.backward(grad)
    torch.testing.assert_close(a.grad, grad, rtol=0, atol=0)
    torch.testing.assert_close(b.grad, grad, rtol=0, atol=0)


def test_backward_only_for_inputs_that_need_it():
    a = torch.randn(3, requires_grad=True)
    b = torch.randn(3)
    MyAddFunction.apply(a, b).sum().backward()
    assert torch.equal(a.grad, torch.ones(3)) and b.grad is None


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('kind', ['odd', 'transposed', 'sliced', '0-d'])
def test_gradcheck_module_float64(kind, device):
    a, b = (t.detach().clone().requires_grad_() for t in _case(kind, torch.float64, device))
    assert gradcheck(MyAddModule(), (a, b), eps=1e-6, atol=1e-8)


def test_gradgradcheck_is_not_silently_wrong():
    # The backward is not itself differentiable through C; a second
    # derivative must either be right or refuse, never be silently wrong.
    a = torch.randn(3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, dtype=torch.float64, requires_grad=True)
    out = MyAddFunction.apply(a, b)
    (g,) = torch.autograd.grad(out.sum(), a, create_graph=True)
    assert torch.equal(g, torch.ones(3, dtype=torch.float64))


def test_size_mismatch_is_a_value_error_naming_both_shapes():
    with pytest.raises(ValueError, match=r'MyAddFunction.*same size.*\(2, 3\) and \(3, 2\)'):
        MyAddModule()(torch.randn(2, 3), torch.randn(3, 2))


def test_wrapper_returns_c_failure_code_and_leaves_output_alone():
    out = torch.full((4,), 7.0)
    assert my_lib.my_lib_add_forward(torch.randn(2), torch.randn(3), out) == 0
    assert torch.equal(out, torch.full((4,), 7.0))


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match=r'MyAddFunction: input1 must be a float32 or float64.*torch.int64'):
        MyAddModule()(torch.arange(3), torch.arange(3))


def test_mixed_dtypes_name_the_function_and_argument():
    with pytest.raises(TypeError, match=r'^MyAddFunction: input2 must be a float32 CPU tensor, as '
                                        r'input1 is, got float64 on cpu$'):
        MyAddModule()(torch.randn(3), torch.randn(3, dtype=torch.float64))


@pytest.mark.parametrize('args, argument', [
    ((torch.randn(3), None), 'input2'),       # MyAddFunction's own check (adapts_inputs)
    ((torch.randn(3), torch.randn(3), None), 'output'),   # the C's THArgCheck, through c_function
])
def test_none_names_the_function_and_argument_not_thffis_c(args, argument):
    call = MyAddFunction.apply if len(args) == 2 else add_forward
    with pytest.raises(TypeError) as error:
        call(*args)
    assert str(error.value).startswith('MyAddFunction: %s must be a ' % argument), error.value
    assert str(error.value).endswith('got None'), error.value
    assert 'csrc' not in str(error.value)


def test_c_errors_through_c_function_keep_the_users_location_only(tmp_path):
    """A THError in thffi's own C ends with its place in thffi's csrc/, one
    in the user's C with the user's file and line: only the latter stays."""
    spec = my_lib._S_my_lib_add_forward
    args = (torch.randn(3), torch.randn(3), torch.randn(3))
    own = os.path.join(os.path.dirname(ops.__file__), 'csrc', 'generic', 'THTensorMeta.c')
    error = ops._call_error('MyAddFunction', spec, 'input1', args, RuntimeError(
        'my_lib_add_forward: invalid argument 2: out of range at %s:204' % own))
    assert str(error) == 'MyAddFunction: my_lib_add_forward: invalid argument 2: out of range'
    users = str(tmp_path / 'src' / 'my_lib.c')
    error = ops._call_error('MyAddFunction', spec, 'input1', args, RuntimeError(
        'my_lib_add_forward: invalid argument 1: x must be positive at %s:12' % users))
    assert str(error) == ('MyAddFunction: my_lib_add_forward: invalid argument 1: x must be '
                          'positive at %s:12' % users)


@pytest.mark.parametrize('bad, given', [
    (torch.randn(3, dtype=torch.float64), r'torch.float64 tensor on cpu'),
    (torch.randn(3, device='meta'), r'torch.float32 tensor on meta'),
    (torch.randn(3).to_sparse(), r'torch.float32 torch.sparse_coo tensor on cpu'),
    ([1.0, 2.0, 3.0], r'list'),
    (3.0, r'float'),
])
def test_wrapper_rejects_wrong_tensor_arguments(bad, given):
    out = torch.empty(0)
    with pytest.raises(TypeError, match=r'my_lib_add_forward\(\): argument 3 \(output\): expected '
                                        r'THFloatTensor \(a torch.Tensor of dtype torch.float32 on cpu\)'
                                        r' or None, got ' + given):
        my_lib.my_lib_add_forward(torch.randn(3), torch.randn(3), bad)
    assert out.shape == (0,)


def test_wrapper_wrong_argument_count_names_the_function():
    with pytest.raises(TypeError, match=r'my_lib_add_forward\(\) missing 1 required'):
        my_lib.my_lib_add_forward(torch.randn(3), torch.randn(3))


def test_none_is_null_and_c_checks_it():
    with pytest.raises(RuntimeError, match=r'my_lib_add_forward: invalid argument 1: expected a '
                                           r'tensor, got NULL \(None\)'):
        my_lib.my_lib_add_forward(torch.randn(3), torch.randn(3), None)


def test_resize_of_a_non_leaf_that_requires_grad_is_a_runtime_error():
    out = torch.empty(0, requires_grad=True) * 1
    with pytest.raises(RuntimeError, match=r'my_lib_add_forward: cannot resize argument 3 to '
                                           r'\(3,\): it requires grad and is not a leaf'):
        my_lib.my_lib_add_forward(torch.randn(3), torch.randn(3), out)
    assert out.shape == (0,)
    # The library keeps working after an error.
    out = torch.empty(0)
    assert my_lib.my_lib_add_forward(torch.ones(3), torch.ones(3), out) == 1
    assert torch.equal(out, torch.full((3,), 2.0))


def test_resize_of_a_leaf_that_requires_grad_changes_its_data():
    # As on PyTorch 0.4: C's resize lands on the tensor's data.
    out = torch.empty(0, requires_grad=True)
    assert my_lib.my_lib_add_forward(torch.ones(3), torch.ones(3), out) == 1
    assert out.requires_grad and out.is_leaf
    assert torch.equal(out.detach(), torch.full((3,), 2.0))


def test_wrapper_has_the_prototype_as_docstring():
    assert my_lib.my_lib_add_forward.__doc__ == (
        'int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2, '
        'THFloatTensor *output)')
    cpu = {'my_lib_add_forward', 'my_lib_add_backward', 'my_lib_add_forward_double',
           'my_lib_add_backward_double'}
    assert set(my_lib.__all__) == cpu | ({name + suffix for name in
                                          ('my_lib_add_forward', 'my_lib_add_backward')
                                          for suffix in ('_cuda', '_cuda_double')}
                                         if WITH_CUDA else set())


def test_tensor_on_another_device_type_is_refused_before_c():
    with pytest.raises(TypeError, match=r'^MyAddFunction: input2 must be a float32 CPU tensor, '
                                        r'as input1 is, got float32 on meta$'):
        MyAddModule()(torch.randn(3), torch.randn(3, device='meta'))


@needs_gpu
def test_mixed_cpu_and_gpu_inputs_are_refused():
    with pytest.raises(ValueError, match=r'same device, got cpu and cuda:0'):
        MyAddModule()(torch.randn(3), torch.randn(3, device='cuda'))
    with pytest.raises(ValueError, match=r'same device, got cuda:0 and cpu'):
        MyAddModule()(torch.randn(3, device='cuda'), torch.randn(3))


def test_negative_views_are_added_as_the_values_they_mean():
    z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex128, requires_grad=True)
    out = MyAddFunction.apply(z.conj().imag, torch.ones(2, dtype=torch.float64))
    assert torch.equal(out.detach(), torch.tensor([-1.0, 5.0], dtype=torch.float64))
    assert gradcheck(lambda w: MyAddFunction.apply(w.conj().imag, w.real), (z,),
                     eps=1e-6, atol=1e-8)
