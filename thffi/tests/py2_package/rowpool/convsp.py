"""Sizes of the pooled rows."""


def pooled_length(length, window):
    if isinstance(length, basestring):
        length = int(length)
    return int(length) / int(window)


def window_fraction(weight, windows):
    # weight is a float: Python 2 divided it the same way
    return weight / len(windows)
