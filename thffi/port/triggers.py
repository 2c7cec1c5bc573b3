"""Which Python files port's libcst pass (python.py) can change or report
on, decided from the text alone, before parsing: parsing a file with libcst
and resolving its metadata costs a hundred times what this does, and most
files of a 2018 repository hold nothing port rewrites.

The answer may be yes for a file the pass then leaves alone, never no for
one it would change or report on.  It is read from the names the fixers'
own tables hold (python.py's Function and Variable names, removed.py's
rows in toolchain/pyremoved.py, behaviours.py's integer tensors, upsample
and reductions and toolchain/tensor_behaviours.py's rows, the extensions
layout.py follows), by what libcst's
qualified names need: `a.b.c` resolves only where the code writes each of
a, b and c as a name, with c after a dot (`np.float`, `import a.b.c`) or in
a `from a.b import` statement.  A Python 2 file always goes through the
pass (removed.py's integer `/` there needs no name)."""

import functools
import re

from ..toolchain import pyremoved, tensor_behaviours
from . import behaviours

# What may lie between two tokens of an expression: spaces, line breaks
# (inside brackets or after a backslash) and comments to the end of their
# line; each character matched one way only (an ambiguous pattern takes
# exponential time on a long comment).
_GAP = r'(?:[\s\\]|#[^\n]*\n)*'
_WORD = re.compile(r'[A-Za-z_][A-Za-z_0-9]*')

# python.py's own rewrites that no table names: torch.utils.ffi (and the
# build scripts' CUDA gates, found only in files that use it), torch.range,
# legacy Functions and Variable (its tables).
_PYTHON_NAMES = ('torch.utils.ffi', 'torch.range')
# x.data[0] (python.py: a Subscript of the attribute data by the integer 0).
_DATA_0 = re.compile(r'\.' + _GAP + r'data' + _GAP + r'\[' + _GAP + r'0' + _GAP + r'\]')


def _attribute(name):
    return re.compile(r'\.' + _GAP + re.escape(name) + r'\b')


def _from_import(module):
    return re.compile(r'\bfrom(?:\s|\\)+' + r'(?:\s|\\)*\.(?:\s|\\)*'.join(
        map(re.escape, module.split('.'))) + r'(?:\s|\\)+import\b')


class _Qualified:
    """A qualified name (`torch.nn.functional.upsample`) as libcst resolves
    it: each part written as a name, the last one after a dot or in a
    `from module import`."""

    def __init__(self, name):
        self.parts = frozenset(name.split('.'))
        module, _, last = name.rpartition('.')
        self.tests = (_attribute(last), _from_import(module)) if module else ()

    def __call__(self, source, words):
        return self.parts <= words and (not self.tests or any(
            test.search(source) for test in self.tests))


class _Attribute:
    """A method or attribute written after a dot (`.isAlive`, `.volatile`)."""

    def __init__(self, name):
        self.parts = frozenset((name,))
        self.test = _attribute(name)

    def __call__(self, source, words):
        return self.parts <= words and self.test.search(source) is not None


class _Word:
    """A name written anywhere (`size_average`, `_ext`)."""

    def __init__(self, name):
        self.parts = frozenset((name,))

    def __call__(self, source, words):
        return self.parts <= words


class _All:
    """Each of several tests: a character the source holds (`/`) and any of
    some tests."""

    def __init__(self, text, tests):
        self.text, self.tests = text, tuple(tests)

    def __call__(self, source, words):
        return self.text in source and any(test(source, words) for test in self.tests)


def _int_tensor():
    """The tests for what behaviours.py takes for an integer tensor: an
    integer dtype or function of torch, an integer tensor type, a method
    that returns one, or the indices of a reduction."""
    b = behaviours
    return ([_Qualified(n) for n in sorted(b._INT_DTYPES | b._INT_FUNCTIONS)] +
            [_Attribute(n) for n in sorted(set(b._INT_METHODS) | set(b._WITH_INDICES))] +
            [_Word(n) for n in b._INT_TYPES])


@functools.lru_cache(maxsize=None)
def _tests(version, extensions):
    tests = [_Qualified(n) for n in sorted(behaviours.FUNCTION_CLASSES
                                           | behaviours.VARIABLE_CLASSES) +
             list(_PYTHON_NAMES)]
    # removed.py: the rows of REMOVED, a module's row covering what it holds.
    for row in pyremoved.REMOVED:
        old = row.old.partition('(')[0].rstrip(':')  # a keyword's owner, a call, an import
        if old.startswith('self.'):
            test = _Attribute(old[len('self.'):])
        elif old.startswith('.'):
            test = _Attribute(old[1:])
        else:
            test = _Qualified(old)
        if row.old.endswith('=)'):  # the owner, and the keyword written
            test = _All(row.old[row.old.index('(') + 1:-1], [test])
        tests.append(test)
    # behaviours.py: integer / and requires_grad on an integer tensor; the
    # reductions' size_average= and reduce=; x.volatile; upsample and
    # interpolate; the changed defaults; torch.cuda.device(n); before 0.2,
    # reductions with a dim.
    ints = _int_tensor()
    tests += [_All('/', ints), _All('requires_grad', ints)]
    tests += [_Word('size_average'), _Word('reduce'), _Attribute('volatile')]
    tests += [_Qualified(n) for n in sorted(behaviours._UPSAMPLE | behaviours._UPSAMPLE_MODULES
                                            | set(behaviours._OLD_DEFAULTS)) + [
        'torch.nn.functional.interpolate', 'torch.cuda.device']]
    if version == '0.1':
        tests += [_Attribute(n) for n in sorted(behaviours._KEEPDIM)]
    # behaviours.py's rows of toolchain/tensor_behaviours.py: a conversion
    # then viewed or resized; a tensor class name compared with __name__;
    # before 0.4, pad_packed_sequence.
    conversions = [_Attribute(n) for n in tensor_behaviours.CONVERSIONS]
    tests += [_All('view', conversions), _All('resize_', conversions),
              _All('__name__', [_Word(n) for n in tensor_behaviours.TENSOR_CLASS_NAMES])]
    if version < '0.4':
        tests.append(_Word('pad_packed_sequence'))
    # layout.py: calls into an `_ext` module or an extension the build makes.
    tests += [_Word('_ext')] + [_Word(e.rpartition('.')[2]) for e in extensions]
    return tuple(tests)


def wanted(source, version, python2=False, extensions=()):
    """Whether python.py's libcst pass may change or report on source (the
    text of one file, after py2.py), written for PyTorch version; python2:
    the file is Python 2; extensions: the dotted names create_extension
    gives (Repository.extensions)."""
    if python2 or _DATA_0.search(source):
        return True
    words = set(_WORD.findall(source))
    return any(test(source, words) for test in _tests(version, tuple(extensions)))
