"""The CUDA sources an nvcc command of `python -m thffi run` compiles, with
port's rules for their text applied in flight: the maskless warp intrinsics
and old inline PTX (toolchain/warp.py: `__shfl_down(v, d)` is compiled as
`__shfl_down_sync(0xffffffff, v, d)`) and the renamed fields of the
runtime's structs (toolchain/cuda_fields.py: `attributes.memoryType` as
`attributes.type`), and the includes of a copy of CUB or thrust the
repository carries, by whatever path (`#include
"../third_party/cub-1.4/cub/cub.cuh"`), as the toolkit's (`<cub/cub.cuh>`)
where it serves the code (port/vendored.py's rule, nvcc asked of the names
the code uses: the copy's CUB 1.x stops today's thrust), which port writes
into the files.
The repository's files stay byte for byte.

What the compile reads of the repository is known from the sources, as
port knows it: the command's CUDA inputs and, transitively, what they
include (`"x.h"` beside the including file, then the command's include
folders; `<x.h>` in those folders; a `#define THC_GENERIC_FILE "x.cu"`
too, which THC's generate headers include), each a file of the
repository: the inputs (a CMake build folder's step compiles
`../src/x.cu`) and what they include, beside them or through the
command's own -I folders, wherever it lies (`#include "../common.cuh"`,
`-I..` from the step's folder); none of them the toolkit's, thffi's or an
installed package's (site-packages: pip's CUDA wheels, torch).  A name the code defines itself
(`#define __shfl_down(...)` or a function of that name) is left to it, as
port leaves it.

Where a file of them changes, the compile reads copies: each of the files
found, the changed ones rewritten, goes into a folder of thffi's cache
(`cuda-sources/<hash of what it holds>/<the file's absolute path>`),
opening with `#line 1 "<the file's path>"` (diagnostics and __FILE__ name
the repository's file; lines stay where they were), and the command names
the copy of each input and, before each of its include folders, that
folder's copy: an include resolves to the copies as it resolved to the
files.  A file the scan did not find (an include computed by another
macro) is read from the repository, as before."""

import hashlib
import os
import re

from ..toolchain import cuda_fields, includes, nvcc as nvcc_rules, warp

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)
_GENERIC_FILE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+\w*GENERIC_FILE[ \t]+"([^"\n]+)"', re.M)
_CUDA_INPUT = ('.cu', '.cuh')
# The most files one compile's scan reads (a runaway include tree stops here).
_MOST_FILES = 5000


def _cuda_inputs(args):
    """The indices of the inputs of an nvcc command compiled as CUDA: .cu
    files, every source after `-x cu`."""
    as_cuda = any(a in ('-x', '--x') and b == 'cu' for a, b in zip(args, args[1:])) or \
        any(a in ('-xcu', '--x=cu') for a in args)
    return [i - 1 for i in nvcc_rules.input_positions(['nvcc'] + list(args))
            if args[i - 1].endswith(_CUDA_INPUT) or
            as_cuda and args[i - 1].endswith(('.c', '.cc', '.cpp', '.cxx'))]


def _read(path):
    try:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            return f.read()
    except OSError:
        return None


def _under(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _foreign(toolkit):
    """A test of whether a path (real) is not the repository's: the
    toolkit's (its folder, toolkit), thffi's, or an installed package's."""
    thffi = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    folders = [os.path.realpath(toolkit)] if toolkit else []

    def foreign(path):
        parts = path.split(os.sep)
        return ('site-packages' in parts or 'dist-packages' in parts or _under(path, thffi)
                or any(_under(path, folder) for folder in folders))
    return foreign


def sources(args, cwd, toolkit=None, read=_read):
    """{absolute path: text} of the repository's files the command compiles
    and includes (the module's docstring); toolkit: the folder of the nvcc
    that compiles; read(path): a file's text, or None."""
    folders = [os.path.normpath(os.path.join(cwd, folder))
               for _, _, _, folder in includes.include_folders(args)]
    todo = [os.path.normpath(os.path.join(cwd, args[i])) for i in _cuda_inputs(args)]
    if not todo:
        return {}
    foreign = _foreign(toolkit)
    found = {}
    while todo and len(found) < _MOST_FILES:
        path = todo.pop()
        if path in found or foreign(os.path.realpath(path)):
            continue
        text = read(path)
        if text is None:
            continue
        found[path] = text
        here = os.path.dirname(path)
        wanted = [(quoted, [here] + folders) if quoted else (angled, folders)
                  for quoted, angled in _INCLUDE.findall(text)]
        wanted += [(name, folders + [here]) for name in _GENERIC_FILE.findall(text)]
        for name, where in wanted:
            for folder in where:
                candidate = os.path.normpath(os.path.join(folder, name))
                if os.path.isfile(candidate):
                    todo.append(candidate)
                    break
    return found


def _vendored(texts, scope, toolkit):
    """({path: new text}, [clause]) of port/vendored.py's rule over texts
    (absolute paths under scope): the code's includes of a CUB or thrust
    copy among them by its path become the toolkit's where it serves the
    code.  toolkit: the folder of the nvcc that compiles, where it is a
    toolkit's (else the one thffi finds: nvcc may be a script starting
    another's)."""
    from ..port import vendored
    from ..toolchain import cuda_toolkit
    if toolkit and not (os.path.isfile(os.path.join(toolkit, 'bin', 'nvcc')) and
                        cuda_toolkit.runtime_include(toolkit)):
        toolkit = None
    relative = {os.path.relpath(path, scope): text for path, text in texts.items()}
    found = vendored.find(relative)
    if not any(copy.library.toolkit for copy in found):
        return {}, []
    new, findings = vendored.rewrite_includes(relative, None, found, toolkit)
    return ({os.path.join(scope, path): text for path, text in new.items()},
            ['%s:%d: %s, as port writes it' % (f.path, f.line, f.message.replace(
                ': now ', ': compiled as ', 1)) for f in findings if f.fixed])


def rewritten(texts):
    """({path: new text} of the files toolchain/warp.py and
    toolchain/cuda_fields.py change, [(path, Change)] of warp's, [(path,
    line, Field)] of cuda_fields'): the warp names a file of them defines
    itself left to it."""
    if not any(warp.mentions(text) or cuda_fields.mentions(text) for text in texts.values()):
        return {}, [], []
    own = set()
    for text in texts.values():
        own |= set(warp.own(text))
    new, changes, fields = {}, [], []
    for path, text in sorted(texts.items()):
        changed = text
        if warp.mentions(text):
            changed, found, _ = warp.rewrite(text, own)
            changes += [(path, change) for change in found]
        changed, found = cuda_fields.rewrite(changed)
        fields += [(path, line, field) for line, field in found]
        if changed != text:
            new[path] = changed
    return new, changes, fields


def _copies(texts, new, cache):
    """The folder of thffi's cache holding a copy of each of texts, new's
    text for those it changes (made once: its name is the hash of what it
    holds)."""
    copies = {path: '#line 1 "%s"\n%s' % (path.replace('\\', '\\\\').replace('"', '\\"'),
                                          new.get(path, text))
              for path, text in texts.items()}
    digest = hashlib.sha256()
    for path in sorted(copies):
        digest.update(('%s\0%s\0' % (path, copies[path])).encode('utf-8', 'surrogateescape'))
    folder = os.path.join(cache, 'cuda-sources', digest.hexdigest()[:32])
    done = os.path.join(folder, '.complete')
    if not os.path.exists(done):
        for path, text in copies.items():
            copy = folder + path
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            partial = '%s.%d' % (copy, os.getpid())
            with open(partial, 'w', encoding='utf-8', errors='surrogateescape') as f:
                f.write(text)
            os.replace(partial, copy)
        open(done, 'w').close()
    return folder


def _describe_fields(fields, root):
    """The clauses saying which struct fields were compiled by their new
    names, with where."""
    by_field = {}
    for path, line, field in fields:
        by_field.setdefault(field, []).append('%s:%d' % (os.path.relpath(path, root), line))
    return ['%s (%s): compiled as .%s, as port writes it (%s)' % (
        '%s::%s' % (field.struct, field.old), ', '.join(where), field.new, field.why)
            for field, where in by_field.items()]


def _describe(changes, root):
    """The clause saying what was compiled otherwise, with where."""
    where = []
    for path, change in changes:
        what = change.name if change.ptx is None else 'PTX %s' % change.ptx.old.split()[0]
        where.append('%s (%s:%d)' % (what, os.path.relpath(path, root), change.line))
    shown = ', '.join(where[:6]) + (', and %d more' % (len(where) - 6) if len(where) > 6 else '')
    return ('%s: each compiled as its _sync form with the full-warp mask %s, as port writes it '
            '(maskless warp intrinsics: %s); if only some lanes take part, pass their mask'
            % (shown, warp.MASK, warp.WHY))


def modernize(args, cwd, root, cache, toolkit=None):
    """(args, [clause]) of an nvcc command: where the repository's files it
    compiles hold what toolchain/warp.py rewrites, the command reads their
    rewritten copies (the module's docstring); else args as they are.
    toolkit: the folder of the nvcc that compiles."""
    args = list(args)
    texts = sources(args, cwd, toolkit)
    new, said = _vendored(texts, os.path.commonpath(list(texts)), toolkit) if texts else ({}, [])
    if new:  # what the compile reads now: a copy set aside is not
        texts = sources(args, cwd, toolkit, lambda path: new.get(path) or _read(path))
    warped, changes, fields = rewritten(texts)
    new = {path: warped.get(path, text) for path, text in new.items() if path in texts}
    new.update(warped)
    if not new:
        return args, []
    folder = _copies(texts, new, cache)
    for i in _cuda_inputs(args):
        path = os.path.normpath(os.path.join(cwd, args[i]))
        if path in texts:
            args[i] = folder + path
    out, last = [], 0
    for index, width, option, value in includes.include_folders(args):
        out += args[last:index]
        copy = folder + os.path.normpath(os.path.join(cwd, value))
        if os.path.isdir(copy):
            out += [option, copy] if width == 2 or option.startswith('--') else [option + copy]
        out += args[index:index + width]
        last = index + width
    scope = os.path.commonpath([os.path.realpath(p) for p in [root] + list(texts)])
    return out + args[last:], ([_describe(changes, scope)] if changes else []) + \
        _describe_fields(fields, scope) + said
