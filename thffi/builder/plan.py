"""The plan of a build: everything create_extension's arguments decide.

configure() (configure.py) makes it; compile() (compile.py), link()
(link.py) and install() (install.py) read it and return what they
made.  Nothing changes it after configure: a step that needs more (the
runtimes its objects call, the module's name) computes it from the plan.
docs/architecture.md says which step reads and decides what."""

import collections
import dataclasses
import os
import typing

# One compile job: the source, the object it writes, the compiler's command,
# and whether it is thffi's own code (cached in the user's cache folder).
Job = collections.namedtuple('Job', 'source object command own')


@dataclasses.dataclass(frozen=True, eq=False)
class Plan:
    # -- what is built, and where -------------------------------------------
    name: str             # the dotted module path create_extension got: '_ext.my_lib'
    base: str             # the folder of relative_to: relative paths start here
    package: bool         # package mode: setuptools compiles and links the module
    module_name: str      # the cffi module's full name in package mode
    target_dir: str       # the package folder the build writes: <base>/_ext/my_lib
    build_dir: str        # where the compilers work (under a lock)
    verbose: bool         # print what the build runs (one short line a command)
    full_commands: bool   # ... the whole command (verbose=True, THFFI_VERBOSE=1)
    user_words: frozenset  # the flags create_extension got: a short line keeps them
    # -- the user's code ----------------------------------------------------
    headers: list         # absolute paths of the headers cffi's cdef read
    functions: list       # headers.Function: what the headers declare
    constants: list       # enum constants the headers declare
    sources: list         # C and C++ sources cffi compiles with the module
    cuda_sources: list    # .cu files nvcc compiles: the user's, then the rescued
    user_objects: list    # extra_objects linked as they are
    rescued: dict         # {.cu: the extra object nvcc builds again from it}
    rescue_reasons: dict  # {.cu: why its object is built again}
    meant: dict           # {.cu: (build file, command, folder) meant to build it}
    missing_steps: dict   # {user object missing at configure: the build files' step
                          #  meant to write it, as messages show it, or None}
    deferred: list        # rescued .cu compiled only when the link leaves names undefined
                          # (an extension built without CUDA)
    linked_libraries: list  # shared libraries the link names by path or finds
    # -- the decisions ------------------------------------------------------
    with_cuda: bool       # THC, the CUDA runtime, nvcc for the .cu sources
    cxx_code: bool        # code that can throw C++ exceptions: THCxx.cpp, libstdc++
    cusparse_legacy: bool  # with_cuda and linking cuSPARSE: THCSparseLegacy.c compiled in
    sanitize: typing.Optional[str]  # THFFI_SANITIZE's mode, or None
    sanitize_flags: list  # its flags for every compile of gcc
    shared_library: typing.Optional[str]  # libthffi-<version>.so when a linked library uses it
    kwargs: dict          # setuptools Extension's arguments for the module (paths absolute)
    nvcc_args: list       # extra_nvcc_args
    cuda_toolkit: object  # cuda.Toolkit when nvcc runs, else None
    cuda_home: typing.Optional[str]
    nvcc: typing.Optional[str]
    arch_spec: typing.Optional[str]    # the architectures, as TORCH_CUDA_ARCH_LIST spells them
    arch_source: typing.Optional[str]  # where arch_spec came from
    arch_flags: list      # nvcc's -gencode flags for them
    # -- the cffi module ----------------------------------------------------
    cdef_text: str
    source_text: str
    source_extension: str  # '.c', or '.cpp' for language='c++'
    # -- the objects to make (compiled before cffi links) -------------------
    jobs: list = dataclasses.field(default_factory=list)  # [Job], thffi's own first

    def display(self, path):
        """How messages name a file: relative to the project when inside it."""
        return display(self.base, path)


def display(base, path):
    """`path` relative to `base` when inside it, else as it is."""
    rel = os.path.relpath(path, base)
    return path if rel.startswith('..') else rel
