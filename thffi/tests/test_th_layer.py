"""The TH compatibility layer, driven from C (thffi/tests/th_test/th_test.c)."""

import math

import pytest
import torch


def test_therror_becomes_runtime_error_with_message_and_location(th_test):
    with pytest.raises(RuntimeError, match=r'^raise_error: custom failure 7 at .*th_test\.c:\d+$'):
        th_test.raise_error(7)
    assert th_test.check_positive(4) == 8  # the next call works


def test_thargcheck_names_the_argument(th_test):
    with pytest.raises(RuntimeError, match=r'check_positive: invalid argument 1: '
                                           r'x must be positive, got -3 at .*th_test\.c'):
        th_test.check_positive(-3)


def test_thassert(th_test):
    with pytest.raises(RuntimeError, match=r"assert_fails: Assertion `1 \+ 1 == 3' failed"):
        th_test.assert_fails()
    with pytest.raises(RuntimeError, match=r"assert_msg_fails: Assertion `four == 5' failed\. "
                                           r"THFloatTensor: 4 is not 5 at .*th_test\.c:\d+"):
        th_test.assert_msg_fails(4)
    assert th_test.assert_msg_fails(5) == 0


def test_error_from_deep_recursion_and_many_errors(th_test):
    for _ in range(2000):
        with pytest.raises(RuntimeError, match='bottom reached'):
            th_test.nested_error(50)
    assert th_test.check_positive(1) == 2


def test_error_after_a_resize_keeps_the_resize(th_test):
    # Documented: a C error does not undo what the call already did to
    # its outputs; the tensor is resized and filled up to the error.
    t = torch.empty(0)
    with pytest.raises(RuntimeError, match='failed after resizing'):
        th_test.resize_then_fail(t)
    assert torch.equal(t, torch.full((5,), 3.0))


def test_none_passes_null(th_test):
    assert th_test.is_null(None) == 1
    assert th_test.is_null(torch.empty(2)) == 0


@pytest.mark.parametrize('shape, legacy_ndim, numel', [
    ((), 0, 1), ((0,), 0, 0), ((3, 0), 0, 0), ((4,), 1, 4), ((2, 3, 5), 3, 30),
])
def test_ndimension_and_nelement(th_test, shape, legacy_ndim, numel):
    # As in TH, a tensor without elements has nDimension 0.
    t = torch.empty(shape)
    assert th_test.ndim(t) == legacy_ndim
    assert th_test.nelement(t) == numel


def test_size_and_stride_of_a_view(th_test):
    t = torch.empty(4, 6, 8)[:, 1::2].transpose(0, 2)
    for d in range(3):
        assert th_test.size_of(t, d) == t.shape[d]
        assert th_test.stride_of(t, d) == t.stride(d)
    with pytest.raises(RuntimeError, match=r'size_of: invalid argument 2: dimension 3 out of range '
                                           r'of 3D tensor'):
        th_test.size_of(t, 3)
    with pytest.raises(RuntimeError, match='stride_of: invalid argument 2: dimension -1'):
        th_test.stride_of(t, -1)


@pytest.mark.parametrize('view, expected', [
    (lambda t: t, True), (lambda t: t.t(), False), (lambda t: t[:, ::2], False),
    (lambda t: t[1:3], True), (lambda t: t[:, :1], False), (lambda t: t[:1, :], True),
])
def test_is_contiguous_agrees_with_torch(th_test, view, expected):
    t = view(torch.empty(4, 6))
    assert bool(th_test.is_contiguous(t)) == t.is_contiguous() == expected


def test_is_same_size_as(th_test):
    assert th_test.same_size(torch.empty(2, 3), torch.empty(3, 2).t())
    assert not th_test.same_size(torch.empty(2, 3), torch.empty(3, 2))
    assert not th_test.same_size(torch.empty(6), torch.empty(2, 3))


@pytest.mark.parametrize('view', [
    lambda t: t, lambda t: t.t(), lambda t: t[1:, ::2], lambda t: t[2, 3],
    lambda t: t[:0], lambda t: t.unsqueeze(1).expand(5, 3, 7),
])
def test_struct_fields_read_directly(th_test, view):
    t = view(torch.arange(35, dtype=torch.float64).view(5, 7))
    assert th_test.sum_by_fields(t) == pytest.approx(t.sum().item())


@pytest.mark.parametrize('n, shape', [(1, (6,)), (2, (2, 3)), (3, (1, 2, 3)), (4, (2, 1, 3, 2))])
def test_resize_nd_resizes_the_callers_tensor_in_place(th_test, n, shape):
    t = torch.empty(0)
    th_test.resize_nd(t, n, *(list(shape) + [0] * (4 - n)))
    assert t.shape == shape and t.is_contiguous()


def test_resize_to_the_same_shape_keeps_memory_and_strides(th_test):
    base = torch.arange(12.0).view(3, 4)
    t = base.t()
    ptr = t.data_ptr()
    th_test.resize_nd(t, 2, 4, 3, 0, 0)
    assert t.data_ptr() == ptr and t.stride() == (1, 4)
    assert torch.equal(t, base.t())


def test_resize_as(th_test):
    t = torch.empty(0, dtype=torch.float64)
    th_test.resize_as(t, torch.empty(3, 4, dtype=torch.float64).t())
    assert t.shape == (4, 3)
    th_test.resize_as(t, torch.empty((), dtype=torch.float64))
    assert t.shape == ()


def test_resize_with_bad_sizes_is_an_error(th_test):
    t = torch.empty(2)
    with pytest.raises(RuntimeError, match=r'invalid argument 3: negative size -1 in dimension 0'):
        th_test.resize_nd(t, 1, -1, 0, 0, 0)
    assert t.shape == (2,)


@pytest.mark.parametrize('view', [lambda t: t, lambda t: t.t(), lambda t: t[::2, 1:], lambda t: t[1, 2]])
def test_fill_and_zero_touch_only_the_view(th_test, view):
    base = torch.full((4, 5), -1.0)
    th_test.fill(view(base), 2.5)
    expected = torch.full((4, 5), -1.0)
    view(expected).fill_(2.5)
    assert torch.equal(base, expected)
    based = base.double()
    th_test.zero(view(based))
    view(expected).zero_()
    assert torch.equal(based, expected.double())


def test_copy_between_layouts_with_equal_element_counts(th_test):
    src = torch.arange(24.0).view(4, 6)[:, ::2]          # 4x3, strided
    dst_base = torch.zeros(3, 4)
    th_test.copy(dst_base.t(), src)                       # 4x3 view of 3x4
    assert torch.equal(dst_base.t(), src)
    flat = torch.zeros(12)
    th_test.copy(flat, src)                               # different shapes, same numel
    assert torch.equal(flat, src.reshape(-1))
    with pytest.raises(RuntimeError, match=r'copy: invalid argument 2: sizes do not match: '
                                           r'12 elements vs 5'):
        th_test.copy(flat, torch.zeros(5))


def test_cadd_with_scale_and_strides(th_test):
    t = torch.randn(5, 6, dtype=torch.float64).t()
    src = torch.randn(6, 5, dtype=torch.float64)
    r = torch.empty(0, dtype=torch.float64)
    th_test.cadd(r, t, -2.5, src)
    torch.testing.assert_close(r, t - 2.5 * src, rtol=0, atol=0)
    with pytest.raises(RuntimeError, match='cadd: invalid argument 4: sizes do not match'):
        th_test.cadd(r, t, 1.0, torch.zeros(3, dtype=torch.float64))


def test_scalars_pass_through_and_are_checked(th_test):
    assert th_test.scale(1.5, 2, 3) == 9.0
    assert th_test.scale(True, 1.0, 1) == 1.0
    with pytest.raises(TypeError, match=r'scale\(\): argument 2 \(factor\): expected a real number'
                                        r' \(float\), got str'):
        th_test.scale(1.0, '2', 1)
    with pytest.raises(TypeError, match=r'scale\(\): argument 3 \(times\): expected an integer '
                                        r'\(unsigned int\), got float'):
        th_test.scale(1.0, 1.0, 2.5)
    with pytest.raises(OverflowError, match=r'scale\(\): argument 3 \(times\): -1 does not fit in '
                                            r'unsigned int'):
        th_test.scale(1.0, 1.0, -1)


def test_return_values_equal_to_the_error_sentinel_are_not_errors(th_test):
    assert th_test.most_negative() == -2 ** 63
    assert math.isnan(th_test.not_a_number())
    assert th_test.largest() == 2 ** 64 - 1


def test_pointer_parameters_and_returns(th_test):
    _ffi = th_test._ffi
    buf = _ffi.new('float[4]')
    assert th_test.echo_pointer(buf) == _ffi.cast('void *', buf)
    assert th_test.echo_pointer(None) == _ffi.NULL
    with pytest.raises(TypeError, match=r'echo_pointer\(\): argument 1 \(p\): expected a cffi pointer'):
        th_test.echo_pointer('no')


def test_string_parameters(th_test):
    # bytes, as cffi passed them to legacy code; a str where C only reads it
    assert th_test.string_length(b'mean') == 4
    assert th_test.string_length('moyenne \u00e9') == 10
    assert th_test.string_length(b'') == 0
    word = b'sum'
    assert th_test.shout_first(word) == ord('S') and word == b'sum'  # C wrote to a copy
    with pytest.raises(TypeError, match=r"shout_first\(\): argument 1 \(s\): expected bytes, a "
                                        r"cffi pointer, an address or None \(char \*\), got str"):
        th_test.shout_first('sum')
    with pytest.raises(TypeError, match=r"string_length\(\): argument 1 \(s\): expected a str, "
                                        r"bytes, a cffi pointer, an address or None "
                                        r"\(const char \*\), got float"):
        th_test.string_length(1.5)


@pytest.mark.parametrize('threads', [1, 2])
def test_large_strided_ops_split_over_threads(th_test, threads):
    # Above the grain size the ops run in parts on OpenMP threads; each part
    # starts mid-row of these odd, transposed and sliced layouts.
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        t = torch.randn(513, 257, dtype=torch.float64).t()
        src = torch.randn(771, 513, dtype=torch.float64)[::3]
        r = torch.empty(0, dtype=torch.float64)
        th_test.cadd(r, t, 0.5, src)
        torch.testing.assert_close(r, t + 0.5 * src, rtol=0, atol=0)
        base = torch.zeros(700, 400)
        th_test.fill(base[::2, 1:].t(), 4.0)
        assert base[::2, 1:].eq(4).all() and base[1::2].eq(0).all() and base[:, 0].eq(0).all()
        dst = torch.zeros(399, 350).t()
        th_test.copy(dst, base[::2, 1:].t().contiguous().view(-1)[:dst.numel()].view(350, 399))
        assert dst.eq(4).all()
    finally:
        torch.set_num_threads(previous)
