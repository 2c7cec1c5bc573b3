import torch._C
from torch._C import _add_docstr as add_docstr

add_docstr(torch._C.potrf,
           """
potrf(a, out=None)
potrf(a, upper, out=None)

Computes the Cholesky decomposition of a.
""")
