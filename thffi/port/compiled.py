"""What a legacy repository's build compiles, for `python -m thffi port`'s
report: findings in C/C++/CUDA files the build scripts do not compile
(vendored third-party code: KenLM, Eigen) are summarised in one line, not
listed one by one; and committed Python 2 extension binaries.

A file is compiled when a build script names it: a string in a Python
build script (one that calls create_extension, setup or an Extension), a
word of a shell script or a Makefile or of a CMake file of the torch build (port.cmake
found TH/THC or nvcc architectures in it) ending in a C/C++/CUDA suffix,
glob patterns (src/*.cpp) included, relative to the script's folder or,
where the script builds paths by hand, by the end of the path; and a
header such a file includes ("x.h", or <dir/x.h> found in the repository,
transitively).  When no build script names any file, every file counts as
compiled (nothing is summarised).  cuda_files: the compiled CUDA sources,
whose warp intrinsics port rewrites (warp.py)."""

import fnmatch
import os
import re

SOURCES = ('.c', '.h', '.cu', '.cuh', '.cpp', '.cc', '.cxx', '.hpp')
_NAMED = re.compile(r'''[\w./*${}-]+(?:%s)\b''' % '|'.join(re.escape(s) for s in SOURCES))
_PYTHON_BUILD = re.compile(r'\bcreate_extension\s*\(|\bsetup\s*\(|Extension\s*\(')
_INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
# Extension modules Python 3 builds carry its tag (PEP 3149): _x.cpython-311-...so.
_PYTHON3_TAG = re.compile(r'\.(?:cpython-3\d+|abi3|cp3\d+)')


def _patterns(path, text):
    """The file patterns a build script names: (path parts, anchored) where
    anchored patterns are relative to the repository and the others match
    the end of a path."""
    folder = os.path.dirname(path)
    out = []
    for name in _NAMED.findall(text):
        name = re.sub(r'^\$\{?\w+\}?/', '', name)  # $ROOT/src/x.cu
        out.append((os.path.normpath(os.path.join(folder, name)).split(os.sep), True))
        out.append((os.path.normpath(name).split(os.sep), False))
    return out


def _matches(path, pattern):
    """Whether path matches the pattern, glob-style: * stays within a folder."""
    parts, anchored = pattern
    names = path.split(os.sep)
    if len(names) < len(parts) or anchored and len(names) != len(parts):
        return False
    return all(fnmatch.fnmatchcase(n, p) for n, p in zip(names[-len(parts):], parts))


def compiled_files(texts):
    """The relative paths among texts ({relative path: text} of every
    source and script read) that the build compiles, or None when no build
    script names a source."""
    patterns = []
    for path, text in texts.items():
        if (path.endswith(('.sh', 'CMakeLists.txt', '.cmake', '.mk'))
                or os.path.basename(path) in ('Makefile', 'makefile', 'GNUmakefile')
                or path.endswith('.py') and _PYTHON_BUILD.search(text)):
            patterns += _patterns(path, text)
    sources = [p for p in texts if p.endswith(SOURCES)]
    compiled = {p for p in sources if any(_matches(p, pattern) for pattern in patterns)}
    if not compiled:
        return None
    return _with_includes(texts, compiled)


def _with_includes(texts, paths):
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


def cuda_files(texts, compiled):
    """The CUDA sources among texts the build compiles: .cu and .cuh files
    (all of them when compiled is None: nothing names sources) and the
    files they include."""
    return _with_includes(texts, [p for p in texts if p.endswith(('.cu', '.cuh'))
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


def python2_binaries(paths):
    """Findings for built Python extension modules without a Python 3 tag
    (`_ext/x/_x.so`): committed output of a Python 2 build, which Python 3
    imports (and fails on) until the build writes its own."""
    from .report import Finding
    out = []
    for path in paths:
        name = os.path.basename(path)
        if name.endswith('.so') and name.startswith('_') and not _PYTHON3_TAG.search(name):
            out.append(Finding(path, 0, 'a Python extension built for Python 2 (no cpython-3 '
                               'tag), committed with the sources: delete it (git rm); the build '
                               'writes %s.cpython-3...so' % name[:-3], False))
    return out
