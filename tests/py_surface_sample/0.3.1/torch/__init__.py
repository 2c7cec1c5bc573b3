"""A sample of a release's torch package, for tools/py_surface's test (ours)."""
from torch._C import *
from .functional import *
import torch.nn
