"""The legacy extension-ffi demo: a network whose only layer is the C add."""

import sys

import torch
import torch.nn as nn

from modules.add import MyAddModule


class MyNetwork(nn.Module):
    def __init__(self):
        super(MyNetwork, self).__init__()
        self.add = MyAddModule()

    def forward(self, input1, input2):
        return self.add(input1, input2)


model = MyNetwork()
input1 = torch.arange(25, dtype=torch.float32).view(5, 5).requires_grad_()
input2 = torch.randn(5, 5, requires_grad=True)
output = model(input1, input2)
print(output)
print(input1 + input2)

grad = torch.randn(5, 5)
output.backward(grad)
ok = (torch.equal(output, input1 + input2)
      and torch.equal(input1.grad, grad) and torch.equal(input2.grad, grad))
print('OK: the C add matches input1 + input2, gradients match'
      if ok else 'MISMATCH')
sys.exit(0 if ok else 1)
