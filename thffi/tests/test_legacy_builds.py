"""Build idioms of 2017-2018 ffi repositories that thffi takes as
torch.utils.ffi and cffi did, each in a small project of ours written the way
those repositories were: headers cffi parsed (wchar_t, enums, typedefs),
wide strings, package __init__.py files using _wrap_function and the
compiled module's legacy path, CC=g++, objects a make.sh failed to build,
libraries built apart calling TH and THC (as against PyTorch 0.4's, or
thffi's --libs), and builds that went wrong quietly."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import SCALER_C, ROOT, copy_legacy_shift, hooked_env, write_files as _write
from thffi.toolchain import cuda_toolkit


def _run(folder, code, env=None, timeout=300):
    """Runs Python code in folder, thffi importable and torch.utils.ffi
    resolving to it, as a build.py of the era ran."""
    full = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    return subprocess.run([sys.executable, '-c', 'from thffi import _hook; _hook.install()\n'
                           + textwrap.dedent(code)], cwd=folder, env=full, capture_output=True,
                          text=True, timeout=timeout)


# A CTC-decoder-style binding: a wide-character alphabet, an enum for the
# mode, an opaque state behind a typedef'd struct pointer.
DECODER_H = '''\
    #ifndef DECODER_H
    #define DECODER_H
    #include <wchar.h>

    typedef enum { DECODE_GREEDY, DECODE_BEAM } decode_mode;
    typedef struct decoder_state *decoder_handle;
    typedef unsigned int label_t;

    decoder_handle decoder_new(const wchar_t *alphabet, decode_mode mode);
    int decoder_alphabet_size(decoder_handle state);
    int decoder_decode(decoder_handle state, THFloatTensor *probs, THIntTensor *out,
                       label_t blank);
    void decoder_free(decoder_handle state);
    int count_wide(const wchar_t *s, int n);
    #endif
    '''
DECODER_C = '''\
    #include <TH/TH.h>
    #include <stdlib.h>
    #include <wchar.h>
    #include "decoder.h"

    struct decoder_state {
        int alphabet_size;
        decode_mode mode;
    };

    decoder_handle decoder_new(const wchar_t *alphabet, decode_mode mode)
    {
        decoder_handle state = (decoder_handle)malloc(sizeof(struct decoder_state));
        state->alphabet_size = (int)wcslen(alphabet);
        state->mode = mode;
        return state;
    }

    int decoder_alphabet_size(decoder_handle state)
    {
        return state->mode == DECODE_BEAM ? -state->alphabet_size : state->alphabet_size;
    }

    /* greedy: the best label of each step, repeats and blanks dropped */
    int decoder_decode(decoder_handle state, THFloatTensor *probs, THIntTensor *out,
                       label_t blank)
    {
        int steps = THFloatTensor_size(probs, 0);
        int labels = THFloatTensor_size(probs, 1);
        float *p = THFloatTensor_data(probs);
        int t, k, n = 0, previous = -1;
        THIntTensor_resize1d(out, steps);
        for (t = 0; t < steps; t++) {
            int best = 0;
            for (k = 1; k < labels; k++)
                if (p[t * labels + k] > p[t * labels + best])
                    best = k;
            if (best != (int)blank && best != previous)
                THIntTensor_data(out)[n++] = best;
            previous = best;
        }
        THIntTensor_resize1d(out, n);
        return n;
    }

    void decoder_free(decoder_handle state)
    {
        free(state);
    }

    int count_wide(const wchar_t *s, int n)
    {
        int i, count = 0;
        for (i = 0; i < n && s[i]; i++)
            count += s[i] > 127;
        return count;
    }
    '''
DECODER_BUILD = '''\
    from torch.utils.ffi import create_extension

    ffi = create_extension(
        'decoder._ext.ctc',
        package=False,
        headers=['src/decoder.h'],
        sources=['src/decoder.c'],
        relative_to=__file__,
        with_cuda=False)

    if __name__ == '__main__':
        ffi.build()
    '''
# The package's own __init__.py, written by hand the way 2017 bindings
# were: the compiled module by its legacy path, each function wrapped.
DECODER_INIT = '''\
    from torch.utils.ffi import _wrap_function
    from ._ext.ctc._ctc import lib as _lib, ffi as _ffi

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


def test_headers_cffi_parsed_wide_strings_and_a_hand_written_wrapper(tmp_path):
    _write(tmp_path, {'src/decoder.h': DECODER_H, 'src/decoder.c': DECODER_C,
                      'build.py': DECODER_BUILD, 'decoder/__init__.py': DECODER_INIT})
    out = _run(tmp_path, '''
        import runpy
        runpy.run_path('build.py', run_name='__main__')
        import torch
        import decoder
        assert 'decoder_decode' in decoder.__all__, decoder.__all__
        assert (decoder.DECODE_GREEDY, decoder.DECODE_BEAM) == (0, 1)
        state = decoder.decoder_new("_abc\\u00e9 ", decoder.DECODE_BEAM)
        print('size', decoder.decoder_alphabet_size(state))
        probs = torch.tensor([[0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.9, 0.05, 0.05],
                              [0.1, 0.1, 0.8]])
        out = torch.IntTensor()
        print('decoded', decoder.decoder_decode(state, probs, out, 0), out.tolist())
        decoder.decoder_free(state)
        print('wide', decoder.count_wide("d\\u00e9j\\u00e0 vu", 7))
        try:
            decoder.count_wide(b"bytes", 5)
        except TypeError as exc:
            print('error', exc)
        ''')
    assert out.returncode == 0, out.stdout + out.stderr
    # the str reached C as 6 wide characters; the enum constant as cffi's lib had it
    assert 'size -6\n' in out.stdout
    assert 'decoded 2 [1, 2]\n' in out.stdout
    assert 'wide 2\n' in out.stdout
    assert ("error count_wide(): argument 1 (s): expected a str, a cffi pointer, an address "
            "or None (const wchar_t *), got bytes") in out.stdout


def test_header_types_cffi_took_and_errors_on_the_users_lines(tmp_path):
    from thffi.builder.headers import HeaderError, parse_header, read_header
    (fn,), constants = read_header('h.h', 'enum colour { RED, GREEN = 4 };\n'
                              'typedef THFloatTensor *tensor_ptr;\n'
                              'int paint(enum colour c, const char16_t *a, char32_t *b, '
                              'tensor_ptr t, wchar_t w);\n')
    assert [(p.kind, p.ctype, p.cffi_type) for p in fn.params] == [
        ('int', 'enum colour', 'int'), ('pointer', 'const char16_t *', 'const char16_t *'),
        ('pointer', 'char32_t *', 'char32_t *'),
        ('tensor', 'THFloatTensor *', 'THFloatTensor *'), ('int', 'wchar_t', 'wchar_t')]
    assert constants == ['RED', 'GREEN']  # their values come from the compiler
    with pytest.raises(HeaderError, match=r'w\.h:4:13: before: \*'):
        parse_header(str(tmp_path / 'w.h'),
                     '/* a\n   comment */\n#include <x.h>\nint f(bogus *s);\n')


def test_cc_gxx_compiles_the_users_c_as_cxx_and_thffis_as_c(tmp_path):
    # `CC=g++ python build.py`: sources that are C and C++ at once (a cast
    # on malloc, a C++-only construct behind __cplusplus to prove g++ ran).
    _write(tmp_path, {
        'src/scale.h': 'int scale_forward(THFloatTensor *input, THFloatTensor *output, '
                       'float factor);\n',
        'src/scale.c': '''\
            #include <TH/TH.h>
            #include <stdlib.h>
            #ifndef __cplusplus
            #error compiled as C
            #endif

            int scale_forward(THFloatTensor *input, THFloatTensor *output, float factor)
            {
                long i, n = THFloatTensor_nElement(input);
                float *tmp = (float *)malloc(n * sizeof(float));
                THFloatTensor_resizeAs(output, input);
                for (i = 0; i < n; i++)
                    tmp[i] = THFloatTensor_data(input)[i] * factor;
                for (i = 0; i < n; i++)
                    THFloatTensor_data(output)[i] = tmp[i];
                free(tmp);
                return 1;
            }
            ''',
        'build.py': '''\
            from torch.utils.ffi import create_extension
            ffi = create_extension('_ext.scale', headers=['src/scale.h'],
                                   sources=['src/scale.c'], relative_to=__file__)
            if __name__ == '__main__':
                ffi.build()
            '''})
    out = _run(tmp_path, '''
        import runpy
        runpy.run_path('build.py', run_name='__main__')
        import torch
        from _ext import scale
        x = torch.arange(6.).view(2, 3)
        y = torch.FloatTensor()
        scale.scale_forward(x, y, 2.5)
        assert torch.equal(y, x * 2.5), y
        print('ok')
        ''', env={'CC': 'g++'})
    assert out.returncode == 0 and out.stdout.endswith('ok\n'), out.stdout + out.stderr


CUDA_HOME = __import__('thffi').find_cuda_home()
GPU = __import__('torch').cuda.is_available()
needs_nvcc = pytest.mark.skipif(CUDA_HOME is None, reason='needs the CUDA toolkit (nvcc)')
def _make_sh(folder):
    """Runs make.sh as a user with thffi installed would, with
    torch.cuda.is_available() True as on a machine with a GPU: build.py's
    gate builds with CUDA, whose C calls the kernel's launcher (built
    without CUDA, the C calls nothing of it: tests/test_linked_only.py)."""
    env = hooked_env(folder)
    with open(folder / 'sitecustomize.py', 'a') as f:
        f.write('import torch\ntorch.cuda.is_available = lambda: True\n')
    return subprocess.run(['bash', 'make.sh'], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


@needs_nvcc
@pytest.mark.slow  # deselected by default (conftest.py)
def test_an_object_make_sh_failed_to_build_is_compiled_from_its_cu(tmp_path):
    copy_legacy_shift(tmp_path)  # make.sh compiles the kernel for sm_52
    out = _make_sh(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Unsupported gpu architecture 'sm_52'" in out.stderr  # make.sh's nvcc failed
    assert not (tmp_path / 'src/cuda/shift_kernel.cu.o').exists()
    # The first line of the build names the make.sh step that failed, and why.
    assert ('thffi: src/cuda/shift_kernel.cu.o (extra_objects) does not exist: make.sh:4 (`nvcc '
            '-c -o shift_kernel.cu.o shift_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52`; '
            'today\'s nvcc rejects sm_52) was to build it: compiling src/cuda/shift_kernel.cu '
            'with nvcc for architectures 7.5 instead, with its flags: -x cu -Xcompiler -fPIC '
            '-gencode=arch=compute_75,code=sm_75 [-arch=sm_52 became '
            '-gencode=arch=compute_75,code=sm_75]\n') in out.stdout
    library = next((tmp_path / '_ext' / 'shift').glob('_shift*.so'))
    symbols = subprocess.run(['nm', '--defined-only', str(library)], capture_output=True,
                             text=True).stdout
    assert ' t shift_launcher\n' in symbols  # linked in, hidden
    found = _run(tmp_path, '''
        import torch
        from _ext import shift
        t = torch.zeros(3)
        shift.shift_cpu(t, 1.5)
        print(t.tolist())
        if torch.cuda.is_available():
            t = torch.zeros(3, device='cuda')
            shift.shift_cuda(t, 2.5)
            print(t.tolist())
        ''')
    assert found.stdout.startswith('[1.5, 1.5, 1.5]\n'), found.stdout + found.stderr
    if GPU:
        assert found.stdout.endswith('[2.5, 2.5, 2.5]\n'), found.stdout + found.stderr

    # The .cu does not compile either: the message says both what make.sh was
    # to do and what thffi tried.
    kernel = tmp_path / 'src/cuda/shift_kernel.cu'
    kernel.write_text(kernel.read_text().replace('data[i] += by;', 'data[i] += by'))
    out = _run(tmp_path, 'import torch\ntorch.cuda.is_available = lambda: True\n'
               'import runpy\nrunpy.run_path("build.py", run_name="__main__")\n')
    assert out.returncode != 0
    assert ('extra_objects names src/cuda/shift_kernel.cu.o, which a make.sh step was to '
            'compile and did not; thffi compiled src/cuda/shift_kernel.cu with nvcc for '
            '7.5 (its include folders and macros, -Xcompiler -fPIC) instead, and nvcc failed: '
            'its output is above') in out.stderr
    assert 'shift_kernel.cu(9): error' in out.stderr


# A 2017 build.py with its CUDA code behind torch.cuda.is_available(): on a
# machine without a GPU nothing is left to build.
GATED_BUILD = '''\
    import torch
    from torch.utils.ffi import create_extension

    sources, headers, defines, with_cuda = [], [], [], False
    if torch.cuda.is_available():
        print('Including CUDA code.')
        sources += ['src/corr_cuda.c']
        headers += ['src/corr_cuda.h']
        defines += [('WITH_CUDA', None)]
        with_cuda = True

    ffi = create_extension('_ext.corr', headers=headers, sources=sources,
                           define_macros=defines, relative_to=__file__, with_cuda=with_cuda)

    if __name__ == '__main__':
        ffi.build()
    '''


def test_a_build_with_every_source_gated_off_says_so(tmp_path, monkeypatch, capfd):
    _write(tmp_path, {'build.py': GATED_BUILD})
    import thffi
    import torch
    from support import load_build_script
    monkeypatch.setitem(sys.modules, 'torch.utils.ffi', thffi)  # what the hook gives
    monkeypatch.setattr(torch.cuda, 'is_available', lambda: False)
    load_build_script(str(tmp_path / 'build.py'), '_gated_build').ffi.build()
    assert ('thffi: warning: _ext.corr has no functions: create_extension got no header (were '
            'they added behind a condition false on this machine, such as `if '
            'torch.cuda.is_available():`? `python -m thffi port` rewrites that gate to depend on '
            'the CUDA toolkit)') in capfd.readouterr().err


TINY_FILES = {
    'src/tiny.h': 'int tiny_fill(THFloatTensor *output, float value);\n'
                  'int tiny_has_storage(THFloatTensor *t);\n',
    'src/tiny.c': '''\
        #include <TH/TH.h>

        int tiny_fill(THFloatTensor *output, float value)
        {
            THFloatTensor_fill(output, value);
            return 1;
        }

        int tiny_has_storage(THFloatTensor *t)
        {
            return THFloatTensor_storage(t) != NULL;
        }
        ''',
    'build.py': '''\
        from torch.utils.ffi import create_extension
        ffi = create_extension('_ext.tiny', headers=['src/tiny.h'], sources=['src/tiny.c'],
                               relative_to=__file__)
        if __name__ == '__main__':
            ffi.build()
        '''}


def test_a_failed_first_build_leaves_nothing_to_import(tmp_path):
    files = dict(TINY_FILES)
    files['src/tiny.c'] = files['src/tiny.c'].replace('return 1;', 'return 1')
    _write(tmp_path, files)
    out = _run(tmp_path, '''
        import runpy
        try:
            runpy.run_path('build.py', run_name='__main__')
        except Exception as exc:
            print('failed:', type(exc).__name__)
        try:
            import _ext.tiny
        except ImportError as exc:
            print('import:', type(exc).__name__)
        ''')
    assert 'failed: BuildError\nimport: ModuleNotFoundError\n' in out.stdout, (out.stdout
                                                                             + out.stderr)
    _write(tmp_path, TINY_FILES)
    out = _run(tmp_path, '''
        import runpy
        import torch
        runpy.run_path('build.py', run_name='__main__')
        from _ext import tiny
        t = torch.zeros(3)
        tiny.tiny_fill(t, 2.0)
        print(t.tolist())
        # TH 0.3: a tensor that never had memory has no storage
        print(tiny.tiny_has_storage(torch.FloatTensor()), tiny.tiny_has_storage(t))
        ''')
    assert out.stdout.endswith('[2.0, 2.0, 2.0]\n0 1\n'), out.stdout + out.stderr


def test_a_committed_legacy_package_says_run_build_py_and_the_build_replaces_it(tmp_path):
    # What torch.utils.ffi generated, as repositories committed it (with or
    # without its Python 2 library beside it).
    _write(tmp_path, dict(TINY_FILES, **{
        '_ext/__init__.py': '',
        '_ext/tiny/__init__.py': '''\
            from torch.utils.ffi import _wrap_function
            from ._tiny import lib as _lib, ffi as _ffi

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
            ''',
        '_ext/tiny/_tiny.so': 'a Python 2 library\n'}))
    stale = _run(tmp_path, 'from _ext import tiny\n')
    assert ('ImportError: _ext.tiny: not built by thffi: run build.py. This __init__.py was '
            'generated by torch.utils.ffi for PyTorch 0.x') in stale.stderr, stale.stderr
    out = _run(tmp_path, '''
        import runpy
        import torch
        runpy.run_path('build.py', run_name='__main__')
        from _ext import tiny
        t = torch.zeros(2)
        tiny.tiny_fill(t, 1.5)
        print(t.tolist())
        ''')
    assert out.returncode == 0 and '[1.5, 1.5]\n' in out.stdout, out.stdout + out.stderr
    # thffi's library, where torch.utils.ffi put it, in place of Python 2's
    assert (tmp_path / '_ext' / 'tiny' / '_tiny.so').read_bytes()[:4] == b'\x7fELF'


@needs_nvcc
def test_the_static_cuda_runtime_globbed_into_extra_objects_is_replaced_by_the_shared(tmp_path,
                                                                                     capfd):
    # A CMake-built object calling the CUDA runtime, linked as a 2018
    # build_ffi.py did: extra_objects += glob('/usr/local/cuda/lib64/*.a').
    lib64 = os.path.join(CUDA_HOME, 'lib64')
    _write(tmp_path, {
        'src/count.h': 'int gpu_count(void);\n',
        'src/count.c': '#include <cuda_runtime_api.h>\n'
                       'int gpu_count(void) { int n = 0; '
                       'return cudaGetDeviceCount(&n) == cudaSuccess ? n : -1; }\n'})
    obj = tmp_path / 'count.o'
    subprocess.run(['gcc', '-c', '-fPIC', '-I' + os.path.join(CUDA_HOME, 'include'),
                    str(tmp_path / 'src/count.c'), '-o', str(obj)], check=True)
    (tmp_path / 'src/wrap.h').write_text('int count_gpus(void);\n')
    (tmp_path / 'src/wrap.c').write_text('int gpu_count(void);\n'
                                         'int count_gpus(void) { return gpu_count(); }\n')
    from thffi import create_extension
    import glob
    ffi = create_extension('_ext.count', headers=['src/wrap.h'], sources=['src/wrap.c'],
                           extra_objects=[str(obj)] + sorted(glob.glob(lib64 + '/*.a')),
                           relative_to=str(tmp_path / 'build.py'), verbose=False)
    ffi.build()
    library = ffi.library_path()
    dynamic = subprocess.run(['readelf', '-d', library], capture_output=True, text=True).stdout
    defined = subprocess.run(['nm', '--defined-only', library], capture_output=True,
                             text=True).stdout
    assert 'libcudart.so' in dynamic and ' cudaGetDeviceCount' not in defined
    assert ("extra_objects holds %s/libcudart_static.a, the static CUDA runtime, which would "
            "give the extension a CUDA runtime of its own, not PyTorch's (its own current "
            "device, streams and errors): linking the shared runtime, libcudart.so, instead"
            % lib64) in capfd.readouterr().err
    # A build.py calling create_extension again (for a second extension, or
    # a setup() running it again) hears the note once.
    create_extension('_ext.count', headers=['src/wrap.h'], sources=['src/wrap.c'],
                     extra_objects=[str(obj)] + sorted(glob.glob(lib64 + '/*.a')),
                     relative_to=str(tmp_path / 'build.py'), verbose=False)
    assert 'the static CUDA runtime' not in capfd.readouterr().err


# A library built apart by make, calling TH as 2018 libraries did through
# libATen/libTH, then linked into the ffi extension (libraries=, library_dirs=).
SCALER_FILES = {
    'lib/scaler.c': SCALER_C,
    'lib/Makefile': '''\
        PYTHON ?= python
        THFFI_INCLUDES := $(shell $(PYTHON) -m thffi --includes)
        THFFI_LIBS := $(shell $(PYTHON) -m thffi --libs)

        libscaler.so: scaler.c
        \tgcc -shared -fPIC -O2 $(THFFI_INCLUDES) -o $@ $< $(LINK_THFFI)
        ''',
    'src/scale.h': 'int scale_twice(THFloatTensor *t, float factor);\n',
    'src/scale.c': '''\
        #include <TH/TH.h>
        int scaler_apply(THFloatTensor *t, float factor);

        int scale_twice(THFloatTensor *t, float factor)
        {
            scaler_apply(t, factor);
            return scaler_apply(t, factor);
        }
        ''',
    'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        here = os.path.dirname(os.path.abspath(__file__))
        ffi = create_extension('_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
                               libraries=['scaler'], library_dirs=['lib'],
                               runtime_library_dirs=[os.path.join(here, 'lib')],
                               relative_to=__file__)
        if __name__ == '__main__':
            ffi.build()
        '''}


@pytest.mark.parametrize('linked', ['as against 0.4',
                                    pytest.param('as against 0.4, in extra_objects',
                                                 marks=pytest.mark.slow),
                                    'with python -m thffi --libs'])
def test_a_library_built_apart_shares_thffis_shared_th_library(tmp_path, linked):
    files = dict(SCALER_FILES)
    if linked.endswith('extra_objects'):
        files['build.py'] = files['build.py'].replace(
            "libraries=['scaler'], library_dirs=['lib'],", "extra_objects=['lib/libscaler.so'],")
    _write(tmp_path, files)
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHON=sys.executable, THFFI_WITH_CUDA='0')
    # Linked as against PyTorch 0.4's libraries (its TH names left for the
    # loader), or against thffi's shared library: either loads, its names
    # resolved to the shared library the extension links.
    subprocess.run(['make', '-s', '-C', 'lib'] + (
        ['LINK_THFFI=$(THFFI_LIBS)'] if linked.startswith('with') else []), cwd=tmp_path,
        env=env, check=True)
    needed = subprocess.run(['readelf', '-d', str(tmp_path / 'lib/libscaler.so')],
                            capture_output=True, text=True).stdout
    assert ('[libthffi-%s.so]' % __import__('thffi').__version__ in needed) == (
        linked.startswith('with'))
    out = _run(tmp_path, '''
        import runpy, threading
        import torch
        runpy.run_path('build.py', run_name='__main__')
        from _ext import scale
        t = torch.ones(4)
        print(scale.scale_twice(t, 3.0), t.tolist())
        try:
            scale.scale_twice(t, -1.0)
        except RuntimeError as exc:
            print('error:', exc)
        print(scale.scale_twice(t, 0.5), t.tolist())
        # per-thread state: an error in another thread ends that call alone
        errors = []
        def worker():
            try:
                scale.scale_twice(torch.ones(1), -2.0)
            except RuntimeError as exc:
                errors.append(str(exc).split(' at ')[0])
        threads = [threading.Thread(target=worker) for _ in range(4)]
        [th.start() for th in threads]
        [th.join() for th in threads]
        print(errors)
        ''', env={'THFFI_WITH_CUDA': '0'})
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-4] == '4 [9.0, 9.0, 9.0, 9.0]'
    assert lines[-3] == 'error: scale_twice: scaler: negative factor -1.000000 at scaler.c:9'
    assert lines[-2] == '4 [2.25, 2.25, 2.25, 2.25]'
    assert lines[-1] == str(['scale_twice: scaler: negative factor -2.000000'] * 4)
    library = next((tmp_path / '_ext' / 'scale').glob('_scale*.so'))
    defined = subprocess.run(['nm', '--defined-only', str(library)], capture_output=True,
                             text=True).stdout
    assert ' THFloatTensor_data' not in defined  # the extension shares thffi's library
    assert 'thffi: its own TH code: in %s, shared with the libraries the build links' % (
        _shared_library_path(tmp_path)) in out.stdout


def test_a_library_built_apart_given_by_path_in_extra_link_args_shares_it_too(tmp_path):
    # The other 2018 way to link it: its path among the linker's arguments.
    _write(tmp_path, dict(SCALER_FILES, **{'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib')
        ffi = create_extension('_ext.scale', headers=['src/scale.h'], sources=['src/scale.c'],
                               extra_link_args=['-Wl,-rpath,' + lib,
                                                os.path.join(lib, 'libscaler.so')],
                               relative_to=__file__)
        if __name__ == '__main__':
            ffi.build()
        '''}))
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHON=sys.executable, THFFI_WITH_CUDA='0')
    subprocess.run(['make', '-s', '-C', 'lib', 'LINK_THFFI=$(THFFI_LIBS)'], cwd=tmp_path, env=env,
                   check=True)
    out = _run(tmp_path, '''
        import runpy
        import torch
        runpy.run_path('build.py', run_name='__main__')
        from _ext import scale
        t = torch.ones(2)
        try:
            scale.scale_twice(t, -1.0)
        except RuntimeError as exc:
            print('error:', exc)
        print(scale.scale_twice(t, 2.0), t.tolist())
        ''', env={'THFFI_WITH_CUDA': '0'})
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-2:] == [
        'error: scale_twice: scaler: negative factor -1.000000 at scaler.c:9', '2 [4.0, 4.0]']
    assert 'thffi: its own TH code: in %s, shared with the libraries the build links' % (
        _shared_library_path(tmp_path)) in out.stdout


# 2018's libraries ended the process on input they could not take.
SCALER_EXITS = SCALER_C.replace('''\
    if (factor < 0)''', '''\
    if (factor > 100) {
        fprintf(stderr, "scaler: factor too large\\n");
        exit(3);
    }
    if (factor == 0)
        abort();
    if (factor < 0)''')
assert SCALER_EXITS != SCALER_C


@pytest.mark.parametrize('built', ['as against 0.4, under thffi run',
                                   'with python -m thffi --libs'])
def test_exit_and_abort_in_a_library_built_apart_end_the_call_not_the_process(tmp_path, built):
    _write(tmp_path, dict(SCALER_FILES, **{'lib/scaler.c': SCALER_EXITS}))
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHON=sys.executable, THFFI_WITH_CUDA='0')
    make = ['make', '-s', '-C', 'lib']
    if built.endswith('run'):
        made = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--'] + make, cwd=tmp_path,
                              env=env, capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        assert 'its exit(), abort() and assert() end the wrapped call' in made.stderr
    else:
        subprocess.run(make + ['LINK_THFFI=$(THFFI_LIBS)'], cwd=tmp_path, env=env, check=True)
    out = _run(tmp_path, '''
        import runpy
        import torch
        runpy.run_path('build.py', run_name='__main__')
        from _ext import scale
        t = torch.ones(2)
        for factor in (1000.0, 0.0):
            try:
                scale.scale_twice(t, factor)
            except RuntimeError as exc:
                print('error:', exc)
        print(scale.scale_twice(t, 2.0), t.tolist())
        ''', env={'THFFI_WITH_CUDA': '0'})
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-3:] == [
        'error: scale_twice: exit(3) called; thffi ended this call instead of the Python process',
        'error: scale_twice: abort() called; thffi ended this call instead of the Python process',
        '2 [4.0, 4.0]']
    assert 'scaler: factor too large' in out.stderr


def _shared_library_path(folder):
    flags = subprocess.run([sys.executable, '-m', 'thffi', '--libs'], cwd=folder,
                           env=dict(os.environ, PYTHONPATH=ROOT, THFFI_WITH_CUDA='0'),
                           capture_output=True, text=True, check=True).stdout.split()
    return os.path.join(flags[0][2:], flags[1][3:])


def test_the_source_of_an_object_make_sh_was_to_build(tmp_path):
    from thffi.builder.configure import _object_source
    for name in ('a.cu', 'roi_pooling_kernel.cu', 'x_one.cu', 'x_two.cu'):
        (tmp_path / name).write_text('')
    assert _object_source(str(tmp_path / 'a.cu.o')) == str(tmp_path / 'a.cu')
    assert _object_source(str(tmp_path / 'a.o')) == str(tmp_path / 'a.cu')
    assert _object_source(str(tmp_path / 'roi_pooling.cu.o')) == str(
        tmp_path / 'roi_pooling_kernel.cu')
    assert _object_source(str(tmp_path / 'x.cu.o')) is None  # two candidates
    assert _object_source(str(tmp_path / 'b.cu.o')) is None


@pytest.mark.skipif(cuda_toolkit.find_cuda_home() is None, reason='no CUDA toolkit (nvcc)')
def test_a_cuda_library_nvcc_built_apart_calling_thc_and_state_loads(tmp_path):
    # nvcc --shared, as against PyTorch 0.4's libTHC: THC's functions and
    # the extension's `state` left for the loader.
    _write(tmp_path, {
        'lib/kscale.cu': '''\
            #include <THC/THC.h>

            extern THCState *state;

            __global__ void kscale_kernel(float *x, long n, float a)
            {
                long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
                if (i < n) x[i] *= a;
            }

            extern "C" int kscale_apply(THCudaTensor *t, float a)
            {
                long n = THCudaTensor_nElement(state, t);
                THAssert(THCudaTensor_checkGPU(state, 1, t));  /* THCTensor.cu's */
                if (a < 0)
                    THError("kscale: negative factor %f", a);
                kscale_kernel<<<(n + 255) / 256, 256, 0, THCState_getCurrentStream(state)>>>(
                    THCudaTensor_data(state, t), n, a);
                return (int)n;
            }
            ''',
        'lib/make.sh': '''\
            #!/bin/sh
            cd "$(dirname "$0")"
            nvcc --shared -Xcompiler -fPIC -O2 -arch=sm_75 $(python -m thffi --includes) \\
                -o libkscale.so kscale.cu
            ''',
        'src/kscale.h': 'int kscale_forward(THCudaTensor *t, float a);\n',
        'src/kscale.c': '''\
            #include <THC/THC.h>
            int kscale_apply(THCudaTensor *t, float a);

            int kscale_forward(THCudaTensor *t, float a)
            {
                return kscale_apply(t, a);
            }
            ''',
        'build.py': '''\
            import os
            from torch.utils.ffi import create_extension

            here = os.path.dirname(os.path.abspath(__file__))
            ffi = create_extension('_ext.kscale', headers=['src/kscale.h'],
                                   sources=['src/kscale.c'], with_cuda=True,
                                   libraries=['kscale'], library_dirs=['lib'],
                                   runtime_library_dirs=[os.path.join(here, 'lib')],
                                   relative_to=__file__)
            if __name__ == '__main__':
                ffi.build()
            '''})
    os.chmod(tmp_path / 'lib/make.sh', 0o755)
    env = dict(os.environ, PYTHONPATH=ROOT, TORCH_CUDA_ARCH_LIST='7.5')
    subprocess.run(['sh', 'lib/make.sh'], cwd=tmp_path, env=env, check=True)
    out = _run(tmp_path, '''
        import runpy
        import torch
        runpy.run_path('build.py', run_name='__main__')
        from _ext import kscale  # loads: every name of libkscale.so found
        if torch.cuda.is_available():
            t = torch.ones(3, device='cuda')
            print(kscale.kscale_forward(t, 2.0), t.tolist())
            try:
                kscale.kscale_forward(t, -1.0)
            except RuntimeError as exc:
                print('error:', str(exc).split(' at ')[0])
        else:
            print('loaded', callable(kscale.kscale_forward))
        ''', env={'TORCH_CUDA_ARCH_LIST': '7.5'})
    assert out.returncode == 0, out.stdout + out.stderr
    import torch
    expected = (['3 [2.0, 2.0, 2.0]', 'error: kscale_forward: kscale: negative factor -1.000000']
                if torch.cuda.is_available() else ['loaded True'])
    assert out.stdout.splitlines()[-len(expected):] == expected


def test_the_source_of_an_object_beside_links_to_nowhere(tmp_path):
    """An editor's lock files and a link left by a moved kernel, pointing
    nowhere, are not build files nor sources: what builds a committed
    object is still found by its symbols."""
    from thffi.builder.configure import _object_source
    kernel = 'int interp_forward_cuda(int n)\n{\n  return n;\n}\n'
    (tmp_path / 'interpolation_cuda_kernel.cu').write_text(kernel)
    (tmp_path / 'interp.c').write_text(kernel)
    subprocess.run(['gcc', '-c', '-o', str(tmp_path / 'interpolate_cuda_kernel.o'),
                    str(tmp_path / 'interp.c')], check=True)
    for link in ('.#make.sh', '.#interp.py', 'interpolation_old_kernel.cu'):
        os.symlink('nowhere', str(tmp_path / link))
    assert _object_source(str(tmp_path / 'interpolate_cuda_kernel.o')) == str(
        tmp_path / 'interpolation_cuda_kernel.cu')
