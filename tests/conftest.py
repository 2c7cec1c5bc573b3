"""The demo's tests.  Their helpers are in demo_support.py (and thffi's in
thffi/tests/support.py); thffi's own tests are in thffi/tests/."""

import demo_support  # makes the project importable, builds the demo
from support import legacy_data, th_test, thc_test  # noqa: F401 (fixtures)


# Markers whose tests run only when -m names them: a profile that takes
# minutes, checks of PyTorch's own surface that a new release fails by
# design until a maintainer gives its change a verdict (a user's suite must
# not fail because PyTorch added a parameter), and the slowest builds
# (`slow`: thffi/tests/conftest.py), which keep README's command within
# about 6 minutes on 2 cores.
OPT_IN = ('python_matrix', 'surface', 'slow')


def pytest_configure(config):
    config.addinivalue_line('markers', 'python_matrix: the suite\'s core under Python 3.12 and '
                            '3.13 (tools/python_matrix.py: a venv per Python, torch from the '
                            'package index); not run unless asked for with -m python_matrix')
    config.addinivalue_line('markers', 'surface: the installed PyTorch against 0.4.1\'s surface '
                            '(each removed name has a row, each changed default a verdict: '
                            'tools/py_coverage.py, tools/py_defaults.py), a maintainer\'s check '
                            'on each new PyTorch release; not run unless asked for with -m surface')
    config.addinivalue_line('markers', 'slow: a build profile this command leaves out '
                            '(thffi/tests/conftest.py says which); not run unless asked for '
                            'with -m slow')


def pytest_report_header(config):
    """What building the demo printed (demo_support.py keeps it: printed
    while conftest loads, pytest would show it after the summary)."""
    return demo_support.DEMO_OUTPUT.splitlines()


def pytest_collection_modifyitems(config, items):
    """The OPT_IN markers' tests run only when -m names their marker."""
    named = config.getoption('markexpr') or ''
    left = [item for item in items if any(item.get_closest_marker(marker)
                                          for marker in OPT_IN if marker not in named)]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item not in left]
