"""create_extension: the legacy torch.utils.ffi builder, on today's PyTorch.

`create_extension(...)` returns a cffi FFI object (as the legacy tool did, so
setuptools' `cffi_modules` can use it) with a `build()` method that writes

    <dir of relative_to>/<name as a path>/        e.g. _ext/my_lib/
        __init__.py          wrappers taking torch tensors (generated; their
                             shared support is the installed thffi's runtime)
        _<last name part>.so     the compiled library, where torch.utils.ffi
                                 put it (and under its build's name beside it)

The library links no libtorch: tensors cross as data pointers, shapes and
strides.  A build is skipped when nothing it depends on changed (a manifest
of content hashes of every file the compiler read, from gcc -MMD).

A build is one plan (plan.py) through four step functions, each in a file
importing only the ones before it: configure(arguments) -> plan
(configure.py), compile(plan) -> objects (compile.py: thffi's own code and
the .cu sources), link(plan, objects) -> library (link.py: the module,
the user's C sources and the link, then the check of unresolved symbols)
and install(plan, library) (install.py: the library, its Python package
and the manifest).  In package mode setuptools links, and package_mode.py hands
it the package and the check.  docs/architecture.md says who decides what."""

import dataclasses
import os
import shutil
import sys
import time

import cffi

from . import codegen, command_log, last_build, package_mode, shared_library
from .compile import compile
from .configure import (INCLUDE_DIR, BuildError, as_list, compile_by_language, configure,
                        include_dirs, include_flags)
from .install import (empty_reason, install, is_up_to_date, library_path, locked,
                      make_package_dirs, remove_new_packages, write_python_files)
from .link import link, link_kwargs

__all__ = ['BuildError', 'Extension', 'create_extension', 'include_dirs', 'include_flags',
           'INCLUDE_DIR']

# Keyword arguments that are lists of paths, resolved against relative_to.
_PATH_LISTS = ('include_dirs', 'library_dirs', 'extra_objects', 'runtime_library_dirs')


def create_extension(name, headers, sources, verbose=None, with_cuda=False,
                     package=False, relative_to='.', **kwargs):
    """Configures a cffi extension built from TH-style C sources.

    name: dotted module path of the result, e.g. '_ext.my_lib'.
    headers: header(s) declaring the functions to export (TH types allowed).
    sources: C sources to compile.
    relative_to: a file (use __file__) whose folder the relative paths in
        headers, sources and the path keyword arguments are resolved against.
    verbose: by default one short line a command it runs (thffi's own
        objects and flags counted in one word each); True: the whole
        commands, as the legacy verbose=True printed them (so does
        THFFI_VERBOSE=1); False: only warnings and errors.
    with_cuda: compile the .cu files among the sources with nvcc, link
        the CUDA runtime, and provide <THC/THC.h>.
    package: build as part of a pip-installable package, made by setuptools
        from `cffi_modules=["build.py:ffi"]`: True when `name` is the full
        module path (legacy: 'pkg._ext.my_lib' gives pkg._ext.my_lib._my_lib),
        or the name the folder of relative_to has as a package ('pkg' with
        name '_ext.my_lib' gives the same).  The wrappers and thffi's objects
        are prepared as soon as this returns.
    kwargs: passed to the compiler and linker as setuptools' Extension takes
        them: define_macros, include_dirs, extra_compile_args,
        extra_link_args, extra_objects, libraries, library_dirs,
        runtime_library_dirs, language ('c++' compiles the generated module
        as C++ too); and extra_nvcc_args, flags for nvcc alone.
        extra_compile_args may be torch.utils.cpp_extension's dict, {'cxx':
        [...], 'nvcc': [...]}: 'cxx' for C and C++, 'nvcc' for .cu sources
        (extra_link_args's 'cxx' the link).
    """
    base = os.path.abspath(os.path.dirname(relative_to))
    spec = dict(kwargs)
    for key in _PATH_LISTS:
        if key in spec:
            spec[key] = [os.path.join(base, p) for p in as_list(spec[key])]
    headers = [os.path.join(base, h) for h in as_list(headers)]
    sources = [os.path.join(base, s) for s in as_list(sources)]
    return Extension(name, headers, sources, base, verbose, with_cuda, package, spec)


class Extension(cffi.FFI):
    """A cffi FFI holding the plan of one extension (`plan`); build()
    compiles it.  Arguments as create_extension's, paths absolute."""

    def __init__(self, name, headers, sources, base, verbose, with_cuda, package, kwargs):
        super().__init__()
        plan = configure(name, headers, sources, base, verbose, with_cuda, package, kwargs,
                         shared_library.serving)
        self.plan = plan
        self.cdef(plan.cdef_text)
        # Said in every road to a build (build(), setuptools' cffi_modules
        # and distutils_extension(), which never call build()), and again
        # by the built package when it is imported (pip hides build output).
        if not plan.functions:
            sys.stderr.write('thffi: warning: %s has no functions: %s\n'
                             % (plan.name, empty_reason(plan)))
        self.kwargs = plan.kwargs
        self._for_setuptools = False
        # In package mode, or when setup() runs build.py (cffi_modules),
        # setuptools compiles and links from this ffi later: what it links
        # and the package's Python files must exist by then, as 0.4 wrote
        # the package's __init__.py when create_extension was called.
        if plan.package or package_mode.running_distribution() is not None:
            self._prepare_for_setuptools()
        else:
            self.set_source(plan.module_name, plan.source_text,
                            source_extension=plan.source_extension, sources=plan.sources,
                            **self.kwargs)

    def _prepare_for_setuptools(self):
        """Compiles thffi's objects and the .cu sources, writes the
        package's Python files and hands setuptools the module with what
        it links (the runtimes the compiled objects need too)."""
        plan = self.plan
        compile_by_language()
        shutil.rmtree(plan.build_dir, ignore_errors=True)
        os.makedirs(plan.build_dir)
        self.kwargs = link_kwargs(plan, compile(plan))
        if plan.package:
            folder = package_mode.adopt(plan, self.kwargs)
        else:
            make_package_dirs(plan.base, plan.name)
            folder = plan.target_dir
        # Out of package mode the module is top-level (`_fill`, where
        # setuptools puts it): the package imports it by that name.
        write_python_files(plan, plan.module_name.split('.')[-1],
                           absolute=not plan.package, folder=folder)
        if not plan.package:
            package_mode.adopt_wrappers(plan)
        wrappers = None if plan.package else package_mode.wrappers_name(plan)
        self._for_setuptools = True
        # setuptools wants sources relative to setup.py's folder (an absolute
        # one is an error there); build() compiles from absolute paths.  The
        # module uses CPython's full API (configure.py): setuptools must not
        # name it .abi3.so, a file every Python 3 would load.
        if hasattr(self, '_assigned_source'):
            del self._assigned_source  # set for build(): set again for setuptools
        self.set_source(plan.module_name, plan.source_text + (
                            codegen.top_level_init(wrappers) if wrappers else ''),
                        source_extension=plan.source_extension,
                        sources=[os.path.relpath(s, plan.base) for s in plan.sources],
                        **dict(self.kwargs, py_limited_api=False))

    def distutils_extension(self, tmpdir='build', verbose=True):
        """cffi's setuptools Extension of the module (`ext_modules=[ffi.
        distutils_extension()]` in a setup.py), linked with thffi's runtime
        as build() links it."""
        if not self._for_setuptools:
            self._prepare_for_setuptools()
        return super().distutils_extension(tmpdir, verbose)

    @property
    def verbose(self):
        return self.plan.verbose

    @verbose.setter
    def verbose(self, value):
        self.plan = dataclasses.replace(self.plan, verbose=command_log.shown(value),
                                        full_commands=command_log.full(value))

    @property
    def jobs(self):
        """The plan's compile jobs: [(source, object, command, own)]."""
        return self.plan.jobs

    def library_path(self):
        """The built library's file, or None before the first build."""
        return library_path(self.plan)

    def is_up_to_date(self):
        """Whether build() would compile nothing: the library was built with
        this configuration (arguments, compilers, flags, CUDA architectures)
        from the files it read, unchanged since."""
        return is_up_to_date(self.plan)

    def build(self):
        """Compiles the extension unless it is up to date.  Returns True when
        it compiled.  The previous library stays in place until the new one
        is complete (files are written aside, then renamed).  A failed build
        raises BuildError, which a caller may catch; one left uncaught ends
        the process with its message alone (_show_uncaught)."""
        try:
            return self._build()
        except BuildError:
            _show_uncaught()
            raise

    def _build(self):
        plan = self.plan
        if is_up_to_date(plan):
            if plan.verbose:
                print('thffi: %s is up to date' % plan.name)
            return False
        start = time.perf_counter()
        created = make_package_dirs(plan.base, plan.name)
        try:
            with locked(os.path.join(plan.target_dir, '.thffi-lock')):
                if is_up_to_date(plan):  # another process built it meanwhile
                    return False
                shutil.rmtree(plan.build_dir, ignore_errors=True)
                os.makedirs(plan.build_dir)
                try:
                    objects = compile(plan)
                    compiling = time.perf_counter() - start
                    final = install(plan, link(plan, objects))
                    spent = last_build.spent(plan, time.perf_counter() - start, compiling)
                finally:
                    shutil.rmtree(plan.build_dir, ignore_errors=True)
        except BaseException:
            # A failed first build leaves nothing to import (a folder without
            # __init__.py would import as an empty namespace package), nor
            # the parent packages it made (_ext/__init__.py would hide the
            # failure behind "cannot import name 'my_lib' from '_ext'").
            if os.listdir(plan.target_dir) == ['.thffi-lock']:
                shutil.rmtree(plan.target_dir, ignore_errors=True)
                remove_new_packages(created)
            raise
        if plan.verbose:
            print('thffi: built %s in %.2f s: %s -> %s'
                  % (plan.name, time.perf_counter() - start, spent, plan.display(final)))
        return True


def _show_uncaught():
    """Makes an uncaught BuildError end the process as Python's own message
    line ("thffi.builder.BuildError: building _ext.my_lib failed: ...",
    exit status 1) without the traceback through thffi's steps: what
    failed is the user's code, which the compiler's lines above show, or
    the build's configuration, which the message names.  Done through
    sys.excepthook, at the first failed build, so that a caller catching
    BuildError sees no difference and any other exception keeps the hook
    there was (Python's, or the one a program set)."""
    if getattr(sys.excepthook, 'shows_build_errors', False):
        return
    previous = sys.excepthook

    def hook(kind, value, traceback):
        if issubclass(kind, BuildError):
            sys.stderr.write('%s.%s: %s\n' % (kind.__module__, kind.__qualname__, value))
        else:
            previous(kind, value, traceback)
    hook.shows_build_errors = True
    sys.excepthook = hook
