"""Generates thffi's TH/THC math, random and LAPACK entry points from the
declared surface (tools/th_surface/surface.tsv) and the table of PyTorch
operations (thffi/runtime/thmath.py, OPS).

    python tools/gen_thmath.py           writes the files below
    python tools/gen_thmath.py --check   exit 1 when they differ from what it
                                         would write (thffi/tests/test_th_math.py)

For every function the listed math headers of PyTorch 0.3.1 or 0.4.1
declared, per scalar type, with an operation in OPS: its declaration, as
the release declared it (0.3.1's signature where it had one: its tensor
types are per scalar type; 0.4.1 named them all THTensor), into the header
of its family, and its definition, one call of THFFI_math (csrc/THMath.c)
with its arguments, into THMathGen.c or THCMathGen.c.  Every other such
function is listed, with the reason, in tools/th_surface/math_out.tsv.

The output is committed, not generated at build time: the headers are part
of thffi's include folder, which make.sh scripts use through `python -m
thffi --includes` before any build runs, and a reader (or a compiler error)
finds the declarations there; --check keeps them in step with the table."""

import argparse
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
sys.path.insert(0, ROOT)

import th_coverage  # noqa: E402
from thffi.runtime import thmath as _thmath  # noqa: E402

INCLUDE = os.path.join(ROOT, 'thffi', 'include')
CSRC = os.path.join(ROOT, 'thffi', 'csrc')
OUT_LIST = os.path.join(ROOT, 'tools', 'th_surface', 'math_out.tsv')

# Source header (surface.tsv) -> thffi header declaring its functions.
HEADERS = collections.OrderedDict([
    ('TH/generic/THTensorMath.h', 'TH/THTensorMath.h'),
    ('TH/generic/THTensorRandom.h', 'TH/THTensorRandom.h'),
    ('TH/generic/THTensorLapack.h', 'TH/THTensorLapack.h'),
    ('TH/THRandom.h', 'TH/THRandomGen.h'),
    ('THC/generic/THCTensorMath.h', 'THC/THCTensorMath.h'),
    ('THC/THCTensorMath.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathBlas.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathCompare.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathCompareT.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathMagma.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathPairwise.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathPointwise.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathReduce.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMathScan.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorIndex.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMasked.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorSort.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorTopK.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorMode.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorScatterGather.h', 'THC/THCTensorMath.h'),
    ('THC/generic/THCTensorRandom.h', 'THC/THCTensorRandom.h'),
    ('THC/THCTensorRandom.h', 'THC/THCTensorRandom.h'),
])
SOURCES = {'TH': 'THMathGen.c', 'THC': 'THCMathGen.c'}
# Kept in C (simple, hot loops: csrc/THTensorOps.c, THCTensor.cu).
IN_C = {'fill', 'zero', 'cadd'}
# Written by hand (TH/THRandom.h, csrc/THRandom.c): no scalar type, no PyTorch
# operation to run.
HAND = {'THGenerator_new', 'THGenerator_copy', 'THGenerator_free', 'THGenerator_isValid',
        'THGeneratorState_copy', 'THGeneratorState_isValid'}
_PREFIX = re.compile(r'^(THCuda(?:Byte|Char|Short|Int|Long|Half|Double)?Tensor|'
                     r'TH(?:Byte|Char|Short|Int|Long|Half|Float|Double)Tensor|'
                     r'THRandom|THCRandom)_(\w+)$')
_SIGNATURE = re.compile(r'^(?P<ret>.*?)\b(?P<name>\w+)\((?P<params>.*)\)$')
_INTEGER = re.compile(r'^(const )?(unsigned )?(int|long|char|int64_t|int32_t|int16_t|int8_t|'
                      r'uint64_t|uint8_t|ptrdiff_t|size_t)$')
_REAL = re.compile(r'^(const )?(float|double)$')
_GUARD = {'TH/THTensorMath.h': 'THFFI_TH_TENSOR_MATH_H',
          'TH/THTensorRandom.h': 'THFFI_TH_TENSOR_RANDOM_H',
          'TH/THTensorLapack.h': 'THFFI_TH_TENSOR_LAPACK_H',
          'TH/THRandomGen.h': 'THFFI_TH_RANDOM_GEN_H',
          'THC/THCTensorMath.h': 'THFFI_THC_TENSOR_MATH_H',
          'THC/THCTensorRandom.h': 'THFFI_THC_TENSOR_RANDOM_H'}
_INCLUDES = {
    'TH/THRandomGen.h': '', 'TH/THTensorRandom.h': '#include "THRandom.h"\n',
    'THC/THCTensorRandom.h': (
        '/* Legacy THC 0.4\'s generator types: PyTorch keeps the generators\n'
        ' * (THCRandom_getGenerator and _generatorStates are not provided). */\n'
        'typedef struct THCGenerator THCGenerator;\n'
        'typedef struct THCRNGState {\n  THCGenerator *gen;\n  int num_devices;\n} '
        'THCRNGState;\n')}


class Unsupported(Exception):
    pass


def _own_types(name):
    """(tensor type, storage type) of a function's own scalar type."""
    prefix = _PREFIX.match(name).group(1)
    return prefix, prefix.replace('Tensor', 'Storage')


def signature(entry):
    """The C declaration: 0.3.1's; for a 0.4.1-only function its own tensor
    and storage types where 0.4.1 wrote THTensor/THStorage."""
    if entry['signature 0.3.1']:
        return entry['signature 0.3.1']
    tensor, storage = _own_types(entry['name'])
    sig = re.sub(r'\bTHTensor\b', tensor, entry['signature 0.4.1'])
    return re.sub(r'\bTHStorage\b', storage, sig)


def parameters(params):
    """[(type, name)] of a parameter list."""
    out = []
    for p in params.split(','):
        p = p.strip()
        if not p or p == 'void':
            continue
        m = re.match(r'^(.*?)\s*\b(\w+)$', p)
        if not m or not m.group(1):
            raise Unsupported('an unnamed parameter')
        # the type with no space around '*': 'const char*', 'THFloatTensor**'
        out.append((re.sub(r'\s*\*\s*', '*', ' '.join(m.group(1).split())), m.group(2)))
    return out


def call_of(entry):
    """(declaration, definition) of one entry; Unsupported when the bridge
    cannot pass its arguments or result."""
    sig = signature(entry)
    m = _SIGNATURE.match(sig)
    name, ret = m.group('name'), m.group('ret').strip()
    prefix, op = _PREFIX.match(name).groups()
    lib = prefix if prefix in ('THRandom', 'THCRandom') else entry['lib']
    letters, values, punned = [], [], False
    params = parameters(m.group('params'))
    skip = 0
    for i, (ctype, pname) in enumerate(params):
        if skip:
            skip -= 1
            continue
        base = ctype.replace('struct ', '')
        if base in ('THCState*', 'THGenerator*'):
            continue
        if base.endswith('Tensor**') and i + 1 < len(params):
            # catArray(result, inputs, numInputs, dim): the array, its length
            count = params[i + 1][1]
            letters.append('Ai')
            values += ['(void **)%s' % pname, '(int)%s' % count, '(int64_t)%s' % count]
            skip, punned = 1, True
        elif base.endswith('Tensor**'):
            # calculateAdvancedIndexingOffsets(..., indexed, base, indexers):
            # one tensor per dimension of the tensor argument before it
            before = [p for t, p in params[:i] if t.replace('struct ', '').endswith('Tensor*')]
            letters.append('A')
            values += ['(void **)%s' % pname, '%s->nDimension' % before[-1]]
            punned = True
        elif base.endswith('Tensor*'):
            letters.append('T')
            values.append('(void *)%s' % pname)
            punned = True
        elif base.endswith('LongStorage*'):
            letters.append('S')
            values.append(pname)
            punned = True
        elif base == 'const char*':
            letters.append('s')
            values.append(pname)
        elif _INTEGER.match(base):
            letters.append('i')
            values.append('(int64_t)%s' % pname)
        elif _REAL.match(base):
            letters.append('d')
            values.append('(double)%s' % pname)
        elif base in ('half', 'const half'):
            letters.append('d')
            values.append('(double)THC_half2float(%s)' % pname)
        else:
            raise Unsupported('a parameter of type %s' % ctype)
    if ret == 'void':
        body = '  THFFI_math("%s", "%s", "%s", "%s", NULL%s);\n' % (
            name, op, lib, ''.join(letters), ''.join(', ' + v for v in values))
    elif _INTEGER.match(ret) or _REAL.match(ret):
        body = ('  THFFIMathValue v = {0, 0, 0.0};\n'
                '  THFFI_math("%s", "%s", "%s", "%s", &v%s);\n'
                '  return (%s)(v.is_int ? %s : %s);\n') % (
            name, op, lib, ''.join(letters), ''.join(', ' + v for v in values), ret,
            'v.i' if _INTEGER.match(ret) else '(double)v.i',
            '(int64_t)v.d' if _INTEGER.match(ret) else 'v.d')
    elif ret == 'half':
        body = ('  THFFIMathValue v = {0, 0, 0.0};\n'
                '  THFFI_math("%s", "%s", "%s", "%s", &v%s);\n'
                '  return THC_float2half((float)(v.is_int ? (double)v.i : v.d));\n') % (
            name, op, lib, ''.join(letters), ''.join(', ' + v for v in values))
    else:
        raise Unsupported('a result of type %s' % ret)
    declaration = 'TH_API %s;\n' % sig + ('THFFI_PUN(%s);\n' % name if punned else '')
    definition = '%s {\n%s}\n' % (sig, body)
    if entry['scalar'] == 'half':
        # The Half THC types exist where THCHalf.h says so (CUDA_HALF_TENSOR).
        declaration = '#ifdef CUDA_HALF_TENSOR\n%s#endif\n' % declaration
        definition = '#ifdef CUDA_HALF_TENSOR\n%s#endif\n' % definition
    return declaration, definition


def plan(entries):
    """({thffi header: [declaration]}, {lib: [definition]}, [(name, reason)])."""
    headers = collections.OrderedDict((h, []) for h in dict.fromkeys(HEADERS.values()))
    sources = {lib: [] for lib in SOURCES}
    out = []
    for e in entries:
        if e['kind'] != 'function' or e['header'] not in HEADERS:
            continue
        match = _PREFIX.match(e['name'])
        if e['name'] in HAND:
            continue
        if not match:
            out.append((e['name'], 'not a function of a scalar type (hand-written or out)'))
            continue
        prefix, op = match.groups()
        lib = prefix if prefix in ('THRandom', 'THCRandom') else e['lib']
        if op in IN_C and lib in ('TH', 'THC'):
            continue
        if lib + ':' + op not in _thmath.OPS and op not in _thmath.OPS:
            out.append((e['name'], _thmath.OUT.get(op, 'no PyTorch operation in thffi/runtime/thmath.py')))
            continue
        try:
            declaration, definition = call_of(e)
        except Unsupported as exc:
            out.append((e['name'], 'takes or returns what the bridge cannot pass (%s)' % exc))
            continue
        headers[HEADERS[e['header']]].append(declaration)
        sources[e['lib']].append(definition)
    return headers, sources, out


def render_header(path, declarations):
    guard = _GUARD[path]
    umbrella = '#include "TH/TH.h"\n#include "THCGeneral.h"\n#include "THCTensor.h"\n' \
        if path.startswith('THC') else \
        '#include "THGeneral.h"\n#include "THStorage.h"\n#include "THTensor.h"\n'
    return ('/* Generated by tools/gen_thmath.py from tools/th_surface/surface.tsv: the\n'
            ' * functions of this family PyTorch 0.3.1 and 0.4.1 declared, per scalar type,\n'
            ' * done by PyTorch (thffi/runtime/thmath.py, csrc/THMath.c).  Do not edit. */\n'
            '#ifndef %s\n#define %s\n\n%s%s\n%s\n#endif\n'
            % (guard, guard, umbrella, _INCLUDES.get(path, ''), ''.join(declarations)))


def render_source(lib, definitions):
    include = '#include "THC/THC.h"\n' if lib == 'THC' else '#include "TH/TH.h"\n'
    return ('/* Generated by tools/gen_thmath.py: each function hands its arguments to\n'
            ' * PyTorch through THFFI_math (THMath.c).  Do not edit. */\n'
            '%s#include "thffi_private.h"\n\n%s' % (include, '\n'.join(definitions)))


def outputs():
    """{path: text} of every generated file."""
    headers, sources, out = plan(th_coverage.read_surface())
    files = {os.path.join(INCLUDE, h): render_header(h, d) for h, d in headers.items()}
    files.update({os.path.join(CSRC, SOURCES[lib]): render_source(lib, d)
                  for lib, d in sources.items()})
    files[OUT_LIST] = ('# The TH/THC math, random and LAPACK functions of surface.tsv thffi '
                       'does not provide, and why (tools/gen_thmath.py).\nname\treason\n'
                       + ''.join('%s\t%s\n' % row for row in sorted(out)))
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true')
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(os.path.relpath(path, ROOT))
            if not args.check:
                with open(path, 'w') as f:
                    f.write(text)
    if args.check and stale:
        print('out of date (run python tools/gen_thmath.py): ' + ', '.join(stale))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
