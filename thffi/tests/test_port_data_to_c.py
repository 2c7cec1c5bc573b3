"""`t.data` handed to C (thffi/port/data_to_c.py).  On PyTorch 0.4 `t.data`
was t's own tensor, so C that resized it changed t; today it is another
tensor over t's memory, and the hook alone cannot see that it came from t:
the C resizes that one and t stays empty.  `port` rewrites `t.data` to `t`
in the arguments of ffi calls where t is known to be a tensor, and reports
the rest.  The repository is ours, in the 2018 idiom."""

import os
import subprocess
import sys
import textwrap

from support import ROOT, write_files
from thffi.port import port
from thffi.port.python import rewrite_python

SOURCE = '''\
    import torch
    from torch.autograd import Function, Variable
    from torch.nn.utils.rnn import pack_padded_sequence
    from _ext import my_lib


    class AddFunction(Function):
        def forward(self, input1, input2):
            output = input1.new()
            my_lib.add(input1.data, (input2.data), output.data)
            return output

        def backward(self, grad_output):
            input1, input2 = self.saved_tensors
            my_lib.add_backward(input1.data, grad_output.data)
            return grad_output, grad_output


    class Scale(torch.nn.Module):
        def __init__(self):
            super(Scale, self).__init__()
            self.weight = torch.nn.Parameter(torch.randn(3))
            self.lengths = [3, 2]

        def forward(self, input, hidden):
            output = Variable(torch.FloatTensor())
            packed = pack_padded_sequence(input, self.lengths)
            my_lib.scale(input.data, self.weight.data, output.data, packed.data, self.lengths)
            my_lib.scale(input.data.contiguous(), torch.add(hidden.data, 1))
            return output
    '''


def test_data_in_ffi_arguments_becomes_the_tensor_where_it_is_one():
    new, findings = rewrite_python(textwrap.dedent(SOURCE), 'functions/add.py')
    assert rewrite_python(new, 'functions/add.py')[0] == new
    lines = set(new.splitlines())
    # Function inputs, tensors a tensor method made, unpacked saved_tensors,
    # Variable(...), a Parameter the class assigns: rewritten.
    assert '        my_lib.add(input1, (input2), output)' in lines
    assert '        my_lib.add_backward(input1, grad_output)' in lines
    # A Module's forward input and a PackedSequence (whose .data is a field
    # of its own) are not known to be tensors: reported; other uses of
    # .data stay.
    assert ('        my_lib.scale(input.data, self.weight, output, packed.data, self.lengths)'
            in lines)
    assert '        my_lib.scale(input.data.contiguous(), torch.add(hidden.data, 1))' in lines
    data = [str(f) for f in findings if '.data' in f.message]
    assert data == [
        'functions/add.py:10: add(...): input1.data (argument 1), input2.data (argument 2), '
        'output.data (argument 3): now input1, input2, output (on PyTorch 0.4 x.data was x '
        'itself, so C that resized or set it changed x; today it is another tensor over the '
        'same memory, and such a change would be lost)',
        'functions/add.py:15: add_backward(...): input1.data (argument 1), grad_output.data '
        '(argument 2): now input1, grad_output' + data[1].split('grad_output')[-1],
        'functions/add.py:28: scale(...): self.weight.data (argument 2), output.data (argument '
        '3): now self.weight, output' + data[2].split(', output')[-1],
        'functions/add.py:28: scale(...): input.data (argument 1), packed.data (argument 4) not '
        'changed (not known to be tensors): where x is a tensor, write x, or a change of shape '
        'its C makes is lost (on PyTorch 0.4 x.data was x itself; today it is another tensor '
        'over the same memory)']
    assert [f.fixed for f in findings if '.data' in f.message] == [True, True, True, False]


REPOSITORY = {
    'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.twice', headers=['src/twice.h'], sources=['src/twice.c'],
                               relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
    'src/twice.h': 'int twice_forward(THFloatTensor *input, THFloatTensor *output);\n',
    'src/twice.c': '''\
        #include <TH/TH.h>

        /* output = 2 * input, output resized to input's size */
        int twice_forward(THFloatTensor *input, THFloatTensor *output)
        {
          THFloatTensor_resizeAs(output, input);
          THFloatTensor_mul(output, input, 2);
          return 1;
        }
        ''',
    'functions/__init__.py': '',
    'functions/twice.py': '''\
        from torch.autograd import Function
        from _ext import twice


        class TwiceFunction(Function):
            def forward(self, input):
                output = input.new()
                twice.twice_forward(input.data, output.data)
                return output

            def backward(self, grad_output):
                grad_input = grad_output.new()
                twice.twice_forward(grad_output.data, grad_input.data)
                return grad_input
        ''',
    'test.py': '''\
        import torch
        from torch.autograd import Variable
        from functions.twice import TwiceFunction
        from _ext import twice

        x = Variable(torch.ones(2, 3), requires_grad=True)
        output = Variable(torch.FloatTensor())
        twice.twice_forward(x.data, output.data)
        print('direct: %s' % list(output.shape))
        y = TwiceFunction()(x)
        print('function: %s' % list(y.shape))
        y.sum().backward()
        print('grad: %s' % x.grad.view(-1).tolist())
        ''',
}


def _run(folder, *command):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable] + list(command), cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


def test_c_that_resizes_output_data_resizes_output_after_port(tmp_path):
    """With the hook alone the C's resize is lost (output stays empty, and
    backward then fails); after port, output has the C's shape, in a 2018
    script and in a legacy Function, and the gradient flows."""
    hook, ported = tmp_path / 'hook', tmp_path / 'ported'
    write_files(hook, REPOSITORY)
    write_files(ported, REPOSITORY)
    built = _run(hook, '-m', 'thffi', 'build.py')
    assert built.returncode == 0, built.stdout + built.stderr
    alone = _run(hook, 'test.py')
    assert alone.returncode != 0
    assert 'direct: [0]\nfunction: [0]\n' in alone.stdout, alone.stdout + alone.stderr

    findings = port(str(ported), write=True)[1]
    data = sorted((f.path, f.line) for f in findings if '.data (argument' in f.message)
    assert data == [(os.path.join('functions', 'twice.py'), 8),
                    (os.path.join('functions', 'twice.py'), 13), ('test.py', 8)]
    assert not [f for f in findings if '.data' in f.message and not f.fixed]
    assert 'twice.twice_forward(x, output)\n' in (ported / 'test.py').read_text()
    built = _run(ported, 'build.py')
    assert built.returncode == 0, built.stdout + built.stderr
    after = _run(ported, 'test.py')
    assert after.returncode == 0, after.stdout + after.stderr
    assert after.stdout == ('direct: [2, 3]\nfunction: [2, 3]\n'
                            'grad: [2.0, 2.0, 2.0, 2.0, 2.0, 2.0]\n')
