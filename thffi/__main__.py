"""python -m thffi: thffi's command line, one argparse parser (parser()):
`python -m thffi --help`, and `--help` after each command.

Its options print what a build script (make.sh, a Makefile, CMake) needs
(--includes, --libs, ...); its commands (port, run, sanitize, cache) are the
functions COMMANDS names, each importing its part only when it runs, so
that the options make.sh calls start fast; a first argument naming a .py
file runs that build script with the rest of the arguments as they are."""

import argparse
import os
import runpy
import sys

from . import _cache, _hook
from .toolchain import cuda_toolkit as cuda

# The top's usage: these forms, each command's (parser()), a build script.
OPTIONS_USAGE = '''python -m thffi (--includes | --libs | --cuda-libs NAME [NAME ...] |
                       --cuda-includes | --cuda-home | --arch-flags | --cccl-legacy)'''
SCRIPT_USAGE = 'python -m thffi SCRIPT.py [ARGS ...]'
SCRIPT_HELP = '''\
python -m thffi SCRIPT.py [ARGS ...] runs a build script (any path ending in
.py) as `python SCRIPT.py ARGS` would, with `torch.utils.ffi` resolving to
thffi; ARGS go to the script as they are.'''


def _includes(options):
    from . import builder
    print(' '.join(builder.include_flags()))
    return 0


def _cuda_libs(options):
    home = cuda.find_cuda_home()
    found = []
    for name in options.cuda_libs:
        library = cuda.find_library(name, home)
        if library is None:
            sys.stderr.write('python -m thffi --cuda-libs %s: %s\n'
                             % (name, cuda.missing_library_message(name, home)))
            return 1
        found.append(library)
    print(' '.join(cuda.link_flags(found)))
    return 0


def _cuda_includes(options):
    print(' '.join('-I' + d for d in cuda.header_dirs(cuda.find_cuda_home())))
    return 0


def _cccl_legacy(options):
    from .toolchain.nvcc import CCCL_LEGACY
    print('-include ' + CCCL_LEGACY)
    return 0


def _cuda_home(options):
    toolkit = cuda.find_toolkit()
    if toolkit is None:
        sys.stderr.write('python -m thffi --cuda-home: %s\n' % cuda.missing_toolkit_message(
            'thffi', 'build without CUDA'))
        return 1
    print(toolkit.home)
    return 0


def _libs(options):
    from . import builder
    from .builder import shared_library
    try:
        path = shared_library.library(cuda.cuda_enabled())
    except builder.BuildError as exc:
        sys.stderr.write('python -m thffi --libs: %s\n' % exc)
        return 1
    print(' '.join(shared_library.link_flags(path)))
    return 0


def _arch_flags(options):
    try:
        print(' '.join(cuda.nvcc_arch_flags()))
    except ValueError as exc:
        sys.stderr.write('python -m thffi --arch-flags: %s\n' % exc)
        return 2
    return 0


def _port(options):
    if not os.path.exists(options.path):
        options.parser.error('%s does not exist' % options.path)
    from .port import main
    return main(options.path, options.write, options.version, options.jobs)


def _run(options):
    command = options.command[1:] if options.command[:1] == ['--'] else options.command
    if not command or not command[0].strip():
        options.parser.error('no command given')
    from .run import main
    return main(command)


def _sanitize(options):
    for flag, given in (('-m', options.module), ('-c', options.code)):
        if given is not None and not given:
            options.parser.error('%s takes %s' % (flag, 'a module' if flag == '-m' else 'code'))
    if options.module is None and options.code is None and not options.script:
        options.parser.error('no script given')
    from .sanitize import main
    return main(['-m'] + options.module if options.module is not None else
                ['-c'] + options.code if options.code is not None else options.script)


def _cache_command(options):
    root = _cache.cache_root()
    if options.clear:
        held = _cache.clear(root)
        print('thffi: emptied the cache (%s): %d entries, %s' % (
            root, sum(count for _, count, _ in held),
            _cache.format_size(sum(size for _, _, size in held))))
        if any(part == 'lib' for part, _, _ in held):
            print('thffi: what linked thffi\'s shared library from it (an extension, or a '
                  'library linked with `python -m thffi --libs`) needs building again')
    try:
        if options.max_size is not None:
            _cache.set_max_size(_cache.parse_size(options.max_size, '--max-size'), root)
            evicted = _cache.trim(root)
            if evicted:
                print('thffi: evicted %d entries used least recently (%s)' % (
                    len(evicted), _cache.format_size(sum(size for _, size in evicted))))
        limit, origin = _cache.max_size(root)
    except ValueError as exc:
        options.parser.error(str(exc))
    _show_cache(root, limit, origin)
    return 0


def _show_cache(root, limit, origin):
    """Prints where the cache is, what each part holds, and its limit."""
    rows = _cache.usage(root)
    print('thffi\'s build cache: %s (%s sets it)' % (root, _cache.ROOT_VARIABLE))
    for part, count, size, _, what in rows:
        print('  %-12s %6d entries %10s  %s' % (part, count, _cache.format_size(size), what))
    print('  %-12s %6d entries %10s' % ('total', sum(row[1] for row in rows),
                                       _cache.format_size(sum(row[2] for row in rows))))
    bounded = [row for row in rows if row[3]]
    print('max size: %s (%s; %s or `python -m thffi cache --max-size SIZE` sets it)'
          % (_cache.format_size(limit) if limit else 'none', origin, _cache.MAX_SIZE_VARIABLE))
    print('  for %s (%s now): the least recently used go first'
          % (' and '.join(row[0] for row in bounded),
             _cache.format_size(sum(row[2] for row in bounded))))


# The options that are commands: (option, function, help).
OPTIONS = (
    ('--includes', _includes,
     'the -I flags of thffi\'s TH/THC headers (and of the CUDA toolkit\'s and pip\'s CUDA '
     'wheels\', when there are), for build scripts (make.sh) that ran nvcc or gcc with '
     '-I $TORCH/lib/include -I $TORCH/lib/include/TH(C)'),
    ('--libs', _libs,
     'the linker flags of thffi\'s TH/THC layer as a shared library (libthffi-<version>.so), '
     'for libraries built apart (CMake, make) that call TH/THC functions, as they linked '
     'libATen/libTH/libTHC; an extension linking such a library shares it'),
    ('--cuda-includes', _cuda_includes,
     'the -I flags of CUDA\'s headers: the toolkit\'s, then those of pip\'s CUDA wheels '
     '(curand.h, cusparse.h... where the toolkit lacks them)'),
    ('--cuda-home', _cuda_home,
     'the CUDA toolkit thffi builds with (a system one or pip\'s wheels)'),
    ('--arch-flags', _arch_flags,
     'the nvcc -gencode flags of the GPU architectures thffi builds for '
     '(TORCH_CUDA_ARCH_LIST, the visible GPUs, or its default list), for make.sh'),
    ('--cccl-legacy', _cccl_legacy,
     'the nvcc flag including thffi\'s cccl_legacy.h first (what CUDA 13\'s thrust removed '
     'that 2018 code used: thrust::binary_function...), for makefiles port rewrote'),
)
COMMANDS = {'port': _port, 'run': _run, 'sanitize': _sanitize, 'cache': _cache_command}


def _positive(text):
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError('must be 1 or more, got %d' % number)
    return number


def parser():
    """python -m thffi's parser: options.handler runs what it asks."""
    top = argparse.ArgumentParser(prog='python -m thffi', epilog=SCRIPT_HELP,
                                  description='thffi: the legacy torch.utils.ffi on today\'s '
                                              'PyTorch.')
    top.set_defaults(option=None, handler=None, parser=top)
    flags = top.add_mutually_exclusive_group()
    for option, function, text in OPTIONS:
        flags.add_argument(option, dest='option', action='store_const', const=function,
                           help=text)
    flags.add_argument('--cuda-libs', nargs='+', metavar='NAME',
                       help='the linker flags of CUDA libraries (curand, cusparse, cublas...: '
                            'what -lcurand linked from the toolkit\'s lib64), found in the '
                            'CUDA toolkit or in pip\'s CUDA wheels (-L, -l, and the rpath that '
                            'finds them at run time)')
    commands = top.add_subparsers(title='commands', metavar='COMMAND', prog='python -m thffi')

    subs = []

    def command(name, help, description, usage=None):
        sub = commands.add_parser(name, help=help, description=description, usage=usage)
        subs.append(sub)
        sub.set_defaults(handler=COMMANDS[name], parser=sub)
        return sub

    port = command('port', 'ports a legacy torch.utils.ffi repository',
                   'Ports a legacy torch.utils.ffi repository to thffi and today\'s PyTorch: '
                   'prints the diff on stdout and a report of what it could not fix on '
                   'stderr.')
    port.add_argument('path', nargs='?', default='.', metavar='PATH',
                      help='the repository folder (or one file); default: .')
    port.add_argument('--write', action='store_true', help='apply the diff')
    port.add_argument('--from', dest='version', choices=('0.1', '0.2', '0.3', '0.4'),
                      metavar='VERSION',
                      help='the PyTorch version the code was written for, 0.1 to 0.4 '
                           '(default: read from '
                           'the repository: requirements, setup.py, README, the API it uses; '
                           'else 0.3)')
    port.add_argument('--jobs', type=_positive, metavar='N',
                      help='processes that share the Python files (default: one a core)')

    run = command('run', 'runs a README\'s step with today\'s toolchain in front',
                  'Runs a README\'s step (make, sh make.sh, python train.py) with today\'s '
                  'toolchain in front: every nvcc, gcc, cc, g++ and c++ it starts, by any '
                  'path, gets the flags today\'s take; python is thffi\'s interpreter, Python 2 '
                  'modules run converted, and the names Python, NumPy and PyTorch removed are '
                  'given back.  Its options come before the command (or before --); the '
                  'command\'s own arguments, --help too, are the command\'s.',
                  'python -m thffi run [-h] [--] COMMAND [ARGS ...]')
    run.add_argument('command', nargs=argparse.REMAINDER, metavar='[--] COMMAND [ARGS ...]',
                     help='one argument is a command line run by bash (\'cd lib && sh '
                          'make.sh\'); several are a program and its arguments')

    sanitize = command('sanitize', 'runs a script against extensions built with '
                                   'THFFI_SANITIZE',
                       'Runs a script against extensions built with THFFI_SANITIZE=address '
                       '(AddressSanitizer); with THFFI_SANITIZE=thread set, against ones built '
                       'so (ThreadSanitizer).',
                       'python -m thffi sanitize [-h] (SCRIPT | -m MODULE | -c CODE) [ARGS ...]')
    sanitize.add_argument('-m', dest='module', nargs=argparse.REMAINDER,
                          metavar='MODULE [ARGS ...]', help='run a module, as python -m does')
    sanitize.add_argument('-c', dest='code', nargs=argparse.REMAINDER,
                          metavar='CODE [ARGS ...]', help='run code, as python -c does')
    sanitize.add_argument('script', nargs=argparse.REMAINDER, metavar='SCRIPT [ARGS ...]',
                          help='the script and its arguments')

    cache = command('cache', 'shows thffi\'s build cache; clears it, sets its size',
                    'Shows where thffi\'s build cache is (%s sets it) and what it holds.  The '
                    'objects and converted files that go over its maximum size are evicted, '
                    'least recently used first, after a build stores some.'
                    % _cache.ROOT_VARIABLE)
    cache.add_argument('--clear', action='store_true', help='empty it')
    cache.add_argument('--max-size', metavar='SIZE',
                       help='keep at most SIZE (5G, 500M, 2Gi; 0: no limit; default %s); '
                            '%s, when set, wins' % (_cache.format_size(_cache.DEFAULT_MAX_SIZE),
                                                    _cache.MAX_SIZE_VARIABLE))
    top.usage = '\n       '.join([OPTIONS_USAGE] + [
        sub.format_usage()[len('usage: '):].strip() for sub in subs] + [SCRIPT_USAGE])
    return top


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
    """The exit status of what argv asks; a usage error or --help exits
    (SystemExit, argparse's: 2 and 0)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # A build script's arguments are its own: argparse never sees them.
    if argv and argv[0].endswith('.py') and not argv[0].startswith('-'):
        return run_script(argv[0], argv[1:])
    top = parser()
    options, extra = top.parse_known_args(argv)
    if extra:  # reported with the usage of the command they were given to
        options.parser.error('unrecognized arguments: %s' % ' '.join(extra))
    chosen = [h for h in (options.option, options.cuda_libs and _cuda_libs, options.handler)
              if h]
    if len(chosen) != 1:
        top.error('give one option or one command' if chosen else
                             'give an option or a command')
    return chosen[0](options)


if __name__ == '__main__':
    sys.exit(main())
