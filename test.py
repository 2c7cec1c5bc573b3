"""The legacy extension-ffi demo: a network whose only layer is the C add.
Runs on the CPU, then on the GPU when there is one and the library was
built with CUDA."""

import sys

import torch
import torch.nn as nn

from functions.add import WITH_CUDA
from modules.add import MyAddModule


class MyNetwork(nn.Module):
    def __init__(self):
        super(MyNetwork, self).__init__()
        self.add = MyAddModule()

    def forward(self, input1, input2):
        return self.add(input1, input2)


def run(device):
    model = MyNetwork()
    input1 = torch.arange(25, dtype=torch.float32, device=device).view(5, 5).requires_grad_()
    input2 = torch.randn(5, 5, device=device, requires_grad=True)
    output = model(input1, input2)
    print(output)
    print(input1 + input2)

    grad = torch.randn(5, 5, device=device)
    output.backward(grad)
    ok = (torch.equal(output, input1 + input2)
          and torch.equal(input1.grad, grad) and torch.equal(input2.grad, grad))
    print('OK (%s): the C add matches input1 + input2, gradients match' % device
          if ok else 'MISMATCH (%s)' % device)
    return ok


ok = run('cpu')
if torch.cuda.is_available() and WITH_CUDA:
    ok = run('cuda') and ok
elif torch.cuda.is_available():
    print('GPU present but the library was built without CUDA: GPU part skipped')
sys.exit(0 if ok else 1)
