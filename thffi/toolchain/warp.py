"""Warp intrinsics without a mask, then and now: `__shfl`, `__shfl_up`,
`__shfl_down`, `__shfl_xor`, `__ballot`, `__any`, `__all`.  CUDA 8 code
called them; CUDA 9 deprecated them for their `_sync` forms, which take
the mask of the lanes taking part, and declares them only for GPUs older
than sm_70 (`identifier "__shfl_down" is undefined`; the votes, still
declared, become PTX that ptxas refuses: ptx.py), and CUDA 13 compiles for
nothing older than sm_75.  Each call becomes its `_sync` form with the
full-warp mask, what the maskless one did for a whole warp:
`__shfl_down(v, d[, w])` -> `__shfl_down_sync(0xffffffff, v, d[, w])`,
`__ballot(p)` -> `__ballot_sync(0xffffffff, p)`; inline PTX in the string
literals of asm() statements gets the same (ptx.py: `shfl.up.b32 d, a, b,
c;` -> `shfl.sync.up.b32 d, a, b, c, 0xffffffff;`).

Two appliers read this: `port` writes rewrite()'s text into the CUDA
files the build compiles (port/warp.py), and `thffi run`'s nvcc compiles
the same text in their place (run/cuda_sources.py).

Calls are found as whole identifiers followed by `(` in the text with
comments and string/char literals blanked (cc.py's lexing), so that
`__shfl_down_sync(`, `my__shfl(`, `x.__any(`, comments and strings are
not touched; macro bodies are (a `#define` calling `__shfl_down` is
compiled where it is used).  A name the code defines itself (`#define
__shfl_down(...)`, or a function of that name: own()) is left alone: the
code has its own compatibility layer.  Rewritten text has no maskless call
left, so a second rewrite changes nothing."""

import collections
import re

from . import ptx
from .cc import COMMENT_OR_STRING, blank_comments_and_strings

NAMES = ('__shfl', '__shfl_up', '__shfl_down', '__shfl_xor', '__ballot', '__any', '__all')
MASK = ptx.MASK
WHY = ('deprecated in CUDA 9 for their _sync forms, which take the mask of the lanes taking '
       'part, and declared only for GPUs older than sm_70, for which CUDA 13 compiles nothing')
_CALL = re.compile(r'(?<![\w.>$])(%s)\s*\(' % '|'.join(sorted(NAMES, key=len, reverse=True)))
_DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(%s)\b' % '|'.join(NAMES), re.M)
# Words before a call that make it an expression, not a declaration
# (`float __shfl(float v, int l)` declares one).
_EXPRESSION_WORDS = ('return', 'else', 'case', 'do', 'throw')
_MACRO_HEAD = re.compile(r'#[ \t]*define[ \t]+\w+[ \t]*$')
_ASM = re.compile(r'\b(?:asm|__asm__|__asm)\b\s*(?:(?:volatile|__volatile__|goto)\b\s*)*\(')
# A prefilter: text without any of these holds nothing rewrite() changes.
_ANY = re.compile(r'|'.join(NAMES) + r'|\bshfl\.|\bvote\.')

# One rewrite: line (1-based), name (the maskless name, or None for PTX),
# ptx (the ptx.Change, or None).
Change = collections.namedtuple('Change', 'line name ptx')


def mentions(text):
    """Whether text may hold something rewrite() changes (a quick test)."""
    return _ANY.search(text) is not None


def _closing(code, i):
    """The offset after the `)` matching the `(` at code[i], or len(code)."""
    depth = 0
    for j in range(i, len(code)):
        depth += {'(': 1, ')': -1}.get(code[j], 0)
        if depth == 0:
            return j + 1
    return len(code)


def line_of(code, offset):
    return code.count('\n', 0, offset) + 1


def calls(code):
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


def own(text):
    """{name: line} of the maskless names text defines itself (a macro, or a
    function defined or declared with that name)."""
    code = blank_comments_and_strings(text)
    found = {m.group(1): m.start(1) for m in _DEFINE.finditer(code)}
    for name, start, _, declared in calls(code):
        if declared:
            found.setdefault(name, start)
    return {name: line_of(code, start) for name, start in found.items()}


def _asm_literals(text, code):
    """(start, end) of each string literal in an asm() statement."""
    for match in _ASM.finditer(code):
        end = _closing(code, match.end() - 1)
        for literal in COMMENT_OR_STRING.finditer(text, match.end(), end):
            if literal.group(0).startswith('"'):
                yield literal.start(), literal.end()


def old_ptx(text, code=None):
    """(edits [(start, end, new literal)], [Change], [(line, instruction
    left)]) of the old inline PTX in asm() statements (ptx.py)."""
    code = blank_comments_and_strings(text) if code is None else code
    edits, changed, left = [], [], []
    for start, end in _asm_literals(text, code):
        new, changes, unfinished = ptx.modernize(text[start:end])
        if changes:
            edits.append((start, end, new))
        changed += [Change(line_of(code, start), None, c) for c in changes]
        left += [(line_of(code, start), name) for name in unfinished]
    return edits, changed, left


def maskless_calls(text):
    """[(line, name)] of the maskless calls in text (not its declarations)."""
    code = blank_comments_and_strings(text)
    return [(line_of(code, start), name) for name, start, _, declared in calls(code)
            if not declared]


def rewrite(text, own_names=()):
    """(new text, [Change] sorted by line, [(line, PTX instruction left)]):
    each call of a maskless name not in own_names with the full-warp mask,
    and the old inline PTX (ptx.py)."""
    code = blank_comments_and_strings(text)
    edits, changes = [], []
    for name, start, paren, declared in calls(code):
        if declared or name in own_names:
            continue
        args = code[paren + 1:_closing(code, paren) - 1].strip()
        edits.append((start, paren + 1, '%s_sync(%s%s' % (name, MASK, ', ' if args else '')))
        changes.append(Change(line_of(code, start), name, None))
    asm_edits, changed, left = old_ptx(text, code)
    for start, end, replacement in sorted(edits + asm_edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, sorted(changes + changed, key=lambda c: c.line), left
