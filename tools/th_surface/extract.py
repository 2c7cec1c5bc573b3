"""Lists what PyTorch 0.3.1's and 0.4.1's public TH/THC headers declare:
every function, macro and type, per scalar type, with its signature and the
releases declaring it.  Writes tools/th_surface/surface.tsv.

    python tools/th_surface/extract.py GIT_DIR

GIT_DIR is a git directory of pytorch/pytorch holding the tags of SOURCES
(a fork's snapshot has them).  Nothing of PyTorch's is committed: only the
names and signatures this script derives.

Which headers: those of legacy TH.h/THC.h that extension code used
(LISTED), and every header each release's wheel installed (wheel_headers:
its setup.py's package_data globs under lib/include, applied to what the
CMake files of TH, THC, THNN and THCUNN install: `INSTALL(FILES ...
DESTINATION ".../SUB")` and THCUNN's `install(DIRECTORY ... FILES_MATCHING
PATTERN ...)`, the two forms those files use).

How: each release's TH and THC folders are laid out as they were installed
(`lib/include/TH`, `lib/include/THC`), THGeneral.h.in and THCGeneral.h.in
configured with every #cmakedefine off, and <TH/TH.h>, <THC/THC.h> plus the
listed headers they do not include are run through the C preprocessor
(`gcc -E -dD`, system and CUDA headers replaced by empty files and the few
types they give, see PRELUDE).  So the generic headers are expanded by the
release's own THGenerate*Type(s).h, once per scalar type they were included
for (`real` becomes float, THTensor_(add) becomes THFloatTensor_add), with
CUDA_VERSION 9000 (so THCHalf.h defines CUDA_HALF_TENSOR and the Half THC
types exist, as in the CUDA builds of both releases).  pycparser parses the
result; the preprocessor's line markers say which header declared what.
The C++/CUDA headers (*.cuh, *.hpp, and a wheel's .h that pycparser
refuses) are C++, which pycparser cannot parse: their macros, type and
function names (operators included, as `operator+`) come from their text
(cuh_names, with the patterns _CUH_TYPE, _CUH_FUNCTION, _HOST_FUNCTION)."""

import ast
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pycparser
from pycparser import c_ast, c_generator

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'surface.tsv')
RELEASES = ('0.3.1', '0.4.1')
COLUMNS = ('name', 'kind', 'lib', 'scalar', 'family', 'header', 'releases') + tuple(
    'signature ' + r for r in RELEASES)

# release: (tag, folder of TH, THC, THNN and THCUNN in it, what the tag is)
SOURCES = {
    '0.3.1': ('v0.3.1', 'torch/lib', 'the release tag (commit 2b474801, 2018-02-09)'),
    '0.4.1': ('v0.4.1', 'aten/src', 'the release tag (commit a24163a9, 2018-07-25)'),
}
LIBS = ('TH', 'THC', 'THNN', 'THCUNN')

# The headers of the list (TH/..., THC/...); a name counts when one
# of these declares it.  THCTensorMath.h's generic siblings (index, masked,
# sort, topk, mode, scatter/gather) are there because <THC/THCTensorMath.h>
# declared them with the THCTensorMath*.h families.
LISTED = re.compile(r'^(TH/(THGeneral|THStorage|THStorageFunctions|THTensor|THTensorApply'
                    r'|THTensorDimApply|THGenerate\w+|THRandom|THLogAdd|THVector)\.h'
                    r'|TH/generic/(THStorage|THTensor|THTensorMath|THTensorRandom'
                    r'|THTensorLapack|THVector)\.h'
                    r'|THC/(THCGeneral|THCStorage|THCTensor|THCTensorMath|THCTensorRandom'
                    r'|THCBlas|THCHalf|THCGenerate\w+)\.h'
                    r'|THC/generic/(THCStorage|THCTensor|THCTensorMath\w*|THCTensorRandom'
                    r'|THCTensorIndex|THCTensorMasked|THCTensorSort|THCTensorTopK'
                    r'|THCTensorMode|THCTensorScatterGather)\.h'
                    r'|THC/(THCNumerics|THCAtomics|THCDeviceTensor|THCDeviceTensor-inl'
                    r'|THCDeviceTensorUtils|THCDeviceTensorUtils-inl|THCDeviceUtils)\.cuh)$')
# Listed headers the umbrella headers do not include.
EXTRA = ['TH/THTensorDimApply.h', 'THC/THCHalf.h']
CUH = ['THC/THCNumerics.cuh', 'THC/THCAtomics.cuh', 'THC/THCDeviceTensor.cuh',
       'THC/THCDeviceTensorUtils.cuh', 'THC/THCDeviceUtils.cuh']

# What the replaced system, BLAS and CUDA headers gave the TH/THC headers.
PRELUDE = '''
typedef unsigned long size_t; typedef long ptrdiff_t; typedef long ssize_t;
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef long intptr_t; typedef unsigned long uintptr_t;
typedef struct FILE FILE; typedef struct va_list_ *va_list; typedef long time_t;
typedef struct CUstream_st *cudaStream_t; typedef struct CUevent_st *cudaEvent_t;
typedef int cudaError_t; typedef struct cudaDeviceProp cudaDeviceProp;
typedef struct cublasContext *cublasHandle_t; typedef struct cusparseContext *cusparseHandle_t;
typedef int cublasStatus_t; typedef int cusparseStatus_t; typedef int cublasOperation_t;
typedef struct __half_raw { unsigned short x; } __half_raw;
typedef struct curandStateMtgp32 curandStateMtgp32;
typedef struct mtgp32_kernel_params mtgp32_kernel_params;
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
typedef unsigned int pthread_key_t; typedef struct pthread_mutex_t pthread_mutex_t;
typedef unsigned long long cudaTextureObject_t; typedef int cudaMemcpyKind; typedef int cudaDataType;
'''
DEFINES = ['CUDA_VERSION=9000', 'NULL=0', 'bool=_Bool', 'FLT_MAX=3.4e38', 'DBL_MAX=1.7e308',
           '__attribute__(x)=', '__inline=inline', 'TH_NO_RETURN=']
# Names in *.cuh text, outside any braces (depth 0) or as members of a
# THCNumerics specialization: `struct|class NAME[<ARGS>]` are types,
# `NAME(` in a statement with __device__/__host__ is a function.
_CUH_TYPE = re.compile(r'\b(?:struct|class)\s+(\w+(?:\s*<[^{};()]*>)?)\s*[{;:]')
_CUH_FUNCTION = re.compile(r'\b(__device__|__host__)\b.*?(?:\b(operator\s*[^\s(]+?)|\b(\w+))\s*\(', re.S)
_KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof'}
# A host function at the top: a return type, then NAME( or operatorX(, before
# any `=` (an initializer) and not a statement's keyword.
_HOST_FUNCTION = re.compile(r'^(?!(?:if|for|while|switch|return|typedef|using|static_assert)\b)'
                            r'[^=(]*?[\w>*&]\s+[*&]*\s*(?:(operator\s*[^\s(]+?)|(\w+))\s*\(')
_MARK = re.compile(r'^# (\d+) "([^"]*)"')
_DEFINE = re.compile(r'^#define (\w+)(\([^)]*\))?')
# Include guards and the generic machinery's own switches are not API.
_GUARD = re.compile(r'(_INC|_H|_INCLUDED|_H_|_CUH_?|GenerateManyTypes|LocalGenerate\w*)$')
_SCALAR = re.compile(r'^(?:THCuda|TH)(Byte|Char|Short|Int|Long|Half|Float|Double)'
                     r'(?=Tensor|Storage|Vector|Blas|Lapack)')
_THC_FLOAT = re.compile(r'^THCuda(?=Tensor|Storage)')


def git_show(git_dir, release, path):
    commit, folder, _ = SOURCES[release]
    out = subprocess.run(['git', '--git-dir', git_dir, 'show', '%s:%s' % (commit, path)],
                         capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


def stage(git_dir, release, root):
    """The release's TH, THC, THNN and THCUNN folders under root/TH...,
    each *.h.in configured with every #cmakedefine off."""
    commit, folder, _ = SOURCES[release]
    archive = subprocess.run(['git', '--git-dir', git_dir, 'archive', commit]
                             + [folder + '/' + lib for lib in LIBS],
                             capture_output=True, check=True)
    subprocess.run(['tar', '-x', '-C', root], input=archive.stdout, check=True)
    for lib in LIBS:
        shutil.move(os.path.join(root, folder, lib), os.path.join(root, lib))
        for name in os.listdir(os.path.join(root, lib)):
            if name.endswith('.h.in'):
                path = os.path.join(root, lib, name)
                with open(path) as f:
                    text = f.read()
                text = re.sub(r'#cmakedefine (\w+).*', r'/* #undef \1 */', text)
                with open(path[:-3], 'w') as f:
                    f.write(re.sub(r'@\w+@', '0', text))


_INSTALL_FILES = re.compile(r'\bINSTALL\s*\(\s*FILES\b(.*?)\bDESTINATION\s+"?\$\{\w+\}/([\w/]+)"?\s*\)',
                            re.S | re.I)
_INSTALL_DIRECTORY = re.compile(r'\bINSTALL\s*\(\s*DIRECTORY\s+\$\{CMAKE_CURRENT_SOURCE_DIR\}\s+'
                                r'DESTINATION\s+\S+\s+FILES_MATCHING((?:\s+PATTERN\s+"[^"]+")+)\s*\)',
                                re.S | re.I)


def installed_headers(root):
    """The headers TH, THC, THNN and THCUNN's CMake files install, as paths
    under the install's include folder (TH/generic/THBlas.h)."""
    found = set()
    for lib in LIBS:
        path = os.path.join(root, lib, 'CMakeLists.txt')
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text = re.sub(r'#.*', '', f.read())
        for files, destination in _INSTALL_FILES.findall(text):
            for name in files.split():
                if '$' not in name or name.startswith('${CMAKE_CURRENT_BINARY_DIR}/'):
                    found.add(destination + '/' + os.path.basename(name))
        for patterns in _INSTALL_DIRECTORY.findall(text):
            patterns = re.findall(r'"([^"]+)"', patterns)
            for folder, _, names in os.walk(os.path.join(root, lib)):
                for name in names:
                    if any(fnmatch.fnmatchcase(name, p) for p in patterns):
                        found.add(os.path.relpath(os.path.join(folder, name), root))
    return found


def wheel_headers(git_dir, release, root):
    """The headers of TH, THC, THNN and THCUNN the release's wheel held:
    its setup.py's package_data globs (lib/include/TH/*.h...) applied, one
    folder level each, to what the CMake files installed."""
    tree = ast.parse(git_show(git_dir, release, 'setup.py'))
    globs = [node.value[len('lib/include/'):] for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and re.match(r'lib/include/(%s)/' % '|'.join(LIBS), node.value)]
    return sorted(h for h in installed_headers(root) if any(
        h.count('/') == g.count('/') and fnmatch.fnmatchcase(h, g) for g in globs))


def preprocess(root, headers, stubs):
    """gcc -E -dD of `headers` with root on the include path, every missing
    header replaced by an empty one in stubs."""
    probe = os.path.join(stubs, 'probe.c')
    with open(os.path.join(stubs, 'prelude.h'), 'w') as f:
        f.write(PRELUDE)
    with open(probe, 'w') as f:
        f.write(''.join('#include <%s>\n' % h for h in headers))
    cmd = (['gcc', '-E', '-dD', '-nostdinc', '-std=c99', '-include', 'prelude.h', probe]
           + ['-D' + d for d in DEFINES]
           + ['-I' + stubs, '-I' + root, '-I' + os.path.join(root, 'TH'),
              '-I' + os.path.join(root, 'THC')])
    for _ in range(100):
        out = subprocess.run(cmd, capture_output=True, text=True)
        missing = re.search(r'fatal error: ([\w./]+): No such file', out.stderr)
        if not missing:
            break
        path = os.path.join(stubs, missing.group(1))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, 'w').close()
    if out.returncode:
        raise SystemExit('gcc -E failed:\n' + out.stderr[-3000:])
    return out.stdout


def relative(path, root):
    path = os.path.realpath(path)
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else None


def split(text, root):
    """(C text for pycparser, [(macro, header, line)]): #define lines taken
    out, line markers kept."""
    code, macros, where = [], [], None
    for line in text.split('\n'):
        mark = _MARK.match(line)
        if mark:
            where = relative(mark.group(2), root)
            code.append(line)
        elif line.startswith('#define'):
            macro = _DEFINE.match(line)
            if where and macro:
                macros.append((macro.group(1), where, line[len('#define '):].strip()))
            code.append('')
        elif line.startswith('#'):
            code.append('')
        else:
            code.append(line)
    return '\n'.join(code), macros


def stub_types(code):
    """typedefs for the identifiers used as types that nothing declared
    (a header's own dependency the listing does not follow)."""
    used = set(re.findall(r'\b(TH\w*|THC\w*)\b(?=\s*[*\w])', code))
    declared = set(re.findall(r'\b(\w+)\s*;', code)) | set(re.findall(r'typedef[^;]*\b(\w+)\s*;', code))
    return ''.join('typedef struct %s_ %s;\n' % (n, n) for n in sorted(used - declared))


def scalar(name):
    match = _SCALAR.match(name)
    if match:
        return match.group(1).lower()
    return 'float' if _THC_FLOAT.match(name) else None


def declarations(code, root):
    """[(kind, name, header, signature)] of the top-level declarations."""
    ast = pycparser.CParser().parse(stub_types(code) + code, 'th.c')
    gen = c_generator.CGenerator()
    found = []
    for node in ast.ext:
        header = node.coord and relative(node.coord.file, root) if node.coord else None
        if not header:
            continue
        if isinstance(node, c_ast.Typedef):
            found.append(('type', node.name, header, gen.visit(node)))
        elif isinstance(node, c_ast.Decl):
            if isinstance(node.type, c_ast.FuncDecl) and node.name:
                found.append(('function', node.name, header, gen.visit(node)))
            elif node.name:
                found.append(('variable', node.name, header, gen.visit(node)))
            else:
                tag = node.type
                if isinstance(tag, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and tag.name:
                    found.append(('type', '%s %s' % (type(tag).__name__.lower(), tag.name),
                                  header, gen.visit(node)))
                    if isinstance(tag, c_ast.Enum) and tag.values:
                        for value in tag.values.enumerators:
                            found.append(('macro', value.name, header, 'enumerator'))
        elif isinstance(node, c_ast.FuncDef):
            found.append(('function', node.decl.name, header, gen.visit(node.decl)))
    return found


def statements(text):
    """(depth, statement text, enclosing type) of a C++ text, split at ;
    { and }: what each statement says before its body."""
    depth, current, scope, stack = 0, [], None, []
    for piece in re.split(r'([;{}])', text):
        if piece == '{':
            head = ''.join(current).strip()
            yield depth, head, scope
            match = _CUH_TYPE.search(head + '{')
            stack.append(scope)
            scope = re.sub(r'\s+', '', match.group(1)) if match and depth == 0 else scope
            depth += 1
            current = []
        elif piece == '}':
            depth = max(depth - 1, 0)
            scope = stack.pop() if stack else None
            current = []
        elif piece == ';':
            yield depth, ''.join(current).strip(), scope
            current = []
        else:
            current.append(piece)


def cuh_names(root, headers):
    found = []
    for header in headers:
        path = os.path.join(root, header)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
        text = re.sub(r'//.*', '', text)
        for macro in re.findall(r'^\s*#\s*define\s+(\w+)', text, re.M):
            if not _GUARD.search(macro):
                found.append(('macro', macro, header, 'C++ macro'))
        text = re.sub(r'^\s*#.*(\\\n.*)*', '', text, flags=re.M)
        names = set()
        for depth, head, scope in statements(text):
            head = ' '.join(head.split())
            member = depth == 1 and scope and scope.startswith('THCNumerics')
            if depth == 0:
                match = _CUH_TYPE.search(head + ';')
                if match:
                    names.add(('type', re.sub(r'\s+', '', match.group(1)), head))
            if depth == 0 or member:
                match = _CUH_FUNCTION.search(head) or (depth == 0 and _HOST_FUNCTION.search(head))
                if match and match.group(match.lastindex) not in _KEYWORDS:
                    name = re.sub(r'\s+', '', match.group(match.lastindex))
                    names.add(('function', scope + '::' + name if member else name, head))
        found += [(kind, name, header, head) for kind, name, head in sorted(names)]
    return found


def family(header):
    base = os.path.basename(header)
    if re.search(r'Generate', base):
        return 'generator'
    if header.startswith('THNN/'):
        return 'nn'
    if base.endswith('.hpp'):
        return 'internal'
    if base.endswith('.cuh'):
        return 'device'
    if re.search(r'File', base):
        return 'file'
    if re.search(r'Conv', base):
        return 'conv'
    if re.search(r'Allocator', base):
        return 'allocator'
    if re.search(r'Copy', base):
        return 'copy'
    if re.search(r'Lapack|Magma', base):
        return 'lapack'
    if re.search(r'Blas', base):
        return 'blas'
    if re.search(r'Random', base):
        return 'random'
    if re.search(r'Math|Vector\.h|LogAdd|Index|Masked|Sort|TopK|Mode|ScatterGather', base):
        return 'math'
    if re.search(r'Storage|Tensor\.h', base):
        return 'structure'
    if re.search(r'Apply', base):
        return 'apply'
    if base == 'THCHalf.h':
        return 'device'
    return 'general'


def surface_of(git_dir, release):
    root = tempfile.mkdtemp(prefix='th-surface-')
    stubs = tempfile.mkdtemp(prefix='th-stubs-')
    try:
        root = os.path.realpath(root)
        stage(git_dir, release, root)
        wheel = wheel_headers(git_dir, release, root)
        # The wheel's C headers that neither umbrella header nor EXTRA includes
        # (THLapack.h, which 0.4.1's TH.h includes only with USE_LAPACK; THNN.h),
        # read with them; the generic ones come through their includers.
        c_headers = [h for h in wheel if h.endswith('.h') and '/generic/' not in h
                     and 'Generate' not in h]
        cxx = [h for h in CUH + [h for h in wheel if h.endswith(('.cuh', '.hpp'))]
               if os.path.exists(os.path.join(root, h))]
        while True:
            text = preprocess(root, ['TH/TH.h', 'THC/THC.h'] + EXTRA + c_headers, stubs)
            code, macros = split(text, root)
            try:
                entries = declarations(code, root)
                break
            except pycparser.c_parser.ParseError as error:
                # a wheel header that is C++ (THNN/Reduction.h: a namespace) is
                # read as the *.cuh are; any other failure is the script's
                header = relative(str(error).split(':')[0], root)
                if header not in c_headers:
                    raise
                c_headers.remove(header)
                cxx.append(header)
        entries += [('macro', name, header, body) for name, header, body in macros]
        # The C++ headers' names from their text.
        entries += cuh_names(root, sorted(set(cxx)))
        headers = sorted({h for _, _, h, _ in entries} | set(cxx)
                         | {os.path.relpath(os.path.join(d, f), root)
                            for d, _, fs in os.walk(root) for f in fs})
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(stubs, ignore_errors=True)

    def listed(header):
        return bool(LISTED.match(header)) or header in wheel

    kept = [e for e in entries if listed(e[2]) and not (
        e[0] == 'macro' and _GUARD.search(e[1])) and e[1] not in ('TH_GENERIC_FILE', 'THC_GENERIC_FILE')]
    # A header counts as an entry of its own: the generators, and every
    # header of the wheel that code includes by name (not the generic ones,
    # which only their includers read).
    includable = [('header', h, h, 'generator header' if 'Generate' in h else 'header')
                  for h in headers if listed(h) and ('Generate' in h or '/generic/' not in h)]
    return kept + includable


def merge(per_release):
    """One row per (kind, name, TH or THC): a name both libraries define
    (the generators' `real`) is two entries."""
    table = {}
    for release, entries in per_release.items():
        for kind, name, header, signature in entries:
            lib = header.split('/')[0]
            entry = table.setdefault((kind, name, lib), {
                'name': name, 'kind': kind, 'lib': lib, 'scalar': scalar(name) or '',
                'signatures': {}})
            # the header of the newest release declaring it; a C header
            # over a C++ internal one (*.hpp) naming it too (0.4.1's
            # THGenerator.hpp defines the struct THRandom.h declares)
            if not (header.endswith('.hpp') and 'header' in entry
                    and not entry['header'].endswith('.hpp')):
                entry['header'] = header
                entry['family'] = family(header)
            signature = ' '.join(re.sub(r'^extern ', '', signature).split())
            entry['signatures'].setdefault(release, signature)
    for entry in table.values():
        entry['releases'] = ','.join(r for r in RELEASES if r in entry['signatures'])
        for r in RELEASES:
            entry['signature ' + r] = entry['signatures'].get(r, '')
    return sorted(table.values(), key=lambda e: (e['lib'], e['header'], e['kind'], e['name']))


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    per_release = {r: surface_of(argv[1], r) for r in RELEASES}
    entries = merge(per_release)
    with open(OUT, 'w') as f:
        f.write('# What the public TH/THC headers of PyTorch 0.3.1 and 0.4.1 declared (those of '
                'legacy TH.h/THC.h and every TH, THC, THNN, THCUNN header of each wheel), by '
                'tools/th_surface/extract.py (its docstring says how), from pytorch/pytorch:\n')
        for r in RELEASES:
            commit, folder, note = SOURCES[r]
            f.write('# %s: %s %s/{%s}: %s\n' % (r, commit, folder, ','.join(LIBS), note))
        f.write('\t'.join(COLUMNS) + '\n')
        for e in entries:
            f.write('\t'.join(e[c].replace('\t', ' ') for c in COLUMNS) + '\n')
    for release in RELEASES:
        count = sum(release in e['releases'] for e in entries)
        print('%s: %d entries' % (release, count))


if __name__ == '__main__':
    main(sys.argv)
