"""PyTorch 0.x's results where today's differ, given back in the Pythons
`python -m thffi run` starts (its sitecustomize calls install() with
toolchain/tensor_behaviours.py), for the rows whose `run` says how:

- a type conversion (x.double(), x.type(...), x.cuda(): the table's
  CONVERSIONS) of a non-contiguous tensor returns a contiguous tensor, as
  0.x's did, where the type or device changes; a tensor in a memory format
  of its own (channels_last, which 2018 code never made) keeps it, and a
  conversion that names a memory_format gets it;
- x.copy_(y) of tensors with as many elements whose shapes do not
  broadcast copies element by element, as 0.1-0.3 did, where today raises;
- a call of the table's OLD_DEFAULTS that does not give the parameter gets
  0.x's value (F.grid_sample and F.affine_grid align_corners=True,
  F.dropout training=False, optim.LBFGS tolerance_grad=1e-5);
- F.interpolate with a scale_factor and no recompute_scale_factor (so
  F.upsample and nn.Upsample, which call it) gets
  recompute_scale_factor=True: sampled by the ratio of the sizes, as 0.4.

Each says so on stderr the first time, with the line that used it (the
scale factor: the first time it changes numbers).  Nothing else changes: a
conversion that returns its tensor, or one already contiguous, every copy_
today's PyTorch accepts, and a call that gives the parameter, go through as
they are.  torch's functions and torch.Tensor's methods are wrapped when
torch is first imported (a meta path finder wraps its loader), so a Python
that never imports torch pays nothing.  A wrapped function keeps the globals of
torch's module, so TorchScript, compiling the original where scripted code
calls it, resolves its names.

This file is loaded by path (not as part of thffi) and imports only the
standard library, and torch when the code imports it."""

import functools
import inspect
import os
import sys
import types

_SAID = set()


def _where():
    """'file:line: ' of the code that called (the first frame outside this
    file and torch's own, as nn.Upsample's call of F.interpolate), or ''."""
    torch = os.path.dirname(sys.modules['torch'].__file__) + os.sep
    frame = sys._getframe(2)
    while frame is not None and (frame.f_code.co_filename == __file__
                                 or frame.f_code.co_filename.startswith(torch)):
        frame = frame.f_back
    if frame is None:
        return ''
    path = frame.f_code.co_filename
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return '%s:%d: ' % (path if relative.startswith('..') else relative, frame.f_lineno)


def _say(name, rule, what):
    if name not in _SAID:
        _SAID.add(name)
        sys.stderr.write('thffi run: %s%s: PyTorch %s %s; today %s; thffi run %s (for good, '
                         'write %s)\n' % (_where(), what, rule.versions, rule.then, rule.now,
                                          rule.run, rule.write))


def _contiguous(torch, method, name, rule):
    """Tensor.<name> (a conversion) returning a contiguous tensor where it
    makes a new one that is not."""
    @functools.wraps(method)
    def converted(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        if (result is self or 'memory_format' in kwargs or not isinstance(result, torch.Tensor)
                or result.layout != torch.strided or result.is_contiguous()
                or result.is_contiguous(memory_format=torch.channels_last)
                or result.is_contiguous(memory_format=torch.channels_last_3d)):
            return result
        _say('contiguous conversion', rule, 'x.%s() of a non-contiguous tensor' % name)
        return result.contiguous()
    return converted


def _pointwise(torch, copy_, rule):
    """Tensor.copy_ copying element by element between tensors of as many
    elements whose shapes do not broadcast (today: a RuntimeError)."""
    @functools.wraps(copy_)
    def copied(self, src, *args, **kwargs):
        try:
            return copy_(self, src, *args, **kwargs)
        except RuntimeError:
            if not isinstance(src, torch.Tensor) or src.numel() != self.numel() or \
                    src.shape == self.shape or _broadcast(src.shape, self.shape):
                raise
        _say('pointwise copy', rule, 'copy_ of a %s tensor into a %s one'
             % (tuple(src.shape), tuple(self.shape)))
        return copy_(self, src.reshape(self.shape), *args, **kwargs)
    return copied


def _broadcast(source, target):
    """Whether source broadcasts to target (the error was another one)."""
    if len(source) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(reversed(source), reversed(target)))


def _as_torchs(wrapper, original):
    """wrapper, its globals those of original's module: TorchScript, which
    compiles the original's source (inspect follows __wrapped__) where a
    scripted module calls it (nn.Dropout's F.dropout), resolves its names
    there.  The wrapper's own names are all in its closure."""
    made = types.FunctionType(wrapper.__code__, original.__globals__, wrapper.__name__,
                              wrapper.__defaults__, wrapper.__closure__)
    return functools.update_wrapper(made, original)


def _defaulted(function, name, parameter, value, rule, torch_folder):
    """function (name: its dotted path; a class's __init__) given
    parameter=value where the call gives neither it nor an argument in its
    place, called from outside torch's own files (torch_folder): torch's
    calls are today's (multi_head_attention_forward calls F.dropout without
    training=, having set p to 0 where it is not training)."""
    place = list(inspect.signature(function).parameters).index(parameter)
    frame, say = sys._getframe, _say

    def called(*args, **kwargs):
        if len(args) <= place and kwargs.get(parameter) is None and \
                not frame(1).f_code.co_filename.startswith(torch_folder):
            kwargs[parameter] = value
            say(name, rule, '%s(...) without %s=' % (name.rsplit('.', 1)[1], parameter))
        return function(*args, **kwargs)
    return _as_torchs(called, function)


def _recomputed(interpolate, rule):
    """F.interpolate given recompute_scale_factor=True where the call gives a
    scale_factor, no size and no recompute_scale_factor."""
    signature, say = inspect.signature(interpolate), _say

    def interpolated(*args, **kwargs):
        given = signature.bind(*args, **kwargs).arguments
        scale = given.get('scale_factor')
        if scale is None or given.get('size') is not None or \
                given.get('recompute_scale_factor') is not None:
            return interpolate(*args, **kwargs)
        given['recompute_scale_factor'] = True
        sizes = given['input'].shape[2:]
        scales = scale if isinstance(scale, (tuple, list)) else [scale] * len(sizes)
        if any(s * f != int(s * f) for s, f in zip(sizes, scales)):
            say('scale factor', rule, 'interpolate(...) of a size %s by scale_factor=%r'
                % (tuple(sizes), scale))
        return interpolate(**given)
    return _as_torchs(interpolated, interpolate)


def _owner(torch, path):
    """(the module or class holding path's last name, that name)."""
    owner = torch
    for name in path.split('.')[1:-1]:
        owner = getattr(owner, name)
    return owner, path.rsplit('.', 1)[1]


def patch(torch, rules):
    """Wraps torch's functions and torch.Tensor's methods as the module's
    docstring says (once)."""
    tensor = torch.Tensor
    if getattr(tensor.copy_, 'thffi_run', False):
        return
    folder = os.path.dirname(torch.__file__) + os.sep
    for path, parameter, _, value, row in rules.OLD_DEFAULTS:
        owner, name = _owner(torch, path)
        if isinstance(getattr(owner, name), type):
            owner, name = getattr(owner, name), '__init__'
        setattr(owner, name, _defaulted(getattr(owner, name), path, parameter, value,
                                        rules.RULES[row], folder))
    functional = torch.nn.functional
    functional.interpolate = _recomputed(functional.interpolate, rules.RULES['scale factor'])
    for name in rules.CONVERSIONS:
        wrapped = _contiguous(torch, getattr(tensor, name), name,
                              rules.RULES['contiguous conversion'])
        wrapped.thffi_run = True
        setattr(tensor, name, wrapped)
    wrapped = _pointwise(torch, tensor.copy_, rules.RULES['pointwise copy'])
    wrapped.thffi_run = True
    tensor.copy_ = wrapped


class TorchBehaviours:
    """On sys.meta_path: torch's spec as the other finders give it, with a
    loader that patches (after_import.py)."""

    def __init__(self, after_import, rules):
        self.after_import = after_import
        self.rules = rules

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'torch':
            return None
        return self.after_import.patched(self, fullname, path, target,
                                         lambda torch: patch(torch, self.rules))


def install(after_import, rules):
    """Gives the rows of rules (toolchain/tensor_behaviours.py, a module)
    their old results in this process, once (after_import: run's
    after_import.py, loaded)."""
    if 'torch' in sys.modules:
        patch(sys.modules['torch'], rules)
    elif not any(type(f).__name__ == 'TorchBehaviours' for f in sys.meta_path):
        sys.meta_path.insert(0, TorchBehaviours(after_import, rules))
