"""Fields of the CUDA runtime's structs that 2018 code read and today's
toolkits renamed: cudaPointerAttributes::memoryType, which CUDA 10.0
deprecated for `type` and CUDA 11.0 removed.  port writes the new name
(port/__init__.py, in every C, C++ and CUDA source), and `thffi run`
compiles the same rewrite in flight (run/cuda_sources.py, for the CUDA
sources nvcc compiles); the repository's files stay as they were there.

Field(struct, old, new, removed, why): a member access `.old` or `->old`
is written `.new` / `->new` in a file that names `struct` (the name is the
hint that the access is of it: a file with a struct of its own with such
a member and no mention of `struct` is left alone)."""

import collections
import re

from .cc import blank_comments_and_strings

Field = collections.namedtuple('Field', 'struct old new removed why')

FIELDS = [
    Field('cudaPointerAttributes', 'memoryType', 'type', '11.0',
          'CUDA 10.0 renamed it `type`, whose values add cudaMemoryTypeUnregistered and '
          'cudaMemoryTypeManaged (managed memory, which memoryType called '
          'cudaMemoryTypeDevice), and CUDA 11.0 removed the old name'),
]


def mentions(text):
    return any(field.old in text and field.struct in text for field in FIELDS)


def rewrite(text):
    """(new text, [(line, Field)]) of the accesses of FIELDS' old names in
    text, each written with the new name (comments and strings left
    alone)."""
    if not mentions(text):
        return text, []
    code = blank_comments_and_strings(text)
    edits = []
    for field in FIELDS:
        if not re.search(r'\b%s\b' % field.struct, code):
            continue
        for match in re.finditer(r'(?:\.|->)\s*(%s)\b' % field.old, code):
            edits.append((match.start(1), match.end(1), field))
    for start, end, field in sorted(edits, reverse=True, key=lambda e: e[0]):
        text = text[:start] + field.new + text[end:]
    return text, [(code.count('\n', 0, start) + 1, field) for start, _, field in sorted(
        edits, key=lambda e: e[0])]


def describe(field):
    """The clause saying what is written for a row."""
    return '%s::%s is gone from CUDA %s: now .%s (%s)' % (field.struct, field.old, field.removed,
                                                      field.new, field.why)
