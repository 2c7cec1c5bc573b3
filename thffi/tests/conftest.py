"""thffi's own tests: they need thffi/ alone (python -m pytest thffi/tests,
from the folder holding thffi/).  Their helpers are in support.py."""

import os

from support import ONE_ARCH, legacy_data, th_test, thc_test  # noqa: F401 (fixtures)

os.environ.update(ONE_ARCH)
