"""What a legacy repository's build compiles, for `python -m thffi port`'s
report: findings in C/C++/CUDA files the build scripts do not compile
(vendored third-party code: KenLM, Eigen) are summarised in one line, not
listed one by one; and extension binaries of an earlier build.

A file is compiled when a build script names it: a string in a Python
build script (one that calls create_extension, setup or an Extension), a
word of a shell script or a Makefile or of a CMake file of the torch build (port.cmake
found TH/THC or nvcc architectures in it) ending in a C/C++/CUDA suffix,
glob patterns (src/*.cpp) included, relative to the script's folder or,
where the script builds paths by hand, by the end of the path; and a
header such a file includes ("x.h", or <dir/x.h> found in the repository,
transitively).  A name the script computes counts with its unknown parts
as `*`: `'aten/TH/TH{}.c'.format(f)` is aten/TH/TH*.c, `os.path.join('src',
f + '.c')` src/*.c, `$DIR/${name}.cu` */*.cu.  When no build script names
any file, every file counts as compiled (nothing is summarised).
cuda_files: the compiled CUDA sources, whose warp intrinsics port rewrites
(warp.py)."""

import ast
import fnmatch
import os
import re
import subprocess

SOURCES = ('.c', '.h', '.cu', '.cuh', '.cpp', '.cc', '.cxx', '.hpp')
_NAMED = re.compile(r'''[\w./*${}-]+(?:%s)\b''' % '|'.join(re.escape(s) for s in SOURCES))
_PYTHON_BUILD = re.compile(r'\bcreate_extension\s*\(|\bsetup\s*\(|Extension\s*\(')
_CREATE_EXTENSION = re.compile(r'\bcreate_extension\s*\(')
_INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
_VARIABLE = re.compile(r'\$\{?\w+\}?')
_FORMAT_FIELD = re.compile(r'\{[^{}]*\}|%[-+ #0-9.]*[sdirf]')


def _names(path, text):
    """The source names a build script gives: words of a shell or CMake
    file (a variable in them is `*`); the strings a Python script computes
    (_computed)."""
    if path.endswith('.py'):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return _NAMED.findall(text)
        names = []
        todo = [tree]
        while todo:  # the outermost string expressions: not f + '.c' and '.c'
            node = todo.pop()
            name = _computed(node) if isinstance(node, ast.expr) else None
            if name is None:
                todo += ast.iter_child_nodes(node)
            elif name.endswith(SOURCES):
                names.append(name)
            elif name.endswith('.o') and name[:-2].endswith(SOURCES):  # x.cu.o: x.cu's object
                names.append(name[:-2])
        return names
    return [_VARIABLE.sub('*', name) for name in _NAMED.findall(text)]


def _computed(node):
    """The string node computes, with what cannot be known as `*`; None
    when node is not a string expression."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        return ''.join(_computed(v) or '*' for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _computed(node.left), _computed(node.right)
        return None if left is None and right is None else (left or '*') + (right or '*')
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = _computed(node.left)
        return _FORMAT_FIELD.sub('*', left) if left is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == 'format':
            template = _computed(node.func.value)
            return _FORMAT_FIELD.sub('*', template) if template is not None else None
        if node.func.attr == 'join' and isinstance(node.func.value, ast.Attribute) and \
                node.func.value.attr == 'path' and node.args:
            return '/'.join(_computed(a) or '*' for a in node.args)
    return None


def _patterns(path, text):
    """The file patterns a build script names: (path parts, anchored) where
    anchored patterns are relative to the repository and the others match
    the end of a path."""
    folder = os.path.dirname(path)
    out = []
    for name in _names(path, text):
        parts = os.path.normpath(name).split(os.sep)
        while len(parts) > 1 and parts[0] in ('*', ''):  # $ROOT/src/x.cu, join(here, ...)
            parts = parts[1:]
        name = os.path.join(*parts)
        out.append((os.path.normpath(os.path.join(folder, name)).split(os.sep), True))
        if not (len(parts) == 1 and parts[0].startswith('*')):  # not every x.c anywhere
            out.append((parts, False))
    return out


def _matches(path, pattern):
    """Whether path matches the pattern, glob-style: * stays within a folder."""
    parts, anchored = pattern
    names = path.split(os.sep)
    if len(names) < len(parts) or anchored and len(names) != len(parts):
        return False
    return all(fnmatch.fnmatchcase(n, p) for n, p in zip(names[-len(parts):], parts))


def compiled_files(texts, shell_scripts=()):
    """The relative paths among texts ({relative path: text} of every
    source and script read) that the build compiles, or None when no build
    script names a source.  shell_scripts: those of texts read as shell
    scripts whatever their names (install.bash)."""
    patterns = []
    for path, text in texts.items():
        if (path in shell_scripts or path.endswith(('.sh', 'CMakeLists.txt', '.cmake', '.mk'))
                or os.path.basename(path) in ('Makefile', 'makefile', 'GNUmakefile')
                or path.endswith('.py') and _PYTHON_BUILD.search(text)):
            patterns += _patterns(path, text)
    sources = [p for p in texts if p.endswith(SOURCES)]
    compiled = {p for p in sources if any(_matches(p, pattern) for pattern in patterns)}
    if not compiled:
        return None
    return with_includes(texts, compiled)


def with_includes(texts, paths):
    """paths and the files of texts they include, transitively: "x.h"
    relative to the including file, else (and <x.h>) a file whose path
    ends with the included one."""
    by_name = {}
    for p in texts:
        if p.endswith(SOURCES):
            by_name.setdefault(os.path.basename(p), []).append(p)
    found_all = set(paths)
    todo = list(found_all)
    while todo:
        path = todo.pop()
        for quoted, angled in _INCLUDE.findall(texts[path]):
            include = quoted or angled
            here = os.path.normpath(os.path.join(os.path.dirname(path), include))
            found = [here] if quoted and here in texts else [
                p for p in by_name.get(os.path.basename(include), ())
                if p.endswith(include.lstrip('./'))]
            for header in found:
                if header not in found_all:
                    found_all.add(header)
                    todo.append(header)
    return found_all


def ffi_headers(texts):
    """The headers among texts that a Python build script calling
    create_extension names (its headers=: cffi's module includes them)."""
    headers = [p for p in texts if p.endswith('.h')]
    patterns = [pattern for path, text in texts.items()
                if path.endswith('.py') and _CREATE_EXTENSION.search(text)
                for pattern in _patterns(path, text) if pattern[0][-1].endswith('.h')]
    return {p for p in headers if any(_matches(p, pattern) for pattern in patterns)}


def cuda_files(texts, compiled):
    """The CUDA sources among texts the build compiles: .cu and .cuh files
    (all of them when compiled is None: nothing names sources) and the
    files they include."""
    return with_includes(texts, [p for p in texts if p.endswith(('.cu', '.cuh'))
                                  and (compiled is None or p in compiled)])


def summarise(findings, compiled):
    """The C findings in compiled files, and one line for those elsewhere;
    findings: [Finding] of C sources."""
    from .report import Finding
    if compiled is None:
        return findings
    kept = [f for f in findings if f.path in compiled]
    rest = [f for f in findings if f.path not in compiled]
    if not rest:
        return kept
    folders = sorted({os.path.dirname(f.path) or '.' for f in rest})
    where = os.path.commonpath([f.path for f in rest]) or '.'
    return kept + [Finding(where, 0, '%d more findings in %d C/C++/CUDA files the build scripts '
                           'do not compile (vendored or unused code, in %s%s): not listed'
                           % (len(rest), len({f.path for f in rest}), ', '.join(folders[:3]),
                              ', ...' if len(folders) > 3 else ''), False)]


def tracked(base, paths):
    """The paths (relative to base) git tracks in the repository base is
    in (`git ls-files`); none where base is in no repository or git is
    missing."""
    if not paths:
        return set()
    try:
        out = subprocess.run(['git', 'ls-files', '-z', '--'] + list(paths), cwd=base,
                             capture_output=True, text=True)
    except OSError:
        return set()
    return set(out.stdout.split('\0')) - {''} if out.returncode == 0 else set()


def committed_binaries(base, paths):
    """Findings for the built Python extension modules among paths
    (relative to base): a Python 2 one (it exports init<name> and calls
    Py_InitModule4) Python 3 cannot import; a Python 3 one (it exports
    PyInit_<name>) was built against another PyTorch.  The legacy build
    named both _x.so, without a Python tag.  One git tracks was committed
    with the sources, and is to be deleted from the repository; one it
    does not track is a build's output beside them, which thffi's build
    replaces, and one thffi's build installed (its manifest beside it) is
    not reported."""
    from ..toolchain.manifest import built_here
    from .report import Finding
    out = []
    committed = tracked(base, paths)
    for path in paths:
        name = os.path.basename(path)[:-len('.so')].split('.')[0]
        if path not in committed and built_here(os.path.join(base, os.path.dirname(path))):
            continue
        try:
            with open(os.path.join(base, path), 'rb') as f:
                data = f.read()
        except OSError:
            continue
        if path in committed:
            where, action = ('committed with the sources', 'delete it from the repository '
                             '(git rm): thffi\'s build writes its own in its place')
        else:
            where, action = ('beside the sources (git does not track it)',
                             'thffi\'s build writes its own in its place; port leaves it')
        if b'\0PyInit_%s\0' % name.encode() in data:
            out.append(Finding(path, 0, 'a Python 3 extension module (it exports PyInit_%s) from '
                               'an earlier build, %s: built against the PyTorch of then; %s'
                               % (name, where, action), False))
        elif b'\0init%s\0' % name.encode() in data and b'Py_InitModule4' in data:
            out.append(Finding(path, 0, 'a Python 2 extension module (it exports init%s), %s: '
                               'Python 3 cannot import it; %s' % (name, where, action), False))
    return out
