import torch
from ._functions import *


class Variable(object):
    def backward(self, gradient=None, retain_graph=None, create_graph=None,
                 retain_variables=None):
        pass
