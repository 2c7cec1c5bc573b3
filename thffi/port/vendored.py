"""Library copies a repository carries, for `python -m thffi port`
(toolchain/vendored.py knows the libraries: CUB, thrust, moderngpu).

A file in such a copy is vendored: port changes nothing in it (no warp
intrinsic or PTX rewrite, warp.py) and lists no finding of it one by one.
Where the toolkit ships the library (CUB and thrust, since CUDA 11) the
code's includes that name the copy by its path (`"cub-1.3.2/cub/cub.cuh"`,
`"../cub/cub/block/block_reduce.cuh"`) become the toolkit's
(`<cub/cub.cuh>`), so that the copy is no longer compiled, when the code
can use the toolkit's as it stands: every header it includes is in the
toolkit, and every `cub::Name` it uses is there (nvcc is asked:
toolchain/vendored.py's missing_names).  Otherwise nothing is rewritten
and each clash is reported with its line.  A build script that puts the copy's folder on the include path
(-I, include_dirs) is reported: `<cub/...>` would find the copy there
before the toolkit's."""

import os
import re

from ..toolchain import vendored as libraries
from ..toolchain.cc import blank_comments_and_strings
from .report import Finding

_INCLUDE = re.compile(r'^([ \t]*#[ \t]*include[ \t]*)(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)
_BUILD_SCRIPT = re.compile(r'(?:^|/)(?:[^/]+\.(?:py|sh|cmake|mk)|CMakeLists\.txt|'
                           r'[Mm]akefile|GNUmakefile)$')


def find(texts):
    """[Copy] of the libraries whose copies lie among texts' paths, with
    the version their own version file says, where it says one."""
    found = []
    for copy in libraries.copies(texts):
        library, version = copy.library, copy.version
        if library.version:
            text = texts.get(os.path.normpath(os.path.join(copy.include_root,
                                                           library.version[0])))
            version = (text and libraries.version_from_text(library, text)) or version
        found.append(copy._replace(version=version))
    return found


def files_in(texts, found):
    """The paths of texts inside the copies of found."""
    return {path for path in texts if libraries.vendored(path, found)}


def _name(copy):
    return '%s%s' % (copy.library.name, ' ' + copy.version if copy.version else '')


def _target(path, include, quoted, found, inside):
    """(Copy, header path under the copy's include root) of the file an
    include names by a path into a copy; None for one in the library's own
    form (<cub/x.cuh>, served by whatever the include path finds first)
    or elsewhere."""
    here = os.path.normpath(os.path.join(os.path.dirname(path), include))
    if quoted and here in inside:
        candidates = [here]
    elif include.split('/')[0] in {c.library.folder for c in found}:
        return None
    else:
        candidates = [p for p in sorted(inside) if ('/' + p).endswith('/' + include.lstrip('./'))
                      or p == os.path.normpath(include)]
    for candidate in candidates:
        copy = libraries.vendored(candidate, found)
        sub = os.path.relpath(candidate, copy.include_root or '.').replace(os.sep, '/')
        if sub.startswith(copy.library.folder + '/') and sub != os.path.normpath(include):
            return copy, sub
    return None


def rewrite_includes(texts, compiled, found, cuda_home=None):
    """({path: new text}, [Finding]) for the code's includes of the copies
    in `found` (find()); compiled: the files the build compiles (None:
    all).  Vendored files themselves are not read."""
    inside = files_in(texts, found)
    code_files = [p for p in sorted(texts) if p.endswith(('.c', '.h', '.cu', '.cuh', '.cpp',
                                                          '.cc', '.cxx', '.hpp'))
                  and p not in inside and (compiled is None or p in compiled)]
    plans = {}  # copy root: [(path, match, new line)]
    clashes = {}  # copy root: [Finding]
    for path in code_files:
        text = texts[path]
        code = blank_comments_and_strings(text)
        for match in _INCLUDE.finditer(text):
            if code[match.start(1):match.end(1)].strip() != match.group(1).strip():
                continue  # in a comment
            include = match.group(2) or match.group(3)
            target = _target(path, include, bool(match.group(2)), found, inside)
            if target is None:
                continue
            copy, sub = target
            if not copy.library.toolkit:
                continue
            folder = libraries.toolkit_folder(copy.library, cuda_home)
            line = text.count('\n', 0, match.start()) + 1
            if folder is None:
                clashes.setdefault(copy.root, []).append(Finding(
                    path, line, 'includes %s of the %s copy: there is no CUDA toolkit here to '
                    'serve <%s> instead' % (include, _name(copy), sub), False))
            elif not os.path.isfile(os.path.join(folder, sub)):
                clashes.setdefault(copy.root, []).append(Finding(
                    path, line, 'includes %s of the %s copy, and the toolkit\'s %s has no %s'
                    % (include, _name(copy), copy.library.name, sub), False))
            else:
                plans.setdefault(copy.root, []).append(
                    (path, match, '%s<%s>' % (match.group(1), sub)))
    by_root = {copy.root: copy for copy in found}
    for root, planned in plans.items():
        copy = by_root[root]
        uses = {}  # name: [(path, line)]
        for path in sorted({path for path, _, _ in planned}):
            code = blank_comments_and_strings(texts[path])
            for use in re.finditer(r'\b%s::(\w+)' % re.escape(copy.library.folder), code):
                uses.setdefault(use.group(1), []).append(
                    (path, code.count('\n', 0, use.start()) + 1))
        missing, error = libraries.missing_names(
            copy.library, sorted({line.split('<')[1].rstrip('>') for _, _, line in planned}),
            uses, cuda_home)
        if error:
            clashes.setdefault(root, []).append(Finding(
                planned[0][0], 0, 'the toolkit\'s %s headers it would include do not compile '
                'here (%s)' % (copy.library.name, error), False))
        for name in sorted(missing or ()):
            clashes.setdefault(root, []).extend(Finding(
                path, line, '%s::%s, from the %s copy, is not in the toolkit\'s %s'
                % (copy.library.folder, name, _name(copy), copy.library.name), False)
                for path, line in uses[name])
    new_texts, findings = {}, []
    for copy in found:
        planned = [] if copy.root in clashes else plans.get(copy.root, [])
        for path, match, line in sorted(planned, key=lambda p: (p[0], -p[1].start())):
            text = new_texts.get(path, texts[path])
            new_texts[path] = text[:match.start()] + line + text[match.end():]
            findings.append(Finding(path, texts[path].count('\n', 0, match.start()) + 1,
                                    '#include %s: now %s, the toolkit\'s (CUDA ships %s; the '
                                    '%s copy is no longer compiled)'
                                    % (match.group(0).split('include', 1)[1].strip(),
                                       line.split('include', 1)[1].strip(), copy.library.name,
                                       _name(copy)), True))
        findings += _include_path_findings(texts, copy)
        findings += clashes.get(copy.root, [])
        findings.append(Finding(copy.root, 0, _summary(copy, copy.root in clashes,
                                                       bool(planned)), False))
    return new_texts, findings


def _summary(copy, clash, rewritten):
    what = 'a copy of %s, left as it is (port changes no file in it)' % _name(copy)
    if not copy.library.toolkit:
        return '%s: %s' % (what, copy.library.why)
    if clash:
        return ('%s: the code cannot use the toolkit\'s %s as it stands (the clashes are '
                'listed); %s' % (what, copy.library.name, copy.library.why))
    if rewritten:
        return '%s: the code includes the toolkit\'s %s instead' % (what, copy.library.name)
    return '%s: %s' % (what, copy.library.why)


def _include_path_findings(texts, copy):
    """Findings for build scripts naming the copy's include root as a
    folder (-I, include_dirs): `<cub/...>` would find the copy first."""
    out = []
    if not copy.library.toolkit:
        return out
    for path in sorted(p for p in texts if _BUILD_SCRIPT.search(p.replace(os.sep, '/'))):
        rel = os.path.relpath(copy.include_root or '.', os.path.dirname(path) or '.')
        if rel == '.':
            continue
        pattern = re.compile(r'(?<![\w.-])(?:\./)?%s/?(?![\w.-])' % re.escape(rel))
        for match in pattern.finditer(texts[path]):
            out.append(Finding(path, texts[path].count('\n', 0, match.start()) + 1,
                               'names %s, the %s copy, as an include folder: there <%s/...> '
                               'finds the copy before the toolkit\'s; remove it'
                               % (rel, _name(copy), copy.library.folder), False))
    return out
