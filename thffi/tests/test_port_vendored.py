"""`python -m thffi port` and libraries vendored in 2018 (port/vendored.py,
toolchain/vendored.py) and inline PTX without .sync (toolchain/ptx.py).

The CUB 1.x stand-in below is ours: a few headers that define the
namespace macros the way CUB 1.x did (empty CUB_NS_PREFIX/POSTFIX unless
the includer set them), with a block reduction whose warp step is inline
PTX without .sync and a maskless intrinsic, as CUB 1.x's were."""

import os
import subprocess
import textwrap

import pytest

from thffi.toolchain import cuda_toolkit as cuda
from thffi.port import port
from thffi.toolchain import ptx, vendored

CUB_STAND_IN = {
    'src/cub-1.3.2/cub/cub.cuh': '''\
        /* CUB 1.3.2 stand-in: the entry header includes every part. */
        #pragma once
        #include "util_namespace.cuh"
        #include "util_ptx.cuh"
        #include "block/block_reduce.cuh"
        ''',
    'src/cub-1.3.2/cub/util_namespace.cuh': '''\
        /* As CUB 1.x: the includer may wrap cub in a namespace of its own. */
        #pragma once
        #ifndef CUB_NS_PREFIX
        #define CUB_NS_PREFIX
        #endif
        #ifndef CUB_NS_POSTFIX
        #define CUB_NS_POSTFIX
        #endif
        ''',
    'src/cub-1.3.2/cub/util_ptx.cuh': '''\
        #pragma once
        #include "util_namespace.cuh"
        CUB_NS_PREFIX
        namespace cub {
        /* Lane i gets lane i + offset's value (its own past the warp's end). */
        __device__ __forceinline__ float ShuffleDown(float input, int offset)
        {
            float output;
            asm volatile("shfl.down.b32 %0, %1, %2, 0x1f;"
                         : "=f"(output) : "f"(input), "r"(offset));
            return output;
        }
        __device__ __forceinline__ int WarpAny(int predicate) { return __any(predicate); }
        }  /* namespace cub */
        CUB_NS_POSTFIX
        ''',
    'src/cub-1.3.2/cub/block/block_reduce.cuh': '''\
        #pragma once
        #include "../util_namespace.cuh"
        #include "../util_ptx.cuh"
        CUB_NS_PREFIX
        namespace cub {
        template <typename T, int BLOCK_THREADS>
        class BlockReduce
        {
        public:
            struct TempStorage { T warp_sums[BLOCK_THREADS / 32]; };
            __device__ BlockReduce(TempStorage &storage) : storage(storage) {}
            /* The block's sum, valid in thread 0. */
            __device__ T Sum(T input)
            {
                for (int offset = 16; offset > 0; offset /= 2)
                    input += ShuffleDown(input, offset);
                if (threadIdx.x % 32 == 0)
                    storage.warp_sums[threadIdx.x / 32] = input;
                __syncthreads();
                T total = 0;
                if (threadIdx.x == 0)
                    for (int w = 0; w < BLOCK_THREADS / 32; w++)
                        total += storage.warp_sums[w];
                return total;
            }
        private:
            TempStorage &storage;
        };
        }  /* namespace cub */
        CUB_NS_POSTFIX
        ''',
}

# The repository's kernel: CUB from its copy, thrust from the toolkit.
SUM_KERNEL = '''\
    #include "cub-1.3.2/cub/cub.cuh"
    #include <thrust/device_ptr.h>
    #include <thrust/fill.h>

    #define THREADS 128

    __global__ void block_sum_kernel(const float *input, float *sums, int n)
    {
        typedef cub::BlockReduce<float, THREADS> BlockReduce;
        __shared__ typename BlockReduce::TempStorage temp;
        int i = blockIdx.x * THREADS + threadIdx.x;
        float total = BlockReduce(temp).Sum(i < n ? input[i] : 0.0f);
        if (threadIdx.x == 0)
            sums[blockIdx.x] = total;
    }

    extern "C" void block_sum_launch(const float *input, float *sums, int n,
                                     cudaStream_t stream)
    {
        int blocks = (n + THREADS - 1) / THREADS;
        thrust::fill(thrust::device_pointer_cast(sums),
                     thrust::device_pointer_cast(sums) + blocks, 0.0f);
        block_sum_kernel<<<blocks, THREADS, 0, stream>>>(input, sums, n);
    }
    '''

MAKE_SH = '''\
    #!/usr/bin/env bash
    set -e
    cd src
    nvcc -c -o sum_kernel.cu.o sum_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52
    '''


def _nvcc():
    home = cuda.find_cuda_home()
    if home is None:
        pytest.fail('a CUDA toolkit is needed (the project\'s machines have one)')
    return os.path.join(home, 'bin', 'nvcc')


def _write(folder, files):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _compile(folder, source, arch='sm_75'):
    return subprocess.run([_nvcc(), '-c', '-std=c++17', '-arch=' + arch, '-o',
                           str(folder / 'out.o'), str(folder / source)],
                          capture_output=True, text=True, timeout=300)


def _left(findings):
    return [str(f) for f in findings if not f.fixed and f.path]


@pytest.mark.slow  # deselected by default (conftest.py)
def test_includes_of_a_cub_1x_copy_become_the_toolkits_and_the_kernel_compiles(tmp_path):
    _write(tmp_path, dict(CUB_STAND_IN, **{'src/sum_kernel.cu': SUM_KERNEL,
                                          'make.sh': MAKE_SH}))
    before = _compile(tmp_path, 'src/sum_kernel.cu')
    assert before.returncode != 0
    assert 'CUB requires a definition of CUB_NS_QUALIFIER' in before.stderr, before.stderr

    _, findings, _, changed = port(str(tmp_path), write=True)
    kernel = os.path.join('src', 'sum_kernel.cu')
    assert kernel in changed
    assert not [c for c in changed if 'cub-1.3.2' in c]
    for name, text in CUB_STAND_IN.items():  # the copy is left as it was
        assert (tmp_path / name).read_text() == textwrap.dedent(text), name
    assert (tmp_path / kernel).read_text() == textwrap.dedent(SUM_KERNEL).replace(
        '#include "cub-1.3.2/cub/cub.cuh"', '#include <cub/cub.cuh>')
    fixed = [str(f) for f in findings if f.fixed and f.path == kernel]
    assert fixed == [kernel + ':1: #include "cub-1.3.2/cub/cub.cuh": now <cub/cub.cuh>, the '
                     'toolkit\'s (CUDA ships CUB; the CUB 1.3.2 copy is no longer compiled)']
    copy = [f for f in _left(findings) if f.startswith(os.path.join('src', 'cub-1.3.2') + ':')]
    assert copy == [os.path.join('src', 'cub-1.3.2') + ': a copy of CUB 1.3.2, left as it is '
                    '(port changes no file in it): the code includes the toolkit\'s CUB '
                    'instead']
    # the copy's maskless intrinsic and PTX are neither rewritten nor listed
    assert [f for f in _left(findings) if 'cub-1.3.2' in f and 'copy' not in f] == [
        os.path.join('src', 'cub-1.3.2', 'cub', 'util_ptx.cuh') + ': 2 more findings in 1 '
        'C/C++/CUDA files the build scripts do not compile (vendored or unused code, in '
        + os.path.join('src', 'cub-1.3.2', 'cub') + '): not listed']
    assert port(str(tmp_path))[3] == []  # idempotent

    after = _compile(tmp_path, 'src/sum_kernel.cu')
    assert after.returncode == 0, after.stderr
    assert subprocess.run(['bash', '-n', 'make.sh'], cwd=tmp_path).returncode == 0


def test_a_copy_whose_names_the_toolkit_lacks_is_reported_not_rewritten(tmp_path):
    """cub::Sum (CUB 1.x's functor) is gone from CUDA 13's CUB: the code
    cannot use the toolkit's as it stands."""
    kernel = textwrap.dedent(SUM_KERNEL).replace(
        'float total = BlockReduce(temp).Sum(i < n ? input[i] : 0.0f);',
        'float total = BlockReduce(temp).Reduce(i < n ? input[i] : 0.0f, cub::Sum());')
    _write(tmp_path, dict(CUB_STAND_IN, **{'src/sum_kernel.cu': kernel, 'make.sh': MAKE_SH}))
    _, findings, _, changed = port(str(tmp_path))
    assert os.path.join('src', 'sum_kernel.cu') not in changed
    left = _left(findings)
    assert os.path.join('src', 'sum_kernel.cu') + ':12: cub::Sum, from the CUB 1.3.2 copy, ' \
        'is not in the toolkit\'s CUB' in left
    assert [f for f in left if f.startswith(os.path.join('src', 'cub-1.3.2') + ':')][0] \
        .startswith(os.path.join('src', 'cub-1.3.2') + ': a copy of CUB 1.3.2, left as it is '
                    '(port changes no file in it): the code cannot use the toolkit\'s CUB as it '
                    'stands (the clashes are listed)')


def test_an_include_folder_naming_the_copy_is_reported(tmp_path):
    """With -I src/cub-1.3.2, <cub/cub.cuh> finds the copy first."""
    kernel = textwrap.dedent(SUM_KERNEL).replace('#include "cub-1.3.2/cub/cub.cuh"',
                                                 '#include <cub/cub.cuh>')
    make = textwrap.dedent(MAKE_SH).replace('cd src\n', '').replace(
        '-o sum_kernel.cu.o sum_kernel.cu', '-o src/sum_kernel.cu.o src/sum_kernel.cu '
        '-I src/cub-1.3.2')
    _write(tmp_path, dict(CUB_STAND_IN, **{'src/sum_kernel.cu': kernel, 'make.sh': make}))
    _, findings, _, changed = port(str(tmp_path))
    assert 'make.sh' in changed  # its architecture, not its include folder
    assert 'make.sh:3: names src/cub-1.3.2, the CUB 1.3.2 copy, as an include folder: there ' \
        '<cub/...> finds the copy before the toolkit\'s; remove it' in _left(findings)


def test_copies_are_recognised_by_their_files():
    found = vendored.copies(['src/cub-1.3.2/cub/cub.cuh', 'src/cub-1.3.2/cub/block/x.cuh',
                             'lib/third_party/cub/cub/cub.cuh', 'ext/cub/cub.cuh',
                             'deps/thrust/thrust/version.h', 'mgpu/moderngpu/include/'
                             'moderngpu.cuh', 'src/kernel.cu'])
    assert sorted((c.library.name, c.root, c.include_root, c.version) for c in found) == [
        ('CUB', 'ext/cub', 'ext', None),
        ('CUB', 'lib/third_party/cub', 'lib/third_party/cub', None),
        ('CUB', 'src/cub-1.3.2', 'src/cub-1.3.2', '1.3.2'),
        ('moderngpu', 'mgpu/moderngpu', 'mgpu/moderngpu/include', None),
        ('thrust', 'deps/thrust', 'deps/thrust', None)]
    assert vendored.version_from_text(vendored.LIBRARIES[1],
                                      '#define THRUST_VERSION 100802\n') == '1.8.2'


OLD_PTX = r'''
__device__ __forceinline__ int shfl_up_add(int input, int offset)
{
    int output;
    asm volatile(
        "{"
        "  .reg .s32 r0;"
        "  .reg .pred p;"
        "  shfl.up.b32 r0|p, %1, %2, 0;"
        "  @p add.s32 r0, r0, %1;"
        "  mov.s32 %0, r0;"
        "}"
        : "=r"(output) : "r"(input), "r"(offset));
    return output;
}

__device__ __forceinline__ float lane_value(float value, int lane)
{
    float out;
    asm volatile("shfl.idx.b32 %0, %1, %2, 0x1f;\n\t" : "=f"(out) : "f"(value), "r"(lane));
    return out;
}

__device__ __forceinline__ float xor_value(float value, int mask)
{
    float out;
    asm("shfl.bfly.b32 %0, %1, %2, 0x1f;" : "=f"(out) : "f"(value), "r"(mask));
    return out;
}

__device__ __forceinline__ float down_value(float value, int delta)
{
    float out;
    __asm__ __volatile__("shfl.down.b32 %0, %1, %2, 0x1f;" : "=f"(out) : "f"(value), "r"(delta));
    return out;
}

__device__ __forceinline__ unsigned int lanes_with(int predicate)
{
    unsigned int bits;
    asm("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.ballot.b32 %0, p; }"
        : "=r"(bits) : "r"(predicate));
    return bits;
}

/* printf("shfl.up.b32 is a string, not PTX") */
__global__ void scan_kernel(int *x, float *y, unsigned int *bits)
{
    const char *name = "shfl.up.b32 %0, %1;";
    x[threadIdx.x] = shfl_up_add(x[threadIdx.x], 1) + (name[0] == 's');
    y[threadIdx.x] = lane_value(y[threadIdx.x], 0) + xor_value(y[threadIdx.x], 1)
                     + down_value(y[threadIdx.x], 1);
    bits[threadIdx.x] = lanes_with(x[threadIdx.x] > 0);
}
'''


def test_inline_ptx_without_sync_gets_the_full_warp_mask_and_compiles(tmp_path):
    (tmp_path / 'scan.cu').write_text(OLD_PTX)
    (tmp_path / 'make.sh').write_text('set -e\nnvcc -c scan.cu -o scan.cu.o -arch=sm_75\n')
    before = _compile(tmp_path, 'scan.cu')
    assert before.returncode != 0 and "Instruction 'shfl' without '.sync'" in before.stderr

    _, findings, _, changed = port(str(tmp_path), write=True)
    assert changed == ['make.sh', 'scan.cu']  # make.sh: its nvcc gets cccl_legacy.h
    expected = (OLD_PTX.replace('shfl.up.b32 r0|p, %1, %2, 0;',
                                'shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;')
                .replace('shfl.idx.b32 %0, %1, %2, 0x1f;',
                         'shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;')
                .replace('shfl.bfly.b32 %0, %1, %2, 0x1f;',
                         'shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;')
                .replace('shfl.down.b32 %0, %1, %2, 0x1f;',
                         'shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;')
                .replace('vote.ballot.b32 %0, p;', 'vote.sync.ballot.b32 %0, p, 0xffffffff;'))
    assert (tmp_path / 'scan.cu').read_text() == expected
    assert [str(f) for f in findings if f.fixed and f.path.endswith('.cu')] == [
        'scan.cu:9: PTX `shfl.up.b32 r0|p, %1, %2, 0;`: now `shfl.sync.up.b32 r0|p, %1, %2, 0, '
        '0xffffffff;`; full-warp mask assumed: if only some lanes take part, pass their mask',
        'scan.cu:20: PTX `shfl.idx.b32 %0, %1, %2, 0x1f;`: now `shfl.sync.idx.b32 %0, %1, %2, '
        '0x1f, 0xffffffff;`; full-warp mask assumed: if only some lanes take part, pass their '
        'mask',
        'scan.cu:27: PTX `shfl.bfly.b32 %0, %1, %2, 0x1f;`: now `shfl.sync.bfly.b32 %0, %1, '
        '%2, 0x1f, 0xffffffff;`; full-warp mask assumed: if only some lanes take part, pass '
        'their mask',
        'scan.cu:34: PTX `shfl.down.b32 %0, %1, %2, 0x1f;`: now `shfl.sync.down.b32 %0, %1, '
        '%2, 0x1f, 0xffffffff;`; full-warp mask assumed: if only some lanes take part, pass '
        'their mask',
        'scan.cu:41: PTX `vote.ballot.b32 %0, p;`: now `vote.sync.ballot.b32 %0, p, '
        '0xffffffff;`; full-warp mask assumed: if only some lanes take part, pass their mask']
    assert port(str(tmp_path))[3] == []  # idempotent
    after = _compile(tmp_path, 'scan.cu')
    assert after.returncode == 0, after.stderr


def test_ptx_split_across_strings_is_reported():
    new, changes, left = ptx.modernize('"  shfl.down.b32 %0, %1, "')
    assert changes == [] and left == ['shfl.down.b32'] and new == '"  shfl.down.b32 %0, %1, "'
    assert ptx.modernize('"shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;"')[1] == []
