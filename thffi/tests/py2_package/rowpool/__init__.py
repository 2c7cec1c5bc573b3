# rowpool: sums windows of a row in C, for PyTorch 0.3 (Python 2.7)
import _ext
from layers import *
exec('from convsp import *')
