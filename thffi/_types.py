"""The TH tensor types a wrapped C function may take, and the torch tensors
that stand for them.  Pure data: the builder reads it without importing torch."""

# TH type name -> (torch dtype name, device type).
TENSOR_TYPES = {
    'THFloatTensor': ('float32', 'cpu'),
    'THDoubleTensor': ('float64', 'cpu'),
    'THCudaTensor': ('float32', 'cuda'),
    'THCudaDoubleTensor': ('float64', 'cuda'),
    'THCudaIntTensor': ('int32', 'cuda'),
    'THCudaLongTensor': ('int64', 'cuda'),
}

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
    'float': 'float', 'double': 'float',
}

# Names the header parser must know as types (beyond the tensor types).
OPAQUE_TYPES = ('THCState', 'cudaStream_t')
