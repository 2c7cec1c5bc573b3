class Abs(object):
    def forward(self, input):
        return input.abs()
