"""What Python 2 computed that Python 3 computes otherwise, for the code
`python -m thffi port` rewrote (port/removed.py writes the calls) and for
the Python 2 modules `python -m thffi run` converts (run/python2.py loads
this file by path: it imports only the standard library)."""

import numbers


def old_div(a, b):
    """Python 2's `a / b` without `from __future__ import division`: floor
    division of two integers, else true division (as python-future's
    past.utils.old_div), known from the operands as the code runs."""
    if isinstance(a, numbers.Integral) and isinstance(b, numbers.Integral):
        return a // b
    return a / b
