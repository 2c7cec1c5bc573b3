"""Generates, from the parsed headers, the C trampolines, their cffi cdef and
the Python module that wraps them.

Per exported function `f` there is one trampoline `_thffi_w_f`.  Each tensor
parameter arrives as four plain values (data pointer, number of dimensions or
-1 for NULL, sizes, strides: cffi turns the tuples into C arrays), so a call
costs no per-tensor cffi object.  The trampoline builds the TH structs on its
stack, opens an error frame (THError longjmps back to it), calls `f`, and
returns f's result widened to 64 bits, or a sentinel on error that makes the
Python side fetch the message.

A function with CUDA tensor parameters also takes the device of its tensors
first: the trampoline makes it current for the call (and restores the
previous one after), and THCState_getCurrentStream asks PyTorch for that
device's current stream, once per call, when the C code first wants it."""

from ._types import TENSOR_TYPES

# ret_kind -> (trampoline return type, C sentinel, Python sentinel test)
_RETURNS = {
    # a tensor: its reference (THFFITensorPriv.ref), -1 for NULL
    'tensor': ('int64_t', 'INT64_MIN', '_r == -9223372036854775808'),
    'void': ('int64_t', 'INT64_MIN', '_r == -9223372036854775808'),
    'int': ('int64_t', 'INT64_MIN', '_r == -9223372036854775808'),
    'uint': ('uint64_t', 'UINT64_MAX', '_r == 18446744073709551615'),
    'float': ('double', 'NAN', '_r != _r'),
    'pointer': ('void *', 'NULL', '_r == _NULL'),
}

CDEF_COMMON = '''
const char *THFFI_takeError(void);
extern "Python+C" int _thffi_tensor_cb(int, int64_t, int64_t, int, int, int, const int64_t *,
                                       int64_t *, int *, int64_t *, int64_t *, uintptr_t *,
                                       char *, size_t);
'''
CDEF_CUDA = '''
extern "Python+C" int _thffi_stream_cb(int, uintptr_t *, char *, size_t);
extern "Python+C" int _thffi_cuda_memory_cb(int, uintptr_t, size_t, uintptr_t *, char *,
                                            size_t);
'''


def uses_cuda(fn):
    return any(p.kind == 'tensor' and TENSOR_TYPES[p.ctype[:-2]][1] == 'cuda'
               for p in fn.params)


def _c_params(fn):
    out = ['int dev'] if uses_cuda(fn) else []
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            out += ['uintptr_t d%d' % i, 'int n%d' % i, 'const int64_t *s%d' % i,
                    'const int64_t *t%d' % i]
        elif p.kind == 'pointer':
            out.append('void *p%d' % i)
        else:
            out.append('%s p%d' % (p.ctype, i))
    return ', '.join(out) or 'void'


def cdef(functions, with_cuda):
    lines = [CDEF_COMMON] + ([CDEF_CUDA] if with_cuda else [])
    for fn in functions:
        lines.append('%s _thffi_w_%s(%s);' % (_RETURNS[fn.ret_kind][0], fn.name,
                                             _c_params(fn)))
    return '\n'.join(lines) + '\n'


# The callbacks' prototypes, given C linkage before cffi defines them, so
# thffi's C objects find them when the module is compiled as C++.
_CALLBACK_DECLS = '''
#ifdef __cplusplus
extern "C" {
#endif
int _thffi_tensor_cb(int, int64_t, int64_t, int, int, int, const int64_t *, int64_t *, int *,
                     int64_t *, int64_t *, uintptr_t *, char *, size_t);
#ifdef THFFI_THC_H
int _thffi_stream_cb(int, uintptr_t *, char *, size_t);
int _thffi_cuda_memory_cb(int, uintptr_t, size_t, uintptr_t *, char *, size_t);
#endif
#ifdef __cplusplus
}
#endif
'''


def trampolines(functions):
    out = ['#include <math.h>', _CALLBACK_DECLS]
    for fn in functions:
        rtype, sentinel, _ = _RETURNS[fn.ret_kind]
        cuda = uses_cuda(fn)
        body = ['%s _thffi_w_%s(%s) {' % (rtype, fn.name, _c_params(fn)),
                '  THFFIFrame frame;']
        if cuda:
            body.append('  volatile int previous = -1;')
        call_args = []
        for i, p in enumerate(fn.params):
            if p.kind == 'tensor':
                body.append('  %s a%d;' % (p.ctype[:-2], i))
                call_args.append('n%d < 0 ? NULL : &a%d' % (i, i))
            elif p.kind == 'pointer':
                call_args.append('(%s)p%d' % (p.ctype, i))
            else:
                call_args.append('p%d' % i)
        leave = ['  THCFFI_leaveDevice(previous);'] if cuda else []
        body += ['  %s r;' % rtype, '  THFFI_pushFrame(&frame);']
        body += ['  frame.device = dev;'] if cuda else []
        body.append('  if (setjmp(frame.env)) {')
        body += ['    THCFFI_freeAllocs(&frame);', '  ' + leave[0]] if cuda else []
        body += ['    THFFI_popFrame(&frame, 1);',
                 '    return %s;' % sentinel,
                 '  }']
        body += ['  previous = THCFFI_enterDevice(dev);'] if cuda else []
        for i, p in enumerate(fn.params):
            if p.kind == 'tensor':
                on_gpu = TENSOR_TYPES[p.ctype[:-2]][1] == 'cuda'
                body.append('  if (n%d >= 0) %s_thffiWrap(&a%d, d%d, n%d, s%d, t%d, %d, %s);'
                            % (i, p.ctype[:-2], i, i, i, i, i, i, 'dev' if on_gpu else '-1'))
        call = '%s(%s)' % (fn.name, ', '.join(call_args))
        if fn.ret_kind == 'void':
            body += ['  %s;' % call, '  r = 0;']
        elif fn.ret_kind == 'tensor':
            body += ['  {',
                     '    %s*t = %s;' % (fn.ret_ctype[:-1], call),
                     '    r = t == NULL ? -1 : THFFI_handOver(&t->priv);',
                     '  }']
        else:
            body.append('  r = (%s)%s;' % (rtype, call))
        body += leave + ['  THFFI_popFrame(&frame, 0);', '  return r;', '}', '']
        out += body
    return '\n'.join(out)


def python_module(name, module, functions, with_cuda):
    """Source of the extension package `name`'s __init__.py, which loads the
    cffi module `module` beside it."""
    dtypes = sorted({TENSOR_TYPES[p.ctype[:-2]][0] for fn in functions
                     for p in fn.params if p.kind == 'tensor'})
    out = ['"""%s: torch wrappers of the C functions declared in %s.' % (
               name, ', '.join(sorted({fn.header for fn in functions})) or 'no header'),
           '',
           'Generated by thffi at build time; edit the headers and rebuild instead."""',
           '',
           'import torch',
           '',
           'from .%s import ffi as _ffi, lib as _lib' % module,
           'from ._thffi_runtime import Param as _P, Runtime, Spec as _S',
           '',
           '_rt = Runtime(_ffi, _lib, with_cuda=%r)' % with_cuda,
           '_call = _rt.call',
           '_check = _rt.check',
           '_NULL = _ffi.NULL',
           ]
    out += ['_%s = torch.%s' % (d, d) for d in dtypes]
    out += ['', '__all__ = %r' % [fn.name for fn in functions], '']
    for fn in functions:
        out += _python_function(fn)
    return '\n'.join(out)


def _python_function(fn):
    names = [p.name for p in fn.params]
    spec = '_S_%s' % fn.name
    specs = []
    checks, margs = [], []
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            dtype, device = TENSOR_TYPES[p.ctype[:-2]]
            specs.append('_P(%r, %r, %r, %s, %r)' % (p.name, p.kind, p.ctype,
                                                      '_' + dtype, device))
            checks.append('%s.dtype is _%s and %s.is_%s' % (p.name, dtype, p.name, device))
            margs.append('%s.data_ptr(), len(_s%d), _s%d, %s.stride()'
                         % (p.name, i, i, p.name))
        else:
            specs.append('_P(%r, %r, %r)' % (p.name, p.kind, p.ctype))
            margs.append(p.name)
    args_tuple = '(%s)' % ''.join(n + ', ' for n in names).rstrip(' ')
    cuda = [p.name for p in fn.params if p.kind == 'tensor'
            and TENSOR_TYPES[p.ctype[:-2]][1] == 'cuda']
    if cuda:
        margs.insert(0, '_dev')
    lines = ['_w_%s = _lib._thffi_w_%s' % (fn.name, fn.name),
             '%s = _S(%r, _w_%s, %r, (%s), %r)' % (
                 spec, fn.name, fn.name, fn.prototype, ''.join(s + ', ' for s in specs),
                 bool(cuda)),
             '',
             '',
             'def %s(%s):' % (fn.name, ', '.join(names)),
             '    """%s"""' % fn.prototype,
             # The fast path: every argument as expected.  Anything else, or
             # any exception while marshalling (before C runs), goes through
             # _call, which validates each argument and says what is wrong.
             '    try:',
             '        ok = %s' % (' and '.join(checks) or 'True')]
    if cuda:
        # All CUDA tensors of a call must be on one device.
        lines += ['        if ok:',
                  '            _dev = %s.get_device()' % cuda[0]]
        if len(cuda) > 1:
            lines.append('            ok = %s' % ' and '.join(
                '%s.get_device() == _dev' % n for n in cuda[1:]))
    lines += ['        if ok:']
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            lines.append('            _s%d = %s.shape' % (i, p.name))
    lines += ['            _r = _w_%s(%s)' % (fn.name, ', '.join(margs)),
              '    except Exception:',
              '        ok = False',
              '    if not ok:',
              '        _r = _call(%s, %s)' % (spec, args_tuple),
              '    if %s:' % _RETURNS[fn.ret_kind][2],
              '        _r = _check(_r, %r)' % fn.name]
    if fn.ret_kind == 'tensor':
        # The C function returned an argument (>= 0), NULL (-1), or a tensor
        # it created (<= -2).
        lines += ['    return _rt.returned(_r, %s)' % args_tuple, '', '']
    else:
        lines += ['    return %s' % ('None' if fn.ret_kind == 'void' else '_r'), '', '']
    return lines
