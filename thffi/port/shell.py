"""The shell side of `python -m thffi port`: make.sh/install.sh files, line
by line (a line and its backslash continuations are one command).

- nvcc architecture flags (-arch, -code, -gencode and their long forms) of a
  command that names an architecture the installed nvcc rejects (nvcc 13
  has nothing older than sm_75) become `$(python -m thffi --arch-flags)`:
  the architectures thffi builds for, from TORCH_CUDA_ARCH_LIST when the
  script runs.
- `-I $TORCH/lib/include`, `.../include/TH`, `.../include/THC` (any
  variable) become `$(python -m thffi --includes)`: those folders are gone
  from PyTorch; thffi's headers take their place.

A script without `set -e` is reported: it carries on after a failed command."""

import os
import re
import subprocess

from .. import cuda
from .report import Finding

ARCH_FLAGS = '$(python -m thffi --arch-flags)'
INCLUDES = '$(python -m thffi --includes)'
# CUDA 13's oldest architecture: what is assumed without an nvcc to ask.
OLDEST_WITHOUT_NVCC = 75

_ARCH_FLAG = re.compile(r'(?<![\w-])(?:-gencode|--generate-code|-arch|--gpu-architecture|-code'
                        r'|--gpu-code)(?:=|[ \t]+)(\S+)')
_ARCH_NUMBER = re.compile(r'(?:sm|compute)_(\d+)')
_TORCH_INCLUDE = re.compile(r'(?<![\w-])-I[ \t]*(["\']?)\$\{?\w+\}?'
                            r'(?:/lib/include(?:/THC?)?|/include/THC?)/?\1(?=[\s;"\']|$)')
_SET_E = re.compile(r'^\s*set\s+-\w*e|^#!.*\s-\w*e\b|set\s+-o\s+errexit', re.M)
_RUNS_BUILD = re.compile(r'\bnvcc\b|\bpython[\d.]*\s+\S*build\w*\.py\b|\bsetup\.py\b')


def nvcc_architectures():
    """(set of the compute capabilities the installed nvcc accepts, as
    numbers like 75, or None when there is no nvcc to ask)."""
    home = cuda.find_cuda_home()
    if home is None:
        return None
    try:
        out = subprocess.run([os.path.join(home, 'bin', 'nvcc'), '--list-gpu-arch'],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    found = {int(n) for n in _ARCH_NUMBER.findall(out.stdout)}
    return found if out.returncode == 0 and found else None


def _commands(lines):
    """Groups line indexes into commands: a line ending in an unescaped
    backslash continues on the next."""
    group = []
    for i, line in enumerate(lines):
        group.append(i)
        body = line.rstrip('\n')
        if (len(body) - len(body.rstrip('\\'))) % 2 == 0:
            yield group
            group = []
    if group:
        yield group


def _flag_spans(line):
    """(start, end, numbers) of each nvcc architecture flag in a line."""
    for match in _ARCH_FLAG.finditer(line):
        word = match.group(1)
        end = match.end()
        for quote in '"\'':  # a quote closing a string around the flags
            if word.count(quote) % 2 and word.endswith(quote):
                end -= 1
        numbers = [int(n) for n in _ARCH_NUMBER.findall(line[match.start():end])]
        if numbers:
            yield match.start(), end, numbers


def _replace(lines, group, spans, replacement):
    """Puts replacement at the first of spans ((line index, start, end) in
    the lines of one command) and deletes the others, with the blanks
    before them."""
    spans = sorted(spans)
    for i, s, e in reversed(spans):
        line = lines[i]
        if (i, s, e) == spans[0]:
            lines[i] = line[:s] + replacement + line[e:]
            continue
        while s > 0 and line[s - 1] in ' \t':
            s -= 1
        lines[i] = line[:s] + line[e:]
    # Lines left holding nothing but a continuation go; when the command's
    # last line goes, the line before it no longer continues.
    kept = [i for i in group if i == group[0] or lines[i].strip() not in ('', '\\')]
    for i in group:
        if i not in kept:
            lines[i] = None
    if kept[-1] != group[-1]:
        body = lines[kept[-1]].rstrip('\n').rstrip()
        if body.endswith('\\'):
            lines[kept[-1]] = body[:-1].rstrip() + '\n'


def rewrite_shell(text, path, accepted):
    """(new text, [Finding]) for one shell script.  accepted: the compute
    capabilities of the installed nvcc (nvcc_architectures()), or None."""
    findings = []
    lines = text.splitlines(keepends=True)
    for group in list(_commands(lines)):
        arch = [(i, s, e, n) for i in group for s, e, n in _flag_spans(lines[i])]
        rejected = sorted({n for *_, ns in arch for n in ns
                           if (n not in accepted if accepted else n < OLDEST_WITHOUT_NVCC)})
        if rejected:
            findings.append(Finding(path, group[0] + 1, 'nvcc architecture flags: %s %s; now '
                                    '%s (TORCH_CUDA_ARCH_LIST when set)' % (
                                        ', '.join('sm_%d' % n for n in rejected),
                                        'rejected by the installed nvcc' if accepted else
                                        'older than sm_%d (no nvcc found to ask)'
                                        % OLDEST_WITHOUT_NVCC,
                                        ARCH_FLAGS), True))
            _replace(lines, group, [(i, s, e) for i, s, e, _ in arch], ARCH_FLAGS)
        group = [i for i in group if lines[i] is not None]
        includes = [(i, mt.start(), mt.end()) for i in group
                    for mt in _TORCH_INCLUDE.finditer(lines[i])]
        if includes:
            findings.append(Finding(path, group[0] + 1, '-I $TORCH/lib/include/TH(C): gone '
                                    'from PyTorch; now %s' % INCLUDES, True))
            _replace(lines, group, includes, INCLUDES)
    new = ''.join(line for line in lines if line is not None)
    if _RUNS_BUILD.search(text) and not _SET_E.search(text):
        findings.append(Finding(path, 0, 'no `set -e`: the script carries on after a command '
                                'fails (a failed nvcc, say) and later steps fail for it',
                                False))
    return new, findings
