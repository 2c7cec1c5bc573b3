"""The names 2017-2018 code imports that today's Python, NumPy, SciPy and
PyTorch removed (thffi/toolchain/pyremoved.py's REMOVED): rewritten by
`port` where the row has an equivalent, and what the rewritten code computes
is what the old name did; reported with the replacement where not.  One
test per family; the snippets are ours."""

import importlib
import re
import textwrap

import numpy as np
import pytest
import torch

from thffi.run import removed_names as _run_names
from thffi.port.python import rewrite_python
from thffi.toolchain import pyremoved


def port(source):
    """(new source, [finding text], [whether fixed]) of one file; the
    result compiles and a second run changes nothing."""
    new, findings = rewrite_python(textwrap.dedent(source), 'x.py')
    compile(new, 'x.py', 'exec')
    assert rewrite_python(new, 'x.py')[0] == new
    return new, [str(f) for f in findings], [f.fixed for f in findings]


def run(source):
    namespace = {}
    exec(compile(source, 'x.py', 'exec'), namespace)
    return namespace


def test_torch_six_names_become_what_they_held():
    new, found, fixed = port('''\
        from torch._six import string_classes, int_classes as ints, inf, container_abcs
        from torch._six import queue, PY3
        import torch._six
        checks = (isinstance('a', string_classes), isinstance(b'a', string_classes),
                  isinstance(1, ints), isinstance({}, container_abcs.Mapping),
                  queue.Queue is not None, PY3, torch._six.nan != torch._six.nan)
        ''')
    # `import math` is added where libcst's AddImportsVisitor puts it (its
    # releases differ: after the rewritten imports, or after the leading
    # import statements), before its use.
    lines = new.splitlines()
    assert lines.index('import math') < lines.index(
        '          queue.Queue is not None, PY3, math.nan != math.nan)')
    assert [line for line in lines if line not in ('import math', '')] == textwrap.dedent('''\
        from math import inf
        from collections import abc as container_abcs
        string_classes = (str, bytes)
        ints = int
        import queue
        PY3 = True
        checks = (isinstance('a', string_classes), isinstance(b'a', string_classes),
                  isinstance(1, ints), isinstance({}, container_abcs.Mapping),
                  queue.Queue is not None, PY3, math.nan != math.nan)
        ''').splitlines()
    assert all(fixed) and found[0] == ('x.py:1: from torch._six import string_classes: gone '
                                       'since PyTorch 2.0 (torch._six is gone); now (str, bytes)')
    namespace = run(new)
    assert namespace['checks'] == (True, True, True, True, True, True, True)
    assert namespace['inf'] == float('inf')


def test_a_removed_module_imported_under_another_name_goes():
    """`import torch._six as six`: its uses rewritten, the import, which
    would fail today, goes as the unaliased one does."""
    new, found, fixed = port('''\
        import torch._six as six


        def is_text(x):
            return isinstance(x, six.string_classes)
        ''')
    assert 'torch._six' not in new
    assert run(new)['is_text']('a') and all(fixed)
    assert found[0].startswith('x.py:1: import torch._six: gone since PyTorch 2.0')


def test_torch_six_names_without_an_equivalent_are_reported():
    source = 'from torch._six import with_metaclass\n'
    new, found, fixed = port(source)
    assert new == source and fixed == [False]
    assert found == ['x.py:1: from torch._six import with_metaclass: gone since PyTorch 2.0 '
                     '(torch._six is gone); write class C(Base, metaclass=Meta)']


def test_numpy_type_map_becomes_the_dict_collate_read():
    new, found, fixed = port('''\
        import numpy as np
        from torch.utils.data.dataloader import numpy_type_map
        import torch.utils.data.dataloader as loader


        def collate(batch):
            a = np.stack(batch)
            return numpy_type_map[a.dtype.name](a), loader.numpy_type_map['int64']
        ''')
    assert 'import torch\nnumpy_type_map = {' in new and 'loader.numpy' not in new
    assert all(fixed) and len(found) == 2
    tensor, long_type = run(new)['collate']([np.ones(2, np.float32), np.zeros(2, np.float32)])
    assert tensor.dtype == torch.float32 and tensor.tolist() == [[1, 1], [0, 0]]
    assert long_type is torch.LongTensor
    for name, tensor_type in run('import torch\nmap = ' + pyremoved.find(
            'torch.utils.data.dataloader.numpy_type_map').new)['map'].items():
        assert torch.from_numpy(np.zeros(1, dtype=name)).type() == 'torch.' + tensor_type.__name__


def test_removed_numpy_names_compute_what_they_did():
    new, found, fixed = port('''\
        import pickle
        import numpy as np
        from numpy import long, PZERO
        a = np.zeros((3, 2), dtype=np.object0)
        values = (np.rank(a), np.alen(a), np.loads(pickle.dumps(a)).shape, PZERO, np.NZERO,
                  long(2), np.get_numpy_include() == np.get_include())
        ''')
    assert 'np.ndim(a), len(a), pickle.loads(' in new and 'long = int' in new
    assert all(fixed) and len(found) == 8
    assert run(new)['values'] == (2, 3, (3, 2), 0.0, -0.0, 2, True)
    _, found, fixed = port('import numpy as np\nm = np.in1d([1, 2], [2])\n')
    assert found == ['x.py:2: numpy.in1d: gone since NumPy 2.4; write numpy.isin(a, b).ravel() '
                     '(in1d flattened its result)'] and fixed == [False]


def test_removed_scipy_names_compute_what_they_did():
    pytest.importorskip('scipy')
    new, found, fixed = port('''\
        import numpy as np
        import scipy.signal
        import scipy.integrate
        from scipy.misc import logsumexp, comb
        window = scipy.signal.hann(5)
        area = scipy.integrate.cumtrapz(np.ones(4))
        values = (logsumexp([0.0, 0.0]), comb(5, 2))
        ''')
    assert 'scipy.signal.windows.hann(5)' in new and 'cumulative_trapezoid' in new
    assert 'from scipy.special import logsumexp, comb' in new and all(fixed)
    namespace = run(new)
    assert np.allclose(namespace['window'], [0, 0.5, 1, 0.5, 0])
    assert namespace['area'].tolist() == [1, 2, 3]
    assert np.isclose(namespace['values'][0], np.log(2)) and namespace['values'][1] == 10


@pytest.mark.parametrize('source, expected', [
    ('import scipy.misc\nimg = scipy.misc.imfilter(a, "blur")\n',
     'x.py:2: scipy.misc.imfilter: gone since SciPy 1.3; write PIL.Image'),
    ('import scipy.integrate\ns = scipy.integrate.simps(y, x)\n',
     'x.py:2: scipy.integrate.simps: gone since SciPy 1.14; write scipy.integrate.simpson(y, '
     'x=x) (x is keyword-only, and `even` is gone)'),
    ('import scipy.ndimage\nimg = scipy.ndimage.imread("a.png")\n',
     'x.py:2: scipy.ndimage.imread: gone since SciPy 1.2; write imageio.v2.imread(path), or '
     'numpy.asarray(PIL.Image.open(path))'),
    ('import torch\nx = torch.lstsq(B, A)\n',
     'x.py:2: torch.lstsq: gone since PyTorch 1.9; write torch.linalg.lstsq(A, B).solution (the '
     'arguments swapped)'),
    ('import torch.backends.cudnn as cudnn\nhandle = cudnn.get_handle()\n',
     "x.py:2: torch.backends.cudnn.get_handle: gone since a release after PyTorch 0.4.1 "
     "(internal to cuDNN's ctypes binding); write torch.backends.cudnn's switches: enabled, "
     'benchmark, deterministic, version(), is_available() (cuDNN is called from C++; its ctypes '
     'bindings are gone)'),
    ('from torch.tensor import _TensorBase\n',
     "x.py:1: from torch.tensor import ...: gone since PyTorch 0.4 (torch.tensor is a function "
     "today); write torch.Tensor (0.3.1's module torch.tensor held the tensor classes' Python "
     'methods)'),
    ('import torch\ny = torch.mode(x, 1, values=v, indices=i)\n',
     'x.py:2: torch.mode(values=): gone since a release after PyTorch 0.4.1; write out=(values, '
     'indices)\n'
     'x.py:2: torch.mode(indices=): gone since a release after PyTorch 0.4.1; write out=(values, '
     'indices)'),
    ('import cgi\ns = cgi.escape(name)\n',
     'x.py:1: import cgi: gone since Python 3.13 (cgi is gone); write html.escape; '
     'urllib.parse.parse_qs; email.message for form data\n'
     'x.py:2: cgi.escape: gone since Python 3.8 (html.escape also escapes quotes unless '
     'quote=False); write html.escape(s, quote=False)'),
    ('import platform\nd = platform.linux_distribution()\n',
     'x.py:2: platform.linux_distribution: gone since Python 3.8; write '
     "distro.linux_distribution() (pip install distro), or "
     "platform.freedesktop_os_release()['ID']"),
    ('import xml.etree.cElementTree as ET\ntree = ET.parse(path)\n',
     'x.py:1: import xml.etree.cElementTree: gone since Python 3.9; write xml.etree.ElementTree '
     '(the same API, as fast)'),
    ('import string\ns = string.join(words, "-")\n',
     "x.py:2: string.join: gone since Python 3.0 (Python 2's string module functions are "
     "gone); write sep.join(words) (string.join's sep was ' ' by default)"),
])
def test_names_without_an_equivalent_are_reported_with_the_replacement(source, expected):
    new, found, fixed = port(source)
    assert new == source and found == expected.split('\n') and not any(fixed)


def test_python_2_names_in_a_file_that_parses_as_python_3():
    new, found, fixed = port('''\
        import os
        import string
        import sys
        import urllib
        from os import errno
        from string import lowercase
        import configparser
        c = configparser.ConfigParser()
        c.readfp(open(os.devnull))
        values = (string.letters[:3], lowercase[-1], sys.maxint == sys.maxsize,
                  os.getcwdu() == os.getcwd(), errno.ENOENT, urllib.urlencode({'a': 1}))
        ''')
    # The file is Python 2 (issue 37 item 1: a name only Python 2 has, outside a
    # guard), and the report says which line showed it.
    assert all(fixed) and len(found) == 8
    assert any('Python 2, as this line shows (`sys.maxint`' in f for f in found)
    assert 'import errno\n' in new and 'c.read_file(' in new
    assert 'urllib.parse.urlencode' in new and re.search(r'^import .*\burllib\.parse\b', new, re.M)
    assert run(new)['values'] == ('abc', 'z', True, True, 2, 'a=1')


def test_every_row_thffi_run_gives_resolves_here():
    """What `thffi run` gives for each row with an equivalent is an object
    today's library has (where the row's package is installed); a 'value'
    row's expression is what port writes."""
    table = _run_names.Table(pyremoved.REMOVED, pyremoved.METHOD_CLASSES)
    checked = 0
    for module_name, names in table.names.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            module = None  # torch._six, or a package not installed here
        for row in names.values():
            if row.fix not in _run_names.EQUIVALENT:
                continue
            try:
                value = _run_names.equivalent(row, module)
            except ImportError:
                assert row.new.split('.')[0] in ('scipy', 'setuptools'), row
                continue
            assert value is not None or row.new == 'None', row
            checked += 1
    assert checked > 100
    for module_name, methods in table.methods.items():  # each class, and its new method
        for cls, _, row, _ in methods:
            owner = getattr(importlib.import_module(module_name), cls)
            if row.fix == 'method':  # a function taking the object first
                assert callable(_run_names._qualified(row.new)), row
            else:
                assert hasattr(owner, row.new.rpartition('.')[2]), row
