"""tools/py_surface/extract.py (the names of PyTorch 0.3.1's and 0.4.1's
Python API, read with Python's ast) on a small sample of our own laid out
as the releases were (tests/py_surface_sample), and tools/py_coverage.py:
every name of the stored surface that today's PyTorch lacks has a row of
thffi/toolchain/pyremoved.py, and what `thffi run` gives back is what the
rows say.

The two tests of the installed PyTorch's whole surface (each lacking name
has a row, each changed default a verdict) fail by design on a PyTorch
release that removes a name or adds a parameter, until a maintainer gives
it one: they carry the `surface` marker, which the suite deselects unless
asked for (`python -m pytest -m surface tests/test_py_surface.py`, on each
new release: docs/versions.md).  The others check the tools on fixed input."""

import os
import re
import subprocess
import sys

import pytest

from demo_support import ROOT

sys.path.insert(0, os.path.join(ROOT, 'tools', 'py_surface'))
import extract  # noqa: E402

SAMPLE = os.path.join(ROOT, 'tests', 'py_surface_sample')
COVERAGE = os.path.join(ROOT, 'tools', 'py_coverage.py')


def sample_surface(tmp_path):
    out = tmp_path / 'surface.tsv'
    extract.main(['--folder', '0.3.1=' + os.path.join(SAMPLE, '0.3.1'),
                  '--folder', '0.4.1=' + os.path.join(SAMPLE, '0.4.1'), '--out', str(out)])
    return {e.name: e for e in extract.read(str(out))}


def test_the_extractor_reads_each_release(tmp_path):
    names = sample_surface(tmp_path)
    potrf = names['torch.potrf']  # documented by _torch_docs, one line an overload
    assert potrf.kind == 'function' and potrf.releases == ('0.3.1', '0.4.1')
    assert potrf.signatures == {'0.3.1': 'a, out=None | a, upper, out=None',
                                '0.4.1': 'a, upper=True, out=None'}
    assert names['torch.potrf(upper=)'].releases == ('0.4.1',)  # 0.3.1's had no default
    assert names['torch.Tensor.potrf'].signatures == {'0.4.1': 'upper=True'}
    # A module's __all__ exported by a package's star import, under its shortest path.
    assert names['torch.btrifact'].aliases == ('torch.functional.btrifact',)
    assert names['torch.nn.L1Loss'].aliases == ('torch.nn.modules.L1Loss',
                                                'torch.nn.modules.loss.L1Loss')
    assert names['torch.nn.L1Loss(reduce=)'].releases == ('0.4.1',)
    assert names['torch.nn.L1Loss.forward'].kind == 'method'
    # 0.3.1's _TensorBase is torch.Tensor; `async` was a name then.
    assert names['torch.Tensor.cuda'].signatures == {'0.3.1': 'device=None, async=False'}
    assert 'torch.Tensor.cuda(async=)' in names
    assert 'torch.autograd.Variable.backward(retain_variables=)' in names
    # Private names: those 2018 code imported, nothing else.
    assert names['torch.nn.modules.loss._assert_no_grad'].signatures == {
        '0.3.1': 'variable', '0.4.1': 'tensor'}
    assert 'torch.nn._functions.thnn.auto._make_function_class' in names
    assert not [n for n in names if '_unlisted_private' in n or '_helper' in n or
                '_torch_docs' in n]
    # A plain module's star import is its implementation, not its API.
    assert not [n for n in names if n.endswith('.Abs')]
    assert names['torch.utils.model_zoo.HASH_REGEX'].kind == 'attribute'


def test_the_stored_surface_holds_both_releases():
    names = {e.name: e for e in extract.read()}
    assert len(names) > 5000
    assert names['torch.gels'].signatures == {'0.3.1': 'B, A, out=None',
                                              '0.4.1': 'B, A, out=None'}
    assert names['torch.symeig'].releases == ('0.3.1', '0.4.1')
    for name in ('torch.nn.modules.loss._assert_no_grad', 'torch.autograd.NestedIOFunction',
                 'torch.utils.serialization.load_lua', 'torch.legacy.nn.Linear',
                 'torch.nn._functions.thnn.auto', 'torch.Tensor.btrifact(pivot=)'):
        assert name in names, name


@pytest.mark.surface
def test_every_lacking_name_has_a_row_and_what_thffi_run_gives_is_the_rows():
    out = subprocess.run([sys.executable, COVERAGE], capture_output=True, text=True,
                         cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-4000:]
    for release in extract.RELEASES:
        row = re.search(r'^\| %s \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$'
                        % re.escape(release), out.stdout, re.M)
        assert row, out.stdout
        names, lacking, given, rewritten, named, no_row = map(int, row.groups())
        assert names > 3000 and lacking == given + rewritten + named and no_row == 0
        assert given >= 60


def test_a_lacking_name_without_a_row_fails_by_name(tmp_path):
    surface = tmp_path / 'surface.tsv'
    surface.write_text('\t'.join(extract.COLUMNS) + '\n' +
                       'torch.potrf\tfunction\t0.4.1\t\t\ta, upper=True, out=None\n'
                       'torch.not_a_name_of_any_release\tfunction\t0.4.1\t\t\tx\n')
    out = subprocess.run([sys.executable, COVERAGE, '--surface', str(surface), '--list'],
                         capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert out.returncode == 1
    assert 'torch.not_a_name_of_any_release (function, missing today): no row of REMOVED' \
        in out.stdout
    assert 'torch.potrf\tfunction\tmissing\tgiven back\ttorch.potrf' in out.stdout


DEFAULTS = os.path.join(ROOT, 'tools', 'py_defaults.py')


@pytest.mark.surface
def test_every_changed_default_has_a_verdict_and_the_rows_are_tensor_behaviours():
    out = subprocess.run([sys.executable, DEFAULTS, '--list'], capture_output=True, text=True,
                         cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-4000:]
    rows = sorted(line.split('\t')[0] for line in out.stdout.splitlines()
                  if line.count('\t') == 4 and line.split('\t')[3] == 'row')
    assert rows == ['torch.nn.Upsample(recompute_scale_factor=)',
                    'torch.nn.functional.affine_grid(align_corners=)',
                    'torch.nn.functional.dropout(training=)',
                    'torch.nn.functional.dropout2d(training=)',
                    'torch.nn.functional.dropout3d(training=)',
                    'torch.nn.functional.grid_sample(align_corners=)',
                    'torch.nn.functional.interpolate(recompute_scale_factor=)',
                    'torch.optim.LBFGS(tolerance_grad=)']
    assert 'no verdict' not in out.stdout


def test_a_changed_default_without_a_verdict_fails_by_name(tmp_path):
    surface = tmp_path / 'surface.tsv'
    surface.write_text('\t'.join(extract.COLUMNS) + '\n' +
                       'torch.nn.functional.hardtanh\tfunction\t0.4.1\t\t\t'
                       'input, min_val=-2., max_val=1., inplace=False\n'
                       'torch.nn.functional.grid_sample\tfunction\t0.4.1\t\t\t'
                       "input, grid, mode='bilinear', padding_mode='zeros'\n")
    out = subprocess.run([sys.executable, DEFAULTS, '--surface', str(surface)],
                         capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert out.returncode == 1
    assert 'no verdict: torch.nn.functional.hardtanh(min_val=)' in out.stdout
    assert 'hardtanh(max_val=)' not in out.stdout  # 1. and 1.0: one value
    assert 'no verdict: torch.nn.functional.grid_sample' not in out.stdout
