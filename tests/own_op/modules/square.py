from torch.nn import Module

if '.' in __package__:  # inside a package: installed, or copied into a project
    from ..functions.square import my_square
else:
    from functions.square import my_square


class MySquareModule(Module):
    """input * input by the C functions."""

    def forward(self, input):
        return my_square(input)
