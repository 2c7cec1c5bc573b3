"""python -m thffi: thffi's command line.

usage:
    python -m thffi --includes    the -I flags of thffi's TH/THC headers (and
                                  of the CUDA toolkit's and pip's CUDA
                                  wheels', when there are), for build scripts
                                  (make.sh) that ran nvcc or gcc with
                                  -I $TORCH/lib/include
                                  -I $TORCH/lib/include/TH(C)
    python -m thffi --libs        the linker flags of thffi's TH/THC layer as a
                                  shared library (libthffi-<version>.so), for
                                  libraries built apart (CMake, make) that
                                  call TH/THC functions, as they linked
                                  libATen/libTH/libTHC; an extension linking
                                  such a library shares it
    python -m thffi --cuda-libs NAME...
                                  the linker flags of CUDA libraries (curand,
                                  cusparse, cublas...: what -lcurand linked
                                  from the toolkit's lib64), found in the
                                  CUDA toolkit or in pip's CUDA wheels (-L,
                                  -l, and the rpath that finds them at run
                                  time)
    python -m thffi --cuda-includes
                                  the -I flags of CUDA's headers: the
                                  toolkit's, then those of pip's CUDA wheels
                                  (curand.h, cusparse.h... where the toolkit
                                  lacks them), for compiles of code that
                                  includes them
    python -m thffi --cuda-home   the CUDA toolkit thffi builds with (a
                                  system one or pip's wheels)
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
    python -m thffi run [--] COMMAND [ARGS...]
                                  runs a README's step (make, sh make.sh,
                                  python train.py) with today's toolchain in
                                  front: every nvcc, gcc, cc, g++ and c++ it
                                  starts, by any path, gets the flags today's
                                  take; python is thffi's interpreter, Python
                                  2 modules run converted, and the names
                                  Python, NumPy and PyTorch removed are given
                                  back; one argument is a command line run
                                  by bash
    python -m thffi sanitize SCRIPT [args]
                                  runs a script against extensions built with
                                  THFFI_SANITIZE=address (AddressSanitizer);
                                  with THFFI_SANITIZE=thread set, against ones
                                  built so (ThreadSanitizer)

Each command is a function in COMMANDS taking the remaining arguments and
returning the exit status; those in NO_ARGUMENTS take none."""

import os
import runpy
import sys

from . import _hook
from .toolchain import cuda_toolkit as cuda


def _includes():
    from . import builder
    print(' '.join(builder.include_flags()))
    return 0


def _cuda_libs(args):
    if not args or any(a.startswith('-') for a in args):
        sys.stderr.write('python -m thffi --cuda-libs takes the names of CUDA libraries as -l '
                         'takes them (curand cusparse ...), got %s\n' % (' '.join(args) or
                                                                         'none'))
        return 2
    home = cuda.find_cuda_home()
    found = []
    for name in args:
        library = cuda.find_library(name, home)
        if library is None:
            sys.stderr.write('python -m thffi --cuda-libs %s: %s\n'
                             % (name, cuda.missing_library_message(name, home)))
            return 1
        found.append(library)
    print(' '.join(cuda.link_flags(found)))
    return 0


def _cuda_includes():
    print(' '.join('-I' + d for d in cuda.header_dirs(cuda.find_cuda_home())))
    return 0


def _cuda_home():
    toolkit = cuda.find_toolkit()
    if toolkit is None:
        sys.stderr.write('python -m thffi --cuda-home: %s\n' % cuda.missing_toolkit_message(
            'thffi', 'build without CUDA'))
        return 1
    print(toolkit.home)
    return 0


def _libs():
    from . import builder
    from .builder import shared_library
    try:
        path = shared_library.library(cuda.cuda_enabled())
    except builder.BuildError as exc:
        sys.stderr.write('python -m thffi --libs: %s\n' % exc)
        return 1
    print(' '.join(shared_library.link_flags(path)))
    return 0


def _arch_flags():
    try:
        print(' '.join(cuda.nvcc_arch_flags()))
    except ValueError as exc:
        sys.stderr.write('python -m thffi --arch-flags: %s\n' % exc)
        return 2
    return 0


def _port(args):
    from .port import main
    return main(args)


def _run(args):
    from .run import main
    return main(args)


def _sanitize(args):
    from .sanitize import main
    return main(args)


NO_ARGUMENTS = {
    '--includes': _includes,
    '--libs': _libs,
    '--cuda-includes': _cuda_includes,
    '--cuda-home': _cuda_home,
    '--arch-flags': _arch_flags,
}


def _without_arguments(option):
    def command(args):
        if args:
            sys.stderr.write('python -m thffi %s takes no arguments, got %s\n'
                             % (option, ' '.join(args)))
            return 2
        return NO_ARGUMENTS[option]()
    return command


COMMANDS = dict({option: _without_arguments(option) for option in NO_ARGUMENTS},
                **{'--cuda-libs': _cuda_libs, 'port': _port, 'run': _run,
                    'sanitize': _sanitize})


def run_script(path, args):
    """python -m thffi build.py [args]: runs the legacy build script at
    path as `python build.py [args]` would (as __main__, sys.argv [path] +
    args, its folder first on sys.path), with torch.utils.ffi resolving to
    thffi (_hook.py), for when thffi is not installed (the installed .pth
    does the same for every process).  Returns its exit status."""
    if not os.path.isfile(path):
        sys.stderr.write('python -m thffi %s: no such file\n' % path)
        return 2
    _hook.install()
    sys.argv = [path] + list(args)
    sys.path[0] = os.path.dirname(os.path.abspath(path))
    runpy.run_path(path, run_name='__main__')
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] not in COMMANDS and argv[0].endswith('.py'):
        return run_script(argv[0], argv[1:])
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write(__doc__[__doc__.index('usage:'):__doc__.index('\n\nEach')] + '\n')
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == '__main__':
    sys.exit(main())
