"""What objects and built libraries define and need, read from their
symbols (nm, the dynamic loader, their GPU code).

Legacy extensions were loaded into a process where torch had already loaded
the C++ and CUDA runtimes globally, so the objects a make.sh built (nvcc's
.cu.o, g++'s .o) linked without them and still worked.  `runtime_needs`
reads the undefined symbols of such objects, so that the builder links
those runtimes itself.  `unresolved` asks the dynamic loader which symbols
of a built library nothing defines, so that a call to a function nobody
provides fails the build by name, instead of the import.  `removed_calls`
names what an object calls that today's CUDA toolkit removed."""

import os
import re
import struct
import subprocess
import sys

from ..toolchain import cuda_api

# Runtimes an object may need, told by the names of its undefined symbols:
# (what, library for -l, names).  The first match decides (cuBLASLt before
# cuBLAS).  All but the C++ runtime are the CUDA toolkit's, linked by soname.
CXX_RUNTIME = 'stdc++'
RUNTIMES = [
    ('the C++ runtime', CXX_RUNTIME, re.compile(r'_Z|__cxa_|__gxx_|__dynamic_cast$')),
    ('the CUDA runtime', 'cudart', re.compile(r'__cuda|cuda[A-Z]')),
    ('cuBLASLt', 'cublasLt', re.compile(r'cublasLt[A-Z]')),
    ('cuBLAS', 'cublas', re.compile(r'cublas[A-Z]')),
    ('cuRAND', 'curand', re.compile(r'curand[A-Z]')),
    ('cuFFT', 'cufft', re.compile(r'cufft[A-Z]')),
    ('cuSPARSE', 'cusparse', re.compile(r'cusparse[A-Z]')),
    ('cuSOLVER', 'cusolver', re.compile(r'cusolver[A-Z]')),
]

_UNDEFINED = re.compile(r'undefined symbol: (\S+)\s+\((.*)\)$')
_NOT_FOUND = re.compile(r'(\S+) => not found$')
# Asks the interpreter's own global scope (its executable and the libraries
# it loaded at start: libpython, libm...), in a child with nothing imported.
_IN_INTERPRETER = '''
import ctypes, sys
scope = ctypes.CDLL(None)
for name in sys.argv[1:]:
    try:
        scope[name]
    except AttributeError:
        print(name)
'''


def symbols(paths):
    """(undefined, defined), each {symbol: [object, ...]}, of object files
    and archives (nm; 'lib.a[member.o]' names an archive's member):
    the strong undefined symbols with the objects using them (weak
    references, 'w' and 'v', need nothing), and the global defined ones
    with the objects defining them."""
    undefined, defined = {}, {}
    if not paths:
        return undefined, defined
    try:
        out = subprocess.run(['nm', '-A', '-P'] + list(paths), capture_output=True, text=True)
    except OSError:
        return undefined, defined
    for line in out.stdout.splitlines():
        where, sep, rest = line.rpartition(': ')
        fields = rest.split()
        if sep and len(fields) >= 2 and fields[1].isupper():  # global, not weak 'w'/'v'
            table = undefined if fields[1] == 'U' else defined
            table.setdefault(fields[0], []).append(where)
    return undefined, defined


def demangled(names):
    """{name: its C++ spelling, e.g. 'f(float*, int)'} for the C++ names
    among `names` (c++filt); {} without c++filt."""
    mangled = sorted({n for n in names if n.startswith('_Z')})
    if not mangled:
        return {}
    try:
        out = subprocess.run(['c++filt'], input='\n'.join(mangled), capture_output=True,
                             text=True)
    except OSError:
        return {}
    spelled = out.stdout.splitlines()
    return dict(zip(mangled, spelled)) if len(spelled) == len(mangled) else {}


def dynamic_section(path):
    """(needed, search): the NEEDED libraries of a shared library and the
    folders its RUNPATH or RPATH names ($ORIGIN resolved); ([], []) when
    readelf cannot read it."""
    try:
        out = subprocess.run(['readelf', '-d', path], capture_output=True, text=True).stdout
    except OSError:
        return [], []
    needed, search = [], []
    for kind, value in re.findall(r'\((NEEDED|RUNPATH|RPATH)\)\s+[^\[]*\[(.*)\]', out):
        if kind == 'NEEDED':
            needed.append(value)
        else:
            search += [d.replace('$ORIGIN', os.path.dirname(os.path.abspath(path)))
                       for d in value.split(':') if d]
    return needed, search


def _section(path, wanted):
    """The bytes of the section named `wanted` of a 64-bit little-endian
    ELF file (an object or a shared library), or None (no such section,
    or not such a file)."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    if data[:6] != b'\x7fELF\x02\x01' or len(data) < 64:
        return None
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    try:
        def header(i):  # (name offset, file offset, size) of section i
            fields = struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
            return fields[0], fields[4], fields[5]
        _, names_at, _ = header(shstrndx)
        for i in range(shnum):
            name, offset, size = header(i)
            end = data.index(b'\0', names_at + name)
            if data[names_at + name:end].decode('ascii', 'replace') == wanted:
                return data[offset:offset + size]
    except (struct.error, ValueError):
        return None
    return None


# nvcc's fat binary (the .nv_fatbin section of an object it compiled): a
# header (magic, version, header size, size of the entries), then entries,
# each a header (kind: 1 PTX, 2 machine code; header size; payload size;
# the architecture, e.g. 75, at byte 28) and its payload.
_FATBIN_MAGIC = 0xBA55ED50
_FATBIN_KINDS = {1: 'compute', 2: 'sm'}


def device_code(path):
    """The GPU code an object holds, as a sorted list of ('sm', 75) for
    machine code and ('compute', 75) for PTX; None when it holds none (no
    .nv_fatbin section: not compiled by nvcc, or host code only)."""
    data = _section(path, '.nv_fatbin')
    if not data:
        return None
    found, pos = set(), 0
    try:
        while pos + 16 <= len(data):
            magic, _, header_size, size = struct.unpack_from('<IHHQ', data, pos)
            if magic != _FATBIN_MAGIC:
                break
            entry, end = pos + header_size, pos + header_size + size
            while entry < end:
                kind, _, entry_header, payload = struct.unpack_from('<HHIQ', data, entry)
                arch, = struct.unpack_from('<I', data, entry + 28)
                if kind in _FATBIN_KINDS:
                    found.add((_FATBIN_KINDS[kind], arch))
                entry += entry_header + payload
            # fat binaries of several files follow each other, 8-byte aligned
            pos = (end + 7) // 8 * 8
    except struct.error:
        pass
    return sorted(found)


def runtime_of(symbol):
    """(what, library) of the runtime in RUNTIMES defining `symbol`, or None."""
    for what, library, names in RUNTIMES:
        if names.match(symbol):
            return what, library
    return None


def runtime_needs(paths):
    """{library: (what, {symbol: [object, ...]})}: the runtimes in RUNTIMES
    that the objects in `paths` need: their undefined symbols that none of
    them defines."""
    undefined, defined = symbols(paths)
    needs = {}
    for symbol, users in sorted(undefined.items()):
        runtime = runtime_of(symbol)
        if runtime and symbol not in defined:
            needs.setdefault(runtime[1], (runtime[0], {}))[1][symbol] = users
    return needs


def unresolved(library, search_dirs, linked=()):
    """(symbols, missing libraries, {linked library: symbols}): what the
    dynamic loader binds to nothing when it loads `library`, and in the
    libraries of `linked` (shared libraries it links, built apart), alone
    with every symbol bound at once (ldd -r:
    the libraries it needs are found as at import, by rpath, runpath,
    LD_LIBRARY_PATH and the loader's cache, and here also in search_dirs,
    where the linker found them), less what the Python interpreter defines.
    Weak references and versioned symbols the linker bound (glibc's,
    libgcc's) are resolved or allowed by the loader and never listed.
    ([], [], {}) when ldd is not there to ask."""
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = os.pathsep.join(
        list(search_dirs) + [p for p in [env.get('LD_LIBRARY_PATH')] if p])
    try:
        out = subprocess.run(['ldd', '-r', library], capture_output=True, text=True, env=env)
    except OSError:
        return [], [], {}
    names, missing = set(), []
    real = os.path.realpath(library)
    others = {os.path.realpath(p): p for p in linked}
    in_linked = {}
    for line in (out.stdout + out.stderr).splitlines():
        undefined = _UNDEFINED.match(line.strip())
        where = undefined and os.path.realpath(undefined.group(2))
        if where == real:
            names.add(undefined.group(1))
        elif where in others:
            in_linked.setdefault(others[where], []).append(undefined.group(1))
        not_found = _NOT_FOUND.match(line.strip())
        if not_found:
            missing.append(not_found.group(1))
    # The C API every extension module uses; the rest is asked of the
    # interpreter only when there is a rest (one short child process).
    everything = sorted({n for n in names.union(*in_linked.values())
                         if not n.startswith(('Py', '_Py'))})
    if everything:
        out = subprocess.run([sys.executable, '-I', '-S', '-c', _IN_INTERPRETER] + everything,
                             capture_output=True, text=True)
        if out.returncode == 0:
            everything = out.stdout.split()
    names = sorted(names.intersection(everything))
    in_linked = {p: sorted(set(n).intersection(everything)) for p, n in in_linked.items()}
    return names, missing, {p: n for p, n in in_linked.items() if n}


def removed_calls(obj, toolkit, compiled=False):
    """'it calls cudaConfigureCall, ..., which CUDA 10.1 removed' when the
    object calls functions the toolkit release `toolkit` ((major, minor);
    None: today's) lacks (toolchain/cuda_api.py): it was built by an older
    one (compiled: only names nvcc wrote into it).  None when it calls none.
    cuSPARSE's legacy routines are not counted: compiled again, the object
    would call them the same, and thffi defines them (THCSparseLegacy.c)."""
    undefined, _ = symbols([obj])
    gone = {}  # {release: [name]}
    for name in sorted(undefined):
        row = cuda_api.lookup(name)
        if (row and cuda_api.removed_by(row, toolkit) and (row.compiled or not compiled)
                and row.thffi != 'cusparse'):
            gone.setdefault(row.removed, []).append(name)
    if not gone:
        return None
    return 'it calls %s%s' % ('; '.join(
        '%s, which CUDA %s removed' % (', '.join(names), release)
        for release, names in sorted(gone.items(), key=lambda g: cuda_api.release(g[0]))),
        ' (the toolkit here is CUDA %d.%d)' % toolkit if toolkit else '')
