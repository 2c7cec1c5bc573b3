"""One rank of tests/test_integration.py's DistributedDataParallel check:
trains one step of a model that uses MyAddModule on its half of the batch
and saves the parameters' gradients.
Usage: ddp_worker.py BACKEND RANK WORLD PORT OUT (nccl: rank r on cuda:r)"""

import os
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from modules.add import MyAddModule  # noqa: E402


class Net(torch.nn.Module):
    """A parameter flows through the C add (as an expanded, strided input)."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 3)
        self.offset = torch.nn.Parameter(torch.randn(3))
        self.add = MyAddModule()

    def forward(self, x):
        y = self.linear(x)
        return self.add(y, self.offset.expand_as(y))


def batch():
    g = torch.Generator().manual_seed(1)
    return torch.randn(8, 4, generator=g), torch.randn(8, 3, generator=g)


def model():
    torch.manual_seed(0)
    return Net()


def grads(net, x, target):
    loss = (net(x) - target).pow(2).mean()
    loss.backward()
    return {name: p.grad.clone() for name, p in net.named_parameters()}


if __name__ == '__main__':
    backend, rank, world, port, out = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                                       sys.argv[4], sys.argv[5])
    device = torch.device('cuda', rank) if backend == 'nccl' else torch.device('cpu')
    if device.type == 'cuda':
        torch.cuda.set_device(device)
    dist.init_process_group(backend, init_method='tcp://127.0.0.1:%s' % port, rank=rank,
                            world_size=world)
    net = DistributedDataParallel(model().to(device))
    x, target = (t.to(device) for t in batch())
    part = x.shape[0] // world
    got = grads(net, x[rank * part:(rank + 1) * part], target[rank * part:(rank + 1) * part])
    torch.save({name[len('module.'):]: g for name, g in got.items()}, out)
    dist.destroy_process_group()
    # torch 2.13's gloo can abort in its static destructors at interpreter
    # exit ("terminate called without an active exception"; 1 run in 3-12
    # here, also with no thffi code loaded), after everything above has
    # finished: the results are saved, so leave without running them.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
