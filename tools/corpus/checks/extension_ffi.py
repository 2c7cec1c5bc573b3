"""pytorch/extension-ffi: MyAddFunction (a legacy Function) against input1 + input2; forward
only (its backward returns one gradient for two inputs, an upstream bug)."""

import torch
from corpus_check import close, extension, imported

name = extension()
if name == 'script':
    from functions.add import MyAddFunction
else:
    from my_package.functions.add import MyAddFunction
imported()
a, b = torch.randn(5, 7), torch.randn(5, 7)
close('%s: my_lib_add_forward' % name, MyAddFunction()(a, b), a + b)
