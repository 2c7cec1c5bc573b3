"""torch.utils.ffi as PyTorch 0.3 and 0.4 had it, provided by thffi.

thffi's import hook (thffi/_hook.py) loads this file as the package
`torch.utils.ffi` where PyTorch has none of its own (it removed it in 1.0),
so the module has what tools expect of one (__file__, __spec__, __loader__,
__path__; inspect, importlib.reload, pickle and help work on it).  It is
not meant to be imported by its own name, thffi._torch_utils_ffi.

What it holds:
- create_extension and thffi's other public names.
- The private names of PyTorch 0.3.1/0.4.1's module that build files of
  that era used, each answering as it did: `_setup_wrapper(with_cuda)`
  (Makefiles turned its folders into -I flags), `_wrap_function` (package
  __init__.py files), `_create_module_dir`, `_build_extension`,
  `_make_python_wrapper`, `_generate_typedefs`, `_typedefs`,
  `_cffi_to_torch`, `_torch_to_cffi`, `PY_MODULE_TEMPLATE`, and the modules
  and functions it imported (os, glob, tempfile, shutil, cffi, torch,
  wraps, reduce, Template, _accumulate).
- Any other name raises AttributeError saying what to use instead.
Importing it lets legacy autograd Functions run
(thffi.legacy.accept_legacy_functions)."""

# glob, reduce and wraps are unused here: names the legacy module had.
import glob  # noqa: F401
import os
import shutil
import sys
import tempfile
from functools import reduce, wraps  # noqa: F401
from itertools import accumulate as _itertools_accumulate
from string import Template

import cffi
import torch

import thffi
from thffi import *  # noqa: F401,F403 (create_extension and thffi's public names)
from thffi import INCLUDE_DIR, find_cuda_home
from thffi.legacy import accept_legacy_functions as _accept_legacy_functions

__all__ = list(thffi.__all__)

# A process that imports torch.utils.ffi runs legacy autograd Functions (and
# NestedIOFunction's subclasses) as 0.4.1 did, as one that loads a
# thffi-built extension does.
_accept_legacy_functions()

# PyTorch's private helper (torch._utils._accumulate), which today's
# itertools.accumulate is: running results, accumulate(['a', 'b'],
# os.path.join) gives 'a', 'a/b'.
_accumulate = _itertools_accumulate

# TH's types as the legacy cdef declared them (Half came later), with the
# torch classes they stood for: THCuda's float types are THCudaTensor and
# THCudaStorage.
_TYPES = ('Double', 'Float', 'Long', 'Int', 'Short', 'Char', 'Byte')


def _generate_typedefs():
    """The typedef lines the legacy builder's cdef began with (one per TH and
    THC tensor and storage type, e.g. `typedef struct THFloatTensor
    THFloatTensor;`), filling _cffi_to_torch and _torch_to_cffi as it went."""
    lines = []
    for real in _TYPES:
        for lib, module in (('TH', torch), ('THCuda', torch.cuda)):
            for kind in ('Tensor', 'Storage'):
                c_name = 'THCuda' + kind if (lib, real) == ('THCuda', 'Float') \
                    else lib + real + kind
                torch_class = getattr(module, real + kind)
                _cffi_to_torch['struct ' + c_name] = torch_class
                _torch_to_cffi[torch_class] = 'struct ' + c_name
                lines.append('typedef struct %s %s;' % (c_name, c_name))
    return '\n'.join(lines) + '\n'


_cffi_to_torch = {}
_torch_to_cffi = {}
_typedefs = _generate_typedefs()

# The package __init__.py the legacy builder wrote beside the library it
# built: each function of the cffi module `$cffi_wrapper_name`, wrapped.
# thffi's build writes its own; _make_python_wrapper writes this one.
PY_MODULE_TEMPLATE = Template('''
from torch.utils.ffi import _wrap_function
from .$cffi_wrapper_name import lib as _lib, ffi as _ffi

__all__ = []


def _import_symbols(locals):
    for symbol in dir(_lib):
        fn = getattr(_lib, symbol)
        locals[symbol] = _wrap_function(fn, _ffi) if callable(fn) else fn
        __all__.append(symbol)


_import_symbols(locals())
''')


def _setup_wrapper(with_cuda):
    """(wrapper_source, include_dirs): the #include lines the legacy builder
    put before the headers' text, and the folders of the TH headers (with
    CUDA, of the THC headers and of the CUDA toolkit's too), in the layout
    PyTorch had (include, include/TH, include/THC): thffi's.  Makefiles of
    2018 made -I flags of the folders:
    `python -c 'import torch.utils.ffi as f; print(" -I".join(f._setup_wrapper(True)[1]))'`."""
    source = '#include <TH/TH.h>\n'
    folders = [INCLUDE_DIR, os.path.join(INCLUDE_DIR, 'TH')]
    if with_cuda:
        source += '#include <THC/THC.h>\n'
        folders.append(os.path.join(INCLUDE_DIR, 'THC'))
        home = find_cuda_home()
        if home is not None:
            folders.append(os.path.join(home, 'include'))
    return source, folders


def _create_module_dir(base_path, fullname):
    """Creates the folders of the dotted name `fullname` under base_path,
    each with an __init__.py (empty, where it had none), as the legacy
    builder did before building; returns (the last part of the name, its
    folder)."""
    parts = fullname.split('.')
    target_dir = os.path.join(base_path, *parts)
    os.makedirs(target_dir, exist_ok=True)
    for folder in _accumulate(parts, os.path.join):
        open(os.path.join(base_path, folder, '__init__.py'), 'a').close()
    return parts[-1], target_dir


def _build_extension(ffi, cffi_wrapper_name, target_dir, verbose):
    """Builds `ffi`.  What create_extension returned (thffi's extension)
    builds itself where its name says, as it would by ffi.build(); a cffi
    FFI made by hand (set_source) is compiled and its library copied into
    target_dir as cffi_wrapper_name + '.so', as the legacy builder did."""
    if isinstance(ffi, thffi.Extension):
        ffi.build()
        return
    if not isinstance(ffi, cffi.FFI):
        raise TypeError('torch.utils.ffi._build_extension: expected the extension '
                        'create_extension returned, or a cffi.FFI with its source set, got %s'
                        % type(ffi).__name__)
    tmpdir = tempfile.mkdtemp()
    try:
        built = ffi.compile(tmpdir=tmpdir, verbose=verbose, target=cffi_wrapper_name + '.so')
        shutil.copy(built, os.path.join(target_dir, cffi_wrapper_name + '.so'))
    finally:
        shutil.rmtree(tmpdir)


def _make_python_wrapper(name, cffi_wrapper_name, target_dir):
    """Writes target_dir/__init__.py from PY_MODULE_TEMPLATE, as the legacy
    builder did, unless thffi built the extension in target_dir: its build
    writes that file itself (and a legacy one would hide its functions).
    Imported before a thffi build, the legacy file says to run build.py."""
    if os.path.isfile(os.path.join(target_dir, '.thffi-build.json')):
        return
    with open(os.path.join(target_dir, '__init__.py'), 'w') as f:
        f.write(PY_MODULE_TEMPLATE.substitute(name=name, cffi_wrapper_name=cffi_wrapper_name))


# Names of older torch.utils.ffi modules that thffi does not have, and what
# to use instead.
_INSTEAD = {
    'compile_extension': "create_extension(name, headers, sources, ...), then its .build() "
                         "(PyTorch 0.1's compile_extension built at once)",
}


def __getattr__(name):
    if name == '_wrap_function':
        # A package __init__.py that torch.utils.ffi generated and a
        # repository committed, which would load its PyTorch 0.x library
        # next, says so instead (the importer is the caller's frame).
        from thffi.builder.install import stale_legacy_package
        message = stale_legacy_package(sys._getframe(1).f_globals)
        if message:
            raise ImportError(message)
        return thffi._legacy_wrap_function
    if name in _INSTEAD:
        raise AttributeError("module 'torch.utils.ffi' has no attribute %r: use %s"
                             % (name, _INSTEAD[name]))
    raise AttributeError(
        "module 'torch.utils.ffi' has no attribute %r: this torch.utils.ffi is thffi %s's (%s), "
        "with the names PyTorch 0.3-0.4's had (create_extension, _wrap_function, "
        "_setup_wrapper...); for C++ extensions of today's PyTorch, see "
        "torch.utils.cpp_extension" % (name, thffi.__version__, os.path.dirname(thffi.__file__)))


def __dir__():
    return sorted(set(globals()) | {'_wrap_function'})
