"""python -m thffi port [--write] [--from 0.x] [--jobs N] [PATH]: ports a legacy
torch.utils.ffi repository (PyTorch 0.1 to 0.4) to thffi and today's
PyTorch.

It reads every Python file (pyversion.py: whether it is Python 2, file by
file; py2.py: a Python 2 file converted first, with fissix; running.py:
the modules scripts import as top-level ones, whose imports stay;
python.py: torch.utils.ffi, build-script CUDA gates, legacy autograd
Functions, torch.range, Variable, x.data[0]; behaviours.py: the 0.x
behaviours that changed silently, kept as the version the code was
written for had them, from --from or read from the repository by
version.py; removed.py: the Python, NumPy, SciPy and PyTorch names since
removed; layout.py: views handed to ffi functions; imports.py: imports
failing through other files; align.py: continuation lines kept aligned;
pynvcc.py: nvcc run from Python), shell script (shell.py: nvcc
architecture, flags and $TORCH include flags, word by word), Makefile
(make.py: the same in variables and recipes, and torch's include folders
asked of Python), CMake file (cmake.py: CMakeLists.txt and *.cmake: nvcc
architectures and flags, TH/THC include folders and libraries taken from
torch, argument by argument), README/INSTALL file (docs.py: read only,
each command to type differently reported) and C/C++/CUDA source (c.py:
read only, reported; compiled.py: only what the build scripts compile is
listed, and committed extension binaries are reported; warp.py: maskless
warp intrinsics and PTX in the CUDA the build compiles get the full-warp
mask; vendored.py: includes of a CUB or thrust copy become the toolkit's,
and no file in a library copy is changed) under PATH, prints a
unified diff of what it would change on stdout and a report of what it
changed and what it left for the user on stderr.  --write applies the
diff.  Running it again changes nothing.  It goes file by file: a file a
rewrite fails on is left as it was and named in the report with the error,
and the others are still ported.  The Python files, the costly
part, are shared among --jobs processes (one a core), and only those whose
text holds a name the fixers rewrite or report are parsed with libcst
(triggers.py; docs/porting/port_speed.md)."""

import ast
import difflib
import os
import re
import sys

from . import pyversion
from .report import Finding, format_report

__all__ = ['port', 'main', 'Finding']

_C_SOURCES = ('.c', '.h', '.cu', '.cuh', '.cpp', '.cc', '.cxx', '.hpp')
_C_KINDS = ('c', 'c-undecodable')
_SKIPPED_DIRS = ('__pycache__', 'build', 'dist', 'node_modules', 'site-packages')


def _files(root):
    if os.path.isfile(root):
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d not in _SKIPPED_DIRS
                         and not d.endswith('.egg-info')
                         and not os.path.isfile(os.path.join(folder, d, 'pyvenv.cfg')))
        for name in sorted(files):
            yield os.path.join(folder, name)


def _change(path, rel, text, new, write, diff, changed):
    """Adds the change of the file at path (rel to the ported folder) from
    text to new, if any, to diff and changed; writes it if write."""
    if new == text:
        return
    changed.append(rel)
    diff += [line if line.endswith('\n') else line + '\n\\ No newline at end of file\n'
             for line in difflib.unified_diff(text.splitlines(keepends=True),
                                              new.splitlines(keepends=True),
                                              'a/' + rel, 'b/' + rel)]
    if write:
        with open(path, 'w', encoding='utf-8', newline='') as f:
            f.write(new)


def _lines_before(findings, text, original):
    """The findings about text, with their lines moved to original's (text
    is original after a rewrite that may have added or removed lines)."""
    lines = {}
    matcher = difflib.SequenceMatcher(None, original.splitlines(), text.splitlines(),
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):  # a changed line: the first of what it replaced
            lines[j + 1] = i1 + 1 + (j - j1 if tag == 'equal' else
                                     min(j - j1, max(i2 - i1 - 1, 0)))
    return [Finding(f.path, lines.get(f.line, f.line) if f.line else 0, f.message, f.fixed)
            for f in findings]


def _read(root, base):
    """(path, relative path, kind, text) of each file port reads under root,
    the relative paths of the .so files, and findings for files not read.
    Kinds: 'py', 'sh', 'make', 'cmake', 'doc' (README/INSTALL), 'c'; a C
    file not in UTF-8 has kind 'c-undecodable' (scanned, not changed)."""
    from . import readers
    from .docs import is_doc
    from .readers.route import route
    entries, binaries, findings, listed = [], [], [], []
    for path in _files(root):
        rel = os.path.relpath(path, base)
        kind = ('cmake' if os.path.basename(path) == 'CMakeLists.txt' or path.endswith('.cmake')
                else 'c' if path.endswith(_C_SOURCES) else 'doc' if is_doc(path)
                else readers.kind(path))
        if path.endswith('.so'):
            binaries.append(rel)
        listed.append((path, rel, kind))
    # A script by any name that a README or build file runs (`bash
    # install.bash`) is read as what runs it runs it.
    run_as = route([p for p, _, k in listed if k == 'doc'],
                   [(p, k) for p, _, k in listed if k in ('sh', 'make', 'py')])
    for path, rel, kind in listed:
        kind = kind or run_as.get(os.path.realpath(path))
        if kind is None:
            continue
        try:
            with open(path, 'rb') as f:
                data = f.read()
            try:
                text = data.decode('utf-8')
            except UnicodeDecodeError:
                if kind != 'c':
                    raise
                # A vendored C file in another encoding is scanned, not changed.
                text, kind = data.decode('utf-8', errors='replace'), 'c-undecodable'
        except (OSError, UnicodeDecodeError) as exc:
            findings.append(Finding(rel, 0, 'not read: %s' % exc, False))
            continue
        entries.append((path, rel, kind, text))
    return entries, binaries, findings


_CREATE_EXTENSION = re.compile(r'\bcreate_extension\s*\(\s*(?:name\s*=\s*)?[\'"]([\w.]+)[\'"]')


def _extensions(entries):
    """(the dotted names the build scripts' create_extension calls give,
    the absolute paths of the folders those make beside each script)."""
    names, built = set(), set()
    for path, _, kind, text in entries:
        if kind != 'py':
            continue
        for name in _CREATE_EXTENSION.findall(text):
            names.add(name)
            parts = name.split('.')
            built |= {os.path.join(os.path.dirname(os.path.abspath(path)), *parts[:i])
                      for i in range(1, len(parts) + 1)}
    return tuple(sorted(names)), frozenset(built)


# Below this many Python files a second process costs more than it saves.
_FILES_PER_WORKER = 8


def _workers(jobs, files):
    """How many processes share the Python files: jobs (None: the cores this
    process may run on), fewer when there are few files; 1 means none but
    this one."""
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else \
            os.cpu_count() or 1
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError('port(): jobs must be a positive integer or None (the cores), '
                         'got %r' % (jobs,))
    return max(1, min(jobs, files // _FILES_PER_WORKER))


def _mapped(function, items, workers, cost=None):
    """[function(item) for item in items], in the items' order, shared among
    workers processes (forked where the platform can: they start with this
    one's modules loaded).  cost(item), a number, says which items take
    longest: they are handed out first, one at a time, so that no process is
    left with a long one at the end while the others wait."""
    items = list(items)
    if workers <= 1 or len(items) < 2:
        return [function(item) for item in items]
    import concurrent.futures
    import multiprocessing
    context = multiprocessing.get_context(
        'fork' if 'fork' in multiprocessing.get_all_start_methods() else None)
    order = sorted(range(len(items)), key=lambda i: -cost(items[i])) if cost else \
        range(len(items))
    results = [None] * len(items)
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        for i, result in zip(order, pool.map(function, [items[i] for i in order])):
            results[i] = result
    return results


_NOT_ASKED = object()


def _python_cost(job):
    """How long _port_python may take on job, relative to other files: a
    file the libcst pass may change (triggers.py, read from the text as it
    is) takes some hundred times what one it leaves alone does; among
    each, the longer takes longer."""
    from . import triggers
    _, _, text, version, repository, _ = job
    return len(text) * (100 if triggers.wanted(text, version, False, repository.extensions)
                        else 1)


def _failed(rel, exc):
    """The finding for a file a rewrite of port failed on (a fault of
    port's, not of the file): the file is left as it was, and the others
    are still ported."""
    return Finding(rel, 0, 'not changed: port failed on it (%s: %s); please report it to '
                   'thffi' % (type(exc).__name__, exc), False)


def _port_python(job):
    """(new text, [Finding], the import statements of the new text, or None
    where it does not parse: imports.statements()) of one Python file;
    job: (path, relative path, text, version, Repository, the architectures
    nvcc accepts or _NOT_ASKED)."""
    from .imports import statements
    from .pynvcc import rewrite_nvcc_calls
    from .python import rewrite_python
    from ..toolchain.nvcc import accepted_architectures
    path, rel, text, version, repository, architectures = job
    try:
        new, found = rewrite_python(text, rel, version, filename=path, repository=repository)
        if 'nvcc' in new:
            if architectures is _NOT_ASKED:
                architectures = accepted_architectures()
            ported, more = rewrite_nvcc_calls(new, rel, architectures)
            found += _lines_before(more, new, text)
            new = ported
    except Exception as exc:
        new, found = text, [_failed(rel, exc)]
    try:
        imported = statements(ast.parse(new))
    except (SyntaxError, ValueError):
        imported = None  # reported by rewrite_python
    return new, found, imported


def port(root, write=False, version=None, jobs=None):
    """Ports the repository (or file) at root, written for PyTorch version
    ('0.1' to '0.4'; None: read from the repository, see version.py).
    Returns (diff text, [Finding], number of files read, [relative paths
    changed]); the first finding says which version was assumed and why.
    With write=True the changes are written.  The Python files are shared
    among jobs processes (None: as many as the cores this one may run on);
    the result is the same for any number."""
    from ..toolchain import cuda_fields
    from . import imports, readers, std_headers, vendored
    from . import version as versions
    from .c import inline_findings, layouts, scan_c
    from .cmake import rewrite_cmake
    from .compiled import committed_binaries, compiled_files, cuda_files, ffi_headers, \
        summarise
    from .docs import report_commands
    from .make import rewrite_make
    from .running import top_level_modules
    from .python import Repository, is_legacy_generated
    from .py2 import top_package
    from ..toolchain.nvcc import accepted_architectures
    from .shell import rewrite_shell
    from .warp import own_definitions, report_warp, rewrite_warp

    asked = []  # the installed nvcc's architectures, asked once when needed

    def accepted():
        if not asked:
            asked.append(accepted_architectures())
        return asked[0]

    diff, findings, changed = [], [], []
    c_findings, texts, imported = [], {}, {}
    c_paths, undecodable = {}, set()  # C sources read: {rel: path}; those not UTF-8
    base = root if os.path.isdir(root) else os.path.dirname(root)
    reason = 'given by --from'
    if version is None:
        version, reason = versions.infer(root)
    findings.append(Finding('', 0, 'assumed written for PyTorch %s (%s); say --from '
                            '0.1|0.2|0.3|0.4 otherwise' % (version, reason), True))
    entries, binaries, not_read = _read(root, base)
    findings += not_read
    # What the build files build with nvcc (build scripts link it), what the
    # build scripts' create_extension makes, and which C functions check layout.
    built_by_nvcc, c_layouts = set(), {}
    for path, rel, kind, text in entries:
        # A Python script runs nvcc only by a command it writes with the word
        # (readers/python.py): the others are not walked for one.
        if kind in ('sh', 'make') or kind == 'py' and 'nvcc' in text:
            built_by_nvcc |= {os.path.basename(c.output) for c in
                              readers.commands(path, text, ask_make=False, reader=kind)
                              if c.output}
        elif kind in _C_KINDS:
            for name, checks in layouts(text).items():
                c_layouts.setdefault(name, (rel, checks))
    extensions, built = _extensions(entries)
    makefiles = {rel: text for _, rel, kind, text in entries if kind == 'make'}
    python2_folders = frozenset(
        os.path.dirname(os.path.abspath(path)) for path, _, kind, text in entries
        if kind == 'py' and pyversion.decide(text).kind == pyversion.PYTHON2)
    python3_packages = frozenset(
        top_package(os.path.dirname(os.path.abspath(path))) for path, _, kind, text in entries
        if kind == 'py' and pyversion.python3_imports(text))
    repository = Repository(frozenset(built_by_nvcc), built, extensions, c_layouts,
                            top_level_modules(entries, base), python2_folders, python3_packages)
    # The Python files, each on its own (the costly part of port; pyversion.py
    # decides Python 2 from a file's text alone): shared among the workers,
    # their results taken in the files' order.
    python = [(path, rel, text) for path, rel, kind, text in entries
              if kind == 'py' and not is_legacy_generated(text)]
    workers = _workers(jobs, len(python))
    architectures = accepted() if any('nvcc' in text for _, _, text in python) else _NOT_ASKED
    ported = dict(zip((rel for _, rel, _ in python), _mapped(_port_python, [
        (path, rel, text, version, repository, architectures) for path, rel, text in python],
        workers, _python_cost)))
    for path, rel, kind, text in entries:
        if kind == 'doc':
            findings += report_commands(text, rel, accepted())
            continue
        if kind != 'cmake':
            texts[rel] = text
        if kind in _C_KINDS:
            c_findings += scan_c(text, rel)
            c_paths[rel] = path
            if kind == 'c-undecodable':
                undecodable.add(rel)
            continue
        if kind == 'py' and is_legacy_generated(text):
            findings.append(Finding(rel, 0, 'not changed: generated by the legacy '
                                    'torch.utils.ffi build; delete it, the build script '
                                    'writes it anew', False))
            continue
        if kind in ('sh', 'make', 'cmake'):
            try:
                if kind == 'sh':
                    new, found = rewrite_shell(text, rel, accepted(), os.path.dirname(path))
                elif kind == 'make':
                    new, found = rewrite_make(text, rel, accepted(), makefiles,
                                              os.path.dirname(path))
                else:
                    new, found = rewrite_cmake(text, rel, accepted())
                    if found:  # a file of the torch build: the sources it names are compiled
                        texts[rel] = text
            except Exception as exc:
                new, found = text, [_failed(rel, exc)]
        else:
            new, found, statements = ported[rel]
            texts[rel] = new
            if statements is not None:
                imported[rel] = statements
        findings += found
        _change(path, rel, text, new, write, diff, changed)
    # Library copies (vendored.py): the code's includes of a copy the
    # toolkit serves become the toolkit's; nothing in a copy is rewritten.
    compiled = compiled_files(texts, {rel for _, rel, kind, _ in entries if kind == 'sh'})
    # C99 inline definitions, where a C compile sees them.
    c_findings += inline_findings({rel: texts[rel] for rel in c_paths}, ffi_headers(texts))
    copies = vendored.find(texts)
    inside = vendored.files_in(texts, copies)
    included, found = vendored.rewrite_includes(texts, compiled, copies)
    findings += found
    # Warp intrinsics: rewritten in the CUDA the build compiles, unless the
    # code defines the name itself; reported elsewhere.
    cuda = cuda_files({**texts, **included}, compiled) - undecodable - inside
    own = {}
    for rel in sorted(cuda):
        own = dict(own_definitions(texts[rel], rel), **own)
    findings += own.values()
    for rel, path in c_paths.items():
        new = included.get(rel, texts[rel])
        if rel not in undecodable:
            new, found = std_headers.rewrite(new, rel, path)
            findings += [f for f in found if f.fixed]
            c_findings += [f for f in found if not f.fixed]
            new, fields = cuda_fields.rewrite(new)
            findings += [Finding(rel, line, cuda_fields.describe(field), True)
                         for line, field in fields]
        if rel in cuda:
            new, found = rewrite_warp(new, rel, own)
            findings += found
        else:
            c_findings += report_warp(texts[rel], rel)
        _change(path, rel, texts[rel], new, write, diff, changed)
    if inside:  # a copy's findings are summarised, as code the build does not compile
        compiled = (compiled if compiled is not None else set(c_paths)) - inside
    findings += summarise(c_findings, compiled) + committed_binaries(base, binaries)
    findings += imports.chained(imported)
    return ''.join(diff), findings, len(entries), changed


def main(path='.', write=False, version=None, jobs=None):
    """python -m thffi port's command (its options: thffi/__main__.py):
    the diff on stdout, the report on stderr; the exit status."""
    diff, findings, read, changed = port(path, write=write, version=version, jobs=jobs)
    sys.stdout.write(diff)
    sys.stdout.flush()
    sys.stderr.write(format_report(path, findings, read, changed, write))
    return 0
