"""Compilers 2018's build files named by a path of their machine that no
longer exists: a CUDA toolkit in its release's folder (`NVCC :=
/usr/local/cuda-8.0/bin/nvcc`), a gcc or g++ of a release CUDA 8-10
required as nvcc's host compiler (`/usr/bin/gcc-5`, `/usr/bin/g++-4.9`).
Today's compiler of that kind takes its place: `thffi run` starts it where
the step starts the old path (run/intercept.c routes such a path, which it
matches with these rows' patterns from THFFI_RUN_GONE, to run/shims.py),
and port writes it into the build file (port/make.py, port/shell.py).

Gone(pattern, today, why):
- pattern: the old path (`*`: any run of characters but '/', as
  intercept.c matches it too), whose file name is `today`'s, with a
  release or none (gcc-5, not gcc-ar-5); a row applies only where no file
  is at the path: a machine that has /usr/bin/gcc-5 keeps it;
- today: the program that takes its place: 'nvcc' (the toolkit thffi
  builds with), 'gcc' or 'g++' (the first on PATH);
- why: what the path was."""

import collections
import os
import re

Gone = collections.namedtuple('Gone', 'pattern today why')

GONE = [
    Gone('/usr/local/cuda*/bin/nvcc', 'nvcc',
         'a CUDA toolkit of 2018 in its release\'s folder (CUDA 8.0-10.0)'),
    Gone('/usr/bin/gcc-*', 'gcc',
         'a gcc release CUDA 8-10 required as nvcc\'s host compiler (gcc 4.9-7)'),
    Gone('/usr/bin/g++-*', 'g++',
         'a g++ release CUDA 8-10 required as nvcc\'s host compiler (g++ 4.9-7)'),
]

# The patterns, as intercept.c reads them from the environment.
ENVIRONMENT = 'THFFI_RUN_GONE'


def environment_value():
    return ':'.join(row.pattern for row in GONE)


def _regex(pattern):
    return re.compile('[^/]*'.join(re.escape(part) for part in pattern.split('*')))


def written(row, cuda_home):
    """What port writes for a gone compiler's path: the toolkit's nvcc
    under `cuda_home` (the command that prints the toolkit's folder, in
    the file's syntax), else the program's name."""
    return cuda_home + '/bin/nvcc' if row.today == 'nvcc' else row.today


def message(path, row, now):
    return '%s is gone: %s; %s' % (path, row.why, now)


def in_text(text):
    """[(start, end, row)] of the gone compilers' paths in text (a word of
    a build file, quotes and all)."""
    found = []
    for match in re.finditer(r'/[^\s"\'$;|&()<>]+', text):
        row = gone(match.group())
        if row:
            found.append((match.start(), match.end(), row))
    return found


def gone(path):
    """The row whose old path `path` is, where no file is there, or None."""
    name = os.path.basename(path)
    for row in GONE:
        # the program itself, by a release or none (gcc-5, not gcc-ar-5)
        if (_regex(row.pattern).fullmatch(path)
                and re.fullmatch(re.escape(row.today) + r'(?:-[\d.]+)?', name)
                and not os.path.lexists(path)):
            return row
    return None
