"""Run-time support of a built thffi extension.

The builder copies this file into every extension package it writes (as
_thffi_runtime.py), so a built extension needs torch and cffi's backend only.
It holds what the generated wrappers share: the validating slow path, the
error check, and the callback through which C resizes a caller's tensor."""

import operator
import sys
from dataclasses import dataclass

import torch


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
        ffi.def_extern(name='_thffi_resize_cb')(self._resize)
        if with_cuda:
            ffi.def_extern(name='_thffi_stream_cb')(self._stream)

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

    def _resize(self, ref, dim, size, stride_out, data_out, err, errlen):
        # Called from C, with the GIL, by THTensor_resizeNd.  The tensor to
        # resize is argument `ref` of the wrapped call in progress, whose
        # Python frame is the one that entered C: either a generated wrapper
        # (the argument is its ref-th parameter) or self.call (in `args`).
        shape = [size[i] for i in range(dim)]
        try:
            caller = sys._getframe(1)
            if caller.f_code is Runtime.call.__code__:
                tensor = caller.f_locals['args'][ref]
            else:
                tensor = caller.f_locals[caller.f_code.co_varnames[ref]]
            tensor.resize_(shape)
            for i, s in enumerate(tensor.stride()):
                stride_out[i] = s
            data_out[0] = tensor.data_ptr()
            return 0
        except BaseException as exc:  # must not propagate into C
            return self._report(err, errlen, 'cannot resize argument %d to %s: %s'
                                % (ref + 1, tuple(shape), exc))

    def _stream(self, device, stream_out, err, errlen):
        # Called from C, with the GIL, by THCState_getCurrentStream.
        try:
            stream = torch.cuda.current_stream(device if device >= 0 else None)
            stream_out[0] = stream.cuda_stream
            return 0
        except BaseException as exc:  # must not propagate into C
            return self._report(err, errlen, 'cannot get the current CUDA stream: %s' % exc)
