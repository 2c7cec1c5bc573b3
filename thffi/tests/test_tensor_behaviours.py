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
