"""What the demo's tests share: the demo extension (built if it is missing
or stale), the demo folder as a user copies it, and thffi's test helpers
(thffi/tests/support.py), for tests that exercise thffi through the demo."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'thffi', 'tests'))

from support import (ONE_ARCH, REALS, TESTS, build_test_extension, copy_legacy_shift,  # noqa: E402,F401
                     hooked_env, load_build_script, write_files)



def _output_kept(function):
    """(function(), what it and the processes it started wrote on stdout and
    stderr).  What is written while pytest imports a conftest is held by
    pytest's capture and printed after the summary; kept, it is shown in
    pytest's header instead (tests/conftest.py's pytest_report_header).  A
    failure raises with the output in its message."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as kept:
        saved = os.dup(1), os.dup(2)
        text = io.TextIOWrapper(kept, encoding='utf-8', errors='replace', line_buffering=True,
                                write_through=True)
        os.dup2(kept.fileno(), 1)
        os.dup2(kept.fileno(), 2)
        try:
            with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
                result, failure = function(), None
        except Exception as exc:  # re-raised below, with what the build printed
            result, failure = None, exc
        finally:
            text.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        kept.seek(0)
        output = kept.read().decode('utf-8', 'replace')
        text.detach()
    if failure is not None:
        raise RuntimeError('building the demo extension failed:\n%s' % output) from failure
    return result, output


def _demo():
    """The demo extension: one that `python build.py` made and that is up to
    date is used as it is; otherwise (a fresh clone, a changed source) the
    tests build it as they build the rest.  (create_extension reads the
    environment: the architectures are chosen then.)"""
    demo = load_build_script(os.path.join(ROOT, 'build.py')).ffi
    if not demo.is_up_to_date():
        os.environ.update(ONE_ARCH)
        demo = load_build_script(os.path.join(ROOT, 'build.py')).ffi
        demo.build()
    return demo


DEMO, DEMO_OUTPUT = _output_kept(_demo)
os.environ.update(ONE_ARCH)


# Python code run first in a process (`python -c HIDE_INSTALLED_THFFI + code`):
# the process as where thffi is not installed (`import thffi` fails), to
# check what the demo does then.
HIDE_INSTALLED_THFFI = textwrap.dedent('''
    import sys


    class NoThffi:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == 'thffi':
                raise ModuleNotFoundError("No module named 'thffi'", name='thffi')


    sys.meta_path.insert(0, NoThffi)
    ''')


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
