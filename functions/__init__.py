"""What each Function here imports (`from . import my_lib, c_function...`),
whatever the layout: the folder of scripts (python test.py), a package
copied into a project or installed by pip.

my_lib: the library `python build.py` builds into _ext/ beside this folder.
thffi's helpers that call it: from thffi installed (pip install ./thffi),
else from the copy of thffi/ beside this folder."""

import os

try:
    if '.' in __package__:  # inside a package: installed, or copied into a project
        from .._ext import my_lib
    else:                   # the script layout: python test.py beside _ext/
        from _ext import my_lib
except ModuleNotFoundError as error:
    if '_ext' not in (error.name or '').split('.'):
        raise
    raise ModuleNotFoundError('%s: not built yet: run python %s' % (
        error.name, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                 'build.py')), name=error.name) from None

try:  # installed, or beside test.py in the script layout
    from thffi.ops import adapts_inputs, c_function, register_function, register_op
except ModuleNotFoundError:  # not installed: the package's own copy
    from ..thffi.ops import adapts_inputs, c_function, register_function, register_op

__all__ = ['my_lib', 'adapts_inputs', 'c_function', 'register_function', 'register_op']
