"""PyTorch 0.x's results where today's differ (thffi/toolchain/tensor_behaviours.py):
`port` names the line and what to write (port/behaviours.py), `thffi run`
gives the old result in flight (run/behaviours.py).  The script is ours,
written as 2018 code was."""

import os
import subprocess
import sys
import textwrap

from support import ROOT
from thffi.port import port

# A 2018 training script's helpers: NHWC features flattened, a weight read
# column-major, a dispatch on the tensor's class name, padded RNN output.
TRAIN = '''\
    import torch
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


    def flatten_features(x):
        # NHWC for the loss: one row per position
        feats = x.permute(0, 2, 3, 1).double()
        return feats.view(-1, x.size(1))


    def column_major(weight):
        return weight.t().float().resize_(weight.numel())


    def to_numpy(x):
        if x.__class__.__name__ in ('FloatTensor', 'DoubleTensor'):
            return x.cpu().numpy()
        return x


    def unpack(output):
        output, lengths = pad_packed_sequence(output)
        return output, lengths


    def copy_rows(dst, src):
        dst.copy_(src)
        return dst
    '''


def _write(folder, files):
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))


def test_port_names_each_line_and_what_to_write(tmp_path):
    _write(tmp_path, {'train.py': TRAIN})
    _, findings, _, changed = port(str(tmp_path), version='0.3')
    assert changed == []
    found = {f.line: f.message for f in findings if f.path == 'train.py'}
    assert sorted(found) == [8, 12, 16, 22]
    assert found[8].startswith('feats then .view() (feats = x.permute(0, 2, 3, 1).double(), '
                               'line 7): PyTorch 0.1-0.4 returned a type conversion')
    assert found[8].endswith(': write x.permute(0, 2, 3, 1).double().contiguous()')
    assert found[12].startswith('weight.t().float() then .resize_(): PyTorch 0.1-0.4')
    assert found[12].endswith(': write weight.t().float().contiguous()')
    assert found[16].startswith("x.__class__.__name__ in ('FloatTensor', 'DoubleTensor'): "
                                "PyTorch 0.1-0.3 named a tensor's class after its type")
    assert found[16].endswith(": write x.type() == 'torch.FloatTensor' (any device: x.dtype == "
                              "torch.float32) or x.type() == 'torch.DoubleTensor' (any device: "
                              "x.dtype == torch.float64)")
    assert found[22].startswith('pad_packed_sequence(...): PyTorch 0.1-0.3 returned the lengths '
                                'as a list of ints; today a tensor')
    assert found[22].endswith(': write lengths = lengths.tolist() after it where the code needs '
                              'a list')
    # Written for 0.4, the lengths were a tensor already; the rest stands.
    findings = port(str(tmp_path), version='0.4')[1]
    assert sorted(f.line for f in findings if f.path == 'train.py') == [8, 12, 16]


def _run(folder, script):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', sys.executable, '-c',
                           textwrap.dedent(script)], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


def test_thffi_run_gives_the_old_results_and_changes_nothing_else(tmp_path):
    _write(tmp_path, {'train.py': TRAIN})
    ran = _run(tmp_path, '''\
        import torch
        import train
        x = torch.arange(24.).view(1, 4, 2, 3)
        print(train.flatten_features(x)[:2].tolist())
        w = torch.arange(6.).view(2, 3).double()
        print(train.column_major(w).tolist())
        dst = train.copy_rows(torch.zeros(2, 3), torch.arange(6.).view(3, 2))
        print(dst.tolist())
        # What today accepts stays as it is.
        v = torch.arange(6.).view(2, 3).t()
        print(v.float() is v, v.double().double() is not v)
        nhwc = torch.zeros(1, 3, 4, 4).to(memory_format=torch.channels_last).double()
        print(nhwc.is_contiguous(memory_format=torch.channels_last))
        print(torch.zeros(2, 3).copy_(torch.ones(3)).tolist())
        try:
            torch.zeros(2, 3).copy_(torch.ones(4))
        except RuntimeError:
            print('refused')
        ''')
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        # the NHWC rows: position (0, 0) across the 4 channels, then (0, 1)
        '[[0.0, 6.0, 12.0, 18.0], [1.0, 7.0, 13.0, 19.0]]',
        '[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]',  # column-major, as a contiguous copy reads
        '[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]',  # element by element
        'True True', 'True', '[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]', 'refused']
    said = [line for line in ran.stderr.splitlines() if line.startswith('thffi run:')]
    assert said == [
        "thffi run: train.py:7: x.double() of a non-contiguous tensor: PyTorch 0.1-0.4 returned "
        "a type conversion (x.double(), x.type(...), x.cuda()) of a non-contiguous tensor as a "
        "new contiguous tensor (Type::copy); today it keeps the strides: .view() raises, "
        ".resize_() and C reading the memory take the elements in memory order; thffi run gives "
        "a contiguous tensor where the type or device changes (for good, write .contiguous() "
        "after the conversion)",
        "thffi run: train.py:27: copy_ of a (3, 2) tensor into a (2, 3) one: PyTorch 0.1-0.3 "
        "copied element by element between tensors of one number of elements whose shapes do "
        "not broadcast (0.2-0.3 with a UserWarning); 0.4 expanded the source first "
        "(Type::copy_), and raised; today it raises; thffi run copies element by element where "
        "today raises (for good, write a.copy_(b.reshape(a.shape)))"]


# A 2018 spatial transformer's helpers: a hand-made identity grid, an
# affine warp, a test-time feature head, an upsampling by 1.5, a refit.
WARP = '''\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    def identity_grid(n, h, w):
        # the identity warp: -1 and 1 at the corner pixels
        ys = torch.linspace(-1, 1, h).view(h, 1).expand(h, w)
        xs = torch.linspace(-1, 1, w).view(1, w).expand(h, w)
        return torch.stack((xs, ys), 2).unsqueeze(0).expand(n, h, w, 2)


    def warp(images):
        n, _, h, w = images.size()
        return F.grid_sample(images, identity_grid(n, h, w))


    def transform(images, theta):
        grid = F.affine_grid(theta, images.size())
        return F.grid_sample(images, grid)


    def features(x):
        return F.dropout(x, 0.5)


    def enlarge(x):
        return F.upsample(x, scale_factor=1.5, mode='bilinear', align_corners=False)


    class Enlarge(nn.Module):
        def __init__(self):
            super(Enlarge, self).__init__()
            self.up = nn.Upsample(scale_factor=1.5, mode='nearest')

        def forward(self, x):
            return self.up(x)


    def refit(w):
        return torch.optim.LBFGS([w], max_iter=100)
    '''

# What 0.4 gave: each warp the image itself, dropout nothing, the
# upsamplings those of the size 7, LBFGS's tolerance 1e-5.
CHECK_WARP = '''\
    import torch
    import torch.nn.functional as F
    import warp
    x = torch.arange(25.).view(1, 1, 5, 5)
    theta = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
    print('%.4f' % (warp.warp(x) - x).abs().max().item())
    print('%.4f' % (warp.transform(x, theta) - x).abs().max().item())
    print(warp.features(torch.ones(8)).tolist())
    bilinear = F.interpolate(x, size=(7, 7), mode='bilinear', align_corners=False)
    print('%.4f' % (warp.enlarge(x) - bilinear).abs().max().item())
    nearest = F.interpolate(x, size=(7, 7), mode='nearest')
    print('%.4f' % (warp.Enlarge()(x) - nearest).abs().max().item())
    print(warp.refit(torch.zeros(2, requires_grad=True)).defaults['tolerance_grad'])
    '''
OLD_RESULTS = ['0.0000', '0.0000', [1.0] * 8, '0.0000', '0.0000', '1e-05']


def _results(stdout):
    lines = stdout.splitlines()
    return lines[:2] + [eval(lines[2])] + lines[3:]


def test_the_changed_defaults_as_0_4_had_them_under_run_and_after_port(tmp_path):
    _write(tmp_path, {'warp.py': WARP})
    # Today's defaults give other numbers; what 0.4 gave, under thffi run.
    plain = subprocess.run([sys.executable, '-c', textwrap.dedent(CHECK_WARP)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0, plain.stderr
    today = _results(plain.stdout)
    assert today[0] != '0.0000' and today[2] != [1.0] * 8 and today[3] != '0.0000'
    assert today[5] == '1e-07'
    ran = _run(tmp_path, CHECK_WARP)
    assert ran.returncode == 0, ran.stderr
    assert _results(ran.stdout) == OLD_RESULTS
    said = [line.split(': PyTorch ')[0] for line in ran.stderr.splitlines()
            if line.startswith('thffi run:')]
    assert said == ['thffi run: warp.py:15: grid_sample(...) without align_corners=',
                    'thffi run: warp.py:19: affine_grid(...) without align_corners=',
                    'thffi run: warp.py:24: dropout(...) without training=',
                    'thffi run: warp.py:28: interpolate(...) of a size (5, 5) by '
                    'scale_factor=1.5',
                    'thffi run: warp.py:41: LBFGS(...) without tolerance_grad=']
    # port writes each as 0.4 had it, and plain Python gives 0.4's numbers.
    _, findings, _, changed = port(str(tmp_path), write=True, version='0.4')
    assert changed == ['warp.py']
    found = sorted((f.line, f.message.split(': PyTorch ')[0]) for f in findings
                   if f.path == 'warp.py')
    assert found == [(15, 'grid_sample(...) without align_corners='),
                     (19, 'affine_grid(...) without align_corners='),
                     (20, 'grid_sample(...) without align_corners='),
                     (24, 'dropout(...) without training='),
                     (28, 'scale_factor=1.5'), (28, 'upsample(...): now F.interpolate(...)'),
                     (34, 'scale_factor=1.5'),
                     (41, 'LBFGS(...) without tolerance_grad=')]
    text = (tmp_path / 'warp.py').read_text()
    assert "F.interpolate(x, scale_factor=1.5, mode='bilinear', align_corners=False, " \
           "recompute_scale_factor=True)" in text
    assert 'F.dropout(x, 0.5, training=False)' in text
    assert 'torch.optim.LBFGS([w], max_iter=100, tolerance_grad=1e-05)' in text
    ported = subprocess.run([sys.executable, '-c', textwrap.dedent(CHECK_WARP)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert ported.returncode == 0, ported.stderr
    assert _results(ported.stdout) == OLD_RESULTS
    # The ported code gives every parameter: thffi run has nothing to say.
    ran = _run(tmp_path, CHECK_WARP)
    assert _results(ran.stdout) == OLD_RESULTS
    assert 'thffi run:' not in ran.stderr


def test_a_call_that_gives_the_parameter_and_torchs_own_calls_stay_todays(tmp_path):
    ran = _run(tmp_path, '''\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        torch.manual_seed(0)
        print(bool((F.dropout(torch.ones(64), 0.5, training=True) == 0).any()))
        x = torch.arange(16.).view(1, 1, 4, 4)
        grid = F.affine_grid(torch.tensor([[[1., 0., 0.], [0., 1., 0.]]]), x.size(),
                             align_corners=False)
        print('%.4f' % (F.grid_sample(x, grid, align_corners=False) - x).abs().max().item())
        print(F.interpolate(torch.ones(1, 1, 5), scale_factor=1.5,
                            recompute_scale_factor=False).shape[-1])
        # multi_head_attention_forward calls F.dropout without training=
        attention = nn.MultiheadAttention(4, 1, dropout=0.9)
        ones = torch.ones(3, 1, 4)
        print(bool((attention(ones, ones, ones)[1] == 0).any()))
        # TorchScript compiles torch's own functions where scripted code calls them
        scripted = torch.jit.script(nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5)))
        twice = torch.jit.script(nn.Upsample(scale_factor=2.0))
        print(scripted.eval()(torch.ones(1, 2)).shape, twice(torch.ones(1, 1, 2)).shape)
        ''')
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ['True', '0.0000', '7', 'True',
                                       'torch.Size([1, 2]) torch.Size([1, 1, 4])']
    assert 'thffi run:' not in ran.stderr


def test_port_names_a_changed_default_it_cannot_see_given(tmp_path):
    # The arguments may give training=: port cannot tell, and names it.
    _write(tmp_path, {'head.py': '''\
        import torch.nn.functional as F


        def head(x, *args):
            return F.dropout(x, *args)
        '''})
    _, findings, _, changed = port(str(tmp_path), version='0.4')
    assert changed == []
    found = [f for f in findings if f.path == 'head.py']
    assert [(f.line, f.fixed) for f in found] == [(5, False)]
    assert found[0].message.startswith('dropout(...) without training=: PyTorch 0.x did not drop')
    assert found[0].message.endswith(': write training=False where *args and **kwargs do not '
                                     'give it')
