"""tools/version_matrix.py's table and verdicts, on made-up rows (the matrix
itself installs several GB per release: a script, not a test)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'tools'))
import version_matrix  # noqa: E402

GOOD = {'torch': '2.4.1', 'build': 'ok', 'test.py': 'ok',
        'core tests': '151 passed, 32 skipped in 9.0s', 'compile': 'fullgraph',
        'call ratio (N=1)': '0.95x'}


def test_the_table_is_markdown_with_a_dash_for_a_missing_cell():
    text = version_matrix.table([GOOD, {'torch': '2.0.1', 'build': 'FAIL (pip: no torch)'}])
    assert text.splitlines() == [
        '| torch | build | test.py | core tests | compile | call ratio (N=1) |',
        '|---|---|---|---|---|---|',
        '| 2.4.1 | ok | ok | 151 passed, 32 skipped in 9.0s | fullgraph | 0.95x |',
        '| 2.0.1 | FAIL (pip: no torch) | - | - | - | - |']


def test_a_row_passes_only_when_every_step_did():
    assert version_matrix.row_passes(GOOD)
    assert version_matrix.row_passes(dict(GOOD, compile='graph break'))
    assert version_matrix.row_passes(dict(GOOD, compile='no (Python 3.11+ not yet supported)'))
    for cell, value in [('build', 'FAIL'), ('test.py', 'FAIL'),
                        ('core tests', '150 passed, 1 failed in 9.0s'),
                        ('core tests', '1 error in 1.0s'), ('compile', 'wrong result'),
                        ('compile', 'FAIL (exit 1)')]:
        assert not version_matrix.row_passes(dict(GOOD, **{cell: value})), (cell, value)
    assert not version_matrix.row_passes({'torch': '2.4.1', 'build': 'ok'})


def test_numpy_below_2_for_the_releases_built_against_numpy_1():
    assert [r for r in ['2.0.1', '2.1.2', '2.2.2', '2.3.1', '2.15.0']
            if version_matrix.needs_numpy_1(r)] == ['2.0.1', '2.1.2', '2.2.2']


def test_pytest_summary_is_found_in_the_output():
    out = 'collected 3 items\n...\n===== 2 passed, 1 skipped in 0.50s =====\n'
    assert version_matrix.passed(out) == '2 passed, 1 skipped in 0.50s'


def test_environments_get_the_requirements_but_torch_and_numpy():
    packages = version_matrix.requirements()
    assert 'cffi>=1.17' in packages and 'pytest' in packages
    assert not [p for p in packages if p.startswith(('torch', 'numpy'))]
