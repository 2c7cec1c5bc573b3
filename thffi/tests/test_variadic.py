"""Variadic C functions in a header, called as torch.utils.ffi's cffi
called them: each tensor after the function's own arguments passed as its
TH struct pointer, other extras as typed cffi values (codegen.py)."""

import cffi
import pytest
import torch
from support import import_built, write_files

from thffi import create_extension

_HEADER = '''\
    int count_elements(THFloatTensor *first, int n, ...);
    double weigh(int n, ...);
    '''
# 2018's C: the extras read with va_arg, as the callers' types say.
_SOURCE = '''\
    #include <stdarg.h>
    #include <TH/TH.h>

    int count_elements(THFloatTensor *first, int n, ...)
    {
      va_list rest;
      int i, count = THFloatTensor_nElement(first);
      va_start(rest, n);
      for (i = 0; i < n; i++)
        count += THFloatTensor_nElement(va_arg(rest, THFloatTensor *));
      va_end(rest);
      return count;
    }

    /* n pairs (int weight, double value): the sum of weight * value */
    double weigh(int n, ...)
    {
      va_list rest;
      double sum = 0;
      int i;
      va_start(rest, n);
      for (i = 0; i < n; i++) {
        int weight = va_arg(rest, int);
        sum += weight * va_arg(rest, double);
      }
      va_end(rest);
      return sum;
    }
    '''


@pytest.fixture(scope='module')
def variadic(tmp_path_factory):
    folder = tmp_path_factory.mktemp('variadic')
    write_files(folder, {'src/variadic.h': _HEADER, 'src/variadic.c': _SOURCE})
    create_extension('_ext.variadic', headers=['src/variadic.h'], sources=['src/variadic.c'],
                     relative_to=str(folder / 'build.py'), verbose=False).build()
    return import_built(folder, '_ext.variadic')


def test_tensors_in_the_variadic_part(variadic):
    a, b, c = torch.zeros(2, 3), torch.zeros(5), torch.zeros(4, 1, 2)
    assert variadic.count_elements(a, 2, b, c) == 6 + 5 + 8
    assert variadic.count_elements(a, 0) == 6
    assert variadic.count_elements(a, 1, c[:, :, 1]) == 6 + 4  # a strided view


def test_typed_cffi_values_in_the_variadic_part(variadic):
    ffi = cffi.FFI()
    assert variadic.weigh(2, ffi.cast('int', 3), ffi.cast('double', 0.5),
                          ffi.cast('int', -2), ffi.cast('float', 0.25)) == 1.0


def test_what_cffi_refused_is_refused(variadic):
    with pytest.raises(TypeError, match=r"weigh\(\): argument 2 \(in the variadic part\): "
                       r"expected a tensor or a typed cffi value \(ffi.cast\('int', 3\)"):
        variadic.weigh(1, 3, cffi.FFI().cast('double', 0.5))
    with pytest.raises(TypeError, match=r'count_elements\(\): argument 3 \(in the variadic '
                       r'part\): expected a strided CPU tensor of dtype .*got a '
                       r'torch.float32 torch.sparse_coo tensor'):
        variadic.count_elements(torch.zeros(1), 1, torch.zeros(2).to_sparse())
    with pytest.raises(TypeError, match=r'takes at most 8 arguments after its 2 own'):
        variadic.count_elements(torch.zeros(1), 9, *[torch.zeros(1)] * 9)
    with pytest.raises(TypeError, match=r'takes at most 4 arguments after its 1 own .* when '
                       r'one is a double, got 6'):
        variadic.weigh(3, *[cffi.FFI().cast('double', 1)] * 6)
