import torch._C
from torch._C import _add_docstr as add_docstr

common_args = {'out': 'out (Tensor, optional): the output tensor'}

add_docstr(torch.potrf, r"""
potrf(a, upper=True, out=None) -> Tensor

Computes the Cholesky decomposition of a.

Args:
    {out}
""".format(**common_args))
