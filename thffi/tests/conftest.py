"""thffi's own tests: they need thffi/ alone (python -m pytest thffi/tests,
from the folder holding thffi/).  Their helpers are in support.py."""

import os

from support import ONE_ARCH, legacy_data, th_test, thc_test  # noqa: F401 (fixtures)

os.environ.update(ONE_ARCH)


def pytest_configure(config):
    config.addinivalue_line('markers', 'slow: a build of a minute or more on 2 cores (nvcc '
                            'with thrust or CUB, several 2018-style projects in one test); '
                            'not run unless asked for with -m slow (docs/maintaining.md)')


def pytest_collection_modifyitems(config, items):
    """The slow tests run only when -m names the marker."""
    if 'slow' in (config.getoption('markexpr') or ''):
        return
    left = [item for item in items if item.get_closest_marker('slow')]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item not in left]
