"""The name under which libraries built before thffi's parts had folders
(csrc/THMath.c of those builds) import the TH math bridge: the same module
as thffi.runtime.thmath, so that an _ext package built then still runs."""

import sys

from .runtime import thmath

sys.modules[__name__] = thmath
