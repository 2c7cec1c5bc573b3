"""What the demo's tests share: the demo extension (built if it is missing
or stale), the demo folder as a user copies it, and thffi's test helpers
(thffi/tests/support.py), for tests that exercise thffi through the demo."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'thffi', 'tests'))

from support import (ONE_ARCH, REALS, TESTS, build_test_extension, copy_legacy_shift,  # noqa: E402,F401
                     hooked_env, load_build_script, write_files)

# The tests use the demo extension.  One that `python build.py` made and
# that is up to date is used as it is; otherwise (a fresh clone, a changed
# source) the tests build it as they build the rest.
# (create_extension reads the environment: the architectures are chosen then.)
DEMO = load_build_script(os.path.join(ROOT, 'build.py')).ffi
if not DEMO.is_up_to_date():
    os.environ.update(ONE_ARCH)
    DEMO = load_build_script(os.path.join(ROOT, 'build.py')).ffi
    DEMO.build()
os.environ.update(ONE_ARCH)


def copy_demo(destination):
    """The demo folder as a user copies it: the tracked files, no build output."""
    listed = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard'],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in listed:
        if name.split('/')[0] in ('tests', 'examples', 'docs', '.ci') or \
                name.startswith('thffi/tests/'):
            continue
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.join(ROOT, name), target)
