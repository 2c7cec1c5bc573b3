"""port's speed work keeps its results: the files its cheap text test
(port/triggers.py) lets through without parsing hold nothing it rewrites,
and the Python files shared among processes give what one process gives."""

import importlib.util
import os

import pytest

from thffi.port import port, triggers
from thffi.port.python import rewrite_python
from thffi.toolchain import pyremoved

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _bench():
    spec = importlib.util.spec_from_file_location(
        'port_speed', os.path.join(ROOT, 'bench', 'port_speed.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _use(row):
    """A line of 2018 code that uses what REMOVED's row names."""
    if row.old.endswith('=)'):  # a keyword of a call: of a method, or of a qualified name
        owner, keyword = row.old[:-2].split('(')
        return _use(row._replace(old=owner)).replace('()', '(%s=1)' % keyword).replace(
            '(x)', '(x, %s=1)' % keyword)
    if row.old.endswith('()'):  # a call of a name that is something else today
        return _use(row._replace(old=row.old[:-2]))
    if row.old.endswith(':'):  # an import of a module that is something else today
        return 'from %s import x\n' % row.old[:-1]
    if row.old.startswith('self.'):
        return 'class T(unittest.TestCase):\n    def test(self):\n        %s(1, 1)\n' % row.old
    if row.old.startswith('.'):
        return 't = make()\nt%s()\n' % row.old
    module, _, name = row.old.rpartition('.')
    if not module:
        return 'import %s\n' % row.old
    return 'import %s as alias\nalias.%s(x)\n' % (module, name)


@pytest.mark.parametrize('row', pyremoved.REMOVED, ids=lambda row: row.old)
def test_every_removed_row_is_let_through(row):
    source = _use(row)
    assert triggers.wanted(source, '0.3')
    # and what is let through is what removed.py rewrites or reports
    assert rewrite_python(source, 'x.py')[1], source


@pytest.mark.parametrize('source', [
    'from torch.autograd import Variable\nx = Variable(t)\n',
    'import torch.autograd as A\nx = A.Variable(t)\n',
    'print(loss.data[0])\n',
    'print(loss.data[ 0 ])\n',
    'from torch.utils.ffi import create_extension\n',
    'from torch.utils import ffi\n',
    'import torch\nx = torch.range(0, 3)\n',
    'from torch import range as r\nx = r(0, 3)\n',
    'from torch.autograd import Function\nclass F(Function):\n    def forward(self, x):\n'
    '        return x\n',
    'x.volatile = True\n',
    'import torch.nn.functional as F\ny = F.upsample(x, scale_factor=2)\n',
    'import torch.nn as nn\nup = nn.Upsample(scale_factor=2, mode="bilinear")\n',
    'import torch.nn as nn\nc = nn.MSELoss(size_average=False)\n',
    'import torch\ni = x.long()\nh = i / 2\n',
    'import torch\n_, i = x.max(1)\nh = i / 2\n',
    'from ._ext import my_lib\nmy_lib.f(x.permute(1, 0))\n',
    'y = x.t().double()\nz = y.view(-1)\n',
    'w.t().float().resize_(6)\n',
    "if type(x).__name__ == 'FloatTensor':\n    x = x.double()\n",
    'from torch.nn.utils.rnn import pad_packed_sequence\no, n = pad_packed_sequence(p)\n',
], ids=lambda s: s.splitlines()[-1][:40])
def test_what_python_rewrites_or_reports_is_let_through(source):
    assert triggers.wanted(source, '0.3')
    new, findings = rewrite_python(source, 'x.py')
    assert new != source or findings


@pytest.mark.parametrize('source', [
    'import os\nimport numpy as np\nimport torch\n\ndef f(x, n):\n    for i in range(n):\n'
    '        x = x + np.exp(x) / n\n    return x.view(-1)\n',
    'import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n'
    '        return x.view(x.size(0), -1).data\n',
    '# wrap it in a Variable first\nx = 1\n',
], ids=['plain', 'module', 'comment'])
def test_files_without_a_rewrite_are_not_parsed(source):
    assert not triggers.wanted(source, '0.3')
    assert rewrite_python(source, 'x.py') == (source, [])


def test_python2_files_and_extensions_are_always_parsed():
    assert triggers.wanted('x = 1\n', '0.3', python2=True)
    assert not triggers.wanted('import foo_lib\nfoo_lib.f(x)\n', '0.3')
    assert triggers.wanted('import foo_lib\nfoo_lib.f(x)\n', '0.3',
                           extensions=('_ext.foo_lib',))


def test_before_0_2_reductions_with_a_dim_are_let_through():
    source = 'y = x.sum(1)\n'
    assert not triggers.wanted(source, '0.3')
    assert triggers.wanted(source, '0.1')
    assert rewrite_python(source, 'x.py', '0.1')[0] == 'y = x.sum(1, keepdim=True)\n'


@pytest.mark.slow  # deselected by default (conftest.py)
def test_processes_give_what_one_process_gives(tmp_path):
    bench = _bench()
    files, lines = bench.generate(str(tmp_path), 40)
    assert files > 40 and lines > 40 * 60
    one = port(str(tmp_path), jobs=1)
    two = port(str(tmp_path), jobs=2)
    assert one == two
    diff, findings, read, changed = one
    assert read == files and len(changed) > 5
    assert any('Variable' in f.message for f in findings)


def test_jobs_is_checked(tmp_path):
    (tmp_path / 'a.py').write_text('x = 1\n')
    with pytest.raises(ValueError, match=r'port\(\): jobs must be a positive integer'):
        port(str(tmp_path), jobs=0)


def test_bench_repository_has_the_target_size(tmp_path):
    files, lines = _bench().generate(str(tmp_path), 200)
    assert 13000 <= lines <= 15000
    assert (tmp_path / 'README.md').is_file()


def test_a_long_comment_after_a_dot_is_read_in_linear_time():
    # An ambiguous pattern between tokens took minutes on such a line.
    import time
    source = 'x = 1.  #' + ' # -' * 200 + '\ny = 2\n'
    start = time.perf_counter()
    assert not triggers.wanted(source, '0.3')
    assert time.perf_counter() - start < 5


def test_the_bench_ports_a_repository_on_disk_as_it_is(tmp_path, capsys):
    """--repository measures port on a checkout (a fresh copy each run, its
    .git left out) and counts what it holds."""
    repository = tmp_path / 'repo'
    (repository / '.git').mkdir(parents=True)
    (repository / '.git' / 'config').write_text('[core]\n')
    (repository / 'train.py').write_text('from torch.autograd import Variable\nx = Variable(1)\n')
    (repository / 'make.sh').write_text('set -e\npython build.py\n')
    bench = _bench()
    assert bench.shape_of(str(repository)) == (1, 2, 2)
    assert bench.main(['--repository', str(repository), '--repeat', '1']) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith('| ')]
    assert [row.split(' | ')[1:5] for row in rows[1:]] == [['1', '2', '2', 'dry'],
                                                             ['1', '2', '2', 'write']]
    assert (repository / 'train.py').read_text().startswith('from torch.autograd import')
