"""Standard headers 2018's compilers included for the code (toolchain/
std_headers.py), for `python -m thffi port`.  A C++ source that names a
std name of the table (std::numeric_limits, std::string) and includes no
header of that name is asked of g++ (-fsyntax-only, with its own folder
and thffi's include folders on the include path, as dialect.py asks,
under today's default standard and 2018's): where the compiler refuses it
for the headers it names and takes it with them included first, their
#include lines are written before the source's first #include.  A CUDA source (nvcc's verdict costs a compile),
or a C++ source without that verdict (no g++, other errors: a folder only
the build's flags name), is reported with the line to add: `thffi run` and
thffi's build include the header where the compiler says so."""

import os
import re
import shutil
import subprocess

from ..toolchain import std_headers
from ..toolchain.cc import CXX_SUFFIXES, blank_comments_and_strings
from .dialect import _INCLUDES
from .report import Finding

_NAME = re.compile(r'\bstd\s*::\s*(\w+)')
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)


def _hinted(text):
    """{header: (std name, line)} of the table's names the source names
    whose header it does not include itself."""
    code = blank_comments_and_strings(text)
    included = set(_INCLUDE.findall(text))
    found = {}
    for match in _NAME.finditer(code):
        header = std_headers.HEADERS.get(match.group(1))
        if header and header not in included:
            found.setdefault(header, (match.group(1), code.count('\n', 0, match.start()) + 1))
    return found


# The standards a source is asked under: today's default, and those 2018's
# build files named (nvcc 9's host compiles took C++11, PyTorch 1.0's
# C++11 and 14): whether <algorithm> brings <limits> in depends on it.
_STANDARDS = (None, 'c++11', 'c++14')


def _verdict(path):
    """forgotten()'s headers where g++ refuses the C++ source at path (under
    one of _STANDARDS) for them and takes it with them included first;
    else None."""
    compiler = shutil.which('g++')
    if compiler is None:
        return None
    folder = os.path.dirname(os.path.abspath(path))
    for standard in _STANDARDS:
        def attempt(flags, std=['-std=' + standard] if standard else []):
            try:
                done = subprocess.run([compiler, '-fsyntax-only'] + std + flags
                                      + ['-I' + folder] + _INCLUDES + [os.path.abspath(path)],
                                      cwd=folder, capture_output=True, text=True, timeout=300)
            except (OSError, subprocess.SubprocessError) as exc:
                return True, str(exc)
            return done.returncode, done.stderr

        error, output = attempt([])
        if error:
            found, error, _ = std_headers.retried(output, attempt)
            if found and not error:
                return found
    return None


def rewrite(text, rel, path):
    """(new text, [Finding]) for one C, C++ or CUDA source."""
    hinted = _hinted(text)
    if not hinted:
        return text, []
    found = path.endswith(CXX_SUFFIXES) and _verdict(path)
    if found:
        first = _INCLUDE.search(text)
        at = first.start() if first else 0
        lines = ''.join('#include <%s>\n' % h for h, _ in found)
        return text[:at] + lines + text[at:], [
            Finding(rel, text.count('\n', 0, at) + 1, 'names %s without including %s (%s); '
                    'now #include %s' % (', '.join('std::' + n for _, n in found),
                                         ', '.join('<%s>' % h for h, _ in found),
                                         std_headers.WHY,
                                         ', '.join('<%s>' % h for h, _ in found)), True)]
    return text, [Finding(rel, line, 'names std::%s and includes no <%s>: unless a header it '
                          'includes does, today\'s compilers refuse it (%s); `thffi run` and '
                          'thffi\'s build include it where the compiler says so; add '
                          '#include <%s>' % (name, header, std_headers.WHY, header), False)
                  for header, (name, line) in sorted(hinted.items(), key=lambda i: i[1][1])]
