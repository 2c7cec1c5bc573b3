"""Generates, from the parsed headers, the C entry points of the extension
module, its cffi cdef and the Python package that installs them.

Per exported function `f` there are two C functions:
- `_thffi_e_f`, the entry point Python calls (METH_FASTCALL, installed as
  the module's `f`).  It reads each argument in C (a tensor's data pointer,
  shape and strides through torch's public Python API), then calls the
  trampoline with the GIL released.  An argument it does not take as is
  (a wrong type, a keyword, a cffi pointer) sends the call to the Python
  slow path (thffi/runtime/extension_runtime.py), which says what is wrong, or converts the
  arguments and calls `f`'s strict twin.
- `_thffi_w_f`, the trampoline: builds the TH structs on its stack, opens
  an error frame (THError longjmps back to it, and so do exit(), abort()
  and a failed assert() in code linked into the extension), calls `f`, and
  returns its result widened to 64 bits, or a sentinel on error: also when
  a thread `f` started failed (frame.call, csrc/THGeneral.c).
In an extension with C++ code the trampoline calls `f` through
THFFI_cxxCall (csrc/THCxx.cpp), which turns a C++ exception leaving `f`
into an error of the call: `f`'s arguments and result then pass through a
struct, `_thffi_k_f_t`, to `_thffi_k_f`, which makes the call.

A function with CUDA tensor parameters also takes the device of its tensors,
which the trampoline makes current for the call (and restores the previous
one after), and that device's current stream, which the entry reads through
DLPack's exchange API (THFFIPy_cudaStream).  Where that cannot be read (no
CUDA tensor argument, an older torch), THCState_getCurrentStream asks
PyTorch through Python, once per call, when the C code first wants it.

A variadic function (`int f(THFloatTensor *a, int n, ...)`) takes up to
VARIADIC_MAX arguments after its own, as torch.utils.ffi's cffi took them:
a CPU tensor as its TH struct pointer (built as a parameter's is), and in
the slow path a cffi value (`ffi.cast('int', 3)`, `ffi.cast('double', x)`,
a cffi pointer), cffi's rule for a variadic part, where a plain Python
number says nothing of the C type to pass.  C cannot build a call of a
length known at run time, so `_thffi_v_f` holds one call per length and
per choice of the two classes of the LP64 ABIs (x86-64 System V, AArch64)
for each extra: an integer-class word (pointers, ints: passed as `void *`,
which a callee's va_arg of int, long or a pointer reads) or a double.  A
call with a double among its extras takes at most VARIADIC_REALS of them:
the calls of every choice for 8 extras took gcc -O2 1.5 s a function."""

import json

from .headers import CFFI_OPAQUE
from .tensor_types import THFFI_DTYPES, TENSOR_TYPES

# ret_kind -> (trampoline return type, sentinel test, Python value of r)
_RETURNS = {
    # a tensor: THFFI_handOver's object as an integer, 0 for NULL
    'tensor': ('int64_t', 'r == INT64_MIN',
               'THFFIPy_returned((void *)(intptr_t)r, args, nargs)'),
    'void': ('int64_t', 'r == INT64_MIN', '(Py_INCREF(Py_None), Py_None)'),
    'int': ('int64_t', 'r == INT64_MIN', 'PyLong_FromLongLong(r)'),
    'uint': ('uint64_t', 'r == UINT64_MAX', 'PyLong_FromUnsignedLongLong(r)'),
    'float': ('double', 'r != r', 'PyFloat_FromDouble(r)'),
    'pointer': ('void *', 'r == NULL', 'PyLong_FromVoidPtr(r)'),
}
_SENTINELS = {'int64_t': 'INT64_MIN', 'uint64_t': 'UINT64_MAX', 'double': 'NAN',
              'void *': 'NULL'}
# scalar kind -> (C type it is read as, reader)
_SCALARS = {'int': ('long long', 'THFFIPy_intArg'),
            'uint': ('unsigned long long', 'THFFIPy_uintArg'),
            'float': ('double', 'THFFIPy_floatArg'),
            'pointer': ('void *', 'THFFIPy_pointerArg')}

CDEF_COMMON = '''
long long _thffi_constant(int);
const char *THFFI_takeError(void);
int _thffi_install(const char *);
long _thffi_live_tensors(void);
'''
CDEF_CUDA = '''
extern "Python+C" int _thffi_stream_cb(int, uintptr_t *, char *, size_t);
extern "Python+C" int _thffi_cuda_memory_cb(int, uintptr_t, size_t, uintptr_t *, char *,
                                            size_t);
'''


# The most arguments a variadic function takes after its own, and the most
# when one of them is a double: `_thffi_v_f` holds
# 2 ** (VARIADIC_REALS + 1) - 1 + VARIADIC_MAX - VARIADIC_REALS calls.
VARIADIC_MAX = 8
VARIADIC_REALS = 4
# The TH types a tensor in a variadic part is passed as, by its dtype
# (THFFIPy_tensorArg's numbers): the CPU ones.
_VARIADIC_TYPES = [(t, THFFI_DTYPES.index(d)) for t, (d, device) in TENSOR_TYPES.items()
                   if device == 'cpu']
# An extra argument as the C entry read it: a TH type's index in
# _VARIADIC_TYPES, or a word or a double (the slow path's conversions).
_VARIADIC_DECLS = '''
typedef struct {
  int kind; /* -1: word, -2: real, k >= 0: a tensor of TH type k */
  void *word;
  double real;
  THFFIArg t;
} _thffi_var_t;
typedef union { %s } _thffi_vt_t;
static int _thffi_varArg(PyObject *self, PyObject *obj, _thffi_var_t *v) {
  static const int dtypes[] = {%s};
  long long i;
  unsigned long long u;
  int k;
  for (k = 0; obj != Py_None && k < %d; k++)
    if (THFFIPy_tensorArg(obj, dtypes[k], 0, &v->t)) return v->kind = k, 1;
  if (self != NULL) return 0; /* the slow path converts cffi values */
  v->kind = -1;
  if (THFFIPy_intArg(obj, &i)) return v->word = (void *)(intptr_t)i, 1;
  if (THFFIPy_uintArg(obj, &u)) return v->word = (void *)(uintptr_t)u, 1;
  v->kind = -2;
  return PyFloat_CheckExact(obj) && THFFIPy_floatArg(obj, &v->real);
}
'''


def _variadic_decls():
    return _VARIADIC_DECLS % (
        ' '.join('%s t%d;' % (t, k) for k, (t, _) in enumerate(_VARIADIC_TYPES)),
        ', '.join(str(d) for _, d in _VARIADIC_TYPES), len(_VARIADIC_TYPES))


def _variadic_call(fn):
    """`_thffi_v_f`: calls the variadic fn with its own arguments and
    `nv` extras, each `w[i]` (a word) or, where bit i of `dm` is set,
    `d[i]` (a double)."""
    own = ['%s a%d' % (p.ctype, i) for i, p in enumerate(fn.params)]
    ret = 'void' if fn.ret_kind == 'void' else fn.ret_ctype
    out = ['static %s _thffi_v_%s(%s) {' % (ret, fn.name, ', '.join(
               own + ['int nv', 'unsigned dm', 'void *const *w', 'const double *d'])),
           '  switch ((nv << %d) | (int)dm) {' % VARIADIC_MAX]
    for nv in range(VARIADIC_MAX + 1):
        for dm in range(2 ** nv if nv <= VARIADIC_REALS else 1):
            args = ['a%d' % i for i in range(len(fn.params))] + [
                'd[%d]' % i if dm >> i & 1 else 'w[%d]' % i for i in range(nv)]
            call = '%s(%s)' % (fn.name, ', '.join(args))
            out.append('  case %d: %s;' % ((nv << VARIADIC_MAX) | dm, call + '; return'
                                          if ret == 'void' else 'return ' + call))
    out += ['  default: break;', '  }', '  return%s;' % ('' if ret == 'void' else ' 0'), '}', '']
    return out


def uses_cuda(fn):
    return any(p.kind == 'tensor' and TENSOR_TYPES[p.ctype[:-2]][1] == 'cuda'
               for p in fn.params)


def c_name(fn):
    """The module attribute the C entry of fn is installed as: a function
    returning a pointer gets a Python wrapper that makes it a cffi pointer."""
    return '_thffi_c_' + fn.name if fn.ret_kind == 'pointer' else fn.name


def cdef(with_cuda, declarations=''):
    """The module's cdef: thffi's own names, and the headers' type
    declarations (headers.read_headers), which the module's ffi then knows
    as 0.4's did (`ffi.new('blob *')`, a returned `blob *` typed)."""
    return CDEF_COMMON + (CDEF_CUDA if with_cuda else '') + CFFI_OPAQUE + declarations


# The callbacks' prototypes, given C linkage before cffi defines them, so
# thffi's C objects find them when the module is compiled as C++.  %s is
# their visibility attribute: visible when thffi's code is the shared
# library's (shared_library.py), which binds them when it loads.
_CALLBACK_DECLS = '''
#ifdef THFFI_THC_H
#ifdef __cplusplus
extern "C" {
#endif
%s int _thffi_stream_cb(int, uintptr_t *, char *, size_t);
%s int _thffi_cuda_memory_cb(int, uintptr_t, size_t, uintptr_t *, char *, size_t);
#ifdef __cplusplus
}
#endif
#endif
'''


def _cxx_call(fn, callee, call_args):
    """The struct and function through which the trampoline calls fn (by
    `callee`, with call_args: [(C type, expression)]) under THFFI_cxxCall,
    and the trampoline's lines that fill the struct and call it (as
    `_thffi_k`); fn's result is then `_thffi_k.ret`."""
    fields = ['  %s p%d;' % (ctype, i) for i, (ctype, _) in enumerate(call_args)]
    call = '%s(%s)' % (callee, ', '.join('_thffi_k->p%d' % i for i in range(len(call_args))))
    if fn.ret_kind != 'void':
        fields.append('  %s ret;' % fn.ret_ctype)
        call = '_thffi_k->ret = ' + call
    defs = ['typedef struct {', *(fields or ['  char unused;']), '} _thffi_k_%s_t;' % fn.name,
            'static void _thffi_k_%s(void *_thffi_v) {' % fn.name,
            '  _thffi_k_%s_t *_thffi_k = (_thffi_k_%s_t *)_thffi_v;' % (fn.name, fn.name)
            if fields else '  (void)_thffi_v;',
            '  %s;' % call, '}', '']
    fill = ['  _thffi_k_%s_t _thffi_k;' % fn.name]
    fill += ['  _thffi_k.p%d = %s;' % (i, arg) for i, (_, arg) in enumerate(call_args)]
    fill.append('  THFFI_cxxCall(_thffi_k_%s, &_thffi_k);' % fn.name)
    return defs, fill


def _trampoline(fn, cxx):
    rtype = _RETURNS[fn.ret_kind][0]
    cuda = uses_cuda(fn)
    params = ['PyObject *const *_thffi_objs'] + (
        ['int _thffi_dev', 'int _thffi_has_stream', 'uintptr_t _thffi_stream'] if cuda else [])
    call_args = []
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            params.append('THFFIArg *_thffi_x%d' % i)
            call_args.append((p.ctype, '_thffi_x%d->dim < 0 ? NULL : &_thffi_a%d' % (i, i)))
        else:
            params.append('%s _thffi_p%d' % (_SCALARS[p.kind][0], i))
            call_args.append((p.ctype, '(%s)_thffi_p%d' % (p.ctype, i)))
    callee = fn.name
    if fn.variadic:
        params += ['int _thffi_nv', 'const _thffi_var_t *_thffi_v']
        call_args += [('int', '_thffi_nv'), ('unsigned', '_thffi_dm'),
                      ('void *const *', '_thffi_vw'), ('const double *', '_thffi_vd')]
        callee = '_thffi_v_' + fn.name
    defs, fill = _cxx_call(fn, callee, call_args) if cxx else ([], [])
    # The parameters' names, for messages (THFFIFrame.params).
    defs = ['static const char *const _thffi_p_%s[] = {%s};'
            % (fn.name, ', '.join([_c_string(p.name) for p in fn.params] + ['NULL']))] + defs
    body = defs + ['static %s _thffi_w_%s(%s) {' % (rtype, fn.name, ', '.join(params)),
                   '  THFFIFrame _thffi_frame;']
    if cuda:
        body.append('  volatile int _thffi_previous = -1;')
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            body.append('  %s _thffi_a%d;' % (p.ctype[:-2], i))
    if fn.variadic:
        body += ['  _thffi_vt_t _thffi_vt[%d];' % VARIADIC_MAX,
                 '  void *_thffi_vw[%d];' % VARIADIC_MAX,
                 '  double _thffi_vd[%d];' % VARIADIC_MAX,
                 '  unsigned _thffi_dm = 0;', '  int _thffi_i;']
    body += ['  %s _thffi_r;' % rtype, '  (void)_thffi_objs;',
             '  THFFI_pushFrame(&_thffi_frame, %s);' % _c_string(fn.name),
             '  _thffi_frame.params = _thffi_p_%s;' % fn.name]
    body += ['  _thffi_frame.device = _thffi_dev;',
             '  _thffi_frame.has_stream = _thffi_has_stream;',
             '  _thffi_frame.stream = _thffi_stream;'] if cuda else []
    body.append('  if (setjmp(_thffi_frame.env)) {')
    # A call whose C started threads ends for them first (THFFI_endCall):
    # their tensors and blocks come back to the frame, released below.
    body.append('    if (_thffi_frame.call != NULL) THFFI_endCall(&_thffi_frame);')
    body += ['    THCFFI_freeAllocs(&_thffi_frame);',
             '    THCFFI_leaveDevice(_thffi_previous);'] if cuda else []
    body += ['    THFFI_popFrame(&_thffi_frame, 1);',
             '    return %s;' % _SENTINELS[rtype],
             '  }']
    body += ['  _thffi_previous = THCFFI_enterDevice(_thffi_dev);'] if cuda else []
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            on_gpu = TENSOR_TYPES[p.ctype[:-2]][1] == 'cuda'
            body.append('  if (_thffi_x%d->dim >= 0) %s_thffiWrap(&_thffi_a%d, _thffi_x%d->data, '
                        '_thffi_x%d->dim, _thffi_x%d->size, _thffi_x%d->stride, %d, %s, '
                        '(void *)_thffi_objs[%d]);'
                        % (i, p.ctype[:-2], i, i, i, i, i, i,
                           '_thffi_dev' if on_gpu else '-1', i))
    if fn.variadic:
        body += _variadic_wraps(len(fn.params))
    call = '_thffi_k.ret' if cxx else '%s(%s)' % (callee, ', '.join(a for _, a in call_args))
    # Once the C returned, a thread it started that failed fails the call
    # (before a returned tensor is handed over).
    join = '    if (_thffi_frame.call != NULL) THFFI_joinCall(&_thffi_frame);'
    body += ['  {'] + ['  ' + line for line in fill]
    if fn.ret_kind == 'void':
        body += ([] if cxx else ['    %s;' % call]) + [join, '    _thffi_r = 0;']
    elif fn.ret_kind == 'tensor':
        body += ['    %s*_thffi_t = %s;' % (fn.ret_ctype[:-1], call), join,
                 '    _thffi_r = _thffi_t == NULL ? 0 : '
                 '(int64_t)(intptr_t)THFFI_handOver(&_thffi_t->priv);']
    else:
        body += ['    _thffi_r = (%s)%s;' % (rtype, call), join]
    body.append('  }')
    body += ['  THCFFI_leaveDevice(_thffi_previous);'] if cuda else []
    body += ['  THFFI_popFrame(&_thffi_frame, 0);', '  return _thffi_r;', '}', '']
    return body


def _variadic_wraps(n):
    """The trampoline's lines that make the extras of a variadic call
    (arguments n and on) words and doubles, its tensors TH structs."""
    out = ['  for (_thffi_i = 0; _thffi_i < _thffi_nv; _thffi_i++) {',
           '    const _thffi_var_t *v = &_thffi_v[_thffi_i];',
           '    switch (v->kind) {',
           '    case -1: _thffi_vw[_thffi_i] = v->word; break;',
           '    case -2: _thffi_vd[_thffi_i] = v->real; _thffi_dm |= 1u << _thffi_i; break;']
    for k, (t, _) in enumerate(_VARIADIC_TYPES):
        out += ['    case %d:' % k,
                '      %s_thffiWrap(&_thffi_vt[_thffi_i].t%d, v->t.data, v->t.dim, v->t.size, '
                'v->t.stride, %d + _thffi_i, -1, (void *)_thffi_objs[%d + _thffi_i]);'
                % (t, k, n, n),
                '      _thffi_vw[_thffi_i] = &_thffi_vt[_thffi_i].t%d;' % k,
                '      break;']
    return out + ['    }', '  }']


def _entry(fn):
    rtype, failed, value = _RETURNS[fn.ret_kind]
    cuda = uses_cuda(fn)
    n = len(fn.params)
    body = ['static PyObject *_thffi_e_%s(PyObject *self, PyObject *const *args, '
            'Py_ssize_t nargs, PyObject *kwnames) {' % fn.name]
    tensors = [i for i, p in enumerate(fn.params) if p.kind == 'tensor']
    for i, p in enumerate(fn.params):
        body.append('  THFFIArg x%d;' % i if p.kind == 'tensor'
                    else '  %s p%d;' % (_SCALARS[p.kind][0], i))
    body += ['  int dev = -1, has_stream;', '  uintptr_t stream = 0;'] if cuda else []
    body += ['  %s r;' % rtype, '  PyThreadState *released;']
    if fn.variadic:
        # The extras: tensors here, cffi values converted by the slow path.
        body += ['  _thffi_var_t v[%d];' % VARIADIC_MAX,
                 '  int nv = (int)nargs - %d, k;' % n,
                 '  if (nv < 0 || nv > %d || kwnames != NULL) goto slow;' % VARIADIC_MAX,
                 '  for (k = 0; k < nv; k++)',
                 '    if (!_thffi_varArg(self, args[%d + k], &v[k])) goto slow;' % n]
    else:
        body.append('  if (nargs != %d || kwnames != NULL) goto slow;' % n)
    for i, p in enumerate(fn.params):
        if p.kind == 'tensor':
            dtype, device = TENSOR_TYPES[p.ctype[:-2]]
            body.append('  if (!THFFIPy_tensorArg(args[%d], %d, %d, &x%d)) goto slow;'
                        % (i, THFFI_DTYPES.index(dtype), device == 'cuda', i))
        else:
            ctype, reader = _SCALARS[p.kind]
            check = '' if p.kind in ('float', 'pointer') else \
                ' || (%s)(%s)p%d != p%d' % (ctype, p.ctype, i, i)
            body.append('  if (!%s(args[%d], &p%d)%s) goto slow;' % (reader, i, i, check))
    if cuda:
        body += ['  {',
                 '    THFFIArg *const xs[] = {%s};' % ', '.join('&x%d' % i for i in tensors),
                 '    if (!THFFIPy_oneDevice(%d, xs, &dev)) goto slow;' % len(tensors),
                 '  }',
                 '  has_stream = dev >= 0 && THFFIPy_cudaStream(dev, &stream);']
    margs = ['args'] + (['dev', 'has_stream', 'stream'] if cuda else []) + [
        ('&x%d' if p.kind == 'tensor' else 'p%d') % i for i, p in enumerate(fn.params)] + (
        ['nv', 'v'] if fn.variadic else [])
    body += ['  released = PyEval_SaveThread();',
             '  r = _thffi_w_%s(%s);' % (fn.name, ', '.join(margs)),
             '  PyEval_RestoreThread(released);',
             '  if (%s && THFFIPy_raised("%s")) return NULL;' % (failed, fn.name),
             '  return %s;' % value,
             'slow:',
             '  return THFFIPy_fallback(self, "_S_%s", args, nargs, kwnames);' % fn.name,
             '}', '']
    return body


def _c_string(text):
    return json.dumps(text, ensure_ascii=False)


def module_source(functions, home, cxx=False, shared=False, constants=()):
    """C source of the cffi module's own part: trampolines, entry points, the
    method table and _thffi_install; and THFFI_home, the folder `home` of
    the thffi building it, which errors raised in thffi's C name.  cxx: the
    extension has C++ code, whose exceptions the trampolines catch.
    shared: thffi's code is in its shared library, not in the module.
    constants: the headers' enum constants, whose values the compiler
    gives through _thffi_constant(i)."""
    visibility = '__attribute__((visibility("default")))' if shared else ''
    out = ['#include <math.h>', '#include <THFFIPython.h>',
           _CALLBACK_DECLS % (visibility, visibility),
           '#ifdef __cplusplus', 'extern "C"', '#endif',
           'const char THFFI_home[] = %s;' % _c_string(home)]
    if any(fn.variadic for fn in functions):
        out.append(_variadic_decls())
    for fn in functions:
        out += (_variadic_call(fn) if fn.variadic else []) + _trampoline(fn, cxx) + _entry(fn)
    out.append('static PyMethodDef _thffi_methods[] = {')
    for fn in functions:
        doc = '%s(%s)\n--\n\n%s' % (c_name(fn), ', '.join(
            [p.name for p in fn.params] + (['*args'] if fn.variadic else [])), fn.prototype)
        out.append('  {%s, (PyCFunction)(void (*)(void))_thffi_e_%s, '
                   'METH_FASTCALL | METH_KEYWORDS, %s},'
                   % (_c_string(c_name(fn)), fn.name, _c_string(doc)))
    out += ['  {NULL, NULL, 0, NULL}', '};',
            'static const char *const _thffi_specs[] = {%sNULL};'
            % ''.join(_c_string('_S_' + fn.name) + ', ' for fn in functions),
            'int _thffi_install(const char *module) {',
            '  return THFFIPy_install(module, _thffi_methods, _thffi_specs);',
            '}',
            'long _thffi_live_tensors(void) { return THFFIPy_liveTensors(); }',
            'static const long long _thffi_constants[] = {%s0};' % ''.join(
                '(long long)%s, ' % c for c in constants),
            'long long _thffi_constant(int i) { return _thffi_constants[i]; }', '']
    return '\n'.join(out)


def top_level_init(wrappers):
    """C source that makes the cffi module, linked top-level by setuptools
    out of package mode (`_fill`), carry the header's functions in its lib
    as 0.4's did: once the module is made (cffi's _cffi_init, renamed
    below, which its PyInit calls), it imports the wrappers' package
    `wrappers` (which puts them there: python_module's absolute), unless
    that package is the one importing it.  Where that package cannot be
    imported (the library copied alone), lib stays cffi's."""
    return '\n'.join([
        'static PyObject *_thffi_top_level_init(const char *name, Py_ssize_t version,',
        '                                       const struct _cffi_type_context_s *ctx) {',
        '  PyObject *module = _cffi_init(name, version, ctx), *modules, *wrappers;',
        '  if (module == NULL) return NULL;',
        '  modules = PyImport_GetModuleDict();',
        '  if (PyDict_GetItemString(modules, %s) == NULL &&' % _c_string(wrappers),
        '      PyDict_SetItemString(modules, name, module) == 0) {',
        '    wrappers = PyImport_ImportModule(%s);' % _c_string(wrappers),
        '    if (wrappers == NULL) PyErr_Clear();',
        '    Py_XDECREF(wrappers);',
        '  }',
        '  return module;',
        '}',
        '#define _cffi_init _thffi_top_level_init', ''])


def _runtime_import(names):
    """Lines importing `names` from the runtime the wrappers share: the copy
    the build wrote beside the package (the exact runtime it was generated
    for, and all a copied folder has where no thffi is installed), else the
    installed thffi's, for a package installed with only the two files 0.4
    wrote (package_data listing its __init__.py and the library)."""
    return ['try:',
            '    from ._thffi_runtime import %s' % names,
            'except ModuleNotFoundError as _missing:',
            '    if _missing.name != __name__ + "._thffi_runtime":',
            '        raise',
            '    from thffi.runtime.extension_runtime import %s' % names]


def python_module(name, module, functions, headers, with_cuda, sanitize=None, constants=(),
                  empty=None, library=None, absolute=False):
    """Source of the extension package `name`'s __init__.py, which loads the
    cffi module `module` beside it and installs its C entry points (declared
    in `headers`, the files as the docstring names them), and provides the
    module torch.utils.ffi built, `_<name>`, with `lib` (the wrapped
    functions and the enum constants) and `ffi`.  sanitize: the
    THFFI_SANITIZE mode it was built with, or None.  constants: the
    headers' enum constants, module attributes as in cffi's lib.  empty:
    why there are no functions, when there are none: said at import, and
    by the AttributeError of a name asked for.  library: the file of the
    module, when it is not `module`'s own name (thffi's builds, but for
    package mode): loaded from there, else from _<name>.so, where
    torch.utils.ffi put the library (scripts move, copy and package that
    file), under the module's name.  absolute: `module` is a top-level
    module (setuptools built it from cffi_modules out of package mode)."""
    legacy = '_' + name
    variadic = ['_' + TENSOR_TYPES[t][0] for t, _ in _VARIADIC_TYPES]
    dtypes = sorted({TENSOR_TYPES[p.ctype[:-2]][0] for fn in functions
                     for p in fn.params if p.kind == 'tensor'}
                    | ({v[1:] for v in variadic} if any(fn.variadic for fn in functions)
                       else set()))
    out = ['"""%s: torch wrappers of the C functions declared in %s.' % (
               name, ', '.join(headers) or 'no header'),
           '',
           'Generated by thffi at build time; edit the headers and rebuild instead."""',
           '',
           'import sys as _sys',
           'import types as _types',
           '',
           'import torch as _torch',
           '']
    if sanitize:
        out += ['# Built with THFFI_SANITIZE=%s: its runtime must be loaded first.' % sanitize,
                ] + _runtime_import('check_sanitizer') + [
                'check_sanitizer(__name__, %r)' % sanitize, '']
    if library is None:
        out += ['from %s%s import ffi as _ffi, lib as _lib' % ('' if absolute else '.', module)]
    else:
        # The module's name carries its build (a process that loaded an
        # earlier build loads this one too: the dynamic loader would give
        # the earlier library again for a file name it loaded), and so
        # does the file beside _<name>.so that the build links to it.
        out += ['import importlib.util as _util',
                'import os as _os',
                '',
                '_module = __name__ + %r' % ('.' + module),
                '_path = _os.path.join(_os.path.dirname(__file__), %r)' % library,
                'if not _os.path.isfile(_path):',
                '    _path = _os.path.join(_os.path.dirname(__file__), %r)' % (legacy + '.so'),
                '_spec = _util.spec_from_file_location(_module, _path)',
                '_sys.modules[_module] = _util.module_from_spec(_spec)',
                '_spec.loader.exec_module(_sys.modules[_module])',
                '_ffi, _lib = _sys.modules[_module].ffi, _sys.modules[_module].lib']
    out += _runtime_import('Param as _P, Runtime as _Runtime') + [
            '',
            '_rt = _Runtime(_ffi, _lib, with_cuda=%r)' % with_cuda]
    out += ['_%s = _torch.%s' % (d, d) for d in dtypes]
    out += ['', '__all__ = %r' % [fn.name for fn in functions], '',
            '# The slow path of each function: validates and converts what the C',
            '# entry point did not take as is.']
    for fn in functions:
        specs = []
        for p in fn.params:
            if p.kind == 'tensor':
                dtype, device = TENSOR_TYPES[p.ctype[:-2]]
                specs.append('_P(%r, %r, %r, _%s, %r)' % (p.name, p.kind, p.cffi_type, dtype,
                                                          device))
            else:
                specs.append('_P(%r, %r, %r)' % (p.name, p.kind, p.cffi_type))
        out.append('_S_%s = _rt.spec(%r, %r, (%s), %r%s)' % (
            fn.name, fn.name, fn.prototype, ''.join(s + ', ' for s in specs),
            uses_cuda(fn), ', variadic=((%s), %d, %d)' % (', '.join(variadic), VARIADIC_MAX,
                                             VARIADIC_REALS)
            if fn.variadic else ''))
    if empty:
        out += ['', '# Built with no functions.',
                '_EMPTY = __name__ + %r' % (' was built with no functions: ' + empty),
                'import warnings as _warnings',
                '_warnings.warn(_EMPTY, RuntimeWarning, stacklevel=2)',
                '',
                '',
                'def __getattr__(name):',
                '    if name.startswith(\'__\'):',
                '        raise AttributeError(name)',
                '    raise AttributeError(\'module %r has no attribute %r: \' % (__name__, name)'
                ' + _EMPTY)']
    out += ['', '# Defines the C entry points in this module: the names of __all__, but',
            '# those returning pointers, which are wrapped below.',
            '_rt.install(__name__)']
    for fn in functions:
        if fn.ret_kind == 'pointer':
            out += ['', '',
                    'def %s(*args, **kwargs):' % fn.name,
                    '    """%s"""' % fn.prototype,
                    '    return _ffi.cast(%r, %s(*args, **kwargs))' % (fn.ret_cffi, c_name(fn))]
    if constants:
        out += ['', '# The headers\' enum constants, as cffi\'s lib had them.',
                '_CONSTANTS = %r' % list(constants),
                'for _i, _name in enumerate(_CONSTANTS):',
                '    globals()[_name] = _lib._thffi_constant(_i)']
    out += ['', '',
            '# The compiled module by its legacy path, for package __init__.py files',
            '# written for torch.utils.ffi: `from .%s import lib as _lib, ffi as _ffi`,' % legacy,
            '# then _wrap_function(getattr(_lib, name), _ffi) for each name in dir(_lib).',
            'class _LegacyLib:',
            '    def __dir__(self):',
            '        return list(__all__) + %r' % list(constants),
            '',
            '',
            '_legacy = _types.ModuleType(__name__ + %r)' % ('.' + legacy),
            '_legacy.ffi, _legacy.lib = _ffi, _LegacyLib()',
            'for _name in dir(_legacy.lib):',
            '    setattr(_legacy.lib, _name, globals()[_name])',
            '_sys.modules[_legacy.__name__] = _legacy',
            'globals()[%r] = _legacy' % legacy]
    if absolute:
        out += ['# The top-level module setuptools built carries them too, as 0.4\'s lib did.',
                '_sys.modules[%r].lib = _legacy.lib' % module]
    return '\n'.join(out) + '\n'
