"""python -m thffi: thffi's command line.

usage:
    python -m thffi --includes    the -I flags of thffi's TH/THC headers (and
                                  of the CUDA toolkit's, when there is one),
                                  for build scripts (make.sh) that ran nvcc or
                                  gcc with -I $TORCH/lib/include
                                  -I $TORCH/lib/include/TH(C)

Each command is a function in COMMANDS taking the remaining arguments and
returning the exit status."""

import os
import sys

from . import builder, cuda


def _includes(args):
    if args:
        sys.stderr.write('python -m thffi --includes takes no arguments, got %s\n'
                         % ' '.join(args))
        return 2
    # gcc compiling a .c that includes <THC/THC.h> needs the CUDA headers
    # too; nvcc has them anyway.
    home = cuda.find_cuda_home()
    dirs = builder.include_dirs() + ([os.path.join(home, 'include')] if home else [])
    print(' '.join('-I' + d for d in dirs))
    return 0


COMMANDS = {
    '--includes': _includes,
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write(__doc__[__doc__.index('usage:'):__doc__.index('\n\nEach')] + '\n')
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == '__main__':
    sys.exit(main())
