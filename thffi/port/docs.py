"""Commands typed from a README or INSTALL file (README, README.md,
INSTALL.rst, install.txt...), the docs side of `python -m thffi port`: a
line (or `inline code`) that starts with nvcc, gcc, g++, cc or runs make.sh
(`$ ` and `> ` prompts, backslash continuations taken) is read as a shell
command and rewritten as make.sh would be (shell.py: architectures,
$TORCH/lib/include, nvcc's flags).  Docs are not changed: each command that
needs a change is reported with the line to type instead."""

import os
import re

from .report import Finding
from .shell import rewrite_shell

_NAMES = re.compile(r'(?:README|INSTALL)[\w.-]*$', re.I)
_SUFFIXES = ('', '.md', '.markdown', '.rst', '.txt')
_COMMAND = re.compile(r'(?:(?:\w+=\S*\s+)*)(?:\S*/)?(?:nvcc|gcc|g\+\+|cc|c\+\+)\s'
                      r'|(?:(?:\w+=\S*\s+)*)(?:sh\s+|bash\s+)?(?:\./)?\S*make\.sh\b')
_PROMPT = re.compile(r'^\s*(?:[$>%#]\s+)?')
_INLINE = re.compile(r'`([^`\n]+)`')


def is_doc(path):
    """Whether path is a README or INSTALL file of prose."""
    name = os.path.basename(path)
    return bool(_NAMES.match(name)) and os.path.splitext(name)[1].lower() in _SUFFIXES


def _commands(text):
    """(line number, command) of each command line and inline command."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        number, line = i + 1, lines[i]
        i += 1
        body = _PROMPT.sub('', line, count=1)
        if _COMMAND.match(body):
            while body.endswith('\\') and i < len(lines):
                body = body[:-1].rstrip() + ' ' + _PROMPT.sub('', lines[i], count=1).strip()
                i += 1
            yield number, body.strip()
            continue
        for inline in _INLINE.finditer(line):
            if _COMMAND.match(inline.group(1) + ' '):
                yield number, inline.group(1).strip()


def report_commands(text, path, accepted):
    """[Finding] (none fixed) of the commands in a README/INSTALL text that
    today's toolchain needs typed differently."""
    findings = []
    for number, command in _commands(text):
        new, found = rewrite_shell(command + '\n', path, accepted)
        new = new.strip()
        if new == command:
            continue
        why = '; '.join(f.message for f in found if f.fixed)
        findings.append(Finding(path, number, 'a command to type: `%s`; type instead: `%s` (%s)'
                                % (command, new, why), False))
    return findings
