"""Headers 2018 ffi code included that thffi does not provide
(thffi/toolchain/legacy_headers.py): a build including one fails saying
what it was and what to write instead, not only "No such file"."""

import os

import pytest
from support import write_files

from thffi import BuildError, create_extension
from thffi.toolchain import legacy_headers


def test_aten_bridge_in_an_ffi_source(tmp_path):
    write_files(tmp_path, {
        'src/relu.h': 'int relu_forward(THFloatTensor *input, THFloatTensor *output);\n',
        'src/relu.cpp': '''\
            #include <TH/TH.h>
            #include <ATen/ATen.h>

            extern "C" int relu_forward(THFloatTensor *input, THFloatTensor *output)
            {
              at::Tensor in = at::CPU(at::kFloat).unsafeTensorFromTH(input, true);
              at::Tensor out = at::CPU(at::kFloat).unsafeTensorFromTH(output, true);
              out.resize_as_(in).copy_(in.clamp_min(0));
              return 1;
            }
            '''})
    ffi = create_extension('_ext.relu', headers=['src/relu.h'], sources=['src/relu.cpp'],
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    with pytest.raises(BuildError) as error:
        ffi.build()
    message = str(error.value)
    assert ("<ATen/ATen.h> is not provided: ATen, PyTorch's C++ tensor library, and 2018's "
            "bridge to it from TH (at::CPU(at::kFloat).unsafeTensorFromTH(t, true)") in message
    assert ("instead, call TH's and THC's functions on the THFloatTensor/THCudaTensor the "
            "function is given") in message
    assert 'torch.utils.cpp_extension' in message
    # port's report names it, left for the user, before any build
    from thffi.port import port
    findings = port(str(tmp_path))[1]
    left = [f for f in findings if not f.fixed and f.path == os.path.join('src', 'relu.cpp')]
    assert [(f.line, f.message.split(':')[0]) for f in left] == [
        (2, '<ATen/ATen.h> is not provided')]


@pytest.mark.parametrize('output, header', [
    ('x.cu:3:10: fatal error: ATen/cuda/CUDAContext.h: No such file or directory', 'ATen/cuda/CUDAContext.h'),
    ('src/nn.c:2:10: fatal error: THNN/THNN.h: No such file or directory', 'THNN/THNN.h'),
    ('a.cpp:1:10: fatal error: torch/extension.h: No such file or directory', 'torch/extension.h'),
])
def test_each_row_names_its_header(output, header):
    lines = legacy_headers.explain(output + '\n' + output)
    assert len(lines) == 1 and lines[0].startswith('<%s> is not provided: ' % header)


def test_other_missing_headers_left_to_the_others():
    assert legacy_headers.explain('x.c:1:10: fatal error: curand.h: No such file or directory\n'
                                  'y.c:1:10: fatal error: mine.h: No such file or directory') == []
