"""Run-time support of a built thffi extension.

The builder copies this file into every extension package it writes (as
_thffi_runtime.py), so that a built extension needs torch and cffi's backend
only; a package installed without the copy (a setup.py's package_data
listing only the __init__.py and the library, as 0.4 wrote them) imports it
from the installed thffi instead.  It holds what the generated package
shares: the slow path of every function (validation with messages naming
the function and the argument, conversion of what the C entry point does
not take as is) and the CUDA callbacks."""

import ctypes
import faulthandler
import operator
import os
import re
import sys
from dataclasses import dataclass

import torch

_MAX_DIMS = 64  # THFFI_MAX_DIMS
# Parameters that take a C string: bytes, as cffi passed them to legacy
# code, and for const char * a str too (what Python 2's str was).
# (The parser spells them 'char *' and 'const char *'.)
_CHAR_POINTER = re.compile(r'^(const )?char \*$')
# Wide-character string parameters take a str, as cffi converted it.
_WIDE_POINTER = re.compile(r'^(?:const )?(wchar_t|char16_t|char32_t) \*$')


@dataclass(frozen=True)
class Param:
    name: str
    kind: str            # 'tensor', 'int', 'uint', 'float' or 'pointer'
    ctype: str
    dtype: object = None  # tensors: the torch dtype the TH type stands for
    device: str = None    # tensors: the device type


class Spec:
    """One wrapped function: what its slow path checks.  Calling it runs the
    slow path (the C entry point calls the module's _S_<name>); `strict` is
    the C entry point without a fallback, set by Runtime.install."""

    __slots__ = ('runtime', 'name', 'prototype', 'params', 'cuda', 'strict', 'variadic')

    def __init__(self, runtime, name, prototype, params, cuda, variadic=None):
        self.runtime = runtime
        self.name = name
        self.prototype = prototype
        self.params = params
        self.cuda = cuda    # takes CUDA tensors: they must share a device
        self.strict = None
        # A variadic function: (the dtypes a tensor among its extra
        # arguments may have, the most extra arguments it takes, the most
        # when one is a double).
        self.variadic = variadic

    def __call__(self, *args, **kwargs):
        return self.runtime.call(self, args, kwargs)


def _describe(value):
    if isinstance(value, torch.Tensor):
        layout = '' if value.layout is torch.strided else ' %s' % value.layout
        return '%s%s tensor on %s' % (value.dtype, layout, value.device.type)
    return type(value).__name__


def _names(names):
    quoted = ["'%s'" % n for n in names]
    return quoted[0] if len(quoted) == 1 else '%s and %s' % (', '.join(quoted[:-1]),
                                                            quoted[-1])


_MISSING = object()


def _accept_legacy_functions():
    """thffi.legacy.accept_legacy_functions(), where thffi is installed (a
    built extension may have been copied where it is not)."""
    try:
        from thffi.legacy import accept_legacy_functions
    except ModuleNotFoundError as exc:
        if exc.name != 'thffi':
            raise
        return
    accept_legacy_functions()


# The symbol each THFFI_SANITIZE mode's runtime defines.
_SANITIZER_INIT = {'address': '__asan_init', 'thread': '__tsan_init'}


def check_sanitizer(extension, mode='address'):
    """Raises ImportError unless the runtime of the sanitizer `mode` is in
    the process: a library built with THFFI_SANITIZE=mode cannot be loaded
    without it (the runtime would end the process)."""
    if not hasattr(ctypes.CDLL(None), _SANITIZER_INIT[mode]):
        raise ImportError('%s was built with THFFI_SANITIZE=%s: run your script as '
                          '`%spython -m thffi sanitize SCRIPT [args]`, or rebuild it without '
                          'THFFI_SANITIZE' % (extension, mode,
                                              '' if mode == 'address' else
                                              'THFFI_SANITIZE=%s ' % mode))


def enable_faulthandler():
    """Enables Python's faulthandler, so that a crash in C code prints the
    Python stack after thffi's crash report names the wrapped call; unless
    it is enabled already or THFFI_FAULTHANDLER=0.  Where sys.stderr has no
    file descriptor (Jupyter), the process's own stderr."""
    if faulthandler.is_enabled() or os.environ.get('THFFI_FAULTHANDLER') == '0':
        return
    for stream in (sys.stderr, sys.__stderr__):
        try:
            faulthandler.enable(stream)
            return
        except (AttributeError, ValueError, OSError, RuntimeError):
            continue


class Runtime:
    """The shared part of one extension's functions."""

    def __init__(self, ffi, lib, with_cuda=False):
        self.ffi = ffi
        self.lib = lib
        enable_faulthandler()
        if with_cuda:
            ffi.def_extern(name='_thffi_stream_cb')(self._stream)
            ffi.def_extern(name='_thffi_cuda_memory_cb')(self._cuda_memory)

    def spec(self, name, prototype, params, cuda, variadic=None):
        return Spec(self, name, prototype, params, cuda, variadic)

    def install(self, module):
        """Defines the C entry points as attributes of `module` (by name, in
        sys.modules), each with the Spec named _S_<function> there."""
        if self.lib._thffi_install(module.encode('utf-8')) != 0:
            raise ImportError(self.ffi.string(self.lib.THFFI_takeError()).decode(
                'utf-8', 'replace'))
        # 2018 scripts call their legacy autograd Functions (subclasses of
        # torch.autograd.Function with an instance forward) the legacy way:
        # a process that loads a thffi extension runs them as thffi.legacy
        # does (THFFI_LEGACY_FUNCTIONS=0 turns it off; see thffi/legacy.py).
        _accept_legacy_functions()

    def live_tensors(self):
        """Tensors created in C and neither released nor returned yet."""
        return self.lib._thffi_live_tensors()

    def _bind(self, spec, args, kwargs):
        """args and kwargs as one positional list, or TypeError as Python
        says it."""
        names = [p.name for p in spec.params]
        if len(args) > len(names):
            raise TypeError('%s() takes %d positional argument%s but %d %s given'
                            % (spec.name, len(names), '' if len(names) == 1 else 's',
                               len(args), 'was' if len(args) == 1 else 'were'))
        values = list(args) + [_MISSING] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError('%s() got an unexpected keyword argument %r'
                                % (spec.name, key))
            i = names.index(key)
            if values[i] is not _MISSING:
                raise TypeError('%s() got multiple values for argument %r' % (spec.name, key))
            values[i] = value
        missing = [n for n, v in zip(names, values) if v is _MISSING]
        if missing:
            raise TypeError('%s() missing %d required positional argument%s: %s'
                            % (spec.name, len(missing), '' if len(missing) == 1 else 's',
                               _names(missing)))
        return values

    def call(self, spec, args, kwargs):
        """The slow path: validates every argument against the prototype,
        then calls the strict entry point with them converted.  Raises
        TypeError naming the function, the argument and what was expected;
        nothing is called then."""
        ffi = self.ffi
        extras = []
        if spec.variadic and len(args) > len(spec.params):
            args, extras = args[:len(spec.params)], self._extras(spec, args[len(spec.params):])
        values = self._bind(spec, args, kwargs)
        device = first = None
        strings = []  # the buffers made for C string arguments
        for pos, (param, value) in enumerate(zip(spec.params, values), 1):
            what = '%s(): argument %d (%s)' % (spec.name, pos, param.name)
            kind = param.kind
            if kind == 'tensor':
                expected = '%s (a torch.Tensor of dtype %s on %s) or None' % (
                    param.ctype[:-2], param.dtype, param.device)
                if value is None:
                    continue
                if not (isinstance(value, torch.Tensor) and value.layout is torch.strided
                        and value.dtype is param.dtype
                        and value.device.type == param.device):
                    raise TypeError('%s: expected %s, got %s'
                                    % (what, expected, _describe(value)))
                try:  # what the C entry reads
                    value.data_ptr(), value.shape, value.stride()
                except RuntimeError as exc:  # no storage: vmap/grad-wrapped, nested
                    raise TypeError('%s: expected %s, got a %s whose memory cannot be read '
                                    'from C (%s)' % (what, expected, _describe(value),
                                                     str(exc).split('\n')[0])) from None
                if value.is_neg():
                    raise ValueError('%s: a negative view (the .imag of a conjugated tensor) '
                                     'holds its values negated in memory; pass it '
                                     '.resolve_neg()' % what)
                if value.dim() > _MAX_DIMS:
                    raise ValueError('%s: %d dimensions, more than the %d TH supports'
                                     % (what, value.dim(), _MAX_DIMS))
                if param.device == 'cuda':
                    if device is None:
                        device, first = value.get_device(), what
                    elif value.get_device() != device:
                        raise RuntimeError('%s is on cuda:%d but %s is on cuda:%d; the CUDA '
                                           'tensors of a call must be on one device'
                                           % (what, value.get_device(), first, device))
            elif kind in ('int', 'uint'):
                values[pos - 1] = self._integer(what, param.ctype, value)
            elif kind == 'float':
                if isinstance(value, (str, bytes)) or not hasattr(value, '__float__'):
                    raise TypeError('%s: expected a real number (%s), got %s'
                                    % (what, param.ctype, _describe(value)))
                values[pos - 1] = float(value)
            elif value is not None:
                string = _CHAR_POINTER.match(param.ctype)
                if string and isinstance(value, str) and string.group(1):
                    value = value.encode('utf-8')
                if string and isinstance(value, bytes):
                    # A NUL-terminated copy (C may write to a char *), alive
                    # until the call returns.
                    value = ffi.new('char[]', value)
                    strings.append(value)
                wide = _WIDE_POINTER.match(param.ctype)
                if wide and isinstance(value, str):
                    value = ffi.new('%s[]' % wide.group(1), value)
                    strings.append(value)
                if isinstance(value, ffi.CData) and ffi.typeof(value).kind in ('pointer',
                                                                               'array'):
                    address = int(ffi.cast('uintptr_t', value))
                elif isinstance(value, int):
                    address = self._integer(what, 'uintptr_t', value)
                else:
                    accepted = ('a str, ' if wide else '' if not string
                                else 'a str, bytes, ' if string.group(1) else 'bytes, ')
                    raise TypeError('%s: expected %sa cffi pointer, an address or None '
                                    '(%s), got %s' % (what, accepted, param.ctype,
                                                      _describe(value)))
                values[pos - 1] = address
        return spec.strict(*values, *extras)

    def _extras(self, spec, extras):
        """The arguments of a variadic function's variadic part as its C
        entry takes them: a tensor as is (passed as its TH struct pointer),
        a cffi value as cffi passed it: an integer or a pointer as an int
        (a word), a float or a double as a float (a double).  As cffi, a
        plain Python number is refused: its C type is not known."""
        dtypes, most, most_reals = spec.variadic
        if len(extras) > most:
            raise TypeError('%s() takes at most %d arguments after its %d own (its variadic '
                            'part), got %d' % (spec.name, most, len(spec.params), len(extras)))
        out = []
        for pos, value in enumerate(extras, len(spec.params) + 1):
            what = '%s(): argument %d (in the variadic part)' % (spec.name, pos)
            kind = ctype = None
            if isinstance(value, self.ffi.CData):
                ctype = self.ffi.typeof(value)
                kind = ctype.kind
            if isinstance(value, torch.Tensor):
                if not (value.layout is torch.strided and value.device.type == 'cpu'
                        and value.dtype in dtypes and not value.is_neg()
                        and value.dim() <= _MAX_DIMS):
                    raise TypeError('%s: expected a strided CPU tensor of dtype %s (passed as '
                                    'its TH tensor pointer), got a %s' % (
                                        what, ', '.join(str(d) for d in dtypes),
                                        _describe(value)))
            elif kind in ('pointer', 'array'):
                value = int(self.ffi.cast('uintptr_t', value))
            elif kind == 'primitive' and ctype.cname in ('float', 'double'):
                value = float(value)
            elif kind in ('primitive', 'enum') and ctype.cname != 'long double':
                value = int(self.ffi.cast('long long', value))
            else:
                raise TypeError('%s: expected a tensor or a typed cffi value '
                                '(ffi.cast(\'int\', 3), ffi.cast(\'double\', 0.5), a cffi '
                                'pointer), as cffi took in a variadic part, got %s'
                                % (what, _describe(value)))
            out.append(value)
        if len(out) > most_reals and any(isinstance(v, float) for v in out):
            raise TypeError('%s() takes at most %d arguments after its %d own (its variadic '
                            'part) when one is a double, got %d' % (
                                spec.name, most_reals, len(spec.params), len(out)))
        return out

    def _integer(self, what, ctype, value):
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError('%s: expected an integer (%s), got %s'
                            % (what, ctype, _describe(value))) from None
        bits = 8 * self.ffi.sizeof(ctype)
        if ctype in ('_Bool', 'bool'):
            lo, hi = 0, 1
        elif ctype.startswith(('u', 'size')):
            lo, hi = 0, 2 ** bits - 1
        else:
            lo, hi = -2 ** (bits - 1), 2 ** (bits - 1) - 1
        if not lo <= value <= hi:
            raise OverflowError('%s: %d does not fit in %s (%d..%d)'
                                % (what, value, ctype, lo, hi))
        return value

    def _report(self, err, errlen, msg):
        """Hands a callback's failure to C: the message into err, returns 1."""
        raw = msg.encode('utf-8', 'replace')[:errlen - 1] + b'\0'
        self.ffi.memmove(err, raw, len(raw))
        return 1

    def _stream(self, device, stream_out, err, errlen):
        # Called from C, with the GIL, by THCState_getCurrentStream.
        try:
            stream = torch.cuda.current_stream(device if device >= 0 else None)
            stream_out[0] = stream.cuda_stream
            return 0
        except BaseException as exc:  # must not propagate into C
            return self._report(err, errlen, 'cannot get the current CUDA stream: %s' % exc)

    def _cuda_memory(self, device, stream, size, ptr, err, errlen):
        # Called from C, with the GIL, by THCudaMalloc / THCudaFree.
        try:
            if size:
                ptr[0] = torch.cuda.caching_allocator_alloc(size, device, stream)
            else:
                torch.cuda.caching_allocator_delete(ptr[0])
            return 0
        except BaseException as exc:  # must not propagate into C
            return self._report(err, errlen, 'cannot %s device memory: %s'
                                % ('allocate %d bytes of' % size if size else 'free', exc))
