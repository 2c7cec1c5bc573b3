from torch.nn.modules.module import Module
from functions.scale_mul import ScaleMulFunction


class ScaleMulModule(Module):
    def __init__(self, alpha):
        super(ScaleMulModule, self).__init__()
        self.alpha = alpha

    def forward(self, input1, input2):
        return ScaleMulFunction(self.alpha)(input1, input2)
