"""Finding the CUDA toolkit (a system one or pip's wheels) and the CUDA
libraries a build links, deciding whether to build CUDA code, and the nvcc
flags for the GPU architectures to build for.

pip's CUDA wheels (`pip install 'thffi[cuda]'`, the CUDA libraries a CUDA
build of PyTorch brings) lie under site-packages/nvidia/: from CUDA 13 on all
of them in nvidia/cu<major>/ (bin/nvcc, include, lib, nvvm: a toolkit's
layout); for CUDA 11-12 one folder per wheel (nvidia/cusparse/{include,lib},
...), whose nvcc wheel holds ptxas alone, so that pip has no nvcc for them.
The wheels ship only a library's versioned file (libcusparse.so.12, no
libcusparse.so): a build links it by its whole name (-l:libcusparse.so.12)."""

import ast
import collections
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys

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

# The CUDA libraries 2018 builds linked, by their -l name: what each is and
# the pip wheel that brings it for CUDA 13 (for CUDA 11-12 the same name
# ending in -cu11/-cu12).
LIBRARIES = {
    'cudart': ('the CUDA runtime', 'nvidia-cuda-runtime'),
    'cublas': ('cuBLAS', 'nvidia-cublas'),
    'cublasLt': ('cuBLASLt', 'nvidia-cublas'),
    'curand': ('cuRAND', 'nvidia-curand'),
    'cusparse': ('cuSPARSE', 'nvidia-cusparse'),
    'cufft': ('cuFFT', 'nvidia-cufft'),
    'cusolver': ('cuSOLVER', 'nvidia-cusolver'),
    'nvrtc': ('NVRTC', 'nvidia-cuda-nvrtc'),
}
# What nvcc from pip needs beside it, each at nvcc's release (nvcc 13.0 with
# nvvm 13.5 fails in ptxas: "Unsupported .version 9.5"): (wheel, a file of it
# under nvidia/cu<major>/).
_NVCC_WHEELS = [('nvidia-cuda-nvcc', 'bin/nvcc'), ('nvidia-cuda-crt', 'include/crt/host_config.h'),
                ('nvidia-nvvm', 'nvvm/bin/cicc'),
                ('nvidia-cuda-runtime', 'include/cuda_runtime_api.h')]
PIP_EXTRA = "pip install 'thffi[cuda]'"

# A toolkit and where it was found: 'CUDA_HOME', 'CUDA_PATH', "pip's
# wheels", 'the nvcc on PATH' or 'the system toolkit' (/usr/local/cuda).
Toolkit = collections.namedtuple('Toolkit', 'home origin')
# A shared library of a build: its folder, its file, and the -l argument
# that links it ('cusparse', or ':libcusparse.so.12' for a versioned file).
Library = collections.namedtuple('Library', 'folder file link')


def _is_toolkit(home):
    return (os.path.isfile(os.path.join(home, 'bin', 'nvcc'))
            and os.path.isfile(os.path.join(home, 'include', 'cuda_runtime_api.h')))


def _nvidia_dirs():
    """The nvidia/ folders of pip's CUDA wheels on sys.path, in its order
    (each once), as PyTorch finds its CUDA libraries there."""
    found = []
    for entry in sys.path:
        folder = os.path.join(entry, 'nvidia') if entry else None
        if folder and os.path.isdir(folder) and os.path.realpath(folder) not in map(
                os.path.realpath, found):
            found.append(folder)
    return found


def _wheel_majors():
    """{major: [nvidia/cu<major> folders]} of pip's CUDA 13+ wheels."""
    majors = {}
    for folder in _nvidia_dirs():
        for name in sorted(os.listdir(folder)):
            match = re.fullmatch(r'cu(\d+)', name)
            if match and os.path.isdir(os.path.join(folder, name)):
                majors.setdefault(int(match.group(1)), []).append(os.path.join(folder, name))
    return majors


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


def wheel_problems(root):
    """What keeps pip's wheels in root (nvidia/cu<major>) from being a
    toolkit: the wheels nvcc needs that are missing, or that are not at
    nvcc's release; [] when none (or when root holds no nvcc)."""
    if not os.path.isfile(os.path.join(root, 'bin', 'nvcc')):
        return []
    missing = [wheel for wheel, path in _NVCC_WHEELS
               if not os.path.isfile(os.path.join(root, path))]
    if missing:
        return ['%s (%s missing)' % (', '.join(missing), 'it is' if len(missing) == 1
                                     else 'they are')]
    # Each wheel's version, from its .dist-info folder's name (as pip
    # writes it: nvidia_cuda_nvcc-13.0.88.dist-info).
    site = os.path.dirname(os.path.dirname(root))
    versions = {}
    for wheel, _ in _NVCC_WHEELS[:3]:
        for info in glob.glob(os.path.join(glob.escape(site), '%s-*.dist-info'
                                           % wheel.replace('-', '_'))):
            versions[wheel] = os.path.basename(info)[len(wheel) + 1:-len('.dist-info')]
    releases = {'.'.join(v.split('.')[:2]) for v in versions.values()}
    if len(releases) > 1:
        return ['%s at different releases (nvcc needs them at one)' % ', '.join(
            '%s %s' % item for item in sorted(versions.items()))]
    return []


def _wheel_toolkit():
    """pip's nvidia/cu<major> folder that is a toolkit: the one of PyTorch's
    CUDA major if it has one, else the newest; None if there is none."""
    majors = _wheel_majors()
    torch_cuda = torch_cuda_version()
    order = sorted(majors, reverse=True)
    if torch_cuda and int(torch_cuda.split('.')[0]) in majors:
        order.insert(0, int(torch_cuda.split('.')[0]))
    for major in order:
        for root in majors[major]:
            if _is_toolkit(root) and not wheel_problems(root):
                return root
    return None


def find_toolkit():
    """The CUDA toolkit builds use, a Toolkit (home, origin), or None.

    CUDA_HOME, or else CUDA_PATH, decides when set (None when it is not a
    toolkit: bin/nvcc and include/cuda_runtime_api.h).  Otherwise pip's
    wheels in this Python's environment (`pip install 'thffi[cuda]'`:
    nvidia/cu<major> with nvcc, crt, nvvm and the runtime at one release;
    PyTorch's CUDA major first), then the toolkit of the nvcc on PATH, then
    /usr/local/cuda.  The wheels come before the machine's toolkits: they
    were installed into this environment, the one PyTorch runs in."""
    for var in ('CUDA_HOME', 'CUDA_PATH'):
        home = os.environ.get(var)
        if home:
            return Toolkit(home, var) if _is_toolkit(home) else None
    wheels = _wheel_toolkit()
    if wheels:
        return Toolkit(wheels, "pip's wheels")
    nvcc = shutil.which('nvcc')
    if nvcc:
        home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
        if _is_toolkit(home):
            return Toolkit(home, 'the nvcc on PATH')
    return Toolkit('/usr/local/cuda', 'the system toolkit') \
        if _is_toolkit('/usr/local/cuda') else None


def find_cuda_home():
    """The CUDA toolkit's root folder (with bin/nvcc and the runtime's
    headers), or None: find_toolkit()'s home."""
    toolkit = find_toolkit()
    return toolkit and toolkit.home


def toolkit_version(home):
    """(major, minor) of the toolkit at home, from its runtime's headers
    (CUDART_VERSION), or None."""
    try:
        with open(os.path.join(home, 'include', 'cuda_runtime_api.h')) as f:
            match = re.search(r'#define\s+CUDART_VERSION\s+(\d+)', f.read())
    except OSError:
        return None
    return match and divmod(int(match.group(1)) // 10, 100)


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


def _wheel_dirs(home, kind):
    """pip's wheel folders of one kind ('lib' or 'include') for the CUDA
    major of the toolkit at home (of PyTorch's CUDA without a toolkit; of
    every major without either): nvidia/cu<major>/<kind> from CUDA 13 on,
    nvidia/<wheel>/<kind> for CUDA 11-12."""
    version = toolkit_version(home) if home else None
    torch_cuda = torch_cuda_version()
    major = version[0] if version else int(torch_cuda.split('.')[0]) if torch_cuda else None
    found = []
    for folder in _nvidia_dirs():
        for name in sorted(os.listdir(folder)):
            match = re.fullmatch(r'cu(\d+)', name)
            wanted = (int(match.group(1)) == major if match else major is not None and major < 13)
            path = os.path.join(folder, name, kind)
            if (wanted or major is None) and os.path.isdir(path):
                found.append(path)
    return found


def _unique(folders):
    seen, out = set(), []
    for folder in folders:
        if os.path.realpath(folder) not in seen:
            seen.add(os.path.realpath(folder))
            out.append(folder)
    return out


def library_dirs(home):
    """Where a build's CUDA libraries are looked for, in order: the
    toolkit's own folder, then pip's wheels of its CUDA major.  The
    extension's rpath names them all, so that the libraries it links and
    those thffi loads at run time (cuBLAS, cuSPARSE) are found without
    LD_LIBRARY_PATH, where PyTorch has not loaded them already."""
    return _unique(([library_dir(home)] if home else []) + _wheel_dirs(home, 'lib'))


def header_dirs(home):
    """The include folders of CUDA's headers: the toolkit's, then those of
    pip's wheels of its CUDA major that hold headers it lacks (cusparse.h,
    curand.h...).  A complete toolkit's builds so do not depend on which
    wheels the installed PyTorch brought: a build stays up to date across
    PyTorch releases."""
    toolkit = os.path.join(home, 'include') if home else None
    has = set(os.listdir(toolkit)) if toolkit and os.path.isdir(toolkit) else set()
    return _unique(([toolkit] if toolkit else [])
                   + [d for d in _wheel_dirs(home, 'include') if set(os.listdir(d)) - has])


def _soname_order(path):
    """Sort key: lib<name>.so.<N> (the soname) before longer versions."""
    return (path.count('.'), path)


def find_library(name, home):
    """The Library lib<name>.so for a build with the toolkit at home, found
    in library_dirs(home), or None.  A folder holding only versioned files
    (pip's wheels: libcusparse.so.12) gives its soname's file, linked by its
    whole name (-l:libcusparse.so.12)."""
    for folder in library_dirs(home):
        plain = os.path.join(folder, 'lib%s.so' % name)
        if os.path.isfile(plain):
            return Library(folder, plain, name)
        versioned = sorted((p for p in glob.glob(glob.escape(plain) + '.*')
                            if re.fullmatch(r'\.[\d.]+', p[len(plain):])), key=_soname_order)
        if versioned:
            return Library(folder, versioned[0], ':' + os.path.basename(versioned[0]))
    return None


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
    wheel = LIBRARIES.get(name, (None, 'nvidia-' + name))[1]
    version = toolkit_version(home) if home else None
    torch_cuda = torch_cuda_version()
    major = version[0] if version else int(torch_cuda.split('.')[0]) if torch_cuda else 13
    return wheel if major >= 13 else '%s-cu%d' % (wheel, major)


def missing_library_message(name, home):
    """Where lib<name>.so was looked for, and what to install: 'neither
    the CUDA toolkit in ... nor pip's CUDA wheels ... hold libcurand.so
    (cuRAND): pip install nvidia-curand'."""
    what = LIBRARIES.get(name, ('lib%s' % name,))[0]
    where = ('the CUDA toolkit in %s (%s)' % (home, library_dir(home)) if home
             else 'a CUDA toolkit (none found)')
    return ("neither %s nor pip's CUDA wheels (site-packages/nvidia) hold lib%s.so (%s): "
            "pip install %s" % (where, name, what, wheel_for(name, home)))


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
            '(site-packages/nvidia/cu<major>), beside the nvcc on PATH and in /usr/local/cuda '
            'for bin/nvcc and include/cuda_runtime_api.h%s; %s brings CUDA 13\'s). Install the '
            'CUDA toolkit or set CUDA_HOME, or %s' % (
                what, ''.join('; ' + p for p in problems), PIP_EXTRA, instead))


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
