"""The registry of shiftnet's operations."""
NAME = "shiftnet's helper"
_OPS = {}


def register(name):
    def add(function):
        _OPS[name] = function
        return function
    return add


def registered():
    return _OPS.keys()
