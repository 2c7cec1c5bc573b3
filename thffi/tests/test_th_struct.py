"""TH's structure functions (views, storages) with TH's semantics: the
generic file thffi/tests/th_test/generic/th_struct.c, built for every type,
makes views in C; their offsets, sizes, strides and memory are those of
the same views made by torch."""

import importlib
import os
import subprocess
import sys

import pytest
import torch

from support import REALS


def _geometry(view, src):
    """A row of th_struct.c's record for a torch view of src."""
    row = [view.storage_offset() - src.storage_offset(), view.dim()]
    row += list(view.shape) + [-1] * (4 - view.dim())
    row += list(view.stride()) + [-1] * (4 - view.dim())
    return row + [1]


@pytest.mark.parametrize('real, dtype', REALS + [('Half', torch.float16)])
def test_views_share_memory_with_ths_offsets_sizes_strides(th_test, real, dtype):
    base = torch.zeros(4, 5, 6, dtype=dtype)
    src = base[1:, :4, 1:]  # 3 x 4 x 5, not contiguous, not at offset 0
    geo = torch.empty(0, dtype=torch.int64)
    getattr(th_test, 'th_struct_%s_tour' % real)(src, geo)
    off = src.storage_offset()
    expected = [
        src.narrow(1, 1, 2), src.select(0, 2), src.transpose(0, 2), src.unfold(2, 2, 1),
        None, src.narrow(1, 1, 2),
        src.as_strided((2, 3), (5, 1), off + 1), src.as_strided((4,), (2,), off + 3),
        src.narrow(0, 0, 1).expand(3, 4, 5)]
    for row, view in enumerate(expected):
        if view is None:  # unsqueeze1d: 5 dimensions, beyond the record's 4
            assert geo[row, :2].tolist() == [0, 4]
            assert geo[row, 2:6].tolist() == [3, 1, 4, 5]
            continue
        assert geo[row].tolist() == _geometry(view, src), row
    # an empty tensor made in C has no dimension and, as in TH 0.3, no
    # storage (THTensor_(storage) is NULL)
    assert geo[9, :2].tolist() == [0, 0] and geo[9, 10] == 0
    # the storage made in C: 6 elements, the tensor from its element 1
    assert geo[10, :3].tolist() == [1, 1, 5] and geo[10, 6] == 1
    assert geo[11, :4].tolist() == [9, torch.empty(0, dtype=dtype).element_size(), 1, 0]
    # writes through the transposed and selected views reached src
    assert src[2, 1, 4] == 7 and src[2, 3, 0] == 5
    assert int((base != 0).sum()) == 2
    assert th_test._rt.live_tensors() == 0


def test_views_th_refused_raise_with_ths_message(th_test):
    src = torch.zeros(3, 4, 5)
    with pytest.raises(RuntimeError, match='size 6 out of range for dimension 2 of size 5'):
        th_test.th_struct_bad_unfold(src)
    # the storage of an argument spans its elements: 60 from element 1 do not fit
    with pytest.raises(RuntimeError, match='a view of 60 elements from offset 1 exceeds '
                                           'the storage of 60'):
        th_test.th_struct_bad_storage(src)
    assert src.shape == (3, 4, 5) and th_test._rt.live_tensors() == 0


@pytest.mark.slow  # deselected by default (conftest.py)
def test_thc_generic_file_with_every_generator_and_legacy_device_headers(tmp_path_factory):
    # thffi/tests/thc_legacy: generic THC code included with THCGenerateAllTypes.h,
    # the floating and integer ones and each single-type generator (Half
    # too), and a kernel on THCHalf.h, THCNumerics.cuh, THCAtomics.cuh and
    # THCDeviceUtils.cuh with its own `#if CUDA_VERSION < 8000`
    # atomicAdd(double *), THCDeviceTensor made by toDeviceTensor, and
    # generic kernels on an extension's own 2018 copy of THCAtomics.cuh (its
    # atomicAdd(half *, half) beside CUDA 10+'s __half one): it compiles and
    # links under today's nvcc.
    from support import TESTS
    from thffi import create_extension
    from thffi.toolchain import cuda_toolkit as cuda
    from thffi.builder import include_dirs
    if not cuda.cuda_enabled():
        pytest.skip('no CUDA toolkit')
    here = os.path.join(TESTS, 'thc_legacy')
    out = tmp_path_factory.mktemp('thc_legacy')
    create_extension('_thffi_thc_legacy', headers=[os.path.join(here, 'thc_legacy.h')],
                     sources=[os.path.join(here, 'thc_struct.c'),
                              os.path.join(here, 'thc_legacy_headers.cu'),
                              os.path.join(here, 'thc_device_tensor.cu'),
                              os.path.join(here, 'thc_atomics.cu'),
                              os.path.join(here, 'thc_atomics_thffi_first.cu')],
                     with_cuda=True, include_dirs=[here], relative_to=str(out / 'build.py'),
                     verbose=False).build()
    # The extension's own THCAtomics.cuh in both orders with thffi's, for
    # sm_80 too (CUDA's atomicAdd(__half *) exists from sm_70 on; the build
    # above is for one architecture)
    nvcc = os.path.join(cuda.find_cuda_home(), 'bin', 'nvcc')
    for source in ('thc_atomics.cu', 'thc_atomics_thffi_first.cu'):
        subprocess.run([nvcc, '-c', '-std=c++17', '-arch=sm_80', '-o', str(out / 'sm80.o'),
                        os.path.join(here, source), '-I' + here]
                       + ['-I' + d for d in include_dirs()], check=True)
    sys.path.insert(0, str(out))
    try:
        ext = importlib.import_module('_thffi_thc_legacy')
    finally:
        sys.path.remove(str(out))
    for name in ('thc_struct_Cuda_single', 'thc_struct_CudaHalf_single',
                 'thc_struct_CudaLong_all', 'thc_struct_CudaDouble_floating',
                 'thc_struct_CudaByte_integer', 'thc_legacy_headers_launch',
                 'thc_device_tensor_launch', 'thc_atomics_CudaHalf_sum_own',
                 'thc_atomics_CudaHalf_sum_thffi'):
        assert callable(getattr(ext, name)), name
    if not torch.cuda.is_available():
        return
    src = torch.zeros(3, 4, device='cuda', dtype=torch.float16)
    src[0, 0] = 5
    assert ext.thc_struct_CudaHalf_single(src) == 1
    assert src[1, 2] == 5  # get2d/set2d
    fsrc = torch.zeros(3, 4, device='cuda')
    fsrc[0, 0] = 3
    assert ext.thc_struct_Cuda_single(fsrc) == 1 and fsrc[1, 2] == 3
    out, hout = torch.zeros(1, device='cuda', dtype=torch.float64), torch.zeros(
        1, device='cuda', dtype=torch.float16)
    values = torch.arange(8, device='cuda', dtype=torch.float64)
    assert ext.thc_legacy_headers_launch(out, values, hout, values.half()) == 8
    assert out.item() == 28 and hout.item() == 28
    # atomicAdd through the extension's own THCAtomics.cuh (half: its CAS
    # loop; the other order: CUDA's)
    for name, dtype in (('CudaHalf_sum_own', torch.float16), ('Cuda_sum_own', torch.float32),
                        ('CudaDouble_sum_own', torch.float64), ('CudaLong_sum_own', torch.int64),
                        ('CudaHalf_sum_thffi', torch.float16)):
        total = torch.zeros(1, device='cuda', dtype=dtype)
        assert getattr(ext, 'thc_atomics_' + name)(total, values.to(dtype)) == 8
        assert total.item() == 28, name
    # THCDeviceTensor from toDeviceTensor, over a transposed view
    src = torch.arange(12, device='cuda', dtype=torch.float32).view(4, 3).t()
    dst = torch.zeros(0, device='cuda')
    assert ext.thc_device_tensor_launch(dst, src) == 12
    expected = 2 * src.t() + torch.arange(4, device='cuda').view(4, 1) ** 2
    assert torch.equal(dst, expected)


def _path(path):
    return torch.tensor(list(os.fsencode(str(path))) + [0], dtype=torch.uint8)


def test_storages_over_memory_given_to_them(th_test, tmp_path):
    # thffi/tests/th_test/th_api.c: newWithData, newWithAllocator (0.3's and 0.4's
    # forms), newWithMapping; memory freed by its allocator once the last
    # tensor viewing it is freed, and the mapping shared with the file
    out = torch.zeros(0)
    path = tmp_path / 'mapped.bin'
    assert th_test.th_storage_given(out, _path(path)) == 101
    assert out.tolist() == [[1, 2, 3], [7, 7, 7], [10, 11, 12]]
    assert torch.frombuffer(bytearray(path.read_bytes()), dtype=torch.float32).tolist() == \
        [10, 11, 12]
    assert th_test._rt.live_tensors() == 0
    # a private mapping neither creates nor grows the file
    with pytest.raises(RuntimeError, match='unable to open file <.*none.bin> in read-only mode'):
        th_test.th_storage_bad_mapping(_path(tmp_path / 'none.bin'))
    assert not (tmp_path / 'none.bin').exists()
    (tmp_path / 'short.bin').write_bytes(b'1234')
    with pytest.raises(RuntimeError, match='size is smaller than the required mapping size <12>'):
        th_test.th_storage_bad_mapping(_path(tmp_path / 'short.bin'))
    assert th_test._rt.live_tensors() == 0


def test_shape_functions_of_size_storages(th_test):
    # TH's inferSize2/N, inferExpandGeometry, newInferSize and sizeDesc
    # against torch's broadcasting, expand and view(-1)
    out = torch.zeros(0, dtype=torch.int64)
    assert th_test.th_storage_shapes(out) == 1
    assert out[:3].tolist() == list(torch.broadcast_shapes((3, 1, 5), (4, 1)))
    expanded = torch.zeros(3, 1).expand(2, 3, 4)
    assert out[3:6].tolist() == list(expanded.shape)
    assert out[6:9].tolist() == list(expanded.stride())
    assert out[9:11].tolist() == list(torch.zeros(12).view(4, -1).shape)
    with pytest.raises(RuntimeError, match=r"size '\[4 x -1\]' is invalid for input with 10 "
                                           r"elements"):
        th_test.th_storage_bad_infer()


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int64])
@pytest.mark.parametrize('layout', ['contiguous', 'transposed', 'sliced'])
def test_th_tensor_apply_loops_against_torch(th_test, dtype, layout):
    # thffi/tests/th_test/generic/th_apply.c: TH_TENSOR_APPLY, APPLY2, APPLY3 and
    # APPLY2_D over views whose dimensions merge or not
    real = {torch.float32: 'Float', torch.float64: 'Double', torch.int64: 'Long'}[dtype]

    def view(t):
        if layout == 'transposed':
            return t.permute(2, 0, 1).contiguous().permute(1, 2, 0)
        if layout == 'sliced':
            return torch.zeros(5, 7, 9, dtype=dtype)[1:4, ::2, 2:7].copy_(t)
        return t.clone()
    torch.manual_seed(0)
    a0 = torch.randint(-5, 5, (3, 4, 5)).to(dtype)
    c0 = torch.randint(-5, 5, (3, 4, 5)).to(dtype)
    a, b, c, idx = view(a0), view(torch.zeros(3, 4, 5, dtype=dtype)), view(c0), view(
        torch.zeros(3, 4, 5, dtype=dtype))
    assert getattr(th_test, 'th_apply_%s_tour' % real)(a, b, c, idx, 1) == 60
    assert torch.equal(a, a0 * 2) and torch.equal(b, a0 * 2 + 1)
    assert torch.equal(c, (a0 * 2) * (a0 * 2 + 1) + c0)
    assert torch.equal(idx, torch.arange(4, dtype=dtype).view(1, 4, 1).expand(3, 4, 5))
    # DIM the innermost dimension
    getattr(th_test, 'th_apply_%s_tour' % real)(a, b, c, idx, 2)
    assert torch.equal(idx, torch.arange(5, dtype=dtype).expand(3, 4, 5))
    with pytest.raises(RuntimeError, match=r'inconsistent tensor size, expected a \[3 x 4 x 5\] '
                                           r'and b \[2\] to have the same number of elements'):
        getattr(th_test, 'th_apply_%s_mismatch' % real)(a, torch.zeros(2, dtype=dtype))
