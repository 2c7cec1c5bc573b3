"""What PyTorch 0.x's tensors and functions did that today's do otherwise
with no error: the script runs on, with other numbers.  One row a
behaviour, read from PyTorch's own source of then (the defaults changed
since: found by tools/py_defaults.py, which compares 0.4.1's signatures
with today's); `python -m thffi port` names the line and
what to write (port/behaviours.py), `python -m thffi run` gives the old
result where it can without changing anything else (run/behaviours.py).

Rule(then, now, versions, write, run), said as "PyTorch <versions> <then>;
today <now>":
- then: what the old releases did, and where their source shows it;
- now: what today's PyTorch does instead;
- versions: the releases that did `then` (a row of 0.1-0.3 is one 0.4
  already changed: code written for 0.4 saw today's behaviour);
- write: what to write for the old result;
- run: what thffi run does, or None where it cannot (a class's name).

This file is loaded by path by thffi run's Pythons (run/behaviours.py):
it imports only the standard library."""

import collections

Rule = collections.namedtuple('Rule', 'then now versions write run')

# The conversions that copied into a new contiguous tensor in 0.x (0.4.1:
# python_variable_methods.cpp's THPVariable_to_type and THPVariable_cuda ->
# dispatch_type_conversion -> _cast_<Type> or toType -> Type::copy, which
# makes `tensor(src.sizes())`, contiguous, then copy_), and return self
# when nothing changes.
CONVERSIONS = ('double', 'float', 'half', 'long', 'int', 'short', 'char', 'byte', 'type',
               'cuda', 'cpu')
# A tensor's class names in 0.1-0.3 (torch.FloatTensor, torch.cuda.FloatTensor:
# both 'FloatTensor'); a Variable's was 'Variable'.
TENSOR_CLASS_NAMES = ('FloatTensor', 'DoubleTensor', 'HalfTensor', 'ByteTensor', 'CharTensor',
                      'ShortTensor', 'IntTensor', 'LongTensor', 'Variable')

# The calls whose default changed after 0.x, and 0.x's value: (the
# callable, its parameter, the parameter's place among the call's positional
# arguments (a class: its constructor's, after self), 0.x's value, the row).
OLD_DEFAULTS = (
    ('torch.nn.functional.grid_sample', 'align_corners', 4, True, 'sampling corners'),
    ('torch.nn.functional.affine_grid', 'align_corners', 2, True, 'sampling corners'),
    ('torch.nn.functional.dropout', 'training', 2, False, 'dropout default'),
    ('torch.nn.functional.dropout2d', 'training', 2, False, 'dropout default'),
    ('torch.nn.functional.dropout3d', 'training', 2, False, 'dropout default'),
    ('torch.optim.LBFGS', 'tolerance_grad', 4, 1e-5, 'LBFGS tolerance'),
)
# The calls that take a scale_factor ('scale factor'), and the places of
# their size and scale_factor among the call's positional arguments.
SCALED = {'torch.nn.functional.interpolate': (1, 2), 'torch.nn.functional.upsample': (1, 2),
          'torch.nn.Upsample': (0, 1)}

RULES = {
    'contiguous conversion': Rule(
        then='returned a type conversion (x.double(), x.type(...), x.cuda()) of a '
             'non-contiguous tensor as a new contiguous tensor (Type::copy)',
        now='it keeps the strides: .view() raises, .resize_() and C reading the memory take '
            'the elements in memory order',
        versions='0.1-0.4',
        write='.contiguous() after the conversion',
        run='gives a contiguous tensor where the type or device changes'),
    'pointwise copy': Rule(
        then='copied element by element between tensors of one number of elements whose '
             'shapes do not broadcast (0.2-0.3 with a UserWarning); 0.4 expanded the source '
             'first (Type::copy_), and raised',
        now='it raises',
        versions='0.1-0.3',
        write='a.copy_(b.reshape(a.shape))',
        run='copies element by element where today raises'),
    'packed lengths': Rule(
        then='returned the lengths as a list of ints',
        now='a tensor, as since 0.4 (torch.LongTensor(lengths))',
        versions='0.1-0.3',
        write='lengths.tolist() where the code needs a list (lengths == [...], '
              'lengths + [...], json)',
        run=None),
    'sampling corners': Rule(
        then='sampled F.grid_sample\'s grid with -1 and 1 at the centres of the corner pixels, '
             'and F.affine_grid made its grid so (0.4.1: grid_sample\'s documentation, '
             'affine_grid_generator\'s linspace(-1, 1, W))',
        now='without align_corners both take -1 and 1 as the outer edges of the corner pixels '
            '(align_corners=False, since 1.3): another sampling',
        versions='0.x',
        write='align_corners=True',
        run='passes align_corners=True where the call gives none'),
    'dropout default': Rule(
        then='did not drop in F.dropout, F.dropout2d and F.dropout3d called without training= '
             '(0.4.1: training=False)',
        now='training=True, since 1.0: it drops, in eval() too',
        versions='0.x',
        write='training=False, as it ran; training=self.training where it was meant to '
              'follow the module\'s mode',
        run='passes training=False where the call gives none'),
    'scale factor': Rule(
        then='interpolated by the ratio of the sizes: F.interpolate, F.upsample and nn.Upsample '
             'with a scale_factor took the output size floor(size * scale_factor) and sampled '
             'at input size / output size (0.4.1: interpolate gave the kernel the output size '
             'alone)',
        now='the kernel samples at 1 / scale_factor (since 1.6): other numbers where size * '
            'scale_factor is not a whole number',
        versions='0.4',
        write='recompute_scale_factor=True',
        run='passes recompute_scale_factor=True where the call gives a scale_factor and none'),
    'LBFGS tolerance': Rule(
        then='stopped optim.LBFGS at a gradient of tolerance_grad=1e-5 by default',
        now='tolerance_grad=1e-07 (since 1.3): it iterates on, to other weights',
        versions='0.x',
        write='tolerance_grad=1e-5',
        run='passes tolerance_grad=1e-5 where the call gives none'),
    'tensor class name': Rule(
        then="named a tensor's class after its type (type(x).__name__ 'FloatTensor', for a "
             "CUDA one too; a Variable's 'Variable')",
        now="every tensor's class is torch.Tensor, as since 0.4 (type(x).__name__ 'Tensor'): "
            "the comparison is never true",
        versions='0.1-0.3',
        write="x.type() == 'torch.FloatTensor' (any device: x.dtype == torch.float32; a "
              "Variable: isinstance(x, torch.Tensor))",
        run=None),
}
