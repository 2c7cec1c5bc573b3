"""Warp intrinsics without a mask, for `python -m thffi port`: the rules of
toolchain/warp.py (`__shfl_down(v, d)` -> `__shfl_down_sync(0xffffffff, v,
d)`, the old inline PTX of toolchain/ptx.py) written into the CUDA sources
the build compiles (compiled.py's cuda_files), each rewrite reported,
since a call some lanes skip needs their mask instead; reported only in
the files the build does not compile.  A name the code defines itself
(`#define __shfl_down(...)`, or a function of that name) is left alone
everywhere and reported: the code has its own compatibility layer.
`thffi run` compiles the same rewrite in flight (run/cuda_sources.py)."""

from ..toolchain import warp
from .report import Finding


def _fixed(path, change):
    if change.ptx is None:
        return Finding(path, change.line, '%s(...): now %s_sync(%s, ...); full-warp mask '
                       'assumed: if only some lanes take part, pass their mask'
                       % (change.name, change.name, warp.MASK), True)
    return Finding(path, change.line, 'PTX `%s`: now `%s`; full-warp mask assumed: if only '
                   'some lanes take part, pass their mask' % (change.ptx.old, change.ptx.new),
                   True)


def _ptx_left(path, left):
    return [Finding(path, line, 'PTX %s without .sync, its operands going on past this string: '
                    'write %s with the mask of the lanes taking part as its last operand '
                    '(ptxas refuses the old form for sm_70 and later)'
                    % (name, name.replace('.', '.sync.', 1)), False) for line, name in left]


def own_definitions(text, path):
    """{name: Finding} of the maskless names a file defines itself (a
    macro, or a function defined or declared with that name)."""
    return {name: Finding(path, line, 'defines its own %s: calls of it are not rewritten to '
                          '%s_sync' % (name, name), False)
            for name, line in warp.own(text).items()}


def rewrite_warp(text, path, own=()):
    """(new text, [Finding]) for one compiled CUDA source: the calls of
    maskless names not in own rewritten with the full-warp mask."""
    text, changes, left = warp.rewrite(text, own)
    return text, sorted([_fixed(path, c) for c in changes] + _ptx_left(path, left),
                        key=lambda f: f.line)


def report_warp(text, path):
    """[Finding] of maskless calls in a file port does not rewrite (not
    compiled as CUDA by the build, or not read as UTF-8)."""
    _, changed, left = warp.old_ptx(text)
    return [Finding(path, line, '%s() is gone from CUDA 13 (deprecated since CUDA 9): write '
                    '%s_sync(%s, ...), its mask naming the lanes that take part (all of a full '
                    'warp)' % (name, name, warp.MASK), False)
            for line, name in warp.maskless_calls(text)] + [
        Finding(path, c.line, 'PTX `%s`: ptxas refuses it for sm_70 and later; write `%s`'
                % (c.ptx.old, c.ptx.new), False) for c in changed] + _ptx_left(path, left)
