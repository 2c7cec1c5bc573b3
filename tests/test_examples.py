"""Legacy torch.utils.ffi code, ported by changing its import line: the
examples (RoI pooling, NMS) built by their make.sh/build.py, package mode
installed with pip, C++ sources, and legacy type punning."""

import math
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import torch
from torch.autograd import gradcheck

from demo_support import ROOT
from thffi import create_extension, cuda_enabled

GPU = torch.cuda.is_available() and cuda_enabled()
needs_gpu = pytest.mark.skipif(not GPU, reason='needs a CUDA GPU and a CUDA toolkit')
DEVICES = ['cpu', pytest.param('cuda', marks=needs_gpu)]
ENV = dict(os.environ, PYTHONPATH=ROOT)


def _make(example, tmp_path):
    """Runs an example's make.sh (nvcc if a toolkit is there, then
    build.py) from another directory, as a user would."""
    out = subprocess.run(['bash', os.path.join(ROOT, 'examples', example, 'make.sh')],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.fixture(scope='module')
def roi_pool(tmp_path_factory):
    log = _make('roi_pooling', tmp_path_factory.mktemp('roi'))
    assert ('Including CUDA code.' in log) == cuda_enabled()
    from examples.roi_pooling.functions.roi_pool import RoIPoolFunction
    return RoIPoolFunction


@pytest.fixture(scope='module')
def nms(tmp_path_factory):
    _make('nms', tmp_path_factory.mktemp('nms'))
    from examples.nms.nms_wrapper import nms
    return nms


def roi_pool_reference(features, rois, pooled_height, pooled_width, scale):
    """Caffe's RoI max pooling, one bin at a time."""
    _, channels, height, width = features.shape
    out = []
    for roi in rois.tolist():
        batch = int(roi[0])
        sw, sh, ew, eh = (math.floor(v * scale + 0.5) for v in roi[1:])
        bin_h = max(eh - sh + 1, 1) / pooled_height
        bin_w = max(ew - sw + 1, 1) / pooled_width
        bins = []
        for ph in range(pooled_height):
            for pw in range(pooled_width):
                hs = min(max(math.floor(ph * bin_h) + sh, 0), height)
                he = min(max(math.ceil((ph + 1) * bin_h) + sh, 0), height)
                ws = min(max(math.floor(pw * bin_w) + sw, 0), width)
                we = min(max(math.ceil((pw + 1) * bin_w) + sw, 0), width)
                if he <= hs or we <= ws:
                    bins.append(features.new_zeros(channels))
                else:
                    bins.append(features[batch, :, hs:he, ws:we].amax(dim=(1, 2)))
        out.append(torch.stack(bins, 1).view(channels, pooled_height, pooled_width))
    return torch.stack(out) if out else features.new_zeros(0, channels, pooled_height,
                                                            pooled_width)


def _roi_case(dtype, device):
    g = torch.Generator().manual_seed(1)
    features = torch.randn(2, 3, 12, 10, generator=g, dtype=dtype)
    rois = torch.tensor([[0, 0, 0, 19, 23], [1, 4, 2, 14, 9], [0, 6, 6, 6, 6],
                         [1, 16, 20, 40, 40], [0, 3, 5, 8, 30]], dtype=dtype)
    return features.to(device), rois.to(device)


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
@pytest.mark.parametrize('pooled', [(2, 2), (3, 4), (7, 7)])
def test_roi_pooling_matches_reference(roi_pool, dtype, device, pooled):
    features, rois = _roi_case(dtype, device)
    out = roi_pool.apply(features, rois, *pooled, 0.5)
    expected = roi_pool_reference(features.cpu(), rois.cpu(), *pooled, 0.5)
    torch.testing.assert_close(out.cpu(), expected, rtol=0, atol=0)


@pytest.mark.parametrize('device', DEVICES)
def test_roi_pooling_backward_matches_reference(roi_pool, device):
    features, rois = _roi_case(torch.float64, device)
    features.requires_grad_()
    grad = torch.randn(rois.shape[0], 3, 3, 4, dtype=torch.float64, device=device)
    (got,) = torch.autograd.grad(roi_pool.apply(features, rois, 3, 4, 0.5), features, grad)
    reference = features.detach().cpu().requires_grad_()
    (want,) = torch.autograd.grad(roi_pool_reference(reference, rois.cpu(), 3, 4, 0.5),
                                  reference, grad.cpu())
    torch.testing.assert_close(got.cpu(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('device', DEVICES)
def test_roi_pooling_gradcheck(roi_pool, device):
    features, rois = _roi_case(torch.float64, device)
    features.requires_grad_()
    assert gradcheck(lambda f: roi_pool.apply(f, rois, 2, 3, 0.5), (features,),
                     eps=1e-6, atol=1e-7)


def test_roi_pooling_bad_input_is_an_error(roi_pool):
    features, rois = _roi_case(torch.float32, 'cpu')
    with pytest.raises(RuntimeError, match=r'roi_pooling_forward: invalid argument 5: rois '
                                           r'must be \(R, 5\)'):
        roi_pool.apply(features, rois[:, :4], 2, 2, 0.5)
    bad = rois.clone()
    bad[1, 0] = 7
    with pytest.raises(RuntimeError, match=r'roi 1: batch index 7 out of range'):
        roi_pool.apply(features, bad, 2, 2, 0.5)


def nms_reference(boxes, scores, threshold):
    order = scores.argsort(descending=True).tolist()
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1) * (y2 - y1)
    keep, dropped = [], set()
    for a, i in enumerate(order):
        if i in dropped:
            continue
        keep.append(i)
        for j in order[a + 1:]:
            w = (torch.minimum(x2[i], x2[j]) - torch.maximum(x1[i], x1[j])).clamp(min=0)
            h = (torch.minimum(y2[i], y2[j]) - torch.maximum(y1[i], y1[j])).clamp(min=0)
            inter = w * h
            if inter / (areas[i] + areas[j] - inter) > threshold:
                dropped.add(j)
    return keep


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('count', [0, 1, 50, 130])
@pytest.mark.parametrize('threshold', [0.3, 0.7])
def test_nms_matches_reference(nms, device, count, threshold):
    g = torch.Generator().manual_seed(count)
    corner = torch.rand(count, 2, generator=g) * 100
    boxes = torch.cat([corner, corner + 5 + torch.rand(count, 2, generator=g) * 40], 1)
    scores = torch.rand(count, generator=g)
    keep = nms(boxes.to(device), scores.to(device), threshold)
    assert keep.tolist() == nms_reference(boxes, scores, threshold)


def test_nms_bad_boxes_is_an_error(nms):
    with pytest.raises(RuntimeError, match=r'nms_cpu: invalid argument 2: boxes must be '
                                           r'\(N, 4\)'):
        nms(torch.zeros(3, 5), torch.zeros(3), 0.5)


def test_package_mode_installs_with_pip(tmp_path):
    source = tmp_path / 'src'
    shutil.copytree(os.path.join(ROOT, 'examples', 'package'), source)
    site = tmp_path / 'site'
    out = subprocess.run([sys.executable, '-m', 'pip', 'install', '-q', '--no-build-isolation',
                          '--no-deps', '--no-index', '--target', str(site), str(source)],
                         env=ENV, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    libs = list((site / 'my_package' / '_ext' / 'my_lib').glob('_my_lib.*so'))
    assert libs, sorted(p.name for p in site.rglob('*'))
    check = textwrap.dedent('''
        import torch
        import my_package._ext.my_lib as lib
        from my_package.modules.add import MyAddModule
        a, b = torch.randn(4, requires_grad=True), torch.randn(4)
        out = MyAddModule()(a, b)
        out.sum().backward()
        assert torch.equal(out, a + b) and torch.equal(a.grad, torch.ones(4))
        print(lib.__file__)
        ''')
    ran = subprocess.run([sys.executable, '-c', check], cwd=tmp_path, capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=str(site)), timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith(str(site))


# A CTC-style binding of 2018: a C++ library built apart (lib/), its
# torch.utils.ffi wrapper built by setuptools from cffi's
# distutils_extension(), linked to the library by name with an rpath.
BINDING = {
    'lib/sumlib.h': '''
        #ifdef __cplusplus
        extern "C" {
        #endif
        int sum_cost(const float *acts, int n, float *cost);
        #ifdef __cplusplus
        }
        #endif
        ''',
    'lib/sumlib.cpp': '''
        #include <numeric>
        #include <vector>
        #include "sumlib.h"
        extern "C" int sum_cost(const float *acts, int n, float *cost) {
          std::vector<float> v(acts, acts + n);
          *cost = std::accumulate(v.begin(), v.end(), 0.0f);
          return 0;
        }
        ''',
    'binding/src/binding.h': '''
        int cpu_cost(THFloatTensor *acts, THFloatTensor *grads, THFloatTensor *costs,
                     const char *reduction);
        ''',
    'binding/src/binding.cpp': '''
        #include <cstring>
        #include <algorithm>
        #include "sumlib.h"

        extern "C" {
        #include <TH.h>
        }

        extern "C" int cpu_cost(THFloatTensor *acts, THFloatTensor *grads,
                                THFloatTensor *costs, const char *reduction)
        {
            float *acts_ptr = acts->storage->data + acts->storageOffset;
            float *costs_ptr = costs->storage->data + costs->storageOffset;
            int n = THFloatTensor_nElement(acts);
            float scale = strcmp(reduction, "mean") == 0 ? 1.0f / n : 1.0f;
            if (grads->storage) {
                float *grads_ptr = grads->storage->data + grads->storageOffset;
                std::fill(grads_ptr, grads_ptr + n, scale);
            }
            sum_cost(acts_ptr, n, costs_ptr);
            costs_ptr[0] *= scale;
            return 1;
        }
        ''',
    'binding/setup.py': '''
        import os
        import sys
        from setuptools import setup, find_packages
        from torch.utils.ffi import create_extension

        extra_compile_args = ['-std=c++11', '-fPIC']
        sum_path = os.path.realpath('../lib')
        if not os.path.exists(os.path.join(sum_path, 'libsumlib.so')):
            print('Build lib/ first')
            sys.exit(1)

        ffi = create_extension(
            name='sum_pytorch._sum',
            package=True,
            language='c++',
            headers=['src/binding.h'],
            sources=['src/binding.cpp'],
            with_cuda=False,
            include_dirs=[sum_path],
            library_dirs=[sum_path],
            libraries=['sumlib'],
            extra_link_args=['-Wl,-rpath,' + sum_path],
            extra_compile_args=extra_compile_args)
        ffi = ffi.distutils_extension()
        setup(name='sum_pytorch', version='0.1', packages=find_packages(), ext_modules=[ffi])
        ''',
    'binding/sum_pytorch/__init__.py': '''
        import torch
        from torch.autograd import Function

        from ._sum import *


        class _Cost(Function):
            @staticmethod
            def forward(ctx, acts):
                acts = acts.contiguous()
                grads = torch.zeros(acts.size()).type_as(acts)
                costs = torch.zeros(1)
                cpu_cost(acts, grads, costs, 'mean')
                ctx.grads = grads
                return costs

            @staticmethod
            def backward(ctx, grad_output):
                return ctx.grads * grad_output
        ''',
}


def test_distutils_extension_of_a_binding_to_a_library_built_apart(tmp_path):
    for name, text in BINDING.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip())
    subprocess.run(['g++', '-shared', '-fPIC', '-o', 'libsumlib.so', 'sumlib.cpp'],
                   cwd=tmp_path / 'lib', check=True)
    built = subprocess.run([sys.executable, '-m', 'thffi', 'setup.py', 'build_ext', '--inplace'],
                           cwd=tmp_path / 'binding', env=ENV, capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    check = textwrap.dedent('''
        import torch
        from sum_pytorch import _Cost
        acts = torch.randn(2, 3, 4, requires_grad=True)
        cost = _Cost.apply(acts)
        cost.backward()
        assert torch.allclose(cost, acts.mean().reshape(1)), (cost, acts.mean())
        assert torch.allclose(acts.grad, torch.full((2, 3, 4), 1 / 24))
        ''')
    ran = subprocess.run([sys.executable, '-c', check], cwd=tmp_path / 'binding',
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr


def _build_and_call(tmp_path, header, source_name, source, call, **kwargs):
    (tmp_path / 'f.h').write_text(textwrap.dedent(header))
    (tmp_path / source_name).write_text(textwrap.dedent(source))
    ffi = create_extension('_legacy.lib', headers=['f.h'], sources=[source_name],
                           relative_to=str(tmp_path / 'build.py'), verbose=False, **kwargs)
    ffi.build()
    ran = subprocess.run([sys.executable, '-c', 'import torch, _legacy.lib as m; print(%s)'
                          % call], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout.strip()


CXX_SOURCE = '''
    #include <TH/TH.h>
    #include <vector>
    extern "C" double sum_all(THDoubleTensor *t) {
      std::vector<double> values(THDoubleTensor_data(t), THDoubleTensor_data(t) + THDoubleTensor_nElement(t));
      double total = 0;
      for (double v : values) total += v;
      return total;
    }
    '''


def test_cpp_source(tmp_path):
    assert _build_and_call(tmp_path, 'double sum_all(THDoubleTensor *t);\n', 'f.cpp',
                           CXX_SOURCE, 'm.sum_all(torch.arange(5.0, dtype=torch.float64))') == '10.0'


def test_language_cxx_compiles_the_module_as_cpp(tmp_path):
    assert _build_and_call(tmp_path, 'double sum_all(THDoubleTensor *t);\n', 'f.cpp',
                           CXX_SOURCE, 'm.sum_all(torch.ones(3, dtype=torch.float64))',
                           language='c++') == '3.0'


def test_legacy_type_punning_compiles_where_gcc_14_refuses_it(tmp_path, monkeypatch):
    # GCC 14 makes these errors by default; -Werror= emulates it on older gcc.
    monkeypatch.setenv('CFLAGS', '-Werror=incompatible-pointer-types '
                                 '-Werror=implicit-function-declaration')
    source = '''
        #include <TH/TH.h>
        int count(THFloatTensor *t) {
          THDoubleTensor *d = t;                 /* punned, as legacy code did */
          return (int)THDoubleTensor_nElement(d) + helper();
        }
        int helper(void) { return 100; }
        '''
    assert _build_and_call(tmp_path, 'int count(THFloatTensor *t);\n', 'f.c', source,
                           'm.count(torch.zeros(7))') == '107'
