"""thffi's own tests: they need thffi/ alone (python -m pytest thffi/tests,
from the folder holding thffi/).  Their helpers are in support.py."""

import os

from support import ONE_ARCH, legacy_data, th_test, thc_test  # noqa: F401 (fixtures)

os.environ.update(ONE_ARCH)


def pytest_configure(config):
    config.addinivalue_line('markers', 'slow: a build profile README\'s command leaves out to '
                            'stay within about 6 minutes on 2 cores (sanitizers, nvcc with '
                            'thrust or CUB, CMake\'s FindCUDA, pip into a venv, second variants '
                            'of a route a default test builds); not run unless asked for with '
                            '-m slow (docs/maintaining.md)')


def pytest_collection_modifyitems(config, items):
    """The slow tests run only when -m names the marker."""
    if 'slow' in (config.getoption('markexpr') or ''):
        return
    left = [item for item in items if item.get_closest_marker('slow')]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item not in left]
