"""Which PyTorch a legacy repository was written for (0.1 to 0.4), as
`python -m thffi port` assumes it: some 0.x behaviours changed silently
since (reductions kept their dim before 0.2; bilinear upsampling aligned
corners before 0.4), so the rewrite that keeps them depends on it.

Read, in this order, from:
1. a pin in requirements*.txt, setup.py, environment.yml or .travis.yml
   (`torch==0.3.1`, `pytorch>=0.2`): the newest pinned;
2. the README (`PyTorch 0.4`, `pytorch v0.3.0`): the newest named;
3. the API the Python uses: torch.no_grad, torch.set_grad_enabled,
   .item(), torch.tensor(...), torch.device, torch.empty, torch.full,
   torch.randint, torch.zeros_like and the other *_like, x.new_zeros and
   the other new_*, reduction= are 0.4's; keepdim= is 0.2's or 0.3's;
4. otherwise 0.3, the last version with torch.utils.ffi and Variable
   (most ffi-era code).
The user's `--from` overrides it."""

import os
import re

VERSIONS = ('0.1', '0.2', '0.3', '0.4')
DEFAULT = '0.3'

_PIN_FILES = re.compile(r'^(requirements.*\.txt|setup\.py|environment\.ya?ml|\.travis\.yml)$')
_PIN = re.compile(r'\b(?:py)?torch\s*(?:[=<>~!]=|[<>=])\s*(0\.[1-4])\b', re.I)
_README = re.compile(r'^readme', re.I)
_NAMED = re.compile(r'\bpy ?torch\s*(?:version\s*)?v?(0\.[1-4])\b', re.I)
# What PyTorch 0.4 added (torch.no_grad, tensor.item(), torch.tensor,
# torch.device, the factories torch.empty/full/randint/*_like and
# tensor.new_*, reduction=, torch.set_grad_enabled, tensor.to(...)).
_API_04 = re.compile(r'\btorch\.(?:no_grad|set_grad_enabled|empty|full|randint|tensor|device'
                     r'|(?:zeros|ones|empty|full|rand|randn)_like)\b'
                     r'|\.(?:item|new_(?:zeros|ones|empty|full|tensor))\(|\breduction\s*=')
_API_02 = re.compile(r'\bkeepdim\s*=')
_SKIPPED = ('.git', '__pycache__', 'build', 'dist', 'node_modules', 'third_party',
            'thirdparty', 'third-party', '3rdparty', 'external', 'vendor')


def _texts(root):
    """(name, text) of the files under root that can say the version."""
    if os.path.isfile(root):
        root = os.path.dirname(root) or '.'
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED and not d.startswith('.'))
        for name in sorted(files):
            if not (_PIN_FILES.match(name) or _README.match(name) or name.endswith('.py')):
                continue
            try:
                with open(os.path.join(folder, name), encoding='utf-8',
                          errors='replace') as f:
                    yield os.path.relpath(os.path.join(folder, name), root), f.read()
            except OSError:
                continue


def infer(root):
    """(version, reason): the PyTorch version the repository at root was
    written for, and where that was read (for the report)."""
    pins, named, api = [], [], []
    for name, text in _texts(root):
        base = os.path.basename(name)
        if _PIN_FILES.match(base):
            pins += [(v, '%s: %s' % (name, match.group(0))) for match in _PIN.finditer(text)
                     for v in [match.group(1)]]
        if _README.match(base):
            named += [(match.group(1), '%s: %s' % (name, match.group(0)))
                      for match in _NAMED.finditer(text)]
        if name.endswith('.py'):
            match = _API_04.search(text)
            if match:
                api.append(('0.4', '%s uses %s, new in 0.4' % (name, match.group(0))))
            elif _API_02.search(text):
                api.append(('0.3', '%s uses keepdim=, new in 0.2' % name))
    for found in (pins, named, api):
        if found:
            return max(found)
    return DEFAULT, 'nothing in the repository says; the last version with torch.utils.ffi'
