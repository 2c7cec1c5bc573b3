"""The generated wrapper's own names cannot collide with the user's C
functions: a 2018 header declaring `int k(THCudaTensor *t)`, or functions
named like the wrapper's locals (r, t, frame, objs...) and its Python
module's names (torch, Runtime), builds and calls as C, as C++ and with
CUDA; a name beginning as thffi's own is refused naming it."""

import pytest
from support import import_built, write_files

from thffi import create_extension
from thffi.builder.headers import HeaderError, read_headers
from thffi.toolchain import cuda_toolkit as cuda

# Functions named like the trampoline's and the C++ call's locals, in the
# terse style of 2018 kernels' helpers.
NAMES_H = '''\
    int k(THFloatTensor *t);
    int r(THFloatTensor *frame, int objs);
    float frame(THFloatTensor *r, float v);
    int previous(THFloatTensor *a0, THFloatTensor *x0);
    int torch(int p0);
    int Runtime(THFloatTensor *t);
    '''
NAMES_C = '''\
    #include <TH/TH.h>

    int k(THFloatTensor *t) { return THFloatTensor_nDimension(t); }
    int r(THFloatTensor *frame, int objs) { return THFloatTensor_nElement(frame) * objs; }
    float frame(THFloatTensor *r, float v) { return THFloatTensor_sumall(r) + v; }
    int previous(THFloatTensor *a0, THFloatTensor *x0)
    {
        return THFloatTensor_isSameSizeAs(a0, x0);
    }
    int torch(int p0) { return p0 + 1; }
    int Runtime(THFloatTensor *t) { return (int)THFloatTensor_size(t, 0); }
    '''


@pytest.mark.parametrize('source', ['names.c', 'names.cpp'])
def test_functions_named_like_the_wrappers_own_names_build_and_call(tmp_path, source):
    import torch
    c = NAMES_C if source.endswith('.c') else NAMES_C.replace(
        '#include <TH/TH.h>\n', '#include <TH/TH.h>\n    extern "C" {\n') + '    }\n'
    write_files(tmp_path, {'src/names.h': NAMES_H, 'src/' + source: c})
    create_extension('_ext.names', headers=['src/names.h'], sources=['src/' + source],
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    names = import_built(tmp_path, '_ext.names')
    t = torch.ones(3, 4)
    assert (names.k(t), names.r(t, 2), names.frame(t, 0.5)) == (2, 24, 12.5)
    assert (names.previous(t, torch.zeros(3, 4)), names.previous(t, torch.zeros(4))) == (1, 0)
    assert (names.torch(41), names.Runtime(t)) == (42, 3)


@pytest.mark.skipif(cuda.find_cuda_home() is None, reason='no CUDA toolkit (nvcc) installed')
def test_a_cuda_function_named_k_builds_with_cuda(tmp_path):
    # The CUDA trampoline's locals (the device, the stream, the previous
    # device) as names too; without a GPU the build compiles and links.
    write_files(tmp_path, {
        'src/k.h': 'int k(THCudaTensor *t);\nint dev(THCudaTensor *stream, int previous);\n',
        'src/k.c': '''\
            #include <THC/THC.h>
            extern THCState *state;
            int k(THCudaTensor *t) { return THCudaTensor_nDimension(state, t); }
            int dev(THCudaTensor *stream, int previous)
            {
                return THCudaTensor_nDimension(state, stream) + previous;
            }
            '''})
    create_extension('_ext.k', headers=['src/k.h'], sources=['src/k.c'], with_cuda=True,
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    ext = import_built(tmp_path, '_ext.k')
    assert callable(ext.k) and callable(ext.dev)
    import torch
    if torch.cuda.is_available():
        t = torch.zeros(2, 3, device='cuda')
        assert (ext.k(t), ext.dev(t, 1)) == (2, 3)


def test_a_name_beginning_as_thffis_own_is_refused_naming_it():
    with pytest.raises(HeaderError, match=r"^h\.h: _thffi_e_f: names beginning _thffi_ or "
                                          r"THFFI are thffi's own; rename the function"):
        read_headers([('h.h', 'int _thffi_e_f(THFloatTensor *t);\n')])
