from torch.nn import Module

if '.' in __package__:  # inside a package: installed, or copied into a project
    from ..functions.scale import my_scale
else:
    from functions.scale import my_scale


class MyScaleModule(Module):
    """input * scale + bias by the C functions, with scale and bias fixed."""

    def __init__(self, scale, bias):
        super().__init__()
        self.scale, self.bias = scale, bias

    def forward(self, input):
        return my_scale(input, self.scale, self.bias)
