"""Commands typed from a README or INSTALL file (README, README.md,
INSTALL.rst, install.txt...), the docs side of `python -m thffi port`: a
line (or `inline code`) that starts with nvcc, gcc, g++, cc or runs make.sh
(`$ ` and `> ` prompts, backslash continuations taken: readers/route.py's
typed(), which also finds the build files a README runs) is read as a shell
command and rewritten as make.sh would be (shell.py: architectures,
$TORCH/lib/include, nvcc's flags).  Docs are not changed: each command that
needs a change is reported with the line to type instead."""

import os
import re

from .readers.route import typed
from .report import Finding
from .shell import rewrite_shell

_NAMES = re.compile(r'(?:README|INSTALL)[\w.-]*$', re.I)
_SUFFIXES = ('', '.md', '.markdown', '.rst', '.txt')
_COMMAND = re.compile(r'(?:(?:\w+=\S*\s+)*)(?:\S*/)?(?:nvcc|gcc|g\+\+|cc|c\+\+)\s'
                      r'|(?:(?:\w+=\S*\s+)*)(?:sh\s+|bash\s+)?(?:\./)?\S*make\.sh\b')


def is_doc(path):
    """Whether path is a README or INSTALL file of prose."""
    name = os.path.basename(path)
    return bool(_NAMES.match(name)) and os.path.splitext(name)[1].lower() in _SUFFIXES


def _commands(text):
    """(line number, command) of each command line and inline command."""
    for number, command in typed(text):
        if _COMMAND.match(command + ' '):
            yield number, command


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
