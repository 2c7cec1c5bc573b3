"""CUDA libraries that 2018 repositories carried copies of, then and now.

A repository of 2018 often held its own copy of CUB (cub-1.3.2/cub/...),
thrust or moderngpu.  CUDA 11 and later ship CUB and thrust (CCCL) with
nvcc; a CUB 1.x copy defines CUB_NS_PREFIX and CUB_NS_POSTFIX empty, and
as soon as a translation unit also includes thrust, today's CUB stops it:
`#error CUB requires a definition of CUB_NS_QUALIFIER when
CUB_NS_PREFIX/POSTFIX are defined`; its PTX uses `shfl` without `.sync`,
which ptxas refuses for sm_70 and later.  LIBRARIES says how to recognise a
copy and whether the toolkit serves its headers (`port` then includes the
toolkit's instead, port/vendored.py)."""

import collections
import os
import re
import subprocess
import tempfile

from . import cuda_toolkit as cuda

# name: the library; folder: its headers' folder, as code includes them
# (<cub/cub.cuh>); marker: a file, relative to the folder holding `folder`,
# found in every copy; version: (file relative to the same folder, regular
# expression of a number MMMmmmpp); toolkit: whether CUDA ships it (in
# include/cccl/<folder> or include/<folder>); why: what a copy does today.
Library = collections.namedtuple('Library', 'name folder marker version toolkit why')
LIBRARIES = [
    Library('CUB', 'cub', 'cub/cub.cuh', ('cub/version.cuh', r'#define\s+CUB_VERSION\s+(\d+)'),
            True, "CUDA 11+ ships CUB; a 1.x copy's empty CUB_NS_PREFIX/POSTFIX stop today's "
            "(#error CUB requires a definition of CUB_NS_QUALIFIER) wherever thrust is "
            "included too, and its PTX shfl without .sync does not assemble for sm_70+"),
    Library('thrust', 'thrust', 'thrust/version.h',
            ('thrust/version.h', r'#define\s+THRUST_VERSION\s+(\d+)'), True,
            "CUDA ships thrust; an older copy on the include path hides the toolkit's, "
            "which its CUB and libcu++ are built for"),
    Library('moderngpu', 'moderngpu', 'moderngpu.cuh', None, False,
            'not shipped with CUDA: the copy is the code to build, as the repository has it'),
]

Copy = collections.namedtuple('Copy', 'library root include_root version')


def copies(paths):
    """[Copy] of the known libraries among `paths` (relative, '/'-separated
    or os.sep): root, the folder the whole copy lies in (`src/cub-1.3.2`,
    or the library's own folder when nothing above it is named after it);
    include_root, the folder that holds the library's header folder (what
    -I names); version, 'M.m.p' or None."""
    found = {}
    for path in sorted(paths):
        path = path.replace(os.sep, '/')
        for library in LIBRARIES:
            marker = '/' + library.marker
            if not ('/' + path).endswith(marker):
                continue
            include_root = ('/' + path)[:-len(marker)].lstrip('/')
            parts = include_root.split('/') if include_root else []
            named = [i for i, p in enumerate(parts) if p.lower().startswith(library.folder)]
            root = ('/'.join(parts[:named[0] + 1]) if named
                    else '/'.join(parts + [library.folder]) if library.marker.startswith(
                        library.folder + '/') else include_root)
            found.setdefault(root, Copy(library, root, include_root,
                                        _version_from_name(root, library)))
    return list(found.values())


def _version_from_name(root, library):
    match = re.search(r'%s[-_]?v?(\d+(?:\.\d+)+)' % library.folder, os.path.basename(root),
                      re.I)
    return match.group(1) if match else None


def version_from_text(library, text):
    """'M.m.p' from the text of library.version's file, or None."""
    match = library.version and re.search(library.version[1], text)
    if not match:
        return None
    number = int(match.group(1))
    return '%d.%d.%d' % (number // 100000, number // 100 % 1000, number % 100)


def vendored(path, found):
    """The Copy of `found` (copies()) that `path` lies in, or None."""
    path = path.replace(os.sep, '/')
    for copy in found:
        if copy.root and (path == copy.root or path.startswith(copy.root + '/')):
            return copy
    return None


def toolkit_folder(library, cuda_home=None):
    """The installed toolkit's folder holding the library's header folder
    (include/cccl or include), or None (no toolkit, or it lacks the
    library)."""
    home = cuda_home or cuda.find_cuda_home()
    if not home or not library.toolkit:
        return None
    for folder in (os.path.join(home, 'include', 'cccl'), os.path.join(home, 'include')):
        if os.path.isdir(os.path.join(folder, library.folder)):
            return folder
    return None


# A toolkit's headers do not change while a process runs (port's dry run and
# its write, its idempotence check): each question goes to nvcc once (5-7 s).
_asked = {}


def missing_names(library, headers, names, cuda_home=None):
    """The names among `names` (used by the code as `cub::Name`) that the
    toolkit's library lacks, asked of nvcc itself: a file including
    `headers` (<cub/cub.cuh>...) with a using-declaration of each name
    (types, functions, templates and constants alike) is compiled, and
    nvcc names each member it does not find.  (set, None), or (None, the
    first error line) when the headers alone do not compile or there is
    no nvcc."""
    home = cuda_home or cuda.find_cuda_home()
    if home is None:
        return None, 'no CUDA toolkit'
    key = (library.folder, tuple(headers), frozenset(names), home)
    if key not in _asked:
        _asked[key] = _ask_nvcc(library, headers, names, home)
    return _asked[key]


def _ask_nvcc(library, headers, names, home):
    with tempfile.TemporaryDirectory(prefix='thffi-port-') as folder:
        probe = os.path.join(folder, 'probe.cu')
        with open(probe, 'w') as f:
            f.write(''.join('#include <%s>\n' % h for h in headers)
                    + ''.join('using %s::%s;\n' % (library.folder, n) for n in sorted(names)))
        try:
            out = subprocess.run([os.path.join(home, 'bin', 'nvcc'), '-c', '-std=c++17', probe,
                                  '-o', os.path.join(folder, 'probe.o')], capture_output=True,
                                 text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as exc:
            return None, str(exc)
    missing = set(re.findall(r'namespace "%s" has no member "(\w+)"' % library.folder,
                             out.stdout + out.stderr))
    if out.returncode != 0 and not missing:
        errors = [line for line in (out.stdout + out.stderr).splitlines() if 'error' in line]
        return None, errors[0].replace(probe, 'a file including them') if errors else \
            'nvcc failed'
    return frozenset(missing), None
