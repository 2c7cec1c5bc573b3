"""Step 3 of a build: linking, and the check of the linked library.

`_link_kwargs` adds the runtimes the user's prebuilt objects need (legacy
make.sh objects relied on torch having loaded them); `_link_module` has
cffi compile the module and the user's C sources and link everything;
`_check_symbols` fails the build when the loader could not resolve a name
the library uses, before anything is installed."""

import contextlib
import logging
import os
import re
import sys
import sysconfig

import cffi

from . import _link, cuda
from ._compile import Compiled
from ._configure import BuildError, as_list


class Linked(Compiled):
    """An extension that can link its library (after _compile_objects)."""

    def _link_kwargs(self):
        """self.kwargs plus the runtimes the user's objects need (after
        _compile_objects): the prebuilt extra_objects and the compiled .cu
        sources.  Legacy make.sh objects were loaded where torch had loaded
        the C++ and CUDA runtimes; now the library links them itself, the
        CUDA ones by soname (PyTorch's copy where it loaded one; the rpath is
        the fallback), with or without with_cuda."""
        for obj in self.user_objects:
            if not os.path.isfile(obj):
                raise BuildError('create_extension(%r): extra_objects: %s does not exist '
                                 '(a make.sh step builds it?)' % (self.name, obj))
        user = self.user_objects + [obj for _, obj, _, own in self.jobs if not own]
        kw = dict(self.kwargs)
        for key in ('libraries', 'library_dirs', 'runtime_library_dirs'):
            kw[key] = as_list(kw.get(key))
        # The libraries linked already, by name ('cusparse' for -lcusparse
        # and for -l:libcusparse.so.12).
        linked = {re.sub(r'^:lib|\.so[\d.]*$', '', name) for name in kw['libraries']}
        for library, (what, symbols) in _link.runtime_needs(user).items():
            if library in linked:
                continue
            if library != _link.CXX_RUNTIME:
                found = self._cuda_library(library, what, symbols)
                for key in ('library_dirs', 'runtime_library_dirs'):
                    kw[key] = kw[key] + ([found.folder] if found.folder not in kw[key] else [])
                library = found.link
            kw['libraries'] = kw['libraries'] + [library]
        return kw

    def _cuda_library(self, library, what, symbols):
        """The cuda.Library lib<library>.so, in the toolkit or pip's wheels,
        for objects using `symbols` ({symbol: [object]}) of it; BuildError
        when neither has it."""
        names = sorted(symbols, key=lambda n: (n.startswith('_'), n))
        users = sorted({self._display(o) for u in symbols.values() for o in u})
        needs = 'create_extension(%r): %s uses %s (%s%s)' % (
            self.name, ', '.join(users), what, ', '.join(names[:3]),
            ', ...' if len(names) > 3 else '')
        home = getattr(self, 'cuda_home', None) or cuda.find_cuda_home()
        found = cuda.find_library(library, home)
        if found is not None:
            return found
        if home is None and not cuda.library_dirs(None):
            raise BuildError(cuda.missing_toolkit_message(
                needs, 'leave that object out of extra_objects'))
        raise BuildError('%s, but %s' % (needs, cuda.missing_library_message(library, home)))

    def _check_symbols(self, library, kwargs, compiled=None):
        """Fails the build, before the new library is installed, when the
        loader cannot resolve symbols of `library`: a call to a function
        nothing defines, e.g. a TH function thffi lacks, which C compiles
        with an implicit-declaration warning.  compiled: {object: source}
        of the module and the user's C sources; by default cffi's objects,
        in the build folder under their source's absolute path."""
        names, missing, linked = _link.unresolved(library, kwargs.get('library_dirs', []),
                                                  self.linked_libraries)
        if not names and not linked:
            return
        # Which file uses each name: the source of each object (thffi's
        # jobs; the compiled ones), or the extra object itself.  The module
        # cffi generates uses the exported functions: their header says it.
        if compiled is None:
            compiled = {os.path.join(self.build_dir, os.path.splitext(src)[0].lstrip(os.sep))
                        + '.o': src for src in self.sources}
        source_of = {obj: src for src, obj, _, _ in self.jobs}
        source_of.update(compiled)
        objects = [os.path.join(root, f) for root, _, files in os.walk(self.build_dir)
                   for f in files if f.endswith('.o')]
        objects += [o for o in compiled if o not in objects and os.path.isfile(o)]
        users, defined = _link.symbols(objects + self.user_objects)
        # C++ functions by their unqualified name, for a C name defined with
        # C++ linkage (a .cpp without extern "C").
        cxx = {}
        for symbol, spelled in _link.demangled(defined).items():
            cxx.setdefault(spelled.split('(')[0], set()).update(
                source_of.get(o, o) for o in defined[symbol])
        spelled = _link.demangled(names)
        declared = {fn.name: fn.header for fn in self.functions}
        lines = []
        for name in names:
            files = {source_of.get(o, o) for o in users.get(name, [])
                     if o in source_of or o not in objects}
            used = ('declared in %s' % self._display(declared[name]) if name in declared
                    else 'used in %s' % (', '.join(sorted(map(self._display, files)))
                                         or 'a library the build links'))
            if name in cxx:
                reason = ('%s defines it with C++ linkage: declare it extern "C"'
                          % ', '.join(sorted(map(self._display, cxx[name]))))
            else:
                reason = self._unresolved_reason(name, declared)
            shown = '%s (%s)' % (spelled[name], name) if name in spelled else name
            lines.append('  %s, %s: %s' % (shown, used, reason))
        for path, unbound in sorted(linked.items()):
            th = [n for n in unbound if re.match(r'_?TH', n)]
            lines.append('  %s, used by %s, a library the build links: %s' % (
                ', '.join(unbound), self._display(path),
                'thffi\'s TH/THC functions: link %s against thffi\'s shared TH library (the '
                'flags `python -m thffi --libs` prints), as it linked libATen, libTH or libTHC'
                % os.path.basename(path) if th else 'nothing it links or the process has '
                'loaded defines %s' % ('it' if len(unbound) == 1 else 'them')))
        if missing:
            lines.append('  (the loader found no %s, which the library needs: put its folder '
                         'in runtime_library_dirs)' % ', '.join(missing))
        count = len(names) + sum(map(len, linked.values()))
        raise BuildError('building %s failed: nothing defines %s the code uses, so importing '
                         'the library would fail with "undefined symbol":\n%s\nThe previous '
                         'build, if any, is left in place.'
                         % (self.name, 'this name' if count == 1
                            else 'these %d names' % count, '\n'.join(lines)))

    def _unresolved_reason(self, name, declared):
        if re.match(r'TH[A-Z]', name):
            return ('thffi does not provide this TH/THC function (docs/PORTING.md, '
                    '"Not supported", says what to do instead)')
        runtime = _link.runtime_of(name)
        if runtime and runtime[1] == 'cudart' and not self.with_cuda:
            return 'a CUDA runtime function: build with with_cuda=True'
        if runtime and runtime[1] != _link.CXX_RUNTIME:
            return "part of %s: add '%s' to libraries" % runtime
        if name in declared:
            return 'no source or extra object defines it'
        return 'no source, extra object or library of the build defines it'

    def _link_module(self, module):
        """Has cffi compile the module `module` and the user's C sources and
        link them with the objects of _compile_objects, in the build folder;
        checks the result.  Returns the library's path there."""
        kwargs = self._link_kwargs()
        try:
            ffi = cffi.FFI()
            ffi.cdef(self.cdef_text)
            ffi.set_source(module, self.source_text, source_extension=self.source_extension,
                           sources=self.sources, **kwargs)
            with _printing_compiler_commands(self.verbose):
                built = ffi.compile(tmpdir=self.build_dir, verbose=self.verbose,
                                    target='%s%s' % (module.split('.')[-1],
                                                     sysconfig.get_config_var('EXT_SUFFIX')))
        except cffi.VerificationError:
            # The compiler printed its file:line messages already; the
            # exception's own text is only its long command line.
            raise BuildError('building %s failed: the C compiler reported the errors above'
                             % self.name) from None
        except OSError as exc:
            raise BuildError('building %s failed: %s' % (self.name, exc)) from None
        self._check_symbols(built, kwargs)
        return built


@contextlib.contextmanager
def _printing_compiler_commands(enabled):
    """Prints the compile and link commands cffi runs, as the legacy
    verbose=True did.  cffi runs them through setuptools' distutils, which
    logs each at INFO on the root logger (cffi lowers the threshold when
    verbose); without a handler there, as in a build script, nothing shows."""
    if not enabled:
        yield
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter('%(message)s'))
    handler.setLevel(logging.INFO)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
