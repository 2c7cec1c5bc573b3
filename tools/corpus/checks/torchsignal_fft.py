"""thuyen/signal (the installed torchsignal; named apart from the standard library's `signal`):
fft1, ifft1, fft2, ifft2, fft3 over [..., 2] real pairs (FFTW on the CPU) against torch.fft, forward,
and the gradients of fft1, fft2 and ifft2 (their legacy Functions' backward) through autograd."""

import torch
from corpus_check import close, extension, imported

extension()
import torchsignal
imported()


def ref(fn, dims):
    def run(x):
        return torch.view_as_real(fn(torch.view_as_complex(x), dim=dims))
    return run


torch.manual_seed(0)
cases = [('fft1', (3, 8, 2), ref(torch.fft.fftn, (-1,)), True),
         ('ifft1', (3, 8, 2), ref(torch.fft.ifftn, (-1,)), False),
         ('fft2', (2, 4, 6, 2), ref(torch.fft.fftn, (-2, -1)), True),
         ('ifft2', (2, 4, 6, 2), ref(torch.fft.ifftn, (-2, -1)), True),
         ('fft3', (2, 3, 4, 5, 2), ref(torch.fft.fftn, (-3, -2, -1)), False)]
for name, shape, reference, backward in cases:
    x = torch.randn(*shape, requires_grad=backward)
    got = getattr(torchsignal, name)(x)
    want = reference(x)
    close('%s forward' % name, got, want)
    if backward:
        grad = torch.randn(want.shape)
        close('%s backward' % name, torch.autograd.grad(got, x, grad)[0],
              torch.autograd.grad(want, x, grad)[0])
