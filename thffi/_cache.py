"""Where thffi keeps what it builds once for a user: its own objects
(builder/compile.py), its shared library, `thffi run`'s folder of shims and
its interception library.  Imports nothing of thffi, so that any part, and
`python -m thffi run` at start, may read it."""

import os


def cache_root():
    """THFFI_CACHE_DIR, else thffi/ in XDG_CACHE_HOME (~/.cache)."""
    root = os.environ.get('THFFI_CACHE_DIR')
    if root:
        return root
    return os.path.join(os.environ.get('XDG_CACHE_HOME') or
                        os.path.join(os.path.expanduser('~'), '.cache'), 'thffi')
