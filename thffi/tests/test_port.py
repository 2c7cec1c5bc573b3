"""python -m thffi port, file by file: each rewrite of legacy Python (libcst)
and shell, what it leaves and reports, and that a second run changes
nothing.  The whole legacy repository is in test_legacy_repo.py."""

import math
import os
import subprocess
import sys
import textwrap
import warnings

import pytest
import torch

from support import ROOT, write_files
from thffi.toolchain import cuda_toolkit as cuda
from thffi.port import port
from thffi.port.c import scan_c
from thffi.port.python import rewrite_python
from thffi.port.shell import rewrite_shell

NVCC13 = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}


def py(source):
    """(new source, findings), checking that a second run changes nothing."""
    new, findings = rewrite_python(textwrap.dedent(source), 'x.py')
    assert rewrite_python(new, 'x.py')[0] == new
    return new, findings


def sh(source, accepted=NVCC13):
    new, findings = rewrite_shell(textwrap.dedent(source), 'make.sh', accepted)
    assert rewrite_shell(new, 'make.sh', accepted)[0] == new
    return new, findings


def left(findings):
    return [str(f) for f in findings if not f.fixed]


def test_torch_utils_ffi_and_build_script_gates():
    new, findings = py('''\
        # build.py
        from torch.utils.ffi import create_extension  # the legacy builder
        import torch

        with_cuda = torch.cuda.is_available()
        if torch.cuda.is_available():  # a GPU on the build machine?
            print('Including CUDA code.')
        ''')
    # torch, imported for the gates alone, goes with them.
    assert new == textwrap.dedent('''\
        # build.py
        from thffi import create_extension, cuda_enabled  # the legacy builder

        with_cuda = cuda_enabled()
        if cuda_enabled():  # a GPU on the build machine?
            print('Including CUDA code.')
        ''')
    assert [f.line for f in findings] == [2, 5, 6] and not left(findings)

    new, _ = py('''\
        import torch.utils.ffi
        ffi = torch.utils.ffi.create_extension('_ext.x', headers=[], sources=[],
                                               with_cuda=torch.cuda.is_available())
        ''')
    # The continuation line stays aligned with the bracket it was aligned with.
    assert new == textwrap.dedent('''\
        import thffi
        ffi = thffi.create_extension('_ext.x', headers=[], sources=[],
                                     with_cuda=thffi.cuda_enabled())
        ''')
    # `import torch.utils.ffi` also bound `torch`: kept where still used.
    new, _ = py('import torch.utils.ffi\nx = torch.zeros(1)\n')
    assert 'import thffi\n' in new and 'import torch\n' in new
    new, _ = py('import torch.utils.ffi as F\nfrom torch.utils import ffi, data\n')
    assert new == 'import thffi as F\nfrom torch.utils import data\nimport thffi as ffi\n'
    # Outside build scripts, torch.cuda.is_available() asks for a GPU, as it should.
    source = 'import torch\nif torch.cuda.is_available():\n    x = 1\n'
    assert py(source)[0] == source


def test_legacy_function_imports():
    new, findings = py('''\
        import torch
        from torch.autograd import Function, gradcheck  # both


        class RoIPool(Function):
            def __init__(self, size):
                self.size = size

            def forward(self, x):
                return x
        ''')
    assert new.startswith('import torch\nfrom torch.autograd import gradcheck  # both\n'
                          'from thffi.legacy import Function\n')
    assert 'class RoIPool(Function):' in new and not left(findings)
    new, _ = py('from torch.autograd import Function as F\nclass A(F):\n'
                '    def backward(self, g):\n        return g\n')
    assert new.startswith('from thffi.legacy import Function as F\n')
    # A file with modern Functions too keeps its import; the legacy class
    # gets a base of its own.  Written as an attribute, the base is replaced.
    new, findings = py('''\
        import torch
        from torch.autograd import Function


        class Legacy(Function):
            def forward(self, x):
                return x


        class Modern(Function):
            @staticmethod
            def forward(ctx, x):
                return x


        class Attribute(torch.autograd.Function):
            def forward(self, x):
                return x
        ''')
    assert 'from torch.autograd import Function\n' in new
    assert 'from thffi.legacy import Function as LegacyFunction\n' in new
    assert 'import thffi.legacy\n' in new
    assert 'class Legacy(LegacyFunction):' in new and 'class Modern(Function):' in new
    assert 'class Attribute(thffi.legacy.Function):' in new
    assert len(findings) == 2


@pytest.mark.parametrize('call, expected', [
    ('torch.range(1, 10)', 'torch.arange(1, 11, dtype=torch.get_default_dtype())'),
    ('torch.range(-5, 5, step=2)', 'torch.arange(-5, 7, 2, dtype=torch.get_default_dtype())'),
    ('torch.range(0, 1, 0.1)', 'torch.arange(0, 1.05, 0.1, dtype=torch.get_default_dtype())'),
    ('torch.range(0.5, 2)', 'torch.arange(0.5, 2.0, dtype=torch.get_default_dtype())'),
    ('torch.range(0, n - 1)', 'torch.arange(0, n, dtype=torch.get_default_dtype())'),
    ('torch.range(2, n, 2, dtype=torch.long)', 'torch.arange(2, n + 1, 2, dtype=torch.long)'),
    ('torch.range(n, 0, -3)', 'torch.arange(n, -1, -3, dtype=torch.get_default_dtype())'),
    ('torch.range(0, x << 1)', 'torch.arange(0, (x << 1) + 1, dtype=torch.get_default_dtype())'),
])
def test_torch_range(call, expected):
    new, findings = py('import torch\nn, x = 7, 3\ny = %s\n' % call)
    assert new.splitlines()[-1] == 'y = ' + expected
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # torch.range is deprecated
        for source in (call, expected):
            values = eval(source, {'torch': torch, 'n': 7, 'x': 3})
            if source == call:
                want = values
        assert values.dtype == want.dtype and torch.equal(values, want)


def test_torch_range_it_cannot_write_is_reported():
    source = ('import torch\ny = torch.range(5, 1)\nz = torch.range(*bounds)\n'
              'w = torch.range(0, n, k)\n')
    new, findings = py(source)
    assert new == source
    assert [f.split(': ', 1)[1].split(';')[0] for f in left(findings)] == [
        'torch.range(...) not changed: it is empty or an error (step 0 or of the wrong sign)',
        'torch.range(...) not changed: its arguments are not (start, end[, step])',
        'torch.range(...) not changed: its step is not a number literal']


def test_variable():
    new, findings = py('''\
        import torch
        from torch.autograd import Variable
        a = Variable(x)
        b = Variable(x, requires_grad=True)
        c = Variable(torch.randn(3), requires_grad=True)
        d = Variable(x + y, True)
        e = Variable(x, requires_grad=flag)
        f = Variable(x, volatile=True)
        g = Variable(x.data)
        h = Variable(x.new(2).zero_())
        x = Variable(x)
        ''')
    assert new == textwrap.dedent('''\
        import torch
        a = x.detach()
        b = x.detach().requires_grad_()
        c = torch.randn(3).requires_grad_()
        d = (x + y).detach().requires_grad_()
        e = x.detach().requires_grad_(flag)
        f = x.detach()
        g = x.data
        h = x.new(2).zero_().detach()
        x = x.detach()
        ''')  # x = Variable(x): never `x = x`
    assert left(findings) == ['x.py:8: Variable(..., volatile=...) dropped: volatile has no '
                              'effect today; run inference under `with torch.no_grad():`']


@pytest.mark.parametrize('before, after', [
    ('Variable(x)', 'x.detach()'),
    ('Variable(x, requires_grad=True)', 'x.detach().requires_grad_()'),
    ('Variable(x * 2)', '(x * 2).detach()'),
    ('Variable(x.data)', 'x.data'),
    ('Variable(torch.ones(3))', 'torch.ones(3)'),
])
def test_variable_of_a_tensor_that_requires_grad_keeps_todays_semantics(before, after):
    new, _ = py('import torch\nfrom torch.autograd import Variable\ny = %s\n' % before)
    assert new == 'import torch\ny = %s\n' % after
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    old = eval(before, {'torch': torch, 'Variable': torch.autograd.Variable, 'x': x})
    ported = eval(after, {'torch': torch, 'x': x})
    for y in (old, ported):
        assert y is not x and y.grad_fn is None and y.is_leaf
    assert old.requires_grad == ported.requires_grad and torch.equal(old, ported)
    if before != 'Variable(torch.ones(3))':  # x's memory, as Variable(x) had
        assert (old.data_ptr() == x.data_ptr()) == (ported.data_ptr() == x.data_ptr())


def test_data_0_used_as_a_number_becomes_item():
    new, findings = py('''\
        total = 0
        print(loss.data[0])
        print('loss %.3f, acc %.2f' % (loss.data[0], acc))
        log('{:.4f}'.format(loss.data[0]), f'{loss.data[0]:.2f}', float(loss.data[0]))
        scaled = loss.data[0] * 100
        if loss.data[0] < 0.5:
            total += loss.data[0]
        row = output.data[0]
        losses.append(loss.data[0])
        ''')
    assert new == textwrap.dedent('''\
        total = 0
        print(loss.item())
        print('loss %.3f, acc %.2f' % (loss.item(), acc))
        log('{:.4f}'.format(loss.item()), f'{loss.item():.2f}', float(loss.item()))
        scaled = loss.item() * 100
        if loss.item() < 0.5:
            total += loss.item()
        row = output.data[0]
        losses.append(loss.data[0])
        ''')
    assert [f.line for f in findings if not f.fixed] == [8, 9]
    assert 'output.data[0] not changed: if output is a 0-d tensor' in left(findings)[0]


def test_python_2_is_converted_then_ported():
    """A Python 2 file is converted to Python 3 first (fissix), then ported
    (test_port_python.py has each conversion); one that parses as neither
    Python is reported, unchanged."""
    source = 'print "loss", loss.data[0]\n'
    new, findings = rewrite_python(source, 'old.py')
    assert new == 'print("loss", loss.item())\n'
    assert [str(f) for f in findings] == [
        "old.py:1: Python 2, as this line shows (Missing parentheses in call to 'print'. Did "
        "you mean print(...)?, a SyntaxError in Python 3): the file is converted by 2to3's "
        'fixers',
        'old.py:1: Python 2 `print x, y / print >>f, x`: now `print(x, y) / print(x, '
        'file=f)` (print is a function in Python 3)',
        'old.py:1: loss.data[0] (used as a number): now loss.item() (a 0-d tensor has no '
        'element 0)']
    broken = 'print "loss",, loss\n'
    new, findings = rewrite_python(broken, 'old.py')
    assert new == broken
    assert left(findings) == ["old.py:1: does not parse (line 1: Missing parentheses in call to "
                              "'print'. Did you mean print(...)?): not changed"]


MAKE_SH = '''\
    #!/usr/bin/env bash
    CUDA_ARCH="-gencode arch=compute_30,code=sm_30 \\
               -gencode arch=compute_61,code=sm_61 "
    nvcc -c -o a.cu.o a.cu -x cu -Xcompiler -fPIC $CUDA_ARCH -I $CUDA_PATH/include
    nvcc -c -o b.cu.o b.cu -x cu -Xcompiler -fPIC -arch=sm_52 -I ${TORCH}/lib/include/TH \\
        -I${TORCH}/lib/include/THC
    nvcc -c -o c.cu.o c.cu -arch=sm_80 -Xcompiler -march=native
    g++ -c d.cpp -I "$PYTORCH_LIB_DIR/include/TH" -o d.o
    python build.py
    '''


def test_shell_scripts():
    new, findings = sh(MAKE_SH)
    assert new == textwrap.dedent('''\
        #!/usr/bin/env bash
        CUDA_ARCH="$(python -m thffi --arch-flags)"
        nvcc $(python -m thffi --cccl-legacy) -c -o a.cu.o a.cu -x cu -Xcompiler -fPIC $CUDA_ARCH -I $CUDA_PATH/include
        nvcc $(python -m thffi --cccl-legacy) -c -o b.cu.o b.cu -x cu -Xcompiler -fPIC $(python -m thffi --arch-flags) $(python -m thffi --includes)
        nvcc $(python -m thffi --cccl-legacy) -c -o c.cu.o c.cu -arch=sm_80 -Xcompiler -march=native
        g++ -c d.cpp $(python -m thffi --includes) -o d.o
        python build.py
        ''')
    # Each compile of CUDA includes thffi's cccl_legacy.h first, as thffi run compiles it.
    assert [(f.line, f.fixed) for f in findings] == [(2, True), (4, True), (5, True), (5, True),
                                                     (5, True), (7, True), (8, True), (0, False)]
    assert findings[0].message.startswith('nvcc architecture flags: sm_30, sm_61 rejected by '
                                          'the installed nvcc')
    assert findings[1].message.startswith("what CUDA 13's thrust removed that 2018 code used")
    assert 'no `set -e`' in findings[-1].message
    # What an older nvcc accepts stays; without an nvcc, CUDA 13's range is assumed.
    assert sh('nvcc -arch=sm_52 a.cu\n', accepted=NVCC13 | {52})[0] == (
        'nvcc $(python -m thffi --cccl-legacy) -arch=sm_52 a.cu\n')
    new, findings = sh('set -e\nnvcc -arch=sm_52 a.cu\n', accepted=None)
    assert new == 'set -e\nnvcc $(python -m thffi --cccl-legacy) $(python -m thffi --arch-flags) a.cu\n'
    assert 'older than sm_75 (no nvcc found to ask)' in findings[0].message


def test_cuda_library_flags_link_the_toolkits_or_pips_library():
    new, findings = sh('''\
        set -e
        nvcc -c -o k.cu.o k.cu -Xcompiler -fPIC
        g++ -shared -o libk.so k.cu.o -L/usr/local/cuda/lib64 -lcudart -lcurand -lm
        LIBS="-lcublas -lcublasLt -lfoo"
        gcc -shared -o libj.so j.c $LIBS
        ''')
    # The compile gets the libraries' headers (where pip's wheels put them).
    assert new == textwrap.dedent('''\
        set -e
        nvcc $(python -m thffi --cccl-legacy) -c -o k.cu.o k.cu -Xcompiler -fPIC $(python -m thffi --cuda-includes)
        g++ -shared -o libk.so k.cu.o -L/usr/local/cuda/lib64 $(python -m thffi --cuda-libs cudart curand) -lm
        LIBS="$(python -m thffi --cuda-libs cublas cublasLt) -lfoo"
        gcc -shared -o libj.so j.c $LIBS
        ''')
    assert [(f.line, f.fixed) for f in findings] == [(2, True), (2, True), (3, True), (4, True)]
    assert findings[2].message == (
        "-lcudart -lcurand: CUDA's libraries, which pip's wheels ship as lib<name>.so.<N> in "
        "their own folder; now $(python -m thffi --cuda-libs cudart curand) (the toolkit's or "
        "the wheels', with the rpath)")
    # A script linking no CUDA library gets no folders of CUDA's libraries.
    assert sh('set -e\nnvcc -c -o k.cu.o k.cu\n')[0] == (
        'set -e\nnvcc $(python -m thffi --cccl-legacy) -c -o k.cu.o k.cu\n')


def test_c_is_scanned_not_changed():
    source = textwrap.dedent('''\
        // exit(1) in a comment is not a call
        extern "C" {
        int fill(THFloatTensor *t) {
          float *d = THFloatTensor_data(t);
          d[3] = 1;
          return 1;
        }
        int checked(THFloatTensor *t) {
          THArgCheck(t->nDimension == 1, 1, "1-d expected");
          THFloatTensor_data(t)[0] = 1;
          if (!t) {
            fprintf(stderr, "exit(\\n");
            exit(-1);
          }
          return 1;
        }
        }
        ''')
    findings = scan_c(source, 'k.cu')
    assert [(f.line, f.message.split(' ')[0]) for f in findings] == [(3, 'fill()'),
                                                                     (8, 'checked()'),
                                                                     (13, 'exit()')]
    # checked() checks a shape, not the layout: it reads a transposed tensor wrongly.
    assert findings[1].message.startswith('checked() indexes tensor memory without checking '
                                          'its layout (no _stride, isContiguous or '
                                          'newContiguous; sizes say nothing of it)')


def test_port_reports_cuda_names_today_s_toolkit_lacks():
    source = textwrap.dedent('''\
        texture<float, 1, cudaReadModeElementType> tex;  // cudaBindTexture( in a comment
        int launch(const float *in, int n) {
          cudaBindTexture(0, tex, in, n * sizeof(float));
          cudaThreadSynchronize();
          cudaThreadSynchronize();
          return cudaDeviceSynchronize();
        }
        ''')
    assert [(f.line, f.message) for f in scan_c(source, 'k.cu')] == [
        (1, 'texture: removed from the CUDA runtime in CUDA 12.0; use texture objects: '
            'cudaCreateTextureObject gives a cudaTextureObject_t, passed to the kernel and read '
            'with tex1Dfetch<T>(object, i)'),
        (3, 'cudaBindTexture: removed from the CUDA runtime in CUDA 12.0; use texture objects: '
            'cudaCreateTextureObject gives a cudaTextureObject_t, passed to the kernel and read '
            'with tex1Dfetch<T>(object, i)'),
        (4, 'cudaThreadSynchronize: removed from the CUDA runtime in CUDA 13.0; use '
            'cudaDeviceSynchronize; thffi\'s <THC/THC.h> defines it so, for code that includes '
            'it')]


# The legacy build's __init__.py of an extension, as it wrote them.
GENERATED_INIT = '''
from torch.utils.ffi import _wrap_function
from ._lib import lib as _lib, ffi as _ffi

__all__ = []
def _import_symbols(locals):
    for symbol in dir(_lib):
        fn = getattr(_lib, symbol)
        if callable(fn):
            locals[symbol] = _wrap_function(fn, _ffi)
        else:
            locals[symbol] = fn
        __all__.append(symbol)

_import_symbols(locals())
'''
# A package's own __init__.py, written by hand: the real API, over the built
# extension; its _wrap_function import was left from the generated shape.
HAND_WRITTEN_INIT = '''\
import torch
from torch.utils.ffi import _wrap_function
from ._ext import beam_decode


class BeamDecoder(object):
    """Decodes the most likely label sequences of a network\'s output."""

    def __init__(self, labels, beam_width=10):
        self.labels = labels
        self.beam_width = beam_width

    def decode(self, probs):
        output = torch.IntTensor()
        beam_decode.beam_decode(probs, self.beam_width, output)
        return output
'''


def test_a_hand_written_init_is_ported_not_called_generated(tmp_path):
    package = tmp_path / 'beamdecode'
    package.mkdir()
    (package / '__init__.py').write_text(HAND_WRITTEN_INIT)
    diff, findings, read, changed = port(str(tmp_path), write=True)
    assert changed == [os.path.join('beamdecode', '__init__.py')]
    assert (package / '__init__.py').read_text() == HAND_WRITTEN_INIT.replace(
        'from torch.utils.ffi import _wrap_function\n', '')
    assert not any('generated' in f.message for f in findings)
    assert port(str(tmp_path))[0] == ''
    # Used, _wrap_function is thffi's, which calls through: the report says so.
    new, findings = py('from torch.utils.ffi import _wrap_function\n'
                       'fn = _wrap_function(_lib.fn, _ffi)\n')
    assert new.startswith('from thffi import _wrap_function\n')
    assert any(f.message.startswith("_wrap_function: now thffi's, which calls the function it "
                                    "is given as it is") and f.fixed for f in findings)
    assert not left(findings)
    # The generated shape is recognised whatever its formatting.
    from thffi.port.python import is_legacy_generated
    assert is_legacy_generated(GENERATED_INIT.replace('\n\n', '\n') + '# end\n')
    assert not is_legacy_generated(GENERATED_INIT + 'x = 1\n')


def test_port_a_folder(tmp_path):
    (tmp_path / 'src').mkdir()
    (tmp_path / 'build.py').write_text('from torch.utils.ffi import create_extension\n')
    (tmp_path / 'make.sh').write_text(textwrap.dedent(MAKE_SH))
    kernel = 'void f(void) { exit(1); }\n'
    (tmp_path / 'src' / 'k.cu').write_text(kernel)
    generated = tmp_path / '_ext' / 'lib'
    generated.mkdir(parents=True)
    (generated / '__init__.py').write_text(GENERATED_INIT)
    diff, findings, read, changed = port(str(tmp_path))
    assert read == 4 and sorted(changed) == ['build.py', 'make.sh']
    assert diff.startswith('--- a/build.py\n+++ b/build.py\n')
    assert '-from torch.utils.ffi import create_extension\n+from thffi import create_extension\n' \
        in diff
    assert (tmp_path / 'build.py').read_text() == 'from torch.utils.ffi import create_extension\n'
    assert any(str(f).startswith(os.path.join('_ext', 'lib', '__init__.py') + ': not changed: '
                                 'generated by the legacy torch.utils.ffi build')
               for f in findings)
    port(str(tmp_path), write=True)
    assert (tmp_path / 'build.py').read_text() == 'from thffi import create_extension\n'
    assert (tmp_path / 'src' / 'k.cu').read_text() == kernel
    assert port(str(tmp_path))[0] == ''


# A 2018 repository as it was left on a laptop: a build script and a module
# that test the GPU with `assert(...)` (no space: libcst needs the
# parentheses kept), an editor's lock file (a link to nowhere), and a
# script half-written, that parses as neither Python.
LAPTOP_REPOSITORY = {
    'build.py': """\
        import torch
        from torch.utils.ffi import create_extension

        assert(torch.cuda.is_available())
        ffi = create_extension('_ext.my_lib', headers=['src/my_lib.h'],
                               sources=['src/my_lib.c'], with_cuda=True)
        """,
    'src/my_lib.h': 'int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2,\n'
                    '                       THFloatTensor *output);\n',
    'src/my_lib.c': """\
        #include <TH/TH.h>

        int my_lib_add_forward(THFloatTensor *input1, THFloatTensor *input2,
                               THFloatTensor *output)
        {
          if (!THFloatTensor_isSameSizeAs(input1, input2))
            return 0;
          THFloatTensor_resizeAs(output, input1);
          THFloatTensor_cadd(output, input1, 1.0, input2);
          return 1;
        }
        """,
    'functions/check.py': """\
        import torch
        from torch.autograd import Variable

        def checked(x):
            assert(torch.cuda.is_available())
            return Variable(x)
        """,
    'tools/eval.py': """\
        def accuracy(out, target):
            print "accuracy",
            return (out == target).sum() /
        """,
    'tools/plot.py': """\
        from torch.autograd import Variable
        curve = Variable(points)
        """,
}


def test_port_goes_file_by_file(tmp_path, monkeypatch):
    """A file port cannot rewrite, or whose rewrite fails, is left as it was
    and named with the reason; the others are ported; a link to nowhere is
    reported as not read."""
    from thffi.port import python
    write_files(tmp_path, LAPTOP_REPOSITORY)
    os.symlink('nowhere', str(tmp_path / 'functions' / '.#check.py'))
    rewrite = python.rewrite_python

    def failing(source, path, *args, **kwargs):  # a fault of port's on one file
        if path == os.path.join('tools', 'plot.py'):
            raise RuntimeError('a fixer failed')
        return rewrite(source, path, *args, **kwargs)

    monkeypatch.setattr(python, 'rewrite_python', failing)
    before = {name: (tmp_path / name).read_bytes() for name in LAPTOP_REPOSITORY}
    _, findings, read, changed = port(str(tmp_path), write=True, jobs=1)
    assert read == 6 and sorted(changed) == ['build.py', os.path.join('functions', 'check.py')]
    assert (tmp_path / 'build.py').read_text().splitlines()[:3] == [
        'from thffi import create_extension, cuda_enabled', '', 'assert(cuda_enabled())']
    assert (tmp_path / 'functions' / 'check.py').read_text() == textwrap.dedent("""\
        import torch

        def checked(x):
            assert(torch.cuda.is_available())
            return x.detach()
        """)
    for name in ('tools/eval.py', 'tools/plot.py'):
        assert (tmp_path / name).read_bytes() == before[name]
    left = {f.path: f.message for f in findings if not f.fixed}
    assert left[os.path.join('tools', 'eval.py')].startswith('does not parse (line ')
    assert left[os.path.join('tools', 'plot.py')] == (
        'not changed: port failed on it (RuntimeError: a fixer failed); please report it to '
        'thffi')
    assert left[os.path.join('functions', '.#check.py')].startswith('not read: [Errno 2]')
    monkeypatch.setattr(python, 'rewrite_python', rewrite)
    assert port(str(tmp_path), jobs=1)[3] == [os.path.join('tools', 'plot.py')]


# A 2018 make.sh and build.sh that quote their include flags (one argument
# per flag), as generic TH/THC repositories did.
QUOTED_MAKE_SH = '''\
    #!/bin/bash
    set -e
    TORCH=$(python -c "import os, torch; print(os.path.dirname(torch.__file__))")
    cd src
    nvcc -c -o halve.cu.o halve.cu -x cu -Xcompiler -fPIC "-I$TORCH/lib/include/TH" \\
        "-I$TORCH/lib/include" "-I${TORCH}/lib/include/THC" "-I." \\
        -gencode "arch=compute_35,code=sm_35" "-arch=sm_52"
    '''
QUOTED_BUILD_SH = '''\
    #!/bin/bash
    set -e
    TORCH=$(python -c "import os, torch; print(os.path.dirname(torch.__file__))")
    gcc -std=c99 -c -fPIC -o src/halve.o src/halve.c "-I$TORCH/lib/include" \\
        -I "$TORCH/lib/include/TH" '-Isrc'
    '''


def test_quoted_include_flags_are_rewritten_as_words_and_the_scripts_run(tmp_path):
    new, findings = sh(QUOTED_MAKE_SH)
    assert new.splitlines()[4:] == [
        'nvcc $(python -m thffi --cccl-legacy) -c -o halve.cu.o halve.cu -x cu -Xcompiler -fPIC '
        '$(python -m thffi --includes) \\',
        '    "-I." \\',
        '    $(python -m thffi --arch-flags)']
    assert sorted((f.line, f.fixed) for f in findings) == [(5, True), (5, True), (7, True)]
    build_sh, _ = sh(QUOTED_BUILD_SH)
    assert build_sh.splitlines()[3:] == [
        'gcc -std=c99 -c -fPIC -o src/halve.o src/halve.c $(python -m thffi --includes) \\',
        "    '-Isrc'"]
    (tmp_path / 'src').mkdir()
    (tmp_path / 'src' / 'halve.h').write_text('void halve(THFloatTensor *t);\n')
    (tmp_path / 'src' / 'halve.c').write_text(
        '#include <TH.h>\n#include "halve.h"\n\n'
        'void halve(THFloatTensor *t)\n{\n    THFloatTensor_mul(t, t, 0.5f);\n}\n')
    (tmp_path / 'src' / 'halve.cu').write_text(
        '#include "THC.h"\n#include "halve.h"\n\n'
        '__global__ void halve_kernel(float *x, int n)\n{\n'
        '    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] *= 0.5f;\n}\n')
    env = dict(os.environ, PYTHONPATH=ROOT)
    for name, text in (('make.sh', new), ('build.sh', build_sh)):
        (tmp_path / name).write_text(text)
        checked = subprocess.run(['bash', '-n', name], cwd=tmp_path, capture_output=True,
                                 text=True)
        assert checked.returncode == 0, checked.stderr
    built = subprocess.run(['bash', 'build.sh'], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / 'src' / 'halve.o').is_file()
    if cuda.find_cuda_home() is None:
        return
    made = subprocess.run(['bash', 'make.sh'], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / 'src' / 'halve.cu.o').is_file()


def test_data_0_every_numeric_use_and_every_0_d_receiver():
    new, findings = py('''\
        import math
        import torch.nn as nn
        import torch.nn.functional as F
        criterion = nn.CrossEntropyLoss()
        for x, y in batches:
            out = model(x)
            loss = criterion(out, y)
            nll = F.nll_loss(out, y)
            total = out.sum()
            assert abs(err.data[0] - 2.5 * 78) < 1e-4
            doubled = err.data[0] * 2
            text = '%.3f' % err.data[0]
            running_loss += err.data[0]
            best = max(best, -acc.data[0], math.sqrt(acc.data[0]))
            if acc.data[0] > best:
                pass
            losses.append(loss.data[0])
            history[step] = (nll.data[0], total.data[0], nn.MSELoss()(out, y).data[0])
            first = out.data[0]
            per_row = F.mse_loss(out, y, reduction='none').data[0]
            rows = out.sum(1).data[0]
            out.data[0] = 0
        ''')
    lines = new.splitlines()
    assert lines[9:18] == [
        '    assert abs(err.item() - 2.5 * 78) < 1e-4',
        '    doubled = err.item() * 2',
        "    text = '%.3f' % err.item()",
        '    running_loss += err.item()',
        '    best = max(best, -acc.item(), math.sqrt(acc.item()))',
        '    if acc.item() > best:',
        '        pass',
        '    losses.append(loss.item())',
        '    history[step] = (nll.item(), total.item(), nn.MSELoss()(out, y).item())']
    assert lines[18:] == ['    first = out.data[0]',
                          "    per_row = F.mse_loss(out, y, reduction='none').data[0]",
                          '    rows = out.sum(1).data[0]', '    out.data[0] = 0']
    assert [f.line for f in findings if not f.fixed] == [19, 20, 21, 22]
    # What the rewritten forms compute on today's 0-d losses and sums.
    err, acc = torch.tensor(195.00001), torch.tensor(0.25)
    assert abs(err.item() - 2.5 * 78) < 1e-4 and '%.3f' % err.item() == '195.000'
    assert max(0.1, -acc.item(), math.sqrt(acc.item())) == 0.5


# 0.x code whose behaviour changed silently since (or became an error).
ZERO_X = '''\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.autograd import Variable
    idx = torch.LongTensor([7, -7, 5])
    half = idx / 2
    _, best = scores.max(1)
    pairs = best / 2
    idx /= 2
    rows = x.sum(1)
    elementwise = x.max(y)
    crit = nn.MSELoss(size_average=False)
    per_item = F.nll_loss(out, y, size_average=True, reduce=False)
    x.volatile = True
    up = F.upsample(x, scale_factor=2, mode='bilinear')
    up_nearest = F.upsample(x, size=(4, 4))
    up_b = F.upsample_bilinear(x, scale_factor=2)
    layer = nn.Upsample(scale_factor=2, mode='bilinear')
    y = x.cuda(async=True)
    dtypes = torch.testing.get_all_dtypes()
    with torch.cuda.device(1):
        w = torch.zeros(3, dtype=torch.long, requires_grad=True)
    '''


@pytest.mark.parametrize('version', ['0.1', '0.3', '0.4'])
def test_zero_x_behaviours_are_rewritten_or_reported(version):
    new, findings = rewrite_python(textwrap.dedent(ZERO_X), 'x.py', version)
    assert rewrite_python(new, 'x.py', version)[0] == new
    lines = new.splitlines()
    keep = version == '0.1'  # reductions with a dim kept it before 0.2
    align = version < '0.4'  # bilinear upsampling aligned corners before 0.4
    assert lines[4:] == [
        'idx = torch.LongTensor([7, -7, 5])',
        "half = torch.div(idx, 2, rounding_mode='trunc')",
        '_, best = scores.max(1%s)' % (', keepdim=True' if keep else ''),
        "pairs = torch.div(best, 2, rounding_mode='trunc')",
        "idx.div_(2, rounding_mode='trunc')",
        'rows = x.sum(1%s)' % (', keepdim=True' if keep else ''),
        'elementwise = x.max(y)',
        "crit = nn.MSELoss(reduction='sum')",
        "per_item = F.nll_loss(out, y, reduction='none')",
        'x.volatile = True',
        "up = F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=%s)" % align,
        'up_nearest = F.interpolate(x, size=(4, 4))',
        "up_b = F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=True)",
        "layer = nn.Upsample(scale_factor=2, mode='bilinear'%s)" % (
            ', align_corners=True' if align else ''),
        'y = x.cuda(non_blocking=True)',
        'dtypes = torch.testing.get_all_dtypes()',
        'with torch.cuda.device(1):',
        '    w = torch.zeros(3, dtype=torch.long, requires_grad=True)']
    # x.max(y) is elementwise, x.max(1) a reduction: 0.1's dim is asked for.
    assert [(f.line, f.message.split(':')[0]) for f in findings if not f.fixed] == (
        [(11, 'max(..., dim) in PyTorch 0.1 kept the dim')] if keep else []) + [
        (14, '.volatile = ...'), (20, 'torch.testing.get_all_dtypes'),
        (21, 'torch.cuda.device(1) raises where there is no GPU 1'),
        (22, 'requires_grad on an integer tensor')]
    # What the rewrites compute: 0.x's truncating integer division, its dims.
    idx = torch.tensor([7, -7, 5])
    assert torch.div(idx, 2, rounding_mode='trunc').tolist() == [3, -3, 2]
    scores = torch.randn(3, 4)
    assert scores.max(1, keepdim=True)[1].shape == (3, 1)
    assert torch.nn.MSELoss(reduction='sum')(scores, scores * 2).item() == pytest.approx(
        (scores ** 2).sum().item())


def test_the_version_is_read_from_the_repository_or_given(tmp_path):
    from thffi.port.version import infer
    (tmp_path / 'up.py').write_text("import torch.nn.functional as F\n"
                                    "y = F.upsample(x, scale_factor=2, mode='bilinear')\n")
    assert infer(str(tmp_path))[0] == '0.3'
    (tmp_path / 'README.md').write_text('Tested with PyTorch 0.2 and Python 2.7.\n')
    assert infer(str(tmp_path)) == ('0.2', 'README.md: PyTorch 0.2')
    (tmp_path / 'requirements.txt').write_text('numpy\ntorch==0.4.0\n')
    assert infer(str(tmp_path)) == ('0.4', 'requirements.txt: torch==0.4')
    ran = subprocess.run([sys.executable, '-m', 'thffi', 'port', str(tmp_path)],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    assert 'align_corners=False' in ran.stdout
    assert ran.stderr.splitlines()[1] == ('assumed written for PyTorch 0.4 (requirements.txt: '
                                          'torch==0.4); say --from 0.1|0.2|0.3|0.4 otherwise')
    ran = subprocess.run([sys.executable, '-m', 'thffi', 'port', '--from', '0.3',
                          str(tmp_path)], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    assert 'align_corners=True' in ran.stdout
    assert ran.stderr.splitlines()[1].startswith('assumed written for PyTorch 0.3 (given by '
                                                 '--from)')


def test_reports_a_user_can_act_on(tmp_path):
    """C findings for what the build compiles, one line for vendored code it
    does not; committed Python 2 and Python 3 binaries; the CUDA branch that
    links a library built apart."""
    (tmp_path / 'src').mkdir()
    (tmp_path / 'third_party' / 'lm' / 'util').mkdir(parents=True)
    (tmp_path / 'build.py').write_text(textwrap.dedent('''\
        import glob
        import torch
        from torch.utils.ffi import create_extension

        sources = ['src/decode.cpp'] + glob.glob('third_party/lm/*.cc')
        libraries = []
        if torch.cuda.is_available():
            sources += ['src/decode_cuda.cpp']
            extra_objects = ['src/decode_kernel.cu.o']  # make.sh's nvcc builds it
            libraries += ['lm_cpu']  # CMake builds it, CPU only
        ffi = create_extension('_ext.decode', headers=['src/decode.h'], sources=sources,
                               libraries=libraries, with_cuda=torch.cuda.is_available())
        '''))
    (tmp_path / 'make.sh').write_text('set -e\nnvcc -c -o src/decode_kernel.cu.o '
                                      'src/decode_kernel.cu -Xcompiler -fPIC\n')
    exits = 'int %s(void) { exit(1); }\n'
    (tmp_path / 'src' / 'decode.h').write_text('int decode(void);\n')
    (tmp_path / 'src' / 'decode.cpp').write_text('#include "decode.h"\n' + exits % 'decode')
    (tmp_path / 'src' / 'decode_cuda.cpp').write_text(exits % 'decode_cuda')
    (tmp_path / 'third_party' / 'lm' / 'model.cc').write_text(
        '#include "util/file.hh"\n#include "util/check.h"\n' + exits % 'model')
    (tmp_path / 'third_party' / 'lm' / 'util' / 'check.h').write_text(exits % 'check')
    for name in ('tool', 'bench', 'fuzz'):  # compiled by nothing
        (tmp_path / 'third_party' / 'lm' / 'util' / (name + '.cc')).write_text(exits % name)
    (tmp_path / 'old_eval.py').write_text('print "accuracy", acc.data[0]\n')
    # Committed binaries: the legacy build named Python 2's and Python 3's
    # modules alike (_x.so); what they export tells them apart.
    binaries = {'decode': 'void Py_InitModule4_64(void);\n'
                          'void init_decode(void) { Py_InitModule4_64(); }\n',
                'beam': 'void *PyInit__beam(void) { return 0; }\n'}
    for name, code in binaries.items():
        (tmp_path / '_ext' / name).mkdir(parents=True)
        (tmp_path / name).with_suffix('.c').write_text(code)
        subprocess.run(['gcc', '-shared', '-fPIC', '-o', str(tmp_path / '_ext' / name /
                        ('_%s.so' % name)), str((tmp_path / name).with_suffix('.c'))],
                       check=True)
    subprocess.run(['gcc', '-shared', '-fPIC', '-o', str(tmp_path / 'libkenlm.so'),
                    str(tmp_path / 'beam.c')], check=True)  # not a Python module
    # The repository tracks them (`git add`: what `git ls-files` lists).
    subprocess.run(['git', 'init', '-q'], cwd=tmp_path, check=True)
    subprocess.run(['git', 'add', '_ext'], cwd=tmp_path, check=True)
    diff, findings, read, changed = port(str(tmp_path))
    left = sorted(str(f) for f in findings if not f.fixed)
    assert [f.split(':')[0] for f in left] == [
        os.path.join('_ext', 'beam', '_beam.so'), os.path.join('_ext', 'decode', '_decode.so'),
        'build.py', os.path.join('src', 'decode.cpp'),
        os.path.join('src', 'decode_cuda.cpp'),
        os.path.join('third_party', 'lm', 'model.cc'),
        os.path.join('third_party', 'lm', 'util', 'check.h'),
        os.path.join('third_party', 'lm', 'util')]
    assert left[0] == (os.path.join('_ext', 'beam', '_beam.so') + ': a Python 3 extension '
                       'module (it exports PyInit__beam) from an earlier build, committed with '
                       'the sources: built against the PyTorch of then; delete it from the '
                       'repository (git rm): thffi\'s build writes its own in its place')
    assert left[1] == (os.path.join('_ext', 'decode', '_decode.so') + ': a Python 2 extension '
                       'module (it exports init_decode), committed with the sources: Python 3 '
                       'cannot import it; delete it from the repository (git rm): thffi\'s '
                       'build writes its own in its place')
    assert left[2].startswith('build.py:7: the CUDA branch links what the scripts build apart '
                              '(lm_cpu): with cuda_enabled()')
    assert left[7] == (os.path.join('third_party', 'lm', 'util') + ': 3 more findings in 3 '
                       'C/C++/CUDA files the build scripts do not compile (vendored or unused '
                       'code, in third_party/lm/util): not listed')
    # The Python 2 script is converted, then ported.
    assert 'old_eval.py' in changed and '+print("accuracy", acc.item())' in diff


def test_binaries_git_does_not_track_are_not_called_committed(tmp_path):
    """Outside a repository: a legacy build's module beside the sources is
    reported without `git rm`; the library thffi's build installed (its
    manifest beside it) is not reported."""
    (tmp_path / 'build.py').write_text(
        'from torch.utils.ffi import create_extension\n'
        "ffi = create_extension('_ext.beam', headers=[], sources=[])\n")
    for name in ('beam', 'fresh'):
        (tmp_path / '_ext' / name).mkdir(parents=True)
        (tmp_path / (name + '.c')).write_text('void *PyInit__%s(void) { return 0; }\n' % name)
        subprocess.run(['gcc', '-shared', '-fPIC', '-o',
                        str(tmp_path / '_ext' / name / ('_%s.so' % name)),
                        str(tmp_path / (name + '.c'))], check=True)
    (tmp_path / '_ext' / 'fresh' / '.thffi-build.json').write_text('{}')
    _, findings, _, _ = port(str(tmp_path))
    about = [str(f) for f in findings if str(f).startswith('_ext')]
    assert about == [os.path.join('_ext', 'beam', '_beam.so') + ': a Python 3 extension module '
                     '(it exports PyInit__beam) from an earlier build, beside the sources (git '
                     'does not track it): built against the PyTorch of then; thffi\'s build '
                     'writes its own in its place; port leaves it'], about


# A 2017 warp reduction (CUDA 8): maskless warp intrinsics in a kernel, a
# header it includes and a macro, next to what must stay as it is.
WARP_KERNEL = r"""
// warp_sum.cu: sums each warp's values with __shfl_down(v, d)
#include <cstdio>
#include "warp.cuh"

__global__ void warp_sum_kernel(const float *x, float *out, int *nonzero)
{
  float v = x[threadIdx.x];
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down(v, d);  /* not __ballot(p) */
  unsigned int bits = __ballot(v != 0.0f);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = WARP_MAX(v) + broadcast(v) + all_positive(v);
    nonzero[blockIdx.x] = __popc(bits);
    printf("__shfl_down(v, d) gave %f\n", v);
  }
}
"""
WARP_HEADER = r"""
#define WARP_MAX(v) fmaxf(v, __shfl_xor(v, 16, 32))
__device__ inline float all_positive(float v) { return __all(v > 0) && !__any (v < 0); }
__device__ inline float broadcast(float v)
{
  return __shfl_up_sync(0xffffffff, v, 1) + __shfl(v, 0);
}
"""


def test_warp_intrinsics_without_a_mask_get_the_full_warp_mask(tmp_path):
    """port rewrites them in the CUDA the build compiles (and the headers it
    includes), reports each rewrite, leaves uncompiled code alone, changes
    nothing the second time, and nvcc 13 compiles what it wrote (and not
    what it read)."""
    nvcc = os.path.join(cuda.find_cuda_home() or '', 'bin', 'nvcc')
    if not os.path.isfile(nvcc):
        pytest.fail('a CUDA toolkit is needed (the project\'s machines have one)')
    (tmp_path / 'src').mkdir()
    (tmp_path / 'old').mkdir()
    (tmp_path / 'make.sh').write_text('set -e\nnvcc -c -o src/warp_sum.cu.o src/warp_sum.cu '
                                      '-x cu -Xcompiler -fPIC -arch=sm_75\n')
    (tmp_path / 'src' / 'warp_sum.cu').write_text(WARP_KERNEL)
    (tmp_path / 'src' / 'warp.cuh').write_text(WARP_HEADER)
    (tmp_path / 'old' / 'reduce.cu').write_text(WARP_KERNEL)  # compiled by nothing
    flags = [nvcc, '-c', '-arch=sm_75', '-o', str(tmp_path / 'warp_sum.o'),
             str(tmp_path / 'src' / 'warp_sum.cu')]
    before = subprocess.run(flags, capture_output=True, text=True, timeout=120)
    assert before.returncode != 0 and 'identifier "__shfl_down" is undefined' in before.stderr

    _, findings, _, changed = port(str(tmp_path), write=True)
    # (make.sh: its nvcc gets cccl_legacy.h)
    assert sorted(changed) == ['make.sh'] + [os.path.join('src', name)
                                             for name in ('warp.cuh', 'warp_sum.cu')]
    assert (tmp_path / 'src' / 'warp_sum.cu').read_text() == WARP_KERNEL.replace(
        'v += __shfl_down(v, d);', 'v += __shfl_down_sync(0xffffffff, v, d);').replace(
        '__ballot(v != 0.0f)', '__ballot_sync(0xffffffff, v != 0.0f)')
    assert (tmp_path / 'src' / 'warp.cuh').read_text() == WARP_HEADER.replace(
        '__shfl_xor(v, 16, 32)', '__shfl_xor_sync(0xffffffff, v, 16, 32)').replace(
        '__all(v > 0) && !__any (v < 0)',
        '__all_sync(0xffffffff, v > 0) && !__any_sync(0xffffffff, v < 0)').replace(
        '__shfl(v, 0)', '__shfl_sync(0xffffffff, v, 0)')
    fixed = [str(f) for f in findings if f.fixed and f.path.startswith('src')]
    where = os.path.join('src', 'warp.cuh')
    assert fixed == ['%s:%d: %s(...): now %s_sync(0xffffffff, ...); full-warp mask assumed: if '
                     'only some lanes take part, pass their mask' % (where, line, name, name)
                     for line, name in ((2, '__shfl_xor'), (3, '__all'), (3, '__any'),
                                        (6, '__shfl'))] + [
        '%s:%d: %s(...): now %s_sync(0xffffffff, ...); full-warp mask assumed: if only some '
        'lanes take part, pass their mask' % (os.path.join('src', 'warp_sum.cu'), line, name,
                                               name)
        for line, name in ((10, '__shfl_down'), (11, '__ballot'))]
    assert (tmp_path / 'old' / 'reduce.cu').read_text() == WARP_KERNEL
    assert left(findings) == [os.path.join('old', 'reduce.cu') + ': 2 more findings in 1 '
                              'C/C++/CUDA files the build scripts do not compile (vendored or '
                              'unused code, in old): not listed']
    assert port(str(tmp_path))[3] == []

    after = subprocess.run(flags, capture_output=True, text=True, timeout=120)
    assert after.returncode == 0, after.stderr


def test_warp_intrinsics_the_code_defines_itself_are_left_alone(tmp_path):
    """A compatibility macro or function of the same name keeps its calls,
    and is reported; so are maskless calls in a .cpp the build compiles
    (not CUDA, so not rewritten)."""
    (tmp_path / 'compat.cuh').write_text(textwrap.dedent('''\
        #if __CUDACC_VER_MAJOR__ >= 9
        #define __shfl_down(v, d) __shfl_down_sync(0xffffffff, v, d)
        #endif
        template <typename T> __device__ T __any(T p) { return __any_sync(~0u, p); }
        __device__ unsigned int __ballot(int p);
        '''))
    (tmp_path / 'kernel.cu').write_text(textwrap.dedent('''\
        #include "compat.cuh"
        __device__ float f(float v, Lanes *lanes)
        {
          int my__shfl = lanes->__shfl(1) + lanes.__all(2);  // __shfl_xor(v, 1)
          return __shfl_down(v, 1) + __any(v > 0) + __ballot(1) + __shfl_xor(v, 1);
        }
        '''))
    (tmp_path / 'host.cpp').write_text('int g(int p) { return __all(p); }\n')
    (tmp_path / 'build.sh').write_text('set -e\nnvcc -c kernel.cu\ng++ -c host.cpp\n')
    diff, findings, _, changed = port(str(tmp_path))
    assert changed == ['build.sh', 'kernel.cu']  # build.sh: its nvcc gets cccl_legacy.h
    assert [line for line in diff.splitlines() if line.startswith(('-  ', '+  '))] == [
        '-  return __shfl_down(v, 1) + __any(v > 0) + __ballot(1) + __shfl_xor(v, 1);',
        '+  return __shfl_down(v, 1) + __any(v > 0) + __ballot(1) + '
        '__shfl_xor_sync(0xffffffff, v, 1);']
    assert left(findings) == [
        'compat.cuh:2: defines its own __shfl_down: calls of it are not rewritten to '
        '__shfl_down_sync',
        'compat.cuh:4: defines its own __any: calls of it are not rewritten to __any_sync',
        'compat.cuh:5: defines its own __ballot: calls of it are not rewritten to __ballot_sync',
        'host.cpp:1: __all() is gone from CUDA 13 (deprecated since CUDA 9): write '
        '__all_sync(0xffffffff, ...), its mask naming the lanes that take part (all of a full '
        'warp)']
