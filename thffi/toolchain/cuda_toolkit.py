"""Finding CUDA (nvcc, the runtime's and the libraries' headers, the
libraries a build links), deciding whether to build CUDA code, and the nvcc
flags for the GPU architectures to build for.

A toolkit installed on the machine holds every part in one folder (bin/nvcc,
include, lib64).  pip's CUDA wheels (`pip install 'thffi[cuda]'`, the CUDA
libraries a CUDA build of PyTorch brings) lie under site-packages/nvidia/:
from CUDA 13 on in nvidia/cu<major>/ (bin/nvcc, include, lib, nvvm: a
toolkit's layout); for CUDA 11-12 one folder per wheel (nvidia/cusparse/
{include,lib}, ...), whose nvcc wheel holds ptxas alone, so that pip has no
nvcc for them.  The wheels need not lie in one site-packages folder: in a
venv made with --system-site-packages over an interpreter that has
PyTorch's CUDA build, `thffi[cuda]` puts nvcc, crt and nvvm in the venv's
nvidia/cu13 while the runtime and the libraries stay in the base's.  So
each part is looked for where it lies, in every folder the interpreter
imports from or installs into.

NVIDIA's cuda.pathfinder (package cuda-pathfinder, which a CUDA build of
PyTorch 2.x brings through cuda-bindings) does that search (pip's wheels in
every site-packages folder, conda, the toolkit the dynamic loader finds):
where it is installed it is asked first for what a toolkit's own folder
lacks (find_nvidia_binary_utility, find_nvidia_header_directory, and the
file load_nvidia_dynamic_lib would load, asked without loading it into the
build: a CUDA library loaded with RTLD_GLOBAL would bind the symbols of an
extension loaded later).  thffi's own search of the nvidia/ folders is the
fallback; it also finds those pathfinder does not look in (PYTHONPATH,
`pip install --target`).

The wheels ship only a library's versioned file (libcusparse.so.12, no
libcusparse.so): a build links it by its whole name (-l:libcusparse.so.12)."""

import ast
import collections
import functools
import glob
import importlib
import importlib.util
import os
import re
import shutil
import site
import subprocess
import sys

from .libraries import LIBRARIES, install, wheel

# Built when neither TORCH_CUDA_ARCH_LIST nor a visible GPU says otherwise,
# for a CUDA build of PyTorch (or none installed): machine code for one GPU
# of each family CUDA 13 supports (Turing, Ampere, Hopper, Blackwell; it
# runs on the later GPUs of the same major version), and PTX of the newest,
# which the driver compiles for GPUs newer still.  It covers every GPU
# PyTorch 2.13's CUDA 13 build runs on (sm_75, 80, 86, 90, 100, 120).
DEFAULT_ARCH_LIST = '7.5;8.0;9.0;10.0;12.0+PTX'
# For a PyTorch without CUDA (a CPU or ROCm build), which runs no CUDA code:
# the oldest GPU nvcc 13 targets and its PTX, which any later GPU's driver
# compiles when the code is first loaded.  The build is checked as fully
# (nvcc, ptxas, link, import) for a fifth of the time, and the library
# still runs on every GPU should a CUDA PyTorch replace the CPU one.
NO_CUDA_TORCH_ARCH_LIST = '7.5+PTX'
ENV_SWITCH = 'THFFI_WITH_CUDA'
_TRUE = ('1', 'true', 'yes', 'on')
_FALSE = ('0', 'false', 'no', 'off')

# What nvcc from pip needs beside it, each at nvcc's release (nvcc 13.0 with
# nvvm 13.5 fails in ptxas: "Unsupported .version 9.5"): (wheel, a file of it
# under nvidia/cu<major>/).  The runtime's headers may lie elsewhere
# (runtime_include).
_NVCC_WHEELS = [('nvidia-cuda-nvcc', 'bin/nvcc'), ('nvidia-cuda-crt', 'include/crt/host_config.h'),
                ('nvidia-nvvm', 'nvvm/bin/cicc')]
RUNTIME_HEADER = 'cuda_runtime_api.h'
PIP_EXTRA = "pip install 'thffi[cuda]'"

# A toolkit (its home: the folder of bin/nvcc) and where it was found:
# 'CUDA_HOME', 'CUDA_PATH', "pip's wheels", 'conda', 'the nvcc on PATH',
# 'the system toolkit' (/usr/local/cuda) or 'cuda.pathfinder' (the toolkit
# of the CUDA runtime the dynamic loader finds).
Toolkit = collections.namedtuple('Toolkit', 'home origin')
# A shared library of a build: its folder, its file, and the -l argument
# that links it ('cusparse', or ':libcusparse.so.12' for a versioned file).
Library = collections.namedtuple('Library', 'folder file link')


# -- where pip's wheels lie, and NVIDIA's search ------------------------------

@functools.lru_cache(maxsize=None)
def pathfinder():
    """NVIDIA's cuda.pathfinder module where it is installed, else None."""
    try:
        return importlib.import_module('cuda.pathfinder')
    except ImportError:
        return None


def _unique(folders):
    """folders, each once (by its real path), in their order."""
    seen, out = set(), []
    for folder in folders:
        if os.path.realpath(folder) not in seen:
            seen.add(os.path.realpath(folder))
            out.append(folder)
    return out


def site_folders():
    """The folders pip's wheels may lie in for this interpreter: those on
    sys.path, then its site-packages folders (a venv's, and its base
    interpreter's when made with --system-site-packages), each once."""
    # (virtualenv's old site.py had no getsitepackages)
    packages = site.getsitepackages() if hasattr(site, 'getsitepackages') else []
    return _unique([p for p in sys.path if p] + list(packages))


def _nvidia_dirs():
    """The nvidia/ folders of pip's CUDA wheels, in site_folders()' order,
    as PyTorch finds its CUDA libraries there."""
    return _unique([os.path.join(entry, 'nvidia') for entry in site_folders()
                    if os.path.isdir(os.path.join(entry, 'nvidia'))])


def _wheel_majors():
    """{major: [nvidia/cu<major> folders]} of pip's CUDA 13+ wheels."""
    majors = {}
    for folder in _nvidia_dirs():
        for name in sorted(os.listdir(folder)):
            match = re.fullmatch(r'cu(\d+)', name)
            if match and os.path.isdir(os.path.join(folder, name)):
                majors.setdefault(int(match.group(1)), []).append(os.path.join(folder, name))
    return majors


def _wheel_major(path):
    """The CUDA major of pip's wheel folder that `path` lies in: N for
    nvidia/cu<N>/..., 12 for CUDA 11-12's nvidia/<wheel>/... (cusparse,
    cuda_runtime, nvjitlink...: either of them), None for a path outside
    pip's wheels."""
    names = re.findall(r'(?:^|/)nvidia/((?:cu|nv)[^/]*)(?=/|$)', path)
    if not names:
        return None
    match = re.fullmatch(r'cu(\d+)', names[-1])
    return int(match.group(1)) if match else 12


def _serves(path, major):
    """Whether a folder of headers or libraries may serve a build for CUDA
    `major` (None: any): not one of pip's wheels of another major."""
    found = _wheel_major(path)
    return major is None or found is None or (found == major if found >= 13 else major < 13)


def _wheel_dirs(major, kind):
    """pip's wheel folders of one kind ('lib' or 'include') for CUDA
    `major` (None: every major): nvidia/cu<major>/<kind> from CUDA 13 on,
    nvidia/<wheel>/<kind> for CUDA 11-12."""
    found = []
    for folder in _nvidia_dirs():
        for name in sorted(os.listdir(folder)):
            match = re.fullmatch(r'cu(\d+)', name)
            path = os.path.join(folder, name, kind)
            if (major is None or (int(match.group(1)) == major if match else major < 13)) \
                    and os.path.isdir(path):
                found.append(path)
    return found


def _pathfinder_nvcc():
    """The nvcc cuda.pathfinder finds (pip's wheels, conda, the toolkit of
    the runtime the dynamic loader finds), or None."""
    found = pathfinder()
    try:
        return found and found.find_nvidia_binary_utility('nvcc')
    except (OSError, RuntimeError):  # its probe of the loader failed
        return None


def _pathfinder_headers(name, major):
    """The folder of CUDA library `name`'s headers that cuda.pathfinder
    finds, when it serves CUDA `major`; else None."""
    found = pathfinder()
    if found is None or name not in getattr(found, 'SUPPORTED_HEADERS_CTK', ()):
        return None
    try:
        folder = found.find_nvidia_header_directory(name)
    except (OSError, RuntimeError):
        return None
    return folder if folder and _serves(folder, major) else None


# Run by a child process: the file load_nvidia_dynamic_lib loads for a
# name, or nothing where there is none.
_LOADED_IN_CHILD = """
import sys
from cuda.pathfinder import load_nvidia_dynamic_lib
try:
    print(load_nvidia_dynamic_lib(sys.argv[1]).abs_path)
except RuntimeError:
    pass
"""


def _pathfinder_library(name):
    """The file of CUDA library `name` (its -l name) that cuda.pathfinder
    would load, or None; the build loads nothing: its find_nvidia_dynamic_lib
    where the release installed has it, else load_nvidia_dynamic_lib in a
    child process."""
    found = pathfinder()
    if found is None or name not in getattr(found, 'SUPPORTED_NVIDIA_LIBNAMES', ()):
        return None
    if hasattr(found, 'find_nvidia_dynamic_lib'):
        try:
            return found.find_nvidia_dynamic_lib(name)
        except (OSError, RuntimeError):
            return None
    return _loaded_in_child(name)


@functools.lru_cache(maxsize=None)
def _loaded_in_child(name):
    """The file load_nvidia_dynamic_lib(name) loads in a child process
    (this one's interpreter and environment), or None."""
    try:
        out = subprocess.run([sys.executable, '-c', _LOADED_IN_CHILD, name],
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


# -- the toolkit: nvcc, and the runtime's headers it compiles against --------

def runtime_include(home):
    """The folder of the CUDA runtime's headers (cuda_runtime_api.h) that
    nvcc at home compiles against, or None: the toolkit's own (include/, or
    targets/<triple>/include as conda's has it); for pip's nvcc, whose
    runtime may lie in another site-packages folder, the one of its CUDA
    major that cuda.pathfinder finds, else one of pip's wheels."""
    own = [os.path.join(home, 'include')] + sorted(
        glob.glob(os.path.join(glob.escape(home), 'targets', '*', 'include')))
    found = next((d for d in own if os.path.isfile(os.path.join(d, RUNTIME_HEADER))), None)
    major = _wheel_major(home)
    if found or major is None:
        return found
    return _pathfinder_headers('cudart', major) or next(
        (d for d in _wheel_dirs(major, 'include')
         if os.path.isfile(os.path.join(d, RUNTIME_HEADER))), None)


def _is_toolkit(home):
    return os.path.isfile(os.path.join(home, 'bin', 'nvcc')) and runtime_include(home) is not None


def torch_cuda_version():
    """The CUDA version of the installed PyTorch ('13.0'), or None for a CPU
    build, read from torch/version.py without importing torch (building
    does not import it)."""
    torch = sys.modules.get('torch')
    if torch is not None and hasattr(torch, 'version'):
        return getattr(torch.version, 'cuda', None)
    spec = importlib.util.find_spec('torch')
    for folder in (spec.submodule_search_locations or []) if spec else []:
        try:
            with open(os.path.join(folder, 'version.py')) as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError):
            continue
        for node in tree.body:
            target = node.targets[0] if isinstance(node, ast.Assign) else getattr(
                node, 'target', None)
            if (isinstance(target, ast.Name) and target.id == 'cuda'
                    and isinstance(node.value, ast.Constant)):
                return node.value.value
    return None


def _torch_major():
    version = torch_cuda_version()
    return int(version.split('.')[0]) if version else None


def wheel_problems(root):
    """What keeps pip's wheels in root (nvidia/cu<major>) from being a
    toolkit: the wheels nvcc needs that are missing (the runtime's headers
    may lie in another site-packages folder), or that are not at nvcc's
    release; [] when none (or when root holds no nvcc)."""
    if not os.path.isfile(os.path.join(root, 'bin', 'nvcc')):
        return []
    missing = [wheel for wheel, path in _NVCC_WHEELS
               if not os.path.isfile(os.path.join(root, path))]
    missing += ['nvidia-cuda-runtime'] if runtime_include(root) is None else []
    if missing:
        return ['%s (%s missing)' % (', '.join(missing), 'it is' if len(missing) == 1
                                     else 'they are')]
    # Each wheel's version, from its .dist-info folder's name (as pip
    # writes it: nvidia_cuda_nvcc-13.0.88.dist-info).
    site_packages = os.path.dirname(os.path.dirname(root))
    versions = {}
    for wheel_name, _ in _NVCC_WHEELS:
        for info in glob.glob(os.path.join(glob.escape(site_packages), '%s-*.dist-info'
                                           % wheel_name.replace('-', '_'))):
            versions[wheel_name] = os.path.basename(info)[len(wheel_name) + 1:-len('.dist-info')]
    releases = {'.'.join(v.split('.')[:2]) for v in versions.values()}
    if len(releases) > 1:
        return ['%s at different releases (nvcc needs them at one)' % ', '.join(
            '%s %s' % item for item in sorted(versions.items()))]
    return []


def _usable(home):
    return _is_toolkit(home) and not wheel_problems(home)


def _wheel_toolkit():
    """pip's nvidia/cu<major> folder that is a toolkit (its runtime beside
    it or in another site-packages folder): the one of PyTorch's CUDA major
    if it has one, else the newest; None if there is none."""
    majors = _wheel_majors()
    order = sorted(majors, reverse=True)
    if _torch_major() in majors:
        order.insert(0, _torch_major())
    return next((root for major in order for root in majors[major] if _usable(root)), None)


def _pathfinder_toolkit():
    """(home, origin) of the nvcc cuda.pathfinder finds, when it is a
    toolkit (with its runtime's headers, crt and nvvm at its release), or
    None.  origin: "pip's wheels", 'conda', or 'cuda.pathfinder' for a
    toolkit elsewhere (the one whose runtime the dynamic loader finds)."""
    nvcc = _pathfinder_nvcc()
    home = nvcc and os.path.dirname(os.path.dirname(nvcc))
    if not home or not _usable(home):
        return None
    conda = os.environ.get('CONDA_PREFIX')
    if _wheel_major(home) is not None:
        return home, "pip's wheels"
    if conda and os.path.realpath(home) == os.path.realpath(conda):
        return home, 'conda'
    return home, 'cuda.pathfinder'


def find_toolkit():
    """The CUDA toolkit builds use, a Toolkit (home, origin), or None.

    CUDA_HOME, or else CUDA_PATH, decides when set (None when it is not a
    toolkit: bin/nvcc and the runtime's headers).  Otherwise the nvcc that
    cuda.pathfinder finds in pip's wheels or conda (where it is installed),
    then pip's wheels thffi finds itself (`pip install 'thffi[cuda]'`:
    nvidia/cu<major> with nvcc, crt and nvvm at one release, the runtime
    there or in another site-packages folder; PyTorch's CUDA major first),
    then the toolkit of the nvcc on PATH, then /usr/local/cuda, then the
    toolkit cuda.pathfinder finds through the dynamic loader.  The wheels
    come before the machine's toolkits: they were installed into this
    environment, the one PyTorch runs in."""
    for var in ('CUDA_HOME', 'CUDA_PATH'):
        home = os.environ.get(var)
        if home:
            return Toolkit(home, var) if _is_toolkit(home) else None
    # pathfinder's pip wheels or conda, but for pip's nvcc of another CUDA
    # major than PyTorch's (thffi's own search tries PyTorch's major first)
    found, torch_major = _pathfinder_toolkit(), _torch_major()
    if found and found[1] != 'cuda.pathfinder' and (
            torch_major is None or _wheel_major(found[0]) in (None, torch_major)):
        return Toolkit(*found)
    wheels = _wheel_toolkit()
    if wheels:
        return Toolkit(wheels, "pip's wheels")
    nvcc = shutil.which('nvcc')
    if nvcc:
        home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
        if _is_toolkit(home):
            return Toolkit(home, 'the nvcc on PATH')
    if _is_toolkit('/usr/local/cuda'):
        return Toolkit('/usr/local/cuda', 'the system toolkit')
    return Toolkit(*found) if found else None


def find_cuda_home():
    """The CUDA toolkit's root folder (the folder of bin/nvcc), or None:
    find_toolkit()'s home."""
    toolkit = find_toolkit()
    return toolkit and toolkit.home


def toolkit_version(home):
    """(major, minor) of the toolkit at home, from its runtime's headers
    (CUDART_VERSION, runtime_include()), or None."""
    folder = runtime_include(home)
    try:
        with open(os.path.join(folder, RUNTIME_HEADER)) as f:
            match = re.search(r'#define\s+CUDART_VERSION\s+(\d+)', f.read())
    except (OSError, TypeError):  # TypeError: no folder
        return None
    return match and divmod(int(match.group(1)) // 10, 100)


def _major(home):
    """The CUDA major a build with the toolkit at home is for: the
    toolkit's; PyTorch's without a toolkit; None (any) without either."""
    version = toolkit_version(home) if home else None
    return version[0] if version else _torch_major()


def describe(toolkit):
    """'CUDA 13.0 in /usr/local/cuda (CUDA_HOME)', for messages."""
    version = toolkit_version(toolkit.home)
    return 'CUDA %s in %s (%s)' % ('%d.%d' % version if version else '(version unknown)',
                                   toolkit.home, toolkit.origin)


def torch_mismatch(home):
    """A sentence when the toolkit at home and the installed PyTorch's CUDA
    differ in major version, else None."""
    version, torch_cuda = toolkit_version(home), torch_cuda_version()
    if not version or not torch_cuda or str(version[0]) == torch_cuda.split('.')[0]:
        return None
    major = int(torch_cuda.split('.')[0])
    return ('PyTorch was built with CUDA %s: the extension would load CUDA %d\'s runtime beside '
            'PyTorch\'s CUDA %d one (two runtimes, each with its own current device and '
            'errors). Build with a CUDA %d toolkit: %s' % (
                torch_cuda, version[0], major, major,
                PIP_EXTRA if major >= 13 else 'set CUDA_HOME to one (pip has no nvcc for '
                'CUDA %d: nvidia-cuda-nvcc-cu%d holds ptxas alone)' % (major, major)))


def library_dir(home):
    """The toolkit's folder of shared libraries (libcudart.so...)."""
    return next((d for d in (os.path.join(home, 'lib64'), os.path.join(home, 'lib'))
                 if os.path.isdir(d)), os.path.join(home, 'lib64'))


def library_dirs(home):
    """Where a build's CUDA libraries are looked for by thffi itself, in
    order: the toolkit's own folder, then pip's wheels of its CUDA major.
    The extension's rpath names them all, so that the libraries it links
    and those thffi loads at run time (cuBLAS, cuSPARSE) are found without
    LD_LIBRARY_PATH, where PyTorch has not loaded them already."""
    return _unique(([library_dir(home)] if home else []) + _wheel_dirs(_major(home), 'lib'))


def toolkit_include_dirs(home):
    """The include folders of the toolkit at home: its own (nvcc's crt
    headers lie there), then its runtime's where that lies apart (pip's
    runtime wheel in another site-packages folder)."""
    return _unique([os.path.join(home, 'include')]
                   + [d for d in [runtime_include(home)] if d]) if home else []


def header_dirs(home):
    """The include folders of CUDA's headers: the toolkit's
    (toolkit_include_dirs), then, for each CUDA library whose headers it
    lacks (cusparse.h, curand.h...), the folder cuda.pathfinder finds, then
    those of pip's wheels of its CUDA major that hold headers it lacks.  A
    complete toolkit's builds so do not depend on which wheels the
    installed PyTorch brought: a build stays up to date across PyTorch
    releases."""
    own = toolkit_include_dirs(home)
    has = set().union(*(os.listdir(d) for d in own if os.path.isdir(d)))
    major = _major(home)
    found = [_pathfinder_headers(name, major) for name, library in LIBRARIES.items()
             if library.headers[0] not in has]
    return _unique(own + [d for d in found if d]
                   + [d for d in _wheel_dirs(major, 'include') if set(os.listdir(d)) - has])


def _soname_order(path):
    """Sort key: lib<name>.so.<N> (the soname) before longer versions."""
    return (path.count('.'), path)


def _library_in(folder, name):
    """The Library lib<name>.so in `folder`, or None.  A folder holding only
    versioned files (pip's wheels: libcusparse.so.12) gives its soname's
    file, linked by its whole name (-l:libcusparse.so.12)."""
    plain = os.path.join(folder, 'lib%s.so' % name)
    if os.path.isfile(plain):
        return Library(folder, plain, name)
    versioned = sorted((p for p in glob.glob(glob.escape(plain) + '.*')
                        if re.fullmatch(r'\.[\d.]+', p[len(plain):])), key=_soname_order)
    return versioned and Library(folder, versioned[0], ':' + os.path.basename(versioned[0])) or None


def find_library(name, home):
    """The Library lib<name>.so for a build with the toolkit at home, or
    None: in the toolkit's own folder; else the one cuda.pathfinder finds,
    when it serves the toolkit's CUDA major (a runtime by its soname's
    major); else in pip's wheels of that major (library_dirs)."""
    major = _major(home)
    found = home and _library_in(library_dir(home), name)
    if found:
        return found
    path = _pathfinder_library(name)
    soname = path and re.match(r'lib%s\.so\.(\d+)' % re.escape(name), os.path.basename(path))
    if path and _serves(path, major) and not (
            name == 'cudart' and soname and major and int(soname.group(1)) != major):
        found = _library_in(os.path.dirname(path), name)
        if found:
            return found
    return next(filter(None, (_library_in(folder, name) for folder in library_dirs(home))), None)


def link_flags(libraries):
    """The linker flags for cuda.Library objects: -L, -l and the rpath of
    each folder, in the form gcc, g++, nvcc and CMake's
    target_link_libraries all take (-Xlinker -rpath=DIR: nvcc refuses
    -Wl,...), for make.sh, Makefiles and CMake: `python -m thffi
    --cuda-libs`."""
    folders = _unique([lib.folder for lib in libraries])
    return (['-L' + f for f in folders] + ['-l' + lib.link for lib in libraries]
            + [flag for f in folders for flag in ('-Xlinker', '-rpath=' + f)])


def wheel_for(name, home):
    """The pip wheel that brings CUDA library `name` for the toolkit at home
    (its CUDA major; PyTorch's without a toolkit)."""
    return wheel(name, _major(home))


def missing_library_message(name, home):
    """Where lib<name>.so was looked for, and what to install: 'neither
    the CUDA toolkit in ... nor pip's CUDA wheels ... hold libcurand.so
    (cuRAND): pip install nvidia-curand'."""
    what = LIBRARIES[name].what if name in LIBRARIES else 'lib%s' % name
    where = ('the CUDA toolkit in %s (%s)' % (home, library_dir(home)) if home
             else 'a CUDA toolkit (none found)')
    return ("neither %s nor pip's CUDA wheels (site-packages/nvidia) hold lib%s.so (%s): "
            "%s" % (where, name, what, install(name, _major(home))))


def cuda_enabled():
    """Whether build scripts should build their CUDA code: the environment
    variable THFFI_WITH_CUDA (1/0, true/false, yes/no, on/off) when set,
    otherwise whether a CUDA toolkit is found.  A GPU is not needed to build."""
    value = os.environ.get(ENV_SWITCH, '').strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if value:
        raise ValueError('%s=%r: expected 1 or 0 (or true/false, yes/no, on/off)'
                         % (ENV_SWITCH, os.environ[ENV_SWITCH]))
    return find_cuda_home() is not None


def missing_toolkit_message(what, instead='build without CUDA: %s=0' % ENV_SWITCH):
    problems = ['pip\'s wheels in %s lack %s' % (root, problem)
                for roots in _wheel_majors().values() for root in roots
                for problem in wheel_problems(root)]
    return ('%s: no CUDA toolkit found (looked in CUDA_HOME, CUDA_PATH, pip\'s wheels '
            '(site-packages/nvidia/cu<major>, in every site-packages folder%s), beside the nvcc '
            'on PATH and in /usr/local/cuda for bin/nvcc and the runtime\'s headers (%s)%s; %s '
            'brings CUDA 13\'s). Install the CUDA toolkit or set CUDA_HOME, or %s' % (
                what, '; and where cuda.pathfinder looks' if pathfinder() else '',
                RUNTIME_HEADER, ''.join('; ' + p for p in problems), PIP_EXTRA, instead))


def _visible_gpu_archs():
    """Compute capabilities of the GPUs nvidia-smi sees, e.g. ['9.0']."""
    if shutil.which('nvidia-smi') is None:
        return []
    try:
        out = subprocess.run(['nvidia-smi', '--query-gpu=compute_cap', '--format=csv,noheader'],
                             capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return []
    if out.returncode != 0:
        return []
    return sorted({line.strip() for line in out.stdout.splitlines()
                   if re.fullmatch(r'\d+\.\d+', line.strip())})


def arch_list():
    """(list, where it came from): TORCH_CUDA_ARCH_LIST when set, else the
    visible GPUs' architectures, else NO_CUDA_TORCH_ARCH_LIST when the
    installed PyTorch has no CUDA, else DEFAULT_ARCH_LIST."""
    env = os.environ.get('TORCH_CUDA_ARCH_LIST', '').strip()
    if env:
        return env, 'TORCH_CUDA_ARCH_LIST'
    visible = _visible_gpu_archs()
    if visible:
        return ';'.join(visible), 'the visible GPUs'
    if importlib.util.find_spec('torch') is not None and torch_cuda_version() is None:
        return NO_CUDA_TORCH_ARCH_LIST, 'the default for a PyTorch without CUDA'
    return DEFAULT_ARCH_LIST, 'the default list'


def arch_flags(spec):
    """nvcc -gencode flags for an architecture list such as '8.0;9.0a+PTX'
    (entries separated by ';', ',' or spaces; '+PTX' adds PTX of that one)."""
    flags = []
    for entry in filter(None, re.split(r'[;,\s]+', spec)):
        m = re.fullmatch(r'(\d+)\.(\d+)([af]?)(\+PTX)?', entry, flags=re.I)
        if not m:
            raise ValueError('CUDA architecture %r: expected a compute capability such as '
                             '8.6, 9.0a or 12.0+PTX' % entry)
        num = m.group(1) + m.group(2) + m.group(3).lower()
        flags.append('-gencode=arch=compute_%s,code=sm_%s' % (num, num))
        if m.group(4):
            flags.append('-gencode=arch=compute_%s,code=compute_%s' % (num, num))
    if not flags:
        raise ValueError('CUDA architecture list %r is empty' % spec)
    return flags


def nvcc_arch_flags():
    """The nvcc -gencode flags of the architectures thffi builds for
    (arch_list()), as a list: what `python -m thffi --arch-flags` prints,
    for build scripts that run nvcc themselves (`port` writes calls to it
    in place of 2018's -arch=sm_30).  A bad TORCH_CUDA_ARCH_LIST raises
    ValueError naming it."""
    spec, source = arch_list()
    try:
        return arch_flags(spec)
    except ValueError as exc:
        raise ValueError('%s (from %s)' % (exc, source)) from None
