"""How a wrapped C function is called: the C entry point's fast path, the
Python slow path it hands anything else to, and what both leave behind."""

import gc
import inspect
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from _ext import my_lib
from demo_support import ROOT

add = my_lib.my_lib_add_forward


def test_keyword_arguments_work_like_positional_ones():
    a, b = torch.randn(4), torch.randn(4)
    out = torch.empty(4)
    assert add(a, b, output=out) == 1
    assert torch.equal(out, a + b)
    out = torch.empty(4)
    assert add(output=out, input2=b, input1=a) == 1
    assert torch.equal(out, a + b)


@pytest.mark.parametrize('call, message', [
    (lambda a: add(a, a, a, a), r'my_lib_add_forward\(\) takes 3 positional arguments but 4 '
                                r'were given'),
    (lambda a: add(a, a, a, out=a), r"my_lib_add_forward\(\) got an unexpected keyword "
                                    r"argument 'out'"),
    (lambda a: add(a, a, input1=a), r"my_lib_add_forward\(\) got multiple values for argument "
                                    r"'input1'"),
    (lambda a: add(a), r"my_lib_add_forward\(\) missing 2 required positional arguments: "
                       r"'input2' and 'output'"),
    (lambda a: add(), r"my_lib_add_forward\(\) missing 3 required positional arguments: "
                      r"'input1', 'input2' and 'output'"),
])
def test_argument_binding_errors_say_what_python_would(call, message):
    a = torch.zeros(2)
    with pytest.raises(TypeError, match=message):
        call(a)
    assert torch.equal(a, torch.zeros(2))


def test_functions_have_a_signature_name_and_module():
    sig = inspect.signature(add)
    assert list(sig.parameters) == ['input1', 'input2', 'output']
    assert add.__name__ == 'my_lib_add_forward'
    assert add.__module__ == my_lib.__name__
    assert repr(add) == '<built-in function my_lib_add_forward>'


class _Tagged(torch.Tensor):
    """A tensor subclass: its attributes go through Python's lookup."""


@pytest.mark.parametrize('make', [
    lambda t: torch.nn.Parameter(t),
    lambda t: t.as_subclass(_Tagged),
], ids=['Parameter', 'subclass'])
def test_tensor_subclasses_are_tensors(make):
    a, b = torch.randn(3, 2), torch.randn(3, 2)
    out = make(torch.empty(3, 2))
    with torch.no_grad():
        assert add(make(a.clone()), make(b.clone()), out) == 1
    assert torch.equal(out.detach().as_subclass(torch.Tensor), a + b)


def test_views_and_zero_dim_tensors_take_the_fast_path():
    base = torch.randn(4, 6)
    view = base.t()[1:, ::2]           # transposed, offset, strided
    out = torch.empty(view.shape).t()  # written through strides
    assert add(view, view, out) == 1
    assert torch.equal(out, 2 * view)
    scalar = torch.tensor(1.5)
    out0 = torch.empty(())
    assert add(scalar, scalar, out0) == 1 and out0.item() == 3.0


def test_scalars_in_other_python_types_are_converted(th_test):
    # numpy numbers, bools and 0-d tensors go through the slow path, which
    # converts them as Python would (operator.index, float()).
    assert th_test.scale(np.float64(1.5), np.float32(2.0), np.int64(3)) == 9.0
    assert th_test.scale(torch.tensor(2.0), True, torch.tensor(2)) == 4.0


def test_more_dimensions_than_th_supports_are_refused():
    deep = torch.zeros((1,) * 65)
    with pytest.raises(ValueError, match=r'my_lib_add_forward\(\): argument 1 \(input1\): 65 '
                                         r'dimensions, more than the 64 TH supports'):
        add(deep, deep, deep)


def test_calls_keep_no_reference_to_their_arguments():
    a, b, out = torch.randn(3), torch.randn(3), torch.empty(3)
    bad = torch.zeros(3, dtype=torch.float64)
    before = [sys.getrefcount(t) for t in (a, b, out, bad)]
    for _ in range(1000):
        add(a, b, out)
        add(a, b, output=out)
        with pytest.raises(TypeError):
            add(a, bad, out)
        with pytest.raises(RuntimeError):
            add(a, b, None)
    gc.collect()
    assert [sys.getrefcount(t) for t in (a, b, out, bad)] == before


def test_returned_tensors_are_owned_once(tmp_path):
    from thffi import create_extension
    (tmp_path / 'src').mkdir()
    (tmp_path / 'src' / 'ret.h').write_text(
        'THFloatTensor *make(int64_t n);\nTHFloatTensor *same(THFloatTensor *t);\n')
    (tmp_path / 'src' / 'ret.c').write_text(
        '#include <TH/TH.h>\n'
        'THFloatTensor *make(int64_t n) { return THFloatTensor_newWithSize1d(n); }\n'
        'THFloatTensor *same(THFloatTensor *t) { return t; }\n')
    create_extension('_refs.lib', headers=['src/ret.h'], sources=['src/ret.c'],
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    sys.path.insert(0, str(tmp_path))
    try:
        import _refs.lib as m
    finally:
        sys.path.remove(str(tmp_path))
    x = torch.zeros(2)
    before = sys.getrefcount(x)
    for _ in range(1000):
        assert m.same(x) is x
    assert sys.getrefcount(x) == before
    made = m.make(5)
    # the caller's reference and getrefcount's argument: nothing else holds it
    assert made.shape == (5,) and sys.getrefcount(made) == 2
    # PyTorch refuses the allocation: an error, and nothing left alive
    with pytest.raises(RuntimeError, match=r'make: cannot create a tensor to '
                                           r'\(1152921504606846976,\): '):
        m.make(2 ** 60)
    assert m._rt.live_tensors() == 0


# Exact torch.Tensor and Parameter arguments are read through DLPack's C
# exchange API; subclasses through their attributes.  Both must agree.
_LAYOUTS = {
    'contiguous': lambda: torch.randn(3, 4),
    'transposed': lambda: torch.randn(4, 3).t(),
    'offset slice': lambda: torch.randn(5, 6)[1:, 3:],
    'stepped': lambda: torch.randn(6, 8)[::2, 1::3],
    'expanded': lambda: torch.randn(3, 1).expand(3, 4),
    'size-1 dim, odd stride': lambda: torch.randn(1, 5).t(),
    '0-d': lambda: torch.tensor(2.5),
    'empty': lambda: torch.empty(0, 3),
}


@pytest.mark.parametrize('kind', list(_LAYOUTS))
@pytest.mark.parametrize('reading', ['Tensor', 'Parameter', 'subclass'])
def test_each_reading_gives_c_the_tensor_as_torch_has_it(th_test, kind, reading):
    t = _LAYOUTS[kind]()
    arg = {'Tensor': t, 'Parameter': torch.nn.Parameter(t, requires_grad=False),
           'subclass': t.as_subclass(_Tagged)}[reading]
    dims = t.dim() if t.numel() else 0  # legacy TH: an empty tensor has no dimensions
    assert th_test.ndim(arg) == dims
    assert [th_test.size_of(arg, d) for d in range(dims)] == list(t.shape)[:dims]
    assert [th_test.stride_of(arg, d) for d in range(dims)] == list(t.stride())[:dims]
    assert bool(th_test.is_contiguous(arg)) == t.is_contiguous()
    out = torch.full(t.shape, -1.0)
    th_test.copy(out, arg)  # reads the elements through data pointer and strides
    assert torch.equal(out, t)


def _dtypes(*names):
    """The dtypes of this torch among `names` (uint16 and uint32 exist from
    PyTorch 2.3)."""
    return [getattr(torch, n) for n in names if hasattr(torch, n)]


@pytest.mark.parametrize('dtype', _dtypes('float64', 'float16', 'bfloat16', 'int32', 'bool',
                                          'complex64', 'uint32'))
def test_a_float_tensor_argument_takes_only_float32(dtype):
    bad = torch.zeros(3, dtype=dtype)  # int32, uint32: same bits, other kind
    out = torch.full((3,), 7.0)
    with pytest.raises(TypeError, match=r'argument 2 \(input2\): expected THFloatTensor .*got '
                                        + str(dtype)):
        add(torch.ones(3), bad, out)
    assert torch.equal(out, torch.full((3,), 7.0))


@pytest.mark.parametrize('dtype', _dtypes('bool', 'int8', 'uint16', 'float32'))
def test_a_byte_tensor_argument_takes_only_uint8(th_test, dtype):
    with pytest.raises(TypeError, match=r'argument 1 \(t\): expected THByteTensor'):
        th_test.byte_count(torch.ones(4, dtype=dtype), 1)
    assert th_test.byte_count(torch.ones(4, dtype=torch.uint8), 1) == 4


def _nested():
    return torch.nested.nested_tensor([torch.ones(2), torch.ones(3)])


@pytest.mark.filterwarnings('ignore:The PyTorch API of nested tensors')
@pytest.mark.parametrize('call', [
    lambda: add(_nested(), torch.ones(2), torch.empty(2)),
    lambda: torch.func.vmap(lambda x: add(x, x, torch.empty(3)))(torch.ones(2, 3)),
    lambda: torch.func.grad(lambda x: add(x, x, torch.empty(3)) * x.sum())(torch.ones(3)),
], ids=['nested', 'vmap', 'grad'])
def test_tensors_without_memory_c_can_read_are_refused(call):
    with pytest.raises(TypeError, match=r'argument 1 \(input1\): expected THFloatTensor .*whose '
                                        r'memory cannot be read from C \(.+\)'):
        call()


def test_negative_views_are_refused_in_every_position():
    z = torch.tensor([1 + 2j, 3 + 4j, 5 + 6j])
    neg = z.conj().imag  # holds 2, 4, 6 in memory, means -2, -4, -6
    assert neg.is_neg()
    plain, out = torch.ones(3), torch.full((3,), 7.0)
    for args, pos, name in [((neg, plain, out), 1, 'input1'), ((plain, neg[:], out), 2, 'input2'),
                            ((plain, plain, neg), 3, 'output'),
                            ((neg[1], neg[1], torch.empty(())), 1, 'input1')]:
        with pytest.raises(ValueError, match=r'argument %d \(%s\): a negative view .*'
                                             r'resolve_neg\(\)' % (pos, name)):
            add(*args)
    assert torch.equal(out, torch.full((3,), 7.0))
    assert torch.equal(z, torch.tensor([1 + 2j, 3 + 4j, 5 + 6j]))
    assert add(neg.resolve_neg(), plain, out) == 1
    assert torch.equal(out, torch.tensor([-1.0, -3.0, -5.0]))


def test_a_torch_without_the_dlpack_exchange_api_is_read_through_attributes():
    # As on a torch older than DLPack 1.3: the table is looked up at import.
    script = textwrap.dedent('''
        import torch
        if hasattr(torch.Tensor, '__dlpack_c_exchange_api__'):  # PyTorch 2.10+
            del torch.Tensor.__dlpack_c_exchange_api__
        assert not hasattr(torch.Tensor, '__dlpack_c_exchange_api__')
        from _ext import my_lib
        add = my_lib.my_lib_add_forward
        view = torch.randn(4, 6).t()[1:, ::2]
        out = torch.empty(view.shape).t()
        assert add(view, view, out) == 1 and torch.equal(out, 2 * view)
        neg = torch.tensor([1 + 2j, 3 + 4j]).conj().imag
        try:
            add(neg, neg, torch.empty(2))
        except ValueError as exc:
            assert 'negative view' in str(exc), exc
        else:
            raise AssertionError('a negative view was taken')
        for wrong in (view.double(), view.to_sparse(), torch.empty(2, device='meta')):
            try:
                add(wrong, view, out)
            except TypeError as exc:
                assert 'expected THFloatTensor' in str(exc), exc
            else:
                raise AssertionError('a %s tensor was taken' % wrong.layout)
        weight = torch.nn.Parameter(torch.ones(3))  # not exactly torch.Tensor
        assert add(weight, torch.ones(3), torch.empty(3)) == 1
        print('read through attributes')
    ''')
    done = subprocess.run([sys.executable, '-c', script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == 'read through attributes'
