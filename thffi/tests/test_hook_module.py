"""torch.utils.ffi, as thffi's hook provides it, is a module as tools expect
one (a package, as PyTorch 0.4's torch/utils/ffi/__init__.py was): its
file, spec, loader and path; inspect, importlib.reload, pickle, help, dir
and pytest's monkeypatch work on it.  And the private names of PyTorch
0.3.1/0.4.1's module that build files of the era called answer as they did
(`_setup_wrapper(True)[1]` in a Makefile's TORCH_INC...); other names say
what to use instead."""

import importlib
import inspect
import os
import pickle
import pydoc
import subprocess
import sys
import textwrap

import cffi
import pytest
import torch

import thffi
from support import ROOT
from thffi import _hook

FOLDER = os.path.join(os.path.dirname(os.path.abspath(thffi.__file__)), '_torch_utils_ffi')
ENV = dict(os.environ, PYTHONPATH=ROOT)


@pytest.fixture
def ffi():
    """torch.utils.ffi through the hook, in this process; the hook and the
    module go again afterwards."""
    finder = _hook.TorchUtilsFfiFinder()
    sys.meta_path.append(finder)
    try:
        import torch.utils.ffi as module
        yield module
    finally:
        sys.meta_path.remove(finder)
        sys.modules.pop('torch.utils.ffi', None)
        if 'ffi' in vars(torch.utils):
            delattr(torch.utils, 'ffi')


def test_it_is_a_package_with_a_file_a_spec_and_a_loader(ffi):
    assert ffi.__name__ == ffi.__package__ == ffi.__spec__.name == 'torch.utils.ffi'
    assert ffi.__file__ == ffi.__spec__.origin == os.path.join(FOLDER, '__init__.py')
    assert os.path.isfile(ffi.__file__)
    assert ffi.__path__ == [FOLDER] and ffi.__spec__.submodule_search_locations == [FOLDER]
    assert ffi.__loader__ is ffi.__spec__.loader
    assert ffi.__loader__.get_source('torch.utils.ffi').startswith('"""torch.utils.ffi as')
    assert ffi.create_extension is thffi.create_extension
    assert torch.utils.ffi is ffi


def test_inspect_reload_pickle_help_and_dir(ffi):
    assert 'def _setup_wrapper(with_cuda):' in inspect.getsource(ffi)
    assert inspect.getfile(ffi._setup_wrapper) == ffi.__file__
    assert inspect.getmodule(ffi._setup_wrapper) is ffi
    assert inspect.getsource(ffi._setup_wrapper).startswith('def _setup_wrapper(with_cuda):')
    setup_wrapper = ffi._setup_wrapper
    assert importlib.reload(ffi) is ffi and ffi._setup_wrapper is not setup_wrapper
    assert pickle.loads(pickle.dumps(ffi._setup_wrapper)) is ffi._setup_wrapper
    assert pickle.loads(pickle.dumps(ffi.create_extension)) is thffi.create_extension
    page = pydoc.render_doc(ffi, renderer=pydoc.plaintext)
    assert 'torch.utils.ffi as PyTorch 0.3 and 0.4 had it' in page
    assert 'create_extension(name, headers, sources' in page and ffi.__file__ in page
    assert {'create_extension', '_wrap_function', '_setup_wrapper', '_create_module_dir',
            '_build_extension', '_make_python_wrapper', 'PY_MODULE_TEMPLATE'} <= set(dir(ffi))


def test_a_function_pickled_here_unpickles_in_a_process_with_the_hook(ffi, tmp_path):
    (tmp_path / 'f.pickle').write_bytes(pickle.dumps(ffi._setup_wrapper))
    out = subprocess.run([sys.executable, '-c', textwrap.dedent('''\
        import pickle
        from thffi import _hook
        _hook.install()
        print(pickle.load(open('f.pickle', 'rb'))(False)[0], end='')
        ''')], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == '#include <TH/TH.h>\n'


def test_pytest_monkeypatch_and_importorskip(ffi, monkeypatch):
    assert pytest.importorskip('torch.utils.ffi') is ffi
    monkeypatch.setattr('torch.utils.ffi._setup_wrapper', lambda with_cuda: ('', []))
    assert ffi._setup_wrapper(True) == ('', [])


def test_setup_wrapper_gives_the_include_folders(ffi):
    include = thffi.INCLUDE_DIR
    assert ffi._setup_wrapper(False) == ('#include <TH/TH.h>\n',
                                         [include, os.path.join(include, 'TH')])
    source, folders = ffi._setup_wrapper(True)
    assert source == '#include <TH/TH.h>\n#include <THC/THC.h>\n'
    home = thffi.find_cuda_home()
    assert folders == [include, os.path.join(include, 'TH'), os.path.join(include, 'THC')] + (
        [os.path.join(home, 'include')] if home else [])


def test_a_makefiles_torch_inc_line_compiles_legacy_c(tmp_path):
    # TORCH_INC := $(shell python -c '...ffi._setup_wrapper(True)[1]...'), run
    # as make runs it, in a process where the hook is installed.
    line = ('import torch.utils.ffi as ffi; print("-I" + " -I".join('
            'ffi._setup_wrapper(False)[1]))')
    (tmp_path / 'sitecustomize.py').write_text('from thffi import _hook\n_hook.install()\n')
    out = subprocess.run([sys.executable, '-c', line], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120,
                         env=dict(ENV, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT])))
    assert out.returncode == 0, out.stderr
    (tmp_path / 'k.c').write_text('#include "TH.h"\n#include <TH/TH.h>\n'
                                  'float first(THFloatTensor *t) { return THFloatTensor_data(t)[0]; }\n')
    compiled = subprocess.run(['gcc', '-std=c99', '-fsyntax-only', *out.stdout.split(), 'k.c'],
                              cwd=tmp_path, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr


def test_typedefs_and_type_tables(ffi):
    assert 'typedef struct THFloatTensor THFloatTensor;\n' in ffi._typedefs
    assert 'typedef struct THCudaTensor THCudaTensor;\n' in ffi._typedefs
    assert ffi._generate_typedefs() == ffi._typedefs
    assert ffi._typedefs.count('typedef') == 28
    assert ffi._cffi_to_torch['struct THCudaTensor'] is torch.cuda.FloatTensor
    assert ffi._torch_to_cffi[torch.DoubleStorage] == 'struct THDoubleStorage'
    cffi.FFI().cdef(ffi._typedefs)  # what the legacy builder's cdef began with
    assert ffi.os is os and ffi.torch is torch and ffi.cffi is cffi
    assert list(ffi._accumulate(['_ext', 'my_lib'], os.path.join)) == ['_ext', '_ext/my_lib']


def test_create_module_dir(ffi, tmp_path):
    assert ffi._create_module_dir(str(tmp_path), '_ext.my_lib') == (
        'my_lib', str(tmp_path / '_ext' / 'my_lib'))
    assert (tmp_path / '_ext' / '__init__.py').read_text() == ''
    assert (tmp_path / '_ext' / 'my_lib' / '__init__.py').read_text() == ''


def test_build_extension_of_a_thffi_extension_and_of_a_cffi_ffi(ffi, tmp_path):
    (tmp_path / 'one.h').write_text('int one(THFloatTensor *t);\n')
    (tmp_path / 'one.c').write_text('#include <TH/TH.h>\n'
                                    'int one(THFloatTensor *t) { return THFloatTensor_nDimension(t); }\n')
    extension = ffi.create_extension('_ext.one', headers=['one.h'], sources=['one.c'],
                                     relative_to=str(tmp_path / 'build.py'), verbose=False)
    ffi._build_extension(extension, '_one', str(tmp_path / '_ext' / 'one'), False)
    assert extension.is_up_to_date()
    # A cffi FFI made by hand: compiled, its library copied where it was told.
    plain = cffi.FFI()
    plain.cdef('int twice(int);')
    plain.set_source('_twice', 'int twice(int x) { return 2 * x; }')
    (tmp_path / 'target').mkdir()
    ffi._build_extension(plain, '_twice', str(tmp_path / 'target'), False)
    out = subprocess.run([sys.executable, '-c', 'import _twice; print(_twice.lib.twice(21))'],
                         cwd=tmp_path / 'target', capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == '42', out.stderr
    with pytest.raises(TypeError, match=r'_build_extension: expected the extension '
                                        r'create_extension returned, or a cffi.FFI'):
        ffi._build_extension('build.py', '_one', str(tmp_path), False)


def test_make_python_wrapper(ffi, tmp_path):
    name, target = ffi._create_module_dir(str(tmp_path), 'legacy_wrapped.lib')
    ffi._make_python_wrapper(name, '_lib', target)
    with open(os.path.join(target, '__init__.py')) as f:
        text = f.read()
    assert 'from ._lib import lib as _lib, ffi as _ffi' in text
    compile(text, 'init', 'exec')
    # Imported before a thffi build, it says to build.
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(ImportError, match=r'legacy_wrapped.lib: not built by thffi: run '
                                              r'build.py'):
            importlib.import_module('legacy_wrapped.lib')
    finally:
        sys.path.remove(str(tmp_path))
        for module in ('legacy_wrapped', 'legacy_wrapped.lib'):
            sys.modules.pop(module, None)
    target = tmp_path / 'legacy_wrapped' / 'lib'
    # Where thffi built the extension, its own __init__.py stays.
    (target / '.thffi-build.json').write_text('{}')
    (target / '__init__.py').write_text('# built by thffi\n')
    ffi._make_python_wrapper('lib', '_lib', str(target))
    assert (target / '__init__.py').read_text() == '# built by thffi\n'


def test_other_names_say_what_to_use(ffi):
    with pytest.raises(AttributeError, match=r"module 'torch.utils.ffi' has no attribute "
                                             r"'compile_extension': use create_extension"):
        ffi.compile_extension
    with pytest.raises(AttributeError, match=r"module 'torch.utils.ffi' has no attribute "
                                             r"'_safe_call': this torch.utils.ffi is thffi "
                                             r".*torch.utils.cpp_extension"):
        ffi._safe_call
    assert not hasattr(ffi, 'nothing_of_the_kind')
