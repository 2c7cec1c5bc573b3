import torch._C
from torch._C import _add_docstr as add_docstr


def add_docstr_all(method, docstr):
    add_docstr(getattr(torch._C._TensorBase, method), docstr)


add_docstr_all('potrf',
               r"""
potrf(upper=True) -> Tensor

See :func:`torch.potrf`
""")
