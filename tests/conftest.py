"""The demo's tests.  Their helpers are in demo_support.py (and thffi's in
thffi/tests/support.py); thffi's own tests are in thffi/tests/."""

import demo_support  # makes the project importable, builds the demo
from support import legacy_data, th_test, thc_test  # noqa: F401 (fixtures)


def pytest_configure(config):
    config.addinivalue_line('markers', 'python_matrix: the suite\'s core under Python 3.12 and '
                            '3.13 (tools/python_matrix.py: a venv per Python, torch from the '
                            'package index); not run unless asked for with -m python_matrix')


def pytest_report_header(config):
    """What building the demo printed (demo_support.py keeps it: printed
    while conftest loads, pytest would show it after the summary)."""
    return demo_support.DEMO_OUTPUT.splitlines()


def pytest_collection_modifyitems(config, items):
    """The python_matrix profile runs only when -m names it."""
    if 'python_matrix' in (config.getoption('markexpr') or ''):
        return
    profile = [item for item in items if item.get_closest_marker('python_matrix')]
    if profile:
        config.hook.pytest_deselected(items=profile)
        items[:] = [item for item in items if item not in profile]
