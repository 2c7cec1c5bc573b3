"""CUDA's libraries on the link line, then and now.

2017-2018 build files linked cuBLAS, cuRAND, cuSPARSE, cuFFT... from the
toolkit's lib64: `-lcurand` in make.sh and Makefiles, `${CUDA_curand_LIBRARY}`
after CMake's find_package(CUDA) (a find_library in the toolkit's folders).
Today they may come from pip's wheels (site-packages/nvidia/cu13/lib, see
thffi/toolchain/cuda_toolkit.py), which ship only the versioned file (libcurand.so.10): neither
`-lcurand` nor FindCUDA finds it there, nor does the extension at run time
without an rpath.  `python -m thffi --cuda-libs NAME...` prints the flags
that link them wherever they are (the toolkit's copy first) and the rpath
that finds them at run time.

Their headers moved the same way: nvcc found curand.h, cusparse.h... in
its toolkit's include folder; pip's wheels put them in a folder of their
own (nvidia/cu13/include), which `python -m thffi --cuda-includes` names
after the toolkit's.

The libraries themselves are data here (LIBRARIES): what each is, the pip
wheel that brings it, and its headers, for the messages that name the wheel
to install when a build lacks a library or a header (toolchain/cuda_api.py,
toolchain/cuda_toolkit.py) and for finding each where it lies.

Each rule: old (a regular expression matching the old form whole, the
library's -l name in group 1), new (the replacement, NAME standing for the
names), why."""

import collections
import re

# A CUDA library 2018 builds linked: what it is, the pip wheel that brings
# it for CUDA 13 (the same name ending in -cu11/-cu12 for CUDA 11-12), and
# its headers, the one declaring its types first.
CudaLibrary = collections.namedtuple('CudaLibrary', 'what wheel headers')

# By -l name.
LIBRARIES = {
    'cudart': CudaLibrary('the CUDA runtime', 'nvidia-cuda-runtime',
                          ('cuda_runtime_api.h', 'cuda_runtime.h')),
    'cublas': CudaLibrary('cuBLAS', 'nvidia-cublas', ('cublas_v2.h', 'cublas.h', 'cublas_api.h')),
    'cublasLt': CudaLibrary('cuBLASLt', 'nvidia-cublas', ('cublasLt.h',)),
    'curand': CudaLibrary('cuRAND', 'nvidia-curand', ('curand.h', 'curand_kernel.h')),
    'cusparse': CudaLibrary('cuSPARSE', 'nvidia-cusparse', ('cusparse.h', 'cusparse_v2.h')),
    'cufft': CudaLibrary('cuFFT', 'nvidia-cufft', ('cufft.h', 'cufftXt.h')),
    'cusolver': CudaLibrary('cuSOLVER', 'nvidia-cusolver', ('cusolverDn.h', 'cusolverSp.h')),
    'nvrtc': CudaLibrary('NVRTC', 'nvidia-cuda-nvrtc', ('nvrtc.h',)),
}
# CUDA's header-only libraries, by the name cuda_api.REMOVED gives them:
# always in the toolkit, nothing to link or to find.
HEADER_ONLY = {'cccl': 'CCCL (Thrust, CUB, libcu++)'}
# {header: the library it belongs to}, for the libraries a toolkit may lack
# (it always has its runtime's).
HEADERS = {header: name for name, library in LIBRARIES.items() if name != 'cudart'
           for header in library.headers}


def wheel(name, major):
    """The pip wheel that brings CUDA library `name` (its -l name) for CUDA
    major release `major` (None: 13): 'nvidia-curand', 'nvidia-curand-cu12'."""
    found = LIBRARIES[name].wheel if name in LIBRARIES else 'nvidia-' + name
    return found if major is None or major >= 13 else '%s-cu%d' % (found, major)


def install(name, major):
    """What to type for CUDA library `name` (its -l name) for CUDA major
    release `major` (None: 13): 'pip install nvidia-curand (or
    thffi[cuda])', thffi[cuda] naming CUDA 13's (pyproject.toml's extra,
    which names each of LIBRARIES' wheels)."""
    return 'pip install %s%s' % (wheel(name, major),
                                 ' (or thffi[cuda])' if major is None or major >= 13 else '')


def header_message(header, major):
    """The line for a CUDA library's header that no folder a compile
    searched holds (`fatal error: curand.h: No such file or directory`):
    'curand.h comes with pip install nvidia-curand (or thffi[cuda])';
    None for a header of no library of HEADERS."""
    name = HEADERS.get(header.rsplit('/', 1)[-1])
    return name and '%s comes with %s' % (header, install(name, major))


Rule = collections.namedtuple('Rule', 'old new why')

_NAMES = '|'.join(sorted(LIBRARIES, key=len, reverse=True))
# FindCUDA's variables: CUDA_<name>_LIBRARY, and its two plural ones.
_CMAKE_PLURAL = {'CUBLAS': 'cublas', 'CUFFT': 'cufft'}

LINK_FLAG = Rule(
    r'-l(%s)' % _NAMES, '$(python -m thffi --cuda-libs NAME)',
    "pip's CUDA wheels ship libcurand.so.10, not libcurand.so, and the linker looks in no "
    "folder of theirs: thffi finds the library in the toolkit or the wheels and links it "
    "with its rpath")
CMAKE_VARIABLE = Rule(
    r'\$\{CUDA_(%s|%s)_(?:LIBRARY|LIBRARIES)\}' % (_NAMES, '|'.join(_CMAKE_PLURAL)),
    '${THFFI_CUDA_NAME_LIBRARY}',
    "FindCUDA looks for lib<name>.so in the toolkit alone: NOTFOUND where pip's wheels bring "
    "the library (libcurand.so.10)")

# A compiler command's first word: a C, C++ or CUDA compiler, by path or
# `$(which nvcc)`.
_COMPILER_WORD = (r'(?:\S*/|\$\(which\s+)?(?:nvcc|gcc|g\+\+|cc|c\+\+|clang|clang\+\+)'
                  r'(?:-[\d.]+)?\)?')
COMPILE_HEADERS = Rule(
    r'(%s) (.* )?-c( .*)?' % _COMPILER_WORD, r'\1 \2-c\3 $(python -m thffi --cuda-includes)',
    "in a script that links CUDA's libraries, a compile may include their headers, which "
    "pip's wheels do not put in the toolkit's include folder, where nvcc looks")
CUDA_INCLUDES = '$(python -m thffi --cuda-includes)'

_LINK_WORD = re.compile(LINK_FLAG.old + '$')
_COMPILER = re.compile(_COMPILER_WORD + '$')
_LINK_IN_TEXT = re.compile(r'(?<![\w-])%s(?=[\s"\';]|$)' % LINK_FLAG.old)
_CMAKE_IN_TEXT = re.compile(CMAKE_VARIABLE.old)


def link_flag(word):
    """The library a -l flag (one word, e.g. '-lcurand') names, if it is one
    of CUDA's; else None."""
    match = _LINK_WORD.match(word)
    return match and match.group(1)


def link_flags_in(text):
    """[(start, end, library)] of CUDA -l flags inside a longer text (a
    quoted word with blanks, a make variable's value)."""
    return [(m.start(), m.end(), m.group(1)) for m in _LINK_IN_TEXT.finditer(text)]


def compiles(words):
    """Whether a command (its words) compiles a source: a C, C++ or CUDA
    compiler with -c."""
    return bool(words) and bool(_COMPILER.match(words[0])) and '-c' in words


def cuda_libs_command(names):
    """The shell's replacement for -l flags of CUDA libraries."""
    return LINK_FLAG.new.replace('NAME', ' '.join(dict.fromkeys(names)))


FIND_LIBRARY = Rule(
    r'^"?(?:lib)?(%s)(?:\.so(?:\.[\d.]+)?)?"?$' % _NAMES, '${THFFI_CUDA_NAME_LIBRARY}',
    "its HINTS name 2018's toolkit (/usr/local/cuda-9.1/lib64), CMake's own folders hold "
    "no toolkit, and pip's wheels ship libcufft.so.12, not libcufft.so: thffi finds the "
    "library in the toolkit or the wheels and links it with its rpath")
_FIND_LIBRARY = re.compile(FIND_LIBRARY.old)


def find_library_name(names):
    """The CUDA library that the names of a find_library all name
    (cufft, libcufft.so), or None."""
    found = {m.group(1) for m in map(_FIND_LIBRARY.match, names) if m}
    return found.pop() if len(found) == 1 and all(_FIND_LIBRARY.match(n) for n in names) \
        else None


def cmake_variables_in(text):
    """[(start, end, library)] of FindCUDA's library variables in text."""
    return [(m.start(), m.end(), _CMAKE_PLURAL.get(m.group(1), m.group(1)))
            for m in _CMAKE_IN_TEXT.finditer(text)]


def cmake_variable(name):
    """The variable thffi's CMake block defines for library `name`."""
    return CMAKE_VARIABLE.new.replace('NAME', name)
