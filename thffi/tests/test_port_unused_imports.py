"""port's removal of the imports a rewrite left unused (thffi/port/unused_imports.py):
Python's symbol tables decide, as libcst's RemoveImportsVisitor decides with its
own scope analysis; the two are compared on 2018-style snippets of ours."""

import textwrap

import libcst as cst
import pytest
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

from thffi.port import unused_imports


def ours(source, *wanted):
    context = CodemodContext()
    for entry in wanted:
        unused_imports.schedule(context, *entry)
    tree, imported = unused_imports.remove(cst.parse_module(source), context)
    return tree.code, imported


def libcsts(source, *wanted):
    context = CodemodContext()
    for entry in wanted:
        RemoveImportsVisitor.remove_unused_import(context, *entry)
    return RemoveImportsVisitor(context).transform_module(cst.parse_module(source)).code


CASES = [
    # Variable's uses rewritten away: the import goes, the rest of the line stays.
    ('from torch.autograd import Variable, Function\n\n'
     'class Shift(Function):\n    pass\n', ('torch.autograd', 'Variable')),
    ('from torch.autograd import Variable\nx = 1\n', ('torch.autograd', 'Variable')),
    # Still read, in a method (a global read from a function scope).
    ('from torch.autograd import Variable\n\n'
     'class Net(object):\n    def forward(self, x):\n        return Variable(x)\n',
     ('torch.autograd', 'Variable')),
    # Read only where a function binds its own Variable: the import is unread.
    ('from torch.autograd import Variable\n\n'
     'def f(x):\n    Variable = x\n    return Variable\n', ('torch.autograd', 'Variable')),
    # A function's import read by its closure.
    ('def f():\n    import torch\n    def g():\n        return torch.zeros(1)\n    return g\n',
     ('torch',)),
    ('def f():\n    import torch\n    def g(torch):\n        return torch\n    return g\n',
     ('torch',)),
    # A class body's import: its methods do not see it.
    ('class Net(object):\n    import torch\n    def f(self):\n        return torch\n',
     ('torch',)),
    ('class Net(object):\n    import torch\n    zeros = torch.zeros\n', ('torch',)),
    # Exported by __all__.
    ("from torch.autograd import Variable\n__all__ = ['Variable']\n",
     ('torch.autograd', 'Variable')),
    # Aliased.
    ('from torch.autograd import Variable as V\ny = 2\n', ('torch.autograd', 'Variable', 'V')),
    ('from torch.autograd import Variable as V\ny = V(2)\n', ('torch.autograd', 'Variable', 'V')),
    ('import torch as th\nimport os\nprint(os.sep)\n', ('torch', None, 'th')),
    # import a beside import a.b: the reads through a.b read a.b's import.
    ('import collections\nimport collections.abc\n\n'
     'ok = isinstance([], collections.abc.Iterable)\n', ('collections',)),
    ('import collections\nimport collections.abc\n\n'
     'ok = collections.OrderedDict()\n', ('collections',)),
    # Parenthesized, a comment on the line of the alias that goes.
    ('from torch.autograd import (Function,  # the base\n'
     '                            Variable,  # wrapped tensors\n'
     '                            grad)\n', ('torch.autograd', 'Variable')),
    ('from torch.autograd import (Variable,  # wrapped tensors\n'
     '                            Function)\n', ('torch.autograd', 'Variable')),
    ('from torch.autograd import (Function,\n'
     '                            Variable,  # wrapped tensors\n'
     '                            grad)\n', ('torch.autograd', 'Variable')),
    ('from torch.autograd import Function, Variable, grad\n', ('torch.autograd', 'Variable')),
    ('import os, torch, sys\nprint(os.sep, sys.argv)\n', ('torch',)),
    # The only statement of a block: the block keeps a pass.
    ('try:\n    from torch.autograd import Variable\nexcept ImportError:\n    pass\n',
     ('torch.autograd', 'Variable')),
    # A build script whose torch was imported for the CUDA gate alone.
    ('import os\nimport torch\nfrom thffi import create_extension, cuda_enabled\n\n'
     'with_cuda = cuda_enabled()\n', ('torch',)),
    # A relative import is never matched.
    ('from .autograd import Variable\n', ('torch.autograd', 'Variable')),
]


@pytest.mark.parametrize('source, wanted', CASES)
def test_as_libcst_decides(source, wanted):
    assert ours(source, wanted)[0] == libcsts(source, wanted)


def test_a_string_annotation_reads_the_name():
    source = 'from torch.autograd import Variable\n\ndef f(x: "Variable"):\n    return x\n'
    assert ours(source, ('torch.autograd', 'Variable'))[0] == source


def test_imported_names_the_import_statements_left():
    source = textwrap.dedent('''\
        import os
        import torch._six
        import numpy as np
        print(os.sep, np.pi)
        ''')
    code, imported = ours(source, ('torch._six',))
    assert 'torch._six' not in code
    assert imported == {'os', 'numpy'}


def test_code_that_does_not_compile_keeps_its_imports():
    # libcst parses what the compiler's symbol tables reject (a name
    # assigned before its global declaration).
    source = 'from torch.autograd import Variable\n\ndef f():\n    x = 1\n    global x\n'
    assert ours(source, ('torch.autograd', 'Variable'))[0] == source
