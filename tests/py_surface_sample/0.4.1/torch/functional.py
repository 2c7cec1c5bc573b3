import torch

__all__ = ['btrifact']


def btrifact(A, info=None, pivot=True):
    return A.btrifact(info, pivot)


def _helper(x):
    return x
