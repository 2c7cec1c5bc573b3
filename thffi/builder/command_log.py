"""What a build prints of the commands it runs.

By default one short line a command: the compiler, -c or -shared, the
user's files and the user's own flags (those create_extension got), with
thffi's own objects and every other flag (thffi's, Python's, cffi's) each
counted in one word; the full commands with create_extension(verbose=True)
or THFFI_VERBOSE=1, as the legacy verbose=True printed them."""

import os
import re
import shlex

# Options whose value is the next word.
_PAIRED = {'-o', '-MF', '-MT', '-MQ', '-Xcompiler', '-Xlinker', '--threads', '-x', '-gencode',
           '--generate-code', '-arch', '-code', '-isystem', '-I', '-L', '-D', '-U', '-l',
           '-include', '-ccbin'}
# A compiler cffi (setuptools) runs, by its file name: gcc, x86_64-linux-gnu-gcc-12, c++...
_COMPILER = re.compile(r'(^|[-/])(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|nvcc)(-[\d.]+)?$')


def full(verbose):
    """Whether commands print whole: verbose=True (or 1, as some build.py
    files passed it), or THFFI_VERBOSE=1."""
    return (verbose is not None and bool(verbose)) or os.environ.get('THFFI_VERBOSE') == '1'


def shown(verbose):
    """Whether the build prints what it runs: but for verbose=False (or 0)."""
    return verbose is None or bool(verbose) or full(verbose)


def user_words(kwargs, nvcc_args):
    """The flags of create_extension's arguments, as they reach a command
    line (kwargs: setuptools Extension's, paths absolute)."""
    words = set(kwargs.get('extra_compile_args') or []) | set(
        kwargs.get('extra_link_args') or []) | set(nvcc_args)
    words |= {'-I' + d for d in kwargs.get('include_dirs') or []}
    words |= {'-L' + d for d in kwargs.get('library_dirs') or []}
    words |= {'-l' + name for name in kwargs.get('libraries') or []}
    for macro in kwargs.get('define_macros') or []:
        name, value = (macro, None) if isinstance(macro, str) else macro
        words.add('-D%s' % name if value is None else '-D%s=%s' % (name, value))
    return frozenset(words)


def command(plan, words):
    """The line showing the command `words` (a list): whole with
    plan.full_commands, else `gcc -c src/x.c -o x.o -DUSER <20 flags>`: the
    compiler, -c or -shared, the files (thffi's objects counted in one
    word), the output, the user's own flags, the number of the others."""
    if plan.full_commands:
        return shlex.join(words)
    own = {job.object for job in plan.jobs if job.own}
    mode, files, output, kept, objects, flags = [], [], [], [], 0, 0
    i = 1
    while i < len(words):
        word = words[i]
        pair = words[i:i + 2] if word in _PAIRED else [word]
        i += len(pair)
        if word in ('-c', '-shared'):
            mode.append(word)
        elif word == '-o' and len(pair) == 2:
            output = ['-o', _file(plan, pair[1])]
        elif not word.startswith('-'):
            if os.path.abspath(os.path.join(plan.build_dir, word)) in own:
                objects += 1
                if objects == 1:
                    files.append(None)  # where thffi's objects are
            else:
                files.append(_file(plan, word))
        elif ''.join(pair) in plan.user_words or word in plan.user_words:
            kept += pair
        else:
            flags += 1
    files = [f or '<%d thffi objects>' % objects for f in files]
    return ' '.join([os.path.basename(words[0])] + mode + files + output + kept
                    + (['<%d flags>' % flags] if flags else []))


def compiler_line(plan, message):
    """What a build shows of a line setuptools logs while cffi compiles:
    the command (command()) for a compiler's command line; None for the
    rest ("running build_ext", "generating ...") unless full_commands."""
    if plan.full_commands:
        return message
    try:
        words = shlex.split(message)
    except ValueError:
        words = message.split()
    if not words or not _COMPILER.search(os.path.basename(words[0])):
        return None
    return command(plan, words)


def _file(plan, path):
    """A file as a short line names it: the user's relative to the project,
    one in the build folder by its name."""
    absolute = os.path.abspath(os.path.join(plan.build_dir, path))
    if absolute.startswith(plan.build_dir + os.sep):
        return os.path.basename(path)
    return plan.display(absolute)


# A compiler's warning line: gcc's and g++'s `file:line:col: warning: text
# [-Wkind]`, nvcc's `file(line): warning #177-D: text`.
_GCC_WARNING = re.compile(r'^(?P<place>\S[^:\n]*:\d+(?::\d+)?): warning: (?P<text>.*?)'
                          r'(?: \[(?P<kind>-W[^\]]+)\])?$')
_NVCC_WARNING = re.compile(r'^(?P<place>\S[^(\n]*\(\d+\)): warning #(?P<kind>[\w-]+): '
                           r'(?P<text>.*)$')


def whole_warnings():
    """Whether a build shows its compilers' warnings whole: THFFI_VERBOSE=1."""
    return os.environ.get('THFFI_VERBOSE') == '1'


def summarised(output):
    """A successful compile's messages, its warnings one line a kind (the
    first as the compiler wrote it, with how many more there are): 2018
    code a user did not write warns by the hundred under today's
    compilers), thffi's own lines kept.  The output as it is where no line
    is a warning, or with THFFI_VERBOSE=1."""
    if whole_warnings():
        return output
    kinds, own = {}, []
    for line in output.splitlines():
        match = _GCC_WARNING.match(line) or _NVCC_WARNING.match(line)
        if match:
            kind = match.group('kind') or match.group('text')
            kinds.setdefault(kind, [line, 0])[1] += 1
        elif line.startswith('thffi'):  # thffi's own lines stay
            own.append(line)
    if not kinds:
        return output
    lines = own + [first + (' (and %d more like it)' % (count - 1) if count > 1 else '')
                   for first, count in kinds.values()]
    total = sum(count for _, count in kinds.values())
    return '\n'.join(lines) + '\nthffi: %d warning%s of the compilers, one line a kind (all of ' \
        'them, with their context: THFFI_VERBOSE=1)\n' % (total, '' if total == 1 else 's')

