"""Run-time support of a built thffi extension.

The builder copies this file into every extension package it writes (as
_thffi_runtime.py), so a built extension needs torch and cffi's backend only.
It holds what the generated wrappers share: the validating slow path, the
error check, and the callback through which C resizes a caller's tensor."""

import itertools
import operator
import sys
from dataclasses import dataclass

import torch

# The C layer's dtype numbers (THFFI_DTYPE) and tensor operations (THFFI_OP_*).
_DTYPES = (torch.float32, torch.float64, torch.uint8, torch.int8, torch.int16, torch.int32,
           torch.int64)
(_RESIZE, _NEW, _SELECT, _NARROW, _TRANSPOSE, _CONTIGUOUS, _CLONE, _RELEASE) = range(8)
_OP_NAMES = ('resize', 'create', 'select on', 'narrow', 'transpose', 'make contiguous',
             'clone', 'release')
_MAX_DIMS = 64  # THFFI_MAX_DIMS


@dataclass(frozen=True)
class Param:
    name: str
    kind: str            # 'tensor', 'int', 'uint', 'float' or 'pointer'
    ctype: str
    dtype: object = None  # tensors: the torch dtype the TH type stands for
    device: str = None    # tensors: the device type


@dataclass(frozen=True)
class Spec:
    name: str
    fn: object           # the cffi trampoline
    prototype: str
    params: tuple
    cuda: bool = False   # takes CUDA tensors: the trampoline wants their device first


def _describe(value):
    if isinstance(value, torch.Tensor):
        layout = '' if value.layout is torch.strided else ' %s' % value.layout
        return '%s%s tensor on %s' % (value.dtype, layout, value.device.type)
    return type(value).__name__


class Runtime:
    """The shared part of one extension's wrappers."""

    def __init__(self, ffi, lib, with_cuda=False):
        self.ffi = ffi
        self.lib = lib
        # Tensors C created in calls still running (or returned by one and
        # not yet handed over), by key; see THFFITensorPriv.ref.
        self._owned = {}
        self._keys = itertools.count()
        ffi.def_extern(name='_thffi_tensor_cb')(self._tensor)
        if with_cuda:
            ffi.def_extern(name='_thffi_stream_cb')(self._stream)
            ffi.def_extern(name='_thffi_cuda_memory_cb')(self._cuda_memory)

    def call(self, spec, args):
        """Validates every argument against the prototype, then calls the
        trampoline.  Raises TypeError naming the function, the argument and
        what was expected; nothing is called then."""
        ffi = self.ffi
        cargs = []
        device = first = None
        for pos, (param, value) in enumerate(zip(spec.params, args), 1):
            what = '%s(): argument %d (%s)' % (spec.name, pos, param.name)
            kind = param.kind
            if kind == 'tensor':
                expected = '%s (a torch.Tensor of dtype %s on %s) or None' % (
                    param.ctype[:-2], param.dtype, param.device)
                if value is None:
                    cargs += [0, -1, ffi.NULL, ffi.NULL]
                    continue
                if not (isinstance(value, torch.Tensor) and value.layout is torch.strided
                        and value.dtype is param.dtype
                        and value.device.type == param.device):
                    raise TypeError('%s: expected %s, got %s'
                                    % (what, expected, _describe(value)))
                if param.device == 'cuda':
                    if device is None:
                        device, first = value.get_device(), what
                    elif value.get_device() != device:
                        raise RuntimeError('%s is on cuda:%d but %s is on cuda:%d; the CUDA '
                                           'tensors of a call must be on one device'
                                           % (what, value.get_device(), first, device))
                cargs += [value.data_ptr(), value.dim(), value.shape, value.stride()]
            elif kind in ('int', 'uint'):
                cargs.append(self._integer(what, param.ctype, value))
            elif kind == 'float':
                if isinstance(value, (str, bytes)) or not hasattr(value, '__float__'):
                    raise TypeError('%s: expected a real number (%s), got %s'
                                    % (what, param.ctype, _describe(value)))
                cargs.append(float(value))
            else:
                if value is None:
                    value = ffi.NULL
                elif isinstance(value, int):
                    value = ffi.cast('void *', value)
                elif not (isinstance(value, ffi.CData)
                          and ffi.typeof(value).kind in ('pointer', 'array')):
                    raise TypeError('%s: expected a cffi pointer, an address or None '
                                    '(%s), got %s' % (what, param.ctype, _describe(value)))
                cargs.append(value)
        if spec.cuda:
            cargs.insert(0, -1 if device is None else device)
        return spec.fn(*cargs)

    def _integer(self, what, ctype, value):
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError('%s: expected an integer (%s), got %s'
                            % (what, ctype, _describe(value))) from None
        bits = 8 * self.ffi.sizeof(ctype)
        lo, hi = (0, 2 ** bits - 1) if ctype.startswith(('u', 'size', '_Bool', 'bool')) \
            else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        if not lo <= value <= hi:
            raise OverflowError('%s: %d does not fit in %s (%d..%d)'
                                % (what, value, ctype, lo, hi))
        return value

    def check(self, result, name):
        """Called when a trampoline returned its error sentinel: raises the C
        error of this thread, if there is one, else returns the result (a
        real value that happens to equal the sentinel)."""
        msg = self.lib.THFFI_takeError()
        if msg == self.ffi.NULL:
            return result
        raise RuntimeError('%s: %s' % (name, self.ffi.string(msg).decode('utf-8', 'replace')))

    def _report(self, err, errlen, msg):
        """Hands a callback's failure to C: the message into err, returns 1."""
        raw = msg.encode('utf-8', 'replace')[:errlen - 1] + b'\0'
        self.ffi.memmove(err, raw, len(raw))
        return 1

    def returned(self, ref, args):
        """The tensor a C function returned, from its reference."""
        if ref >= 0:
            return args[ref]
        if ref == -1:
            return None
        return self._owned.pop(-2 - ref)

    @staticmethod
    def _argument(caller, ref):
        # Argument `ref` of the wrapped call in progress.  `caller` is the
        # Python frame that entered C: either a generated wrapper (the
        # argument is its ref-th parameter) or self.call (in `args`).
        if caller.f_code is Runtime.call.__code__:
            return caller.f_locals['args'][ref]
        return caller.f_locals[caller.f_code.co_varnames[ref]]

    def _tensor(self, op, ref, src_ref, dtype, device, n, args, ref_out, dim_out, size_out,
                stride_out, data_out, err, errlen):
        # Called from C, with the GIL, by THFFI_tensorOp (csrc/THGeneral.c).
        caller = sys._getframe(1)

        def lookup(r):
            return self._argument(caller, r) if r >= 0 else self._owned[-2 - r]

        values = [args[i] for i in range(n)]
        try:
            if op == _RELEASE:
                self._owned.pop(-2 - ref, None)
                return 0
            if op == _NEW:
                tensor = torch.empty(values, dtype=_DTYPES[dtype],
                                     device='cpu' if device < 0 else torch.device('cuda', device))
            elif op == _CLONE:
                tensor = lookup(src_ref).clone(memory_format=torch.contiguous_format)
            elif op == _CONTIGUOUS:
                src = lookup(src_ref)
                tensor = src.detach() if src.is_contiguous() else src.contiguous()
            else:
                tensor = lookup(ref)
                if op == _RESIZE:
                    tensor.resize_(values)
                elif op == _SELECT:
                    tensor.set_(lookup(src_ref).select(*values))
                elif op == _NARROW:
                    tensor.set_(lookup(src_ref).narrow(*values))
                else:
                    tensor.set_(lookup(src_ref).transpose(*values))
            if op in (_NEW, _CLONE, _CONTIGUOUS):
                key = next(self._keys)
                self._owned[key] = tensor
                ref_out[0] = -2 - key
            if tensor.dim() > _MAX_DIMS:
                raise ValueError('%d dimensions, more than the %d TH supports'
                                 % (tensor.dim(), _MAX_DIMS))
            dim_out[0] = tensor.dim()
            for i, (size, stride) in enumerate(zip(tensor.shape, tensor.stride())):
                size_out[i] = size
                stride_out[i] = stride
            data_out[0] = tensor.data_ptr()
            return 0
        except BaseException as exc:  # must not propagate into C
            what = ('argument %d' % (ref + 1) if ref >= 0 else 'a tensor created in C') \
                if op not in (_NEW, _CLONE, _CONTIGUOUS) else 'a tensor'
            shape = ' to %s' % (tuple(values),) if op in (_RESIZE, _NEW) else ''
            return self._report(err, errlen, 'cannot %s %s%s: %s'
                                % (_OP_NAMES[op], what, shape, exc))

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
