"""Several headers, read as PyTorch 0.4's create_extension read them: one
text in the order given, whose type declarations the module's ffi knows
(a struct pointer a function returns is typed, its fields read from
Python).  The fixtures are 2018-style bindings of ours."""

import pytest
from support import import_built, write_files

from thffi import create_extension
from thffi.builder.headers import HeaderError, read_headers

# A point-cloud-style binding: the types in one header, the functions in
# another, as repositories of 2018 split them.
TYPES_H = '''\
    #ifndef CLOUD_TYPES_H
    #define CLOUD_TYPES_H
    #define CLOUD_MAX_DIMS 4
    typedef struct {
        int n;
        float scale;
        int dims[CLOUD_MAX_DIMS];
    } cloud_info;
    typedef enum { CLOUD_SUM = 1, CLOUD_MEAN = CLOUD_MAX_DIMS } cloud_reduce;
    #endif
    '''
FUNCS_H = '''\
    #include "cloud_types.h"
    cloud_info *cloud_info_new(THFloatTensor *points, float scale);
    float cloud_reduce_info(cloud_info *info, THFloatTensor *points, cloud_reduce how);
    void cloud_info_free(cloud_info *info);
    '''
CLOUD_C = '''\
    #include <TH/TH.h>
    #include <stdlib.h>
    #include "cloud_funcs.h"

    cloud_info *cloud_info_new(THFloatTensor *points, float scale)
    {
        int d;
        cloud_info *info = (cloud_info *)calloc(1, sizeof(cloud_info));
        info->n = THFloatTensor_size(points, 0);
        info->scale = scale;
        for (d = 0; d < THFloatTensor_nDimension(points) && d < CLOUD_MAX_DIMS; d++)
            info->dims[d] = THFloatTensor_size(points, d);
        return info;
    }

    float cloud_reduce_info(cloud_info *info, THFloatTensor *points, cloud_reduce how)
    {
        float total = THFloatTensor_sumall(points) * info->scale;
        return how == CLOUD_MEAN ? total / info->n : total;
    }

    void cloud_info_free(cloud_info *info)
    {
        free(info);
    }
    '''


def test_a_typedef_of_one_header_known_in_the_next_and_its_struct_typed(tmp_path):
    write_files(tmp_path, {'src/cloud_types.h': TYPES_H, 'src/cloud_funcs.h': FUNCS_H,
                           'src/cloud.c': CLOUD_C})
    ffi = create_extension('_ext.cloud', headers=['src/cloud_types.h', 'src/cloud_funcs.h'],
                           sources=['src/cloud.c'], relative_to=str(tmp_path / 'build.py'),
                           verbose=False)
    ffi.build()
    import torch
    cloud = import_built(tmp_path, '_ext.cloud')
    points = torch.arange(12, dtype=torch.float32).reshape(6, 2)
    info = cloud.cloud_info_new(points, 0.5)
    try:
        # typed as 0.4's module gave it: fields read and written from Python
        assert cloud._ffi.typeof(info) is cloud._ffi.typeof('cloud_info *')
        assert (info.n, info.scale, list(info.dims)[:2]) == (6, 0.5, [6, 2])
        assert cloud.cloud_reduce_info(info, points, cloud.CLOUD_SUM) == 33.0
        info.n = 3
        assert cloud.cloud_reduce_info(info, points, cloud.CLOUD_MEAN) == 11.0
        # the struct is known to the module's ffi in full, its size as C's
        made = cloud._ffi.new('cloud_info *', {'n': 2, 'scale': 1.0})
        assert cloud._ffi.sizeof('cloud_info') == 4 * (2 + 4)
        assert cloud.cloud_reduce_info(made, points, cloud.CLOUD_MEAN) == 33.0
    finally:
        cloud.cloud_info_free(info)


def test_declarations_cffi_refuses_in_full_are_given_partly():
    # A size from a macro and a value cffi cannot compute: partial forms,
    # whose layout and values cffi asks the compiler for.
    import textwrap
    functions, constants, declared = read_headers([
        ('t.h', textwrap.dedent(TYPES_H)), ('f.h', textwrap.dedent(FUNCS_H))])
    assert '  int n;\n  float scale;\n  int dims[...];\n  ...;\n} cloud_info;' in declared
    assert '  CLOUD_SUM,\n  CLOUD_MEAN,\n  ...\n} cloud_reduce;' in declared
    assert [(fn.name, fn.header) for fn in functions] == [
        ('cloud_info_new', 'f.h'), ('cloud_reduce_info', 'f.h'), ('cloud_info_free', 'f.h')]
    assert functions[0].ret_cffi == 'cloud_info *'
    # a pointer to a struct only named: cffi's opaque struct, as in 0.4's cdef
    (fn,), _, _ = read_headers([('g.h', 'struct hidden *open_hidden(int n);\n')])
    assert (fn.ret_ctype, fn.ret_cffi) == ('struct hidden *', 'struct hidden *')
    assert constants == ['CLOUD_SUM', 'CLOUD_MEAN']


def test_an_error_names_the_header_and_line_it_is_in():
    with pytest.raises(HeaderError, match=r'^b\.h: cannot parse header: b\.h:2:'):
        read_headers([('a.h', 'typedef int count_t;\n'), ('b.h', 'int f(count_t n);\nint g(;\n')])
