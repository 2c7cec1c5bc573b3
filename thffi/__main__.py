"""python -m thffi: thffi's command line.

usage:
    python -m thffi --includes    the -I flags of thffi's TH/THC headers (and
                                  of the CUDA toolkit's, when there is one),
                                  for build scripts (make.sh) that ran nvcc or
                                  gcc with -I $TORCH/lib/include
                                  -I $TORCH/lib/include/TH(C)
    python -m thffi --libs        the linker flags of thffi's TH/THC layer as a
                                  shared library (libthffi-<version>.so), for
                                  libraries built apart (CMake, make) that
                                  call TH/THC functions, as they linked
                                  libATen/libTH/libTHC; an extension linking
                                  such a library shares it
    python -m thffi --arch-flags  the nvcc -gencode flags of the GPU
                                  architectures thffi builds for
                                  (TORCH_CUDA_ARCH_LIST, the visible GPUs, or
                                  its default list), for make.sh
    python -m thffi port [--write] [PATH]
                                  ports a legacy torch.utils.ffi repository:
                                  prints the diff it would apply and a report
                                  of what it could not fix; --write applies it
    python -m thffi build.py [ARGS...]
                                  runs a build script (any path ending in
                                  .py) with `torch.utils.ffi` resolving to
                                  thffi
    python -m thffi sanitize SCRIPT [args]
                                  runs a script against extensions built with
                                  THFFI_SANITIZE=address (AddressSanitizer);
                                  with THFFI_SANITIZE=thread set, against ones
                                  built so (ThreadSanitizer)

Each command is a function in COMMANDS taking the remaining arguments and
returning the exit status."""

import os
import sys

from . import builder, cuda, sanitize


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


def _libs(args):
    if args:
        sys.stderr.write('python -m thffi --libs takes no arguments, got %s\n' % ' '.join(args))
        return 2
    from . import _shared
    try:
        path = _shared.library(cuda.cuda_enabled())
    except builder.BuildError as exc:
        sys.stderr.write('python -m thffi --libs: %s\n' % exc)
        return 1
    print(' '.join(_shared.link_flags(path)))
    return 0


def _arch_flags(args):
    if args:
        sys.stderr.write('python -m thffi --arch-flags takes no arguments, got %s\n'
                         % ' '.join(args))
        return 2
    try:
        print(' '.join(cuda.nvcc_arch_flags()))
    except ValueError as exc:
        sys.stderr.write('python -m thffi --arch-flags: %s\n' % exc)
        return 2
    return 0


def _port(args):
    from .port import main
    return main(args)


COMMANDS = {
    '--includes': _includes,
    '--libs': _libs,
    '--arch-flags': _arch_flags,
    'port': _port,
    'sanitize': sanitize.main,
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] not in COMMANDS and argv[0].endswith('.py'):
        from ._script import run_script
        return run_script(argv[0], argv[1:])
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write(__doc__[__doc__.index('usage:'):__doc__.index('\n\nEach')] + '\n')
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == '__main__':
    sys.exit(main())
