"""The TH tensor types a wrapped C function may take, and the torch tensors
that stand for them.  Pure data: the builder reads it without importing torch."""

# dtypes in the order of the C layer's dtype numbers (THFFI_DTYPE).
THFFI_DTYPES = ('float32', 'float64', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16')
_REALS = (('Float', 'float32'), ('Double', 'float64'), ('Byte', 'uint8'), ('Char', 'int8'),
          ('Short', 'int16'), ('Int', 'int32'), ('Long', 'int64'))

# TH type name -> (torch dtype name, device type).  THCudaTensor is float.
TENSOR_TYPES = {}
for _real, _dtype in _REALS:
    TENSOR_TYPES['TH%sTensor' % _real] = (_dtype, 'cpu')
    TENSOR_TYPES['THCuda%sTensor' % ('' if _real == 'Float' else _real)] = (_dtype, 'cuda')
# The half tensors (legacy torch.utils.ffi took THC's; TH's THHalfTensor is
# there for generic code built with TH/THGenerateHalfType.h).
TENSOR_TYPES['THHalfTensor'] = ('float16', 'cpu')
TENSOR_TYPES['THCudaHalfTensor'] = ('float16', 'cuda')

# Scalar C types that pass through from Python: name -> 'int' | 'uint' | 'float'.
SCALAR_TYPES = {
    'char': 'int', 'signed char': 'int', 'unsigned char': 'uint',
    'short': 'int', 'short int': 'int', 'unsigned short': 'uint',
    'unsigned short int': 'uint',
    'int': 'int', 'signed': 'int', 'signed int': 'int', 'unsigned': 'uint',
    'unsigned int': 'uint',
    'long': 'int', 'long int': 'int', 'unsigned long': 'uint',
    'unsigned long int': 'uint',
    'long long': 'int', 'long long int': 'int', 'unsigned long long': 'uint',
    'unsigned long long int': 'uint',
    'int8_t': 'int', 'int16_t': 'int', 'int32_t': 'int', 'int64_t': 'int',
    'uint8_t': 'uint', 'uint16_t': 'uint', 'uint32_t': 'uint', 'uint64_t': 'uint',
    'size_t': 'uint', 'ssize_t': 'int', 'ptrdiff_t': 'int',
    'intptr_t': 'int', 'uintptr_t': 'uint', '_Bool': 'uint', 'bool': 'uint',
    'wchar_t': 'int', 'char16_t': 'uint', 'char32_t': 'uint',
    'float': 'float', 'double': 'float',
}

# Names the header parser must know as types (beyond the tensor types).
OPAQUE_TYPES = ('THCState', 'cudaStream_t')
