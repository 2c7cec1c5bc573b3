"""Inline PTX (asm() strings in CUDA code), then and now.

CUDA 8 code and its libraries (CUB 1.x) wrote warp shuffles and votes in
PTX without `.sync`: `shfl.up.b32 r0|p, %1, %2, %3;`.  PTX ISA 6.0 (CUDA 9)
added the `.sync` forms, which take the mask of the lanes taking part as
their last operand; ptxas refuses the old ones for sm_70 and later
("Instruction 'shfl' without '.sync' is not supported on .target sm_70 and
higher from PTX ISA version 6.4"), and CUDA 13 targets nothing older than
sm_75.  RULES rewrite one instruction, its operands up to the `;` in the
same string literal, with the full-warp mask: what the old instruction did
for a whole warp (the warp intrinsics get the same, port/warp.py)."""

import collections
import re

MASK = '0xffffffff'
# old: a regular expression of the instruction with its operands (group
# 'ops'); new: the instruction's new name (the operands follow, then the
# mask); why; release: the CUDA release of the change.
Rule = collections.namedtuple('Rule', 'old new why release')
_OPERANDS = r'(?P<ops>\s[^;"]*?)\s*;'
RULES = [
    Rule(r'\bshfl\.(?P<mode>up|down|idx|bfly)\.b32' + _OPERANDS, r'shfl.sync.\g<mode>.b32',
         'shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA 6.0); shfl without .sync is '
         'refused for sm_70+', 'CUDA 9'),
    Rule(r'\bvote\.(?P<mode>any|all|uni)\.pred' + _OPERANDS, r'vote.sync.\g<mode>.pred',
         'vote.sync.mode.pred d, {!}a, membermask (PTX ISA 6.0); vote without .sync is '
         'refused for sm_70+', 'CUDA 9'),
    Rule(r'\bvote\.ballot\.b32' + _OPERANDS, 'vote.sync.ballot.b32',
         'vote.sync.ballot.b32 d, {!}a, membermask (PTX ISA 6.0); vote without .sync is '
         'refused for sm_70+', 'CUDA 9'),
]
# An old instruction whose operands do not end in the same literal.
_UNFINISHED = re.compile(r'\b(?:shfl\.(?:up|down|idx|bfly)\.b32|vote\.(?:any|all|uni)\.pred'
                         r'|vote\.ballot\.b32)\b')

Change = collections.namedtuple('Change', 'old new why')


def modernize(literal):
    """(new literal, [Change], [instruction left]) for one string literal of
    an asm() statement: the old instructions of RULES rewritten with the
    full-warp mask; those whose operands go on past the literal are left
    (and listed)."""
    changes = []
    for rule in RULES:
        def replace(match, rule=rule):
            new = '%s%s, %s;' % (match.expand(rule.new), match.group('ops'), MASK)
            changes.append(Change(match.group(0), new, rule.why))
            return new
        literal = re.sub(rule.old, replace, literal)
    return literal, changes, _UNFINISHED.findall(literal)
