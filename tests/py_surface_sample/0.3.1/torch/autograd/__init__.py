from .variable import Variable
