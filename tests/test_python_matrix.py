"""tools/python_matrix.py: its table and verdicts on made-up rows, and (the
python_matrix profile, `pytest -m python_matrix`, not run by default: it
installs torch into a venv per Python) the suite's core under Python 3.12
and 3.13."""

import os
import sys

import pytest

from demo_support import ROOT

sys.path.insert(0, os.path.join(ROOT, 'tools'))
import python_matrix  # noqa: E402

GOOD = {'Python': '3.12.1', 'torch': '2.13.0+cu130', 'build': 'ok', 'test.py': 'ok',
        'core tests': '171 passed, 30 skipped in 80.0s'}


def test_the_table_has_a_row_per_python():
    text = python_matrix.version_matrix.table([GOOD, {'Python': '3.13', 'build': 'FAIL (no '
                                                      'Python 3.13 here)'}],
                                              python_matrix.COLUMNS)
    assert text.splitlines() == [
        '| Python | torch | build | test.py | core tests |', '|---|---|---|---|---|',
        '| 3.12.1 | 2.13.0+cu130 | ok | ok | 171 passed, 30 skipped in 80.0s |',
        '| 3.13 | - | FAIL (no Python 3.13 here) | - | - |']


def test_a_row_passes_only_when_every_step_did():
    assert python_matrix.row_passes(GOOD)
    for cell, value in [('build', 'FAIL'), ('test.py', 'FAIL'),
                        ('core tests', '170 passed, 1 failed in 80.0s')]:
        assert not python_matrix.row_passes(dict(GOOD, **{cell: value})), (cell, value)


def test_the_core_includes_ports_python_tests_and_interpreters_are_found():
    assert 'thffi/tests/test_port_python.py' in python_matrix.CORE
    assert all(os.path.exists(os.path.join(ROOT, t)) for t in python_matrix.CORE)
    found = python_matrix.interpreter('%d.%d' % sys.version_info[:2])
    assert found is None or os.access(found, os.X_OK)
    assert python_matrix.interpreter('2.99') is None


@pytest.mark.python_matrix
def test_the_core_passes_under_python_3_12_and_3_13(capsys):
    where = os.environ.get('THFFI_PYTHON_MATRIX_DIR')  # venvs to use again, if any
    code = python_matrix.main(['3.12', '3.13'] + (['--dir', where] if where else []))
    out = capsys.readouterr().out
    with capsys.disabled():
        print(out)  # the table, for the record
    assert code == 0, out
