"""Headers 2018 ffi code included that thffi does not provide, and what to
write instead: a build failing on one says so, not only the compiler's bare
"No such file or directory" (builder/compile.py's explained() reads this
table for every failed compile: gcc, g++ and nvcc), and port's report
names each include of one (port/c.py), which the build will refuse.

torch.utils.ffi put torch/lib/include on the include path, where PyTorch
0.4 installed ATen's C++ headers beside TH's, and some ffi code of 2018
reached through them into ATen (`at::CPU(at::kFloat).unsafeTensorFromTH(t,
true)` made an at::Tensor of a THFloatTensor *).  thffi gives C the TH/THC
API over the tensors a call is handed, not PyTorch's C++ API; the headers
of these rows lie nowhere on its include path.

Header(pattern, what, instead):
- pattern: the header as included (a regular expression, matched whole);
- what: what 2018's code had from it;
- instead: what to write today."""

import collections
import re

Header = collections.namedtuple('Header', 'pattern what instead')

MISSING = [
    Header(r'ATen/.+',
           'ATen, PyTorch\'s C++ tensor library, and 2018\'s bridge to it from TH '
           '(at::CPU(at::kFloat).unsafeTensorFromTH(t, true), Tensor::unsafeGetTH), '
           'which thffi does not provide: its C sees the TH/THC API over the tensors '
           'a call is handed',
           'call TH\'s and THC\'s functions on the THFloatTensor/THCudaTensor the '
           'function is given (THFloatTensor_addmm, THCudaTensor_data...: '
           'docs/porting/c_api.md), or write the op in C++ with '
           'torch.utils.cpp_extension (#include <torch/extension.h>) and call it from '
           'Python'),
    Header(r'torch/(?:torch|extension)\.h|torch/csrc/.+',
           'PyTorch\'s C++ API, which thffi\'s builds do not compile against (the '
           'library links no libtorch)',
           'build that code with torch.utils.cpp_extension and call it from Python'),
    Header(r'(?:THNN/)?THNN\.h',
           'THNN\'s layer functions (THNN_FloatSpatialConvolutionMM_updateOutput...), which '
           'thffi does not provide (0.4.1\'s wheel shipped THNN.h without the generic/THNN.h '
           'it includes)',
           'call torch.nn.functional from Python before or after the C call; '
           'THCUNN\'s *.cuh, common.h and THCUNN.h (THNN_(NAME), THCIndexTensor; not its '
           'layer functions) are provided'),
]

_MISSING_FILE = re.compile(r'fatal error: ([\w./+-]+): No such file or directory')


def explain(output):
    """A line for each header of MISSING that a compiler's output says it
    could not find, once each: `<ATen/ATen.h> is not provided: ...`."""
    return [line for line in map(describe, dict.fromkeys(_MISSING_FILE.findall(output)))
            if line]


def describe(name):
    """`<name> is not provided: what; instead, ...` for a header of MISSING
    (as included: 'ATen/ATen.h'), else None."""
    for row in MISSING:
        if re.fullmatch(row.pattern, name):
            return '<%s> is not provided: %s; instead, %s' % (name, row.what, row.instead)
    return None
