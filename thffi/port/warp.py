"""Warp intrinsics without a mask, for `python -m thffi port`: `__shfl`,
`__shfl_up`, `__shfl_down`, `__shfl_xor`, `__ballot`, `__any`, `__all`,
deprecated in CUDA 9 and undefined in CUDA 13 (`identifier "__shfl_down"
is undefined`).  In the CUDA sources the build compiles (compiled.py's
cuda_files) each call becomes its documented _sync form with the full-warp
mask, what the maskless one did for a whole warp:
`__shfl_down(v, d[, w])` -> `__shfl_down_sync(0xffffffff, v, d[, w])`,
`__ballot(p)` -> `__ballot_sync(0xffffffff, p)`; each rewrite is reported,
since a call some lanes skip needs their mask instead.

Calls are found as whole identifiers followed by `(` in the text with
comments and string/char literals blanked (c.py's lexing), so that
`__shfl_down_sync(`, `my__shfl(`, `x.__any(`, comments and strings are
not touched; macro bodies are (a `#define` calling `__shfl_down` is
compiled where it is used).  A name the code defines itself (`#define
__shfl_down(...)`, or a function of that name) is left alone everywhere
and reported: the code has its own compatibility layer.  Inline PTX in
the string literals of asm() statements gets the same (toolchain/ptx.py:
`shfl.up.b32 d, a, b, c;` -> `shfl.sync.up.b32 d, a, b, c, 0xffffffff;`).
Rewritten text has no maskless call left, so a second run changes
nothing."""

import re

from ..toolchain import ptx
from ..toolchain.cc import COMMENT_OR_STRING, blank_comments_and_strings
from .report import Finding

NAMES = ('__shfl', '__shfl_up', '__shfl_down', '__shfl_xor', '__ballot', '__any', '__all')
MASK = '0xffffffff'
_CALL = re.compile(r'(?<![\w.>$])(%s)\s*\(' % '|'.join(sorted(NAMES, key=len, reverse=True)))
_DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(%s)\b' % '|'.join(NAMES), re.M)
# Words before a call that make it an expression, not a declaration
# (`float __shfl(float v, int l)` declares one).
_EXPRESSION_WORDS = ('return', 'else', 'case', 'do', 'throw')
_MACRO_HEAD = re.compile(r'#[ \t]*define[ \t]+\w+[ \t]*$')
_ASM = re.compile(r'\b(?:asm|__asm__|__asm)\b\s*(?:(?:volatile|__volatile__|goto)\b\s*)*\(')


def _closing(code, i):
    """The offset after the `)` matching the `(` at code[i], or len(code)."""
    depth = 0
    for j in range(i, len(code)):
        depth += {'(': 1, ')': -1}.get(code[j], 0)
        if depth == 0:
            return j + 1
    return len(code)


def _line(code, offset):
    return code.count('\n', 0, offset) + 1


def _calls(code):
    """(name, offset of the name, offset of its `(`, a definition or
    declaration of it rather than a call) for each maskless name followed by
    a parenthesis; code: comments and strings blanked."""
    for match in _CALL.finditer(code):
        head = code[max(0, match.start() - 200):match.start()]
        before = re.search(r'(\w+)\s*$', head)
        after = code[_closing(code, match.end() - 1):].lstrip()[:1]
        declared = after == '{' or (before is not None and not _MACRO_HEAD.search(head)
                                    and before.group(1) not in _EXPRESSION_WORDS)
        yield match.group(1), match.start(), match.end() - 1, declared


def _asm_literals(text, code):
    """(start, end) of each string literal in an asm() statement."""
    for match in _ASM.finditer(code):
        end = _closing(code, match.end() - 1)
        for literal in COMMENT_OR_STRING.finditer(text, match.end(), end):
            if literal.group(0).startswith('"'):
                yield literal.start(), literal.end()


def _ptx(text, code):
    """(edits, [(line, ptx.Change)], [(line, instruction left)]) of the old
    inline PTX (toolchain/ptx.py) in asm() statements."""
    edits, changed, left = [], [], []
    for start, end in _asm_literals(text, code):
        new, changes, unfinished = ptx.modernize(text[start:end])
        if changes:
            edits.append((start, end, new))
        changed += [(_line(code, start), c) for c in changes]
        left += [(_line(code, start), name) for name in unfinished]
    return edits, changed, left


def _ptx_left(path, left):
    return [Finding(path, line, 'PTX %s without .sync, its operands going on past this string: '
                    'write %s with the mask of the lanes taking part as its last operand '
                    '(ptxas refuses the old form for sm_70 and later)'
                    % (name, name.replace('.', '.sync.', 1)), False) for line, name in left]


def own_definitions(text, path):
    """{name: Finding} of the maskless names a file defines itself (a
    macro, or a function defined or declared with that name)."""
    code = blank_comments_and_strings(text)
    own = {m.group(1): m.start(1) for m in _DEFINE.finditer(code)}
    for name, start, _, declared in _calls(code):
        if declared:
            own.setdefault(name, start)
    return {name: Finding(path, _line(code, start), 'defines its own %s: calls of it are not '
                          'rewritten to %s_sync' % (name, name), False)
            for name, start in own.items()}


def rewrite_warp(text, path, own=()):
    """(new text, [Finding]) for one compiled CUDA source: the calls of
    maskless names not in own rewritten with the full-warp mask."""
    code = blank_comments_and_strings(text)
    edits, findings = [], []
    for name, start, paren, declared in _calls(code):
        if declared or name in own:
            continue
        args = code[paren + 1:_closing(code, paren) - 1].strip()
        edits.append((start, paren + 1, '%s_sync(%s%s' % (name, MASK, ', ' if args else '')))
        findings.append(Finding(path, _line(code, start), '%s(...): now %s_sync(%s, ...); '
                                'full-warp mask assumed: if only some lanes take part, pass '
                                'their mask' % (name, name, MASK), True))
    asm_edits, changed, left = _ptx(text, code)
    findings += [Finding(path, line, 'PTX `%s`: now `%s`; full-warp mask assumed: if only some '
                         'lanes take part, pass their mask' % (c.old, c.new), True)
                 for line, c in changed] + _ptx_left(path, left)
    for start, end, replacement in sorted(edits + asm_edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, sorted(findings, key=lambda f: f.line)


def report_warp(text, path):
    """[Finding] of maskless calls in a file port does not rewrite (not
    compiled as CUDA by the build, or not read as UTF-8)."""
    code = blank_comments_and_strings(text)
    _, changed, left = _ptx(text, code)
    return [Finding(path, _line(code, start), '%s() is gone from CUDA 13 (deprecated since '
                    'CUDA 9): write %s_sync(%s, ...), its mask naming the lanes that take part '
                    '(all of a full warp)' % (name, name, MASK), False)
            for name, start, _, declared in _calls(code) if not declared] + [
        Finding(path, line, 'PTX `%s`: ptxas refuses it for sm_70 and later; write `%s`'
                % (c.old, c.new), False) for line, c in changed] + _ptx_left(path, left)
