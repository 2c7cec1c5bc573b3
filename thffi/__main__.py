"""python -m thffi: thffi's command line.

usage:
    python -m thffi --includes    the -I flags of thffi's TH/THC headers, for
                                  build scripts (make.sh) that ran nvcc or gcc
                                  with -I $TORCH/lib/include/TH(C)
    python -m thffi sanitize SCRIPT [args]
                                  runs a script against extensions built with
                                  THFFI_SANITIZE=address (AddressSanitizer)

Each command is a function in COMMANDS taking the remaining arguments and
returning the exit status."""

import sys

from . import builder, sanitize


def _includes(args):
    if args:
        sys.stderr.write('python -m thffi --includes takes no arguments, got %s\n'
                         % ' '.join(args))
        return 2
    print(' '.join('-I' + d for d in builder.include_dirs()))
    return 0


COMMANDS = {
    '--includes': _includes,
    'sanitize': sanitize.main,
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write(__doc__[__doc__.index('usage:'):__doc__.index('\n\nEach')] + '\n')
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == '__main__':
    sys.exit(main())
