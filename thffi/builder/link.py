"""Step 3 of a build: linking, and the check of the linked library:
link(plan, objects) -> library.

`link_kwargs` adds the objects compile() made and the runtimes the user's
objects need (legacy make.sh objects relied on torch having loaded them);
`link` has cffi compile the module and the user's C sources and link
everything; `check_symbols` fails the build when the loader could not
resolve a name the library uses, before anything is installed (package
mode's setuptools build runs it too: package_mode.py)."""

import ast
import contextlib
import dataclasses
import difflib
import io
import logging
import os
import re
import sys
import sysconfig
import threading
import time

import cffi

from . import binaries, command_log, jobs, preprocessed
from ..toolchain import cuda_toolkit as cuda
from .compile import compile, explained
from .configure import (_CXX_SUFFIXES, CUSPARSE_LEGACY, INCLUDE_DIR, BuildError, as_list,
                        compile_by_language)
from .plan import Job
from ..toolchain import cc, cuda_api, th_left_out


def link_kwargs(plan, objects, left_out=(), compiled=None):
    """plan.kwargs with `objects` (what compile() made) among extra_objects,
    plus the runtimes the user's objects need: the prebuilt extra_objects
    and the compiled .cu sources.  Legacy make.sh objects were loaded where torch had loaded
    the C++ and CUDA runtimes; now the library links them itself, the
    CUDA ones by soname (PyTorch's copy where it loaded one; the rpath is
    the fallback), with or without with_cuda.  left_out: extra objects not
    linked (unlinkable()).  compiled: {object: source} of what cffi
    compiled from the user's C and C++ sources, whose calls of CUDA's
    libraries (SOURCE_LIBRARIES) link them too: 2018's C called cuSPARSE
    or cuBLAS through THC's handles, and torch had loaded the libraries."""
    for obj in plan.user_objects:
        if not os.path.isfile(obj):
            step = plan.missing_steps.get(obj)
            raise BuildError('create_extension(%r): extra_objects: %s does not exist (%s)'
                             % (plan.name, obj, '%s was to build it' % step if step
                                else 'a make.sh step builds it?'))
    prebuilt = [obj for obj in plan.user_objects if obj not in left_out]
    _check_removed_calls(plan, prebuilt)
    user = _user_objects(plan, objects, left_out)
    kw = dict(plan.kwargs, extra_objects=prebuilt + list(objects))
    for key in ('libraries', 'library_dirs', 'runtime_library_dirs'):
        kw[key] = as_list(kw.get(key))
    # The libraries linked already, by name ('cusparse' for -lcusparse
    # and for -l:libcusparse.so.12).
    linked = _linked(kw['libraries'])
    for library, (what, symbols) in _needs(user, compiled).items():
        if library in linked:
            continue
        if library != binaries.CXX_RUNTIME:
            found = _cuda_library(plan, library, what, symbols)
            for key in ('library_dirs', 'runtime_library_dirs'):
                kw[key] = kw[key] + ([found.folder] if found.folder not in kw[key] else [])
            library = found.link
        kw['libraries'] = kw['libraries'] + [library]
    return kw


# The libraries a call from the user's C or C++ links (not the CUDA
# runtime: C calling it is built with_cuda).
SOURCE_LIBRARIES = ('cublas', 'cublasLt', 'curand', 'cusparse', 'cufft', 'cusolver')


def _linked(libraries):
    """The libraries of a link, by name ('cusparse' for -lcusparse and for
    -l:libcusparse.so.12)."""
    return {re.sub(r'^:lib|\.so[\d.]*$', '', name) for name in libraries}


def _needs(user, compiled=None):
    """binaries.runtime_needs() of the user's objects, and of those
    compiled from the user's C and C++ sources ({object: source}) for
    SOURCE_LIBRARIES, each such object named by its source."""
    needs = binaries.runtime_needs(user)
    compiled = compiled or {}
    for library, (what, symbols) in binaries.runtime_needs(list(user) + list(compiled)).items():
        if library in SOURCE_LIBRARIES:
            needs.setdefault(library, (what, {}))[1].update(
                {name: [compiled.get(o, o) for o in users] for name, users in symbols.items()})
    return needs


def _removed_calls(plan, obj):
    """[(why, what to do)] a prebuilt object of extra_objects cannot be
    linked with the toolkit here: it calls CUDA functions it lacks
    (toolchain/cuda_api.py), named, an object an old toolkit built (its
    launch sequence) being one to compile again from its .cu; other names,
    in its source, replaced."""
    home = plan.cuda_home or cuda.find_cuda_home()
    toolkit = home and cuda_api.toolkit_version(home)
    found = []
    old = binaries.removed_calls(obj, toolkit, compiled=True)
    if old:
        found.append(('was built by an old CUDA toolkit: %s' % old,
                      '. Compile it again from its .cu with today\'s nvcc (thffi does so itself '
                      'when the .cu lies beside it, as %s or %s)' % _source_names(obj)))
    undefined, _ = binaries.symbols([obj])
    # (cuSPARSE's legacy routines are defined here when the extension
    # links cuSPARSE with_cuda: THCSparseLegacy.c)
    removed = cuda_api.describe_all(
        [n for n in sorted(undefined) if cuda_api.lookup(n)
         and not cuda_api.lookup(n).compiled
         and not (plan.cusparse_legacy and cuda_api.lookup(n).thffi == 'cusparse')],
        toolkit)
    if removed:
        found.append(('calls names CUDA removed', ':\n  %s' % '\n  '.join(removed)))
    return found


def _removed_calls_message(plan, reasons):
    """The BuildError of objects that cannot be linked: reasons, {object:
    _removed_calls()}, each with what else to say of it."""
    return BuildError('create_extension(%r): %s' % (plan.name, '\n'.join(
        '%s %s%s' % (plan.display(obj), why, advice)
        for obj, found in reasons.items() for why, advice in found)))


def _check_removed_calls(plan, objects):
    """Fails the build when objects (prebuilt, of extra_objects) call CUDA
    functions the toolkit here lacks (_removed_calls())."""
    reasons = {obj: _removed_calls(plan, obj) for obj in objects}
    if any(reasons.values()):
        raise _removed_calls_message(plan, {o: r for o, r in reasons.items() if r})


def unlinkable(plan):
    """{object: _removed_calls()} of the prebuilt objects of an extension built without
    CUDA that the toolkit here cannot link (_removed_calls(): a committed
    CUDA 9 object calling cudaConfigureCall).  link() leaves them out, as
    it leaves the rebuilt objects of such a build uncompiled, unless its C
    calls what they define; in package mode, where setuptools links, they
    are linked and the build fails naming them."""
    if plan.with_cuda or plan.package:
        return {}
    found = {}
    for obj in plan.user_objects:
        reasons = os.path.isfile(obj) and obj.endswith('.o') and _removed_calls(plan, obj)
        if reasons:
            found[obj] = reasons
    return found


def _check_left_out(plan, library, kwargs, left_out):
    """Fails the build when the library, linked without left_out
    (unlinkable()'s), leaves undefined a name one of them defines: the C
    calls it, and the object cannot be linked as it is."""
    names = set(binaries.unresolved(library, kwargs.get('library_dirs', []),
                                    plan.linked_libraries)[0])
    called = {obj: sorted(names & set(binaries.symbols([obj])[1])) for obj in left_out}
    if any(called.values()):
        raise _removed_calls_message(plan, {
            obj: [(why + ', and the C calls %s, which it defines' % ', '.join(called[obj]),
                   advice) for why, advice in found]
            for obj, found in left_out.items() if called[obj]})


def _cuda_library(plan, library, what, symbols):
    """The cuda.Library lib<library>.so, in the toolkit or pip's wheels,
    for objects using `symbols` ({symbol: [object]}) of it; BuildError
    when neither has it."""
    users = sorted({plan.display(o) for u in symbols.values() for o in u})
    needs = 'create_extension(%r): %s uses %s (%s)' % (plan.name, ', '.join(users), what,
                                                       _names(symbols))
    home = plan.cuda_home or cuda.find_cuda_home()
    found = cuda.find_library(library, home)
    if found is not None:
        return found
    if home is None and not cuda.library_dirs(None):
        raise BuildError(cuda.missing_toolkit_message(
            needs, 'leave that object out of extra_objects'))
    raise BuildError('%s, but %s' % (needs, cuda.missing_library_message(library, home)))


def _names(symbols):
    """'cusparseScsrmv, cusparseSgthr, ...': the first three names of `symbols`."""
    names = sorted(symbols, key=lambda n: (n.startswith('_'), n))
    return ', '.join(names[:3]) + (', ...' if len(names) > 3 else '')


def check_symbols(plan, library, kwargs, compiled=None):
    """Fails the build, before the new library is installed, when the
    loader cannot resolve symbols of `library`: a call to a function
    nothing defines, e.g. a TH function thffi lacks, which C compiles
    with an implicit-declaration warning.  compiled: {object: source}
    of the module and the user's C sources; by default cffi's objects,
    in the build folder under their source's absolute path."""
    names, missing, linked = binaries.unresolved(library, kwargs.get('library_dirs', []),
                                              plan.linked_libraries)
    if not names and not linked:
        return
    # Which file uses each name: the source of each object (thffi's
    # jobs; the compiled ones), or the extra object itself.  The module
    # cffi generates uses the exported functions: their header says it.
    if compiled is None:
        compiled = _cffi_objects(plan, plan.sources)
    source_of = {obj: src for src, obj, _, _ in plan.jobs}
    source_of.update(compiled)
    objects = [os.path.join(root, f) for root, _, files in os.walk(plan.build_dir)
               for f in files if f.endswith('.o')]
    objects += [o for o in compiled if o not in objects and os.path.isfile(o)]
    users, defined = binaries.symbols(objects + plan.user_objects)
    # C++ functions by their unqualified name, for a C name defined with
    # C++ linkage (a .cpp without extern "C").
    cxx = {}
    for symbol, spelled in binaries.demangled(defined).items():
        cxx.setdefault(spelled.split('(')[0], set()).update(
            source_of.get(o, o) for o in defined[symbol])
    spelled = binaries.demangled(names)
    declared = {fn.name: fn.header for fn in plan.functions}
    # The TH/THC names thffi provides: its own objects' (a misspelled
    # call is close to one of them).
    provided = [n for n in binaries.symbols([job.object for job in plan.jobs if job.own])[1]
                if re.match(r'TH[A-Z]', n)]
    inline = inline_only(plan, kwargs, set(names))
    lines = []
    for name in names:
        files = {source_of.get(o, o) for o in users.get(name, [])
                 if o in source_of or o not in objects}
        used = ('declared in %s' % plan.display(declared[name]) if name in declared
                else 'used in %s' % (', '.join(sorted(map(plan.display, files)))
                                     or 'a library the build links'))
        if name in inline:
            reason = _inline_reason(plan, inline[name][0])
        elif name in cxx:
            reason = ('%s defines it with C++ linkage: declare it extern "C"'
                      % ', '.join(sorted(map(plan.display, cxx[name]))))
        else:
            reason = _unresolved_reason(plan, name, declared, kwargs.get('libraries', []),
                                        provided)
        shown = '%s (%s)' % (spelled[name], name) if name in spelled else name
        lines.append('  %s, %s: %s' % (shown, used, reason))
    for path, unbound in sorted(linked.items()):
        th = [n for n in unbound if re.match(r'_?TH', n)]
        lines.append('  %s, used by %s, a library the build links: %s' % (
            ', '.join(unbound), plan.display(path),
            'thffi\'s TH/THC functions: link %s against thffi\'s shared TH library (the '
            'flags `python -m thffi --libs` prints), as it linked libATen, libTH or libTHC'
            % os.path.basename(path) if th else 'nothing it links or the process has '
            'loaded defines %s' % ('it' if len(unbound) == 1 else 'them')))
    if missing:
        lines.append('  (the loader found no %s, which the library needs: put its folder '
                     'in runtime_library_dirs)' % ', '.join(missing))
    count = len(names) + sum(map(len, linked.values()))
    raise BuildError('building %s failed: %s defines %s the code uses, so importing '
                     'the library would fail with "undefined symbol":\n%s\nThe previous '
                     'build, if any, is left in place.'
                     % (plan.name, 'no object' if inline else 'nothing', 'this name'
                        if count == 1 else 'these %d names' % count, '\n'.join(lines)))


def _inline_reason(plan, definition):
    """Why the function `definition` (preprocessed.Definition) defines
    is in no object."""
    where = '%s:%d' % (plan.display(definition.file), definition.line)
    if definition.kind == 'extern inline':
        return ('%s defines it `extern inline`, which GNU89 inline semantics (-std=gnu89, '
                '-fgnu89-inline) keep for inlining only: no object defines it; drop `extern` '
                '(thffi\'s build then adds its definition) or make it `static inline`' % where)
    return ('%s defines it plain `inline` only (C99: an inline definition, for inlining; no '
            'object defines it): declare it `extern` in one C source, or make it `static '
            'inline`' % where)


def _unresolved_reason(plan, name, declared, libraries, provided):
    left_out = th_left_out.reason(name)
    if left_out:
        return left_out
    if re.match(r'TH[A-Z]', name):
        # A name that differs only in case is the one meant; else the
        # closest few.
        close = ([n for n in provided if n.lower() == name.lower()]
                 or difflib.get_close_matches(name, provided, n=3))
        return 'thffi does not provide this TH/THC function: %s' % (
            'did you mean %s?' % ' or '.join(close) if close else
            'PyTorch 0.3.1 and 0.4.1 declared none of that name, and no name thffi '
            'provides is close to it')
    home = plan.cuda_home or cuda.find_cuda_home()
    toolkit = home and cuda_api.toolkit_version(home)
    removed = cuda_api.describe_all([name], toolkit)
    if removed:
        return removed[0].split(': ', 1)[1]
    runtime = binaries.runtime_of(name)
    if runtime and runtime[1] == 'cudart' and not plan.with_cuda:
        return 'a CUDA runtime function: build with with_cuda=True'
    if runtime and runtime[1] in libraries:
        return ('%s is linked (lib%s) and does not define it: a name the CUDA release here '
                '(%s) does not have' % (runtime[0], runtime[1], '%d.%d' % toolkit
                                        if toolkit else 'unknown'))
    if runtime and runtime[1] != binaries.CXX_RUNTIME:
        return "part of %s: add '%s' to libraries" % runtime
    if name in declared and not plan.sources and not plan.cuda_sources:
        return ('no source or extra object defines it, and create_extension got no source '
                '(were they added behind a condition false on this machine, such as `if '
                'torch.cuda.is_available():`?)')
    if name in declared:
        return 'no source or extra object defines it'
    return 'no source, extra object or library of the build defines it'


def link(plan, objects):
    """Has cffi compile the module and the user's C sources and link them
    with `objects` (compile()'s), in the build folder; checks the result.
    Returns the library's path there, named after its module."""
    # Outside package mode every build is a module of its own name, and
    # __init__.py, written last (install()), names the one to load: a
    # process that imports meanwhile gets the old library or the new, never
    # a mix.
    module = (plan.module_name if plan.package
              else '_%s_%x' % (plan.name.split('.')[-1], time.time_ns()))
    left_out = unlinkable(plan)
    plan, objects = _with_cusparse_legacy(plan, objects,
                                          _needs(_user_objects(plan, objects, left_out)))
    kwargs = link_kwargs(plan, objects, left_out)
    built = _cffi_compile(plan, module, kwargs, plan.sources)
    # What the user's C and C++ call of CUDA's libraries shows in their
    # objects, cffi's, once compiled: linked again with those libraries.
    compiled = {o: src for o, src in _cffi_objects(plan, plan.sources).items()
                if os.path.isfile(o)}
    called = {library: found for library, found in _needs([], compiled).items()
              if library not in _linked(kwargs['libraries'])}
    if called:
        for library, (what, symbols) in sorted(called.items()) if plan.verbose else []:
            print('thffi: %s: calls %s (%s): linking it'
                  % (', '.join(sorted({plan.display(src) for users in symbols.values()
                                       for src in users})), what, _names(symbols)))
        plan, objects = _with_cusparse_legacy(plan, objects, called)
        kwargs = link_kwargs(plan, objects, left_out, compiled)
        built = _cffi_compile(plan, module, kwargs, plan.sources)
    deferred = plan.deferred
    try:
        check_symbols(plan, built, kwargs)
    except BuildError:
        sources = with_inline_definitions(
            plan, built, kwargs, lambda sources: _cffi_compile(plan, module, kwargs, sources))
        if sources is None and not deferred and not left_out:
            raise
        sources = sources or {src: src for src in plan.sources}
        if deferred and binaries.unresolved(built, kwargs.get('library_dirs', []),
                                         plan.linked_libraries)[0]:
            kwargs = link_kwargs(plan, objects + compile(plan, deferred=True), left_out,
                                 compiled if called else None)
            built = _cffi_compile(plan, module, kwargs, list(sources))
            deferred = []
        _check_left_out(plan, built, kwargs, left_out)
        check_symbols(plan, built, kwargs, _cffi_objects(plan, sources))
    for source in deferred:
        print('thffi: %s (extra_objects) %s: not compiled, as the extension is built without '
              'CUDA and its C calls nothing that is missing'
              % (plan.display(plan.rescued[source]), plan.rescue_reasons[source]))
    for obj, found in left_out.items():
        print('thffi: %s (extra_objects) %s: left out of the link, as the extension is built '
              'without CUDA and its C calls nothing it defines'
              % (plan.display(obj), '; '.join(why for why, _ in found)))
    return built


def _user_objects(plan, objects, left_out=()):
    """The user's objects among a link's: extra_objects (but left_out),
    those compile() made of the user's .cu sources, and the shared
    libraries the link names in `libraries` (plan.linked_libraries), whose
    calls (cusparseScsrmv) it serves as it serves those of a library in
    extra_objects."""
    own = {job.object for job in plan.jobs if job.own}
    user = [obj for obj in plan.user_objects if obj not in left_out]
    return (user + [obj for obj in objects if obj not in own]
            + [path for path in plan.linked_libraries if path not in user])


def _with_cusparse_legacy(plan, objects, needs):
    """(plan, objects), with thffi's cuSPARSE legacy routines
    (THCSparseLegacy.c) compiled in when an extension built with_cuda calls
    cuSPARSE (needs: _needs()) and configure did not compile them (it does
    for an extension whose `libraries` or extra objects name cuSPARSE): a
    .cu or C source calling cusparseScsrmv links them as such an object
    does."""
    if not plan.with_cuda or plan.cusparse_legacy or 'cusparse' not in needs:
        return plan, objects
    source, opt = os.path.join(jobs.CSRC, CUSPARSE_LEGACY[0]), CUSPARSE_LEGACY[1]
    plan = dataclasses.replace(plan, cusparse_legacy=True)
    obj = os.path.join(plan.build_dir, 'called_%s.o' % os.path.splitext(CUSPARSE_LEGACY[0])[0])
    job = Job(source, obj, jobs.cc_command(plan, source, obj, opt.split() + plan.sanitize_flags),
              True)
    compile(dataclasses.replace(plan, jobs=[job], rescued={}, deferred=[], verbose=False))
    return dataclasses.replace(plan, jobs=plan.jobs + [job]), objects + [obj]


def _cffi_objects(plan, sources):
    """{object: source} of cffi's compiles: in the build folder under the
    source's absolute path; sources: a list, or {source compiled: the
    user's source it stands for}."""
    shown = sources if isinstance(sources, dict) else {s: s for s in sources}
    return {os.path.join(plan.build_dir, os.path.splitext(src)[0].lstrip(os.sep)) + '.o':
            user for src, user in shown.items()}


def _cffi_compile(plan, module, kwargs, sources):
    compile_by_language()
    output = []
    try:
        ffi = cffi.FFI()
        ffi.cdef(plan.cdef_text)
        ffi.set_source(module, plan.source_text, source_extension=plan.source_extension,
                       sources=sources, **kwargs)
        # cffi's own lines ("generating ...") show with the whole commands.
        quiet = contextlib.nullcontext() if plan.full_commands else contextlib.redirect_stdout(
            io.StringIO())
        # The compilers' messages show as they come with THFFI_VERBOSE=1;
        # else after the compile: whole where it failed, its warnings one
        # line a kind where it did (command_log.summarised).
        passing = command_log.whole_warnings()
        with _printing_compiler_commands(plan), _teeing_stderr(output, passing), quiet:
            built = ffi.compile(tmpdir=plan.build_dir, verbose=plan.verbose,
                                target='%s%s' % (module.split('.')[-1],
                                                 sysconfig.get_config_var('EXT_SUFFIX')))
    except cffi.VerificationError as exc:
        # The exception's own text is only its long command line.
        text = b''.join(output).decode('utf-8', 'replace')
        sys.stderr.write('' if passing else text)
        raise BuildError('building %s failed: %s%s'
                         % (plan.name, _failed_command(plan, exc), explained(plan, text))
                         ) from None
    except OSError as exc:
        sys.stderr.write('' if passing else b''.join(output).decode('utf-8', 'replace'))
        raise BuildError('building %s failed: %s' % (plan.name, exc)) from None
    text = b''.join(output).decode('utf-8', 'replace')
    sys.stderr.write('' if passing else command_log.summarised(text))
    _check_declared(plan, text)
    return built


# distutils' error for a command that failed: "Command '[...]' returned
# non-zero exit status 1" (setuptools' spawn) or "command '/usr/bin/gcc'
# failed with exit code 1" (distutils' own).
_FAILED = re.compile(r"Command '(\[.*\])' returned non-zero exit status (\d+)|"
                     r"command '([^']+)' failed with exit (?:code|status) (\d+)")


def _failed_command(plan, exc):
    """'gcc exited 1 on src/my_lib.c' for cffi's failed compile `exc` (the
    compiler's lines, shown above, say why), as far as its text says."""
    found = _FAILED.search(str(exc))
    if found is None:
        return 'the C compiler reported the errors above'
    if found.group(1):
        words = ast.literal_eval(found.group(1))
        source = words[words.index('-c') + 1] if '-c' in words[:-1] else None
        return '%s exited %s%s' % (os.path.basename(words[0]), found.group(2),
                                   ' on %s' % plan.display(source) if source else '')
    return '%s exited %s' % (os.path.basename(found.group(3)), found.group(4))


def _check_declared(plan, output):
    """Fails the build when the compiler reported a call of a function
    thffi defines with no declaration in scope (toolchain/cc.py: C passes
    its floats as doubles and reads its result as an int)."""
    calls = cc.implicit_calls(output)
    if not calls:
        return
    _, defined = binaries.symbols([job.object for job in plan.jobs if job.own])
    wrong = [(f, line, name) for f, line, name in calls if name in defined]
    if wrong:
        raise BuildError('building %s failed: %s' % (plan.name, '; '.join(
            '%s:%d calls %s %s; %s' % (plan.display(f), line, name,
                                       cc.IMPLICIT_CALL_WHY % name, cc.IMPLICIT_CALL_FIX)
            for f, line, name in wrong)))


def inline_only(plan, kwargs, names, folder=None):
    """{name: (preprocessed.Definition, the first C source reading it)}
    for the names of `names` that the user's C defines for inlining only,
    as the preprocessor sees each C source of plan.sources with the
    build's compiler, include folders, macros and C flags (kwargs: the
    link's setuptools arguments).  folder: where the compiler ran (by
    default the build folder, cffi's)."""
    if not names:
        return {}
    import setuptools  # noqa: F401 (makes `distutils` setuptools' own, as cffi does)
    from distutils import ccompiler, sysconfig as distutils_sysconfig
    compiler = ccompiler.new_compiler()
    distutils_sysconfig.customize_compiler(compiler)
    if os.path.basename(compiler.compiler_so[0]).endswith('++'):
        return {}  # CC=g++ compiles the C as C++, where inline functions are emitted
    paths = sysconfig.get_paths()
    command = preprocessed.preprocess_command(
        compiler.compiler_so + ccompiler.gen_preprocess_options(
            as_list(kwargs.get('define_macros'))
            + [(m,) for m in as_list(kwargs.get('undef_macros'))],
            as_list(kwargs.get('include_dirs')) + [paths['include'], paths['platinclude']]),
        cc.for_language(as_list(kwargs.get('extra_compile_args')), 'c')[0])
    found = {}
    for src in plan.sources:
        if names - set(found) and not src.endswith(_CXX_SUFFIXES):
            for d in preprocessed.inline_only(command, src, folder or plan.build_dir,
                                               lambda path: _users_file(plan, path)):
                if d.name in names:
                    found.setdefault(d.name, (d, src))
    return found


def with_inline_definitions(plan, library, kwargs, relink, folder=None):
    """The sources compiled instead of plan.sources, {source: the user's
    source}, when names `library` leaves unresolved are functions the
    user's C defines plain `inline` (C99 inline definitions: no object
    defines them; gcc 5 inlined every call, gcc 12 leaves calls to
    recursive and large ones out of line, and -O0 every call:
    toolchain/cc.py), as the preprocessor sees it (inline_only():
    `#define DEVICE_FUNC inline`).  The first C source that reads each
    such definition is compiled through a file that includes it, then
    declares the functions `extern`, which makes that object hold their
    one external definition; relink(sources) builds the library again
    from them (at `library`), until no unresolved name is such a function
    (a definition made external calls the others out of line).  Says so
    in one line.  None when no unresolved name is such a function.
    folder: where the compiler ran (inline_only())."""
    defined = {}  # name: (Definition, the first source reading it)
    while True:
        names = set(binaries.unresolved(library, kwargs.get('library_dirs', []),
                                     plan.linked_libraries)[0]) - set(defined)
        more = {name: found for name, found in inline_only(plan, kwargs, names, folder).items()
                if found[0].kind == 'inline'}
        if not more:
            break
        defined.update(more)
        sources = _with_external_definitions(plan, defined)
        relink(list(sources))
    if not defined:
        return None
    sys.stderr.write(
        'thffi: warning: %s: defined plain `inline` (C99: no external definition) and '
        'called out of line, which gcc 5 inlined: compiled %s once more with %s\n'
        % (', '.join('%s (%s:%d)' % (n, plan.display(d.file), d.line)
                     for n, (d, _) in sorted(defined.items())),
           'its definition' if len(defined) == 1 else 'their definitions',
           ', '.join(sorted({plan.display(src) for _, src in defined.values()}))))
    return sources


def _with_external_definitions(plan, defined):
    """{source to compile: the user's source} for plan.sources, where a
    source reading definitions of `defined` ({name: (Definition, the
    source)}) is compiled through a file in the build folder that
    includes it, then declares those functions `extern`."""
    wrapped = {}
    for name, (_, src) in sorted(defined.items()):
        wrapped.setdefault(src, []).append(name)
    folder = os.path.join(plan.build_dir, 'c99-inline')
    os.makedirs(folder, exist_ok=True)
    sources = {}
    for i, src in enumerate(plan.sources):
        if src not in wrapped:
            sources[src] = src
            continue
        wrapper = os.path.join(folder, '%d_%s' % (i, os.path.basename(src)))
        with open(wrapper, 'w') as f:
            f.write('/* thffi: %s, with the external definition of the C99 inline '
                    'function%s it defines */\n#include "%s"\n%s'
                    % (os.path.basename(src), 's' if len(wrapped[src]) > 1 else '', src,
                       ''.join('extern __typeof__(%s) %s;\n' % (n, n)
                               for n in wrapped[src])))
        sources[wrapper] = src
    return sources


def _users_file(plan, path):
    """Whether a file a compile read is the user's (not thffi's, the
    system's, Python's or the CUDA toolkit's)."""
    paths = sysconfig.get_paths()
    return not path.startswith(tuple(filter(None, (
        INCLUDE_DIR, paths['include'], paths['platinclude'], '/usr/include/', '/usr/lib/',
        plan.cuda_home, *cuda.toolkit_include_dirs(plan.cuda_home)))))


def _source_names(obj):
    """The names a .cu for the object `obj` has beside it, for thffi to
    compile it again: x.cu and x_*.cu for x.cu.o or x.o."""
    stem = re.sub(r'(\.cu)?\.o$', '', os.path.basename(obj))
    return stem + '.cu', stem + '_*.cu'


@contextlib.contextmanager
def _teeing_stderr(output, passing=True):
    """Appends what is written to file descriptor 2 meanwhile (by this
    process and the compilers it runs) to the list `output`, as bytes, as
    it passes on to where it went before (passing: else it is only kept):
    the compilers' messages show as they come, and the build can read
    them afterwards."""
    sys.stderr.flush()
    saved = os.dup(2)
    read, write = os.pipe()
    os.dup2(write, 2)
    os.close(write)

    def pump():
        while True:
            chunk = os.read(read, 65536)
            if not chunk:
                break
            output.append(chunk)
            while passing and chunk:
                chunk = chunk[os.write(saved, chunk):]

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)  # closes the pipe's last write end: pump() ends
        thread.join()
        os.close(read)
        os.close(saved)


@contextlib.contextmanager
def _printing_compiler_commands(plan):
    """Prints the compile and link commands cffi runs when plan.verbose: as
    the legacy verbose=True did with plan.full_commands, else one short line
    each (command_log.py).  cffi runs them through setuptools' distutils, which
    logs each at INFO on the root logger (cffi lowers the threshold when
    verbose); without a handler there, as in a build script, nothing shows."""
    if not plan.verbose:
        yield
        return

    class Lines(logging.Formatter):
        def format(self, record):
            return command_log.compiler_line(plan, record.getMessage())

    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(Lines())
    handler.setLevel(logging.INFO)
    handler.addFilter(lambda record: command_log.compiler_line(plan, record.getMessage()) is not None)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
