"""Finding the CUDA toolkit, deciding whether to build CUDA code, and the
nvcc flags for the GPU architectures to build for."""

import ast
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


def _is_toolkit(home):
    return (os.path.isfile(os.path.join(home, 'bin', 'nvcc'))
            and os.path.isfile(os.path.join(home, 'include', 'cuda_runtime_api.h')))


def find_cuda_home():
    """The CUDA toolkit's root folder (with bin/nvcc and the runtime's
    headers), or None.  CUDA_HOME or else CUDA_PATH decides when set;
    otherwise the toolkit of the nvcc on PATH, then /usr/local/cuda."""
    for var in ('CUDA_HOME', 'CUDA_PATH'):
        home = os.environ.get(var)
        if home:
            return home if _is_toolkit(home) else None
    candidates = ['/usr/local/cuda']
    nvcc = shutil.which('nvcc')
    if nvcc:
        candidates.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    return next((home for home in candidates if _is_toolkit(home)), None)


def library_dir(home):
    """The toolkit's folder of shared libraries (libcudart.so...)."""
    return next((d for d in (os.path.join(home, 'lib64'), os.path.join(home, 'lib'))
                 if os.path.isdir(d)), os.path.join(home, 'lib64'))


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
    return ('%s: no CUDA toolkit found (looked in CUDA_HOME, CUDA_PATH, beside the '
            'nvcc on PATH and in /usr/local/cuda for bin/nvcc and '
            'include/cuda_runtime_api.h). Install the CUDA toolkit or set CUDA_HOME, '
            'or %s' % (what, instead))


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
