"""What PyTorch 0.x's tensors did that today's do otherwise with no error:
the script runs on, with other numbers.  One row a behaviour, read from
PyTorch's own source of then; `python -m thffi port` names the line and
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
