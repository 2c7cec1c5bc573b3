"""python -m thffi build.py [args]: runs a legacy build script as `python
build.py [args]` would, with torch.utils.ffi resolving to thffi (see
_hook), for when thffi is not installed (the installed .pth does the same
for every process)."""

import os
import runpy
import sys

from . import _hook


def run_script(path, args):
    """Runs the script at path as __main__ with sys.argv [path] + args, its
    folder first on sys.path; returns its exit status."""
    if not os.path.isfile(path):
        sys.stderr.write('python -m thffi %s: no such file\n' % path)
        return 2
    _hook.install()
    sys.argv = [path] + list(args)
    sys.path[0] = os.path.dirname(os.path.abspath(path))
    runpy.run_path(path, run_name='__main__')
    return 0
