from __future__ import print_function
import torch
from torch.autograd import Variable, gradcheck

from modules.scale_mul import ScaleMulModule
from functions.scale_mul import ScaleMulFunction

model = ScaleMulModule(0.5)

a = torch.range(1, 12).view(3, 4)
b = torch.range(0, 11).view(3, 4) / 4
input1 = Variable(a, requires_grad=True)
input2 = Variable(b, requires_grad=True)

total = 0
for step in range(3):
    output = model(input1, input2)
    loss = output.sum()
    loss.backward()
    total += loss.data[0]
    print('step %d, loss: %.4f' % (step, loss.data[0]))
print('mean loss: {:.4f}'.format(total / 3))

first_row = output.data[0]  # the output's first row
print('first row:', first_row.tolist())
print('output:', output.data.tolist())
print('grad1:', input1.grad.data.tolist())
print('grad2:', input2.grad.data.tolist())

# one Function object for all of gradcheck's calls
x = Variable(torch.randn(4, 5).double(), requires_grad=True)
y = Variable(torch.randn(4, 5).double(), requires_grad=True)
print('gradcheck:', gradcheck(ScaleMulFunction(2.0), (x, y), eps=1e-6, atol=1e-4))

if torch.cuda.is_available():
    output = model(input1.cuda(), input2.cuda())
    print('cuda output:', output.data.cpu().tolist())
