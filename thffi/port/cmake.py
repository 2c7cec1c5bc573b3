"""The CMake side of `python -m thffi port`: CMakeLists.txt and *.cmake
files, read by pygments' CMake lexer into commands and their arguments
(readers/cmake.py), rewritten argument by argument.

- nvcc architecture flags (`-gencode arch=compute_30,code=sm_30`, as two
  arguments or inside a quoted string such as the 2018
  `set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode ...")`, `-arch=sm_30`,
  in any variable) of a command naming an architecture the installed nvcc
  rejects become ${THFFI_ARCH_FLAGS}: the architectures thffi builds for
  (TORCH_CUDA_ARCH_LIST when cmake runs).  A command setting the same
  variable after one at the file's top level that got them has its flags
  deleted instead, so that they are not given twice.
- FindCUDA's CUDA_SELECT_NVCC_ARCH_FLAGS(VAR 3.0 5.2) naming an
  architecture the installed nvcc rejects (toolchain/nvcc.py's
  cmake_architectures(): capabilities and generation names) becomes
  set(VAR ${THFFI_ARCH_FLAGS}), as `thffi run`'s nvcc replaces the flags
  it makes; Auto, Common and All (CMake's lists) are reported.
- TH/THC include folders taken from torch (`${TORCH_DIR}/lib/include`,
  `.../include/TH`, `.../include/THC`, alone or as -I flags) become
  ${THFFI_INCLUDE_DIRS} (${THFFI_INCLUDE_FLAGS} for -I flags): those
  folders are gone from PyTorch; thffi's headers take their place.
- nvcc flags today's nvcc rejects or renamed (toolchain/nvcc.py's
  FLAG_RULES: `-std=c++11` becomes `-std=c++17`, `--expt-extended-lambda`
  `--extended-lambda`...) where they reach nvcc: in set/list/string of a
  variable named for nvcc (CUDA_NVCC_FLAGS, CMAKE_CUDA_FLAGS), the
  arguments of cuda_add_library/cuda_add_executable/cuda_compile, and
  `$<COMPILE_LANGUAGE:CUDA>` options.
- libATen/libTH/libTHC (paths or -l flags, or ${TH_LIBRARIES}-style
  variables in target_link_libraries) become ${THFFI_LIBRARIES}:
  thffi's TH/THC layer as a shared library (`python -m thffi --libs`).
- find_library(CUFFT_LIBRARY cufft HINTS /usr/local/cuda-9.1/lib64) of a
  CUDA library (toolchain/libraries.py's FIND_LIBRARY) sets the variable
  to ${THFFI_CUDA_cufft_LIBRARY}, as below.
- FindCUDA's ${CUDA_curand_LIBRARY}, ${CUDA_cusparse_LIBRARY},
  ${CUDA_CUBLAS_LIBRARIES}... become ${THFFI_CUDA_curand_LIBRARY}...: the
  library found in the toolkit or in pip's wheels, with its rpath
  (`python -m thffi --cuda-libs curand`; toolchain/libraries.py); where
  neither has it, a warning says what to install and the variable is
  NOTFOUND, as FindCUDA's was.  The headers of pip's wheels (curand.h...)
  are added after the project's include folders
  (`python -m thffi --cuda-includes`).

Inside a quoted string the same variables end in _STRING (the flags
separated by blanks, as `python -m thffi` prints them).  A block at the top
of the file (after cmake_minimum_required/project/cmake_policy) defines
them by running `python -m thffi` with THFFI_PYTHON: the first python3 (or
python) on PATH when cmake configures, a cache variable (`cmake
-DTHFFI_PYTHON=...` for another).  Nothing of the machine that ran port is
written (a block an earlier port wrote with that Python's path gets the
lookup instead); a configure whose thffi fails stops there, saying so.
- find_path and find_library of PyTorch 0.x's headers and libraries
  (find_path(TH_INCLUDE_DIR TH/TH.h HINTS ${TORCH_DIR}/lib/include),
  find_library(TH_LIBRARY NAMES ATen TH libTH.so.1 ...), which found
  nothing since PyTorch 1.0) set their variable to thffi's:
  "${THFFI_INCLUDE_DIR}" (thffi's include folder, or its TH/THC folder
  for a bare TH.h: toolchain/torch_folder.py), ${THFFI_LIBRARIES}; `thffi
  run` has them find the same (run/torch_folder.py).
Other lookups of them (find_file, names mixed with others', Torch7's
find_package(Torch) with its ${Torch_INSTALL_INCLUDE}) are reported with
what to write, and so is a minimum
CMake version before 3.5 (CMake 4 refuses it) in a file with any of the
above.  A file lexed once more after port changes nothing."""

import re

from ..toolchain import libraries as _libraries
from ..toolchain.nvcc import ARCH_NUMBER as _ARCH_NUMBER, ARCH_OPTIONS as _ARCH_NAMES, \
    OLDEST_WITHOUT_NVCC, cmake_architectures, describe, flag_edits, rejected as _rejected
from ..toolchain import torch_folder as _torch_folder
from ..toolchain.includes import PATH_SUFFIX
from .readers.cmake import commands as _commands
from .report import Finding

# The block's first line, by which a ported file is known.
MARKER = '# thffi port: PyTorch 0.x\'s TH/THC, GPU architectures'
_OPTIONS = {'ARCH_FLAGS': '--arch-flags', 'INCLUDE_FLAGS': '--includes',
            'LIBRARIES': '--libs'}

# Inside a quoted string: a flag and its value.
_ARCH_FLAG = re.compile(r'(?<![\w-])(?:%s)(?:=|[ \t]+)([^\s";]+)' % '|'.join(_ARCH_NAMES))
_VARIABLE = r'\$(?:ENV)?\{\w+\}'
_TORCH_PATH = r'(?:%s|[^\s";]*/torch)' % _VARIABLE + PATH_SUFFIX
_TORCH_DIR_ARG = re.compile(r'"?%s"?$' % _TORCH_PATH)
_TORCH_INCLUDE = re.compile(r'(?<![\w-])-I%s(?=[\s";]|$)' % _TORCH_PATH)
_TORCH_LIB = r'(?:[^\s";]*/)?lib(?:ATen|THC?|THC?NN|THC?S)\.(?:so|dylib|a)(?:\.[\d.]+)?'
_TORCH_LIB_ARG = re.compile(r'"?%s"?$|-l(?:ATen|THC?|THC?NN)$' % _TORCH_LIB)
# What a link command takes from a variable named for them (a path from
# the build script's environment, say).
_TORCH_LIB_VARIABLE = re.compile(r'"?\$\{(?:ATEN|ATen|THC?|THC?NN)_LIBRAR(?:Y|IES)\}"?$')
_LINKS = ('target_link_libraries', 'link_libraries')
_TORCH_LIB_IN_STRING = re.compile(r'(?<![\w-])(?:%s|-l(?:ATen|THC?|THC?NN))(?=[\s";]|$)'
                                  % _TORCH_LIB)
_FINDS_TORCH = re.compile(r'^(?:find_library|find_path|find_file)$', re.I)
_TORCH_NAME = re.compile(r'^"?(?:lib)?(?:ATen|THC?|THC?NN|THC?\.h|THC?/THC?\.h)(?:\.\d+)?"?$')
_SELF_SET = re.compile(r'set\s*\(\s*(\w+)\s+"?\$\{\1\}"?\s*\)$', re.I)
_BEFORE_3_5 = re.compile(r'(?:[0-2]\.[\d.]*|3\.[0-4](?:\.[\d.]*)?)$')
_HEAD = ('cmake_minimum_required', 'project', 'cmake_policy')
# Where nvcc flags are: commands setting a variable named for nvcc, FindCUDA's
# commands, and options for the CUDA language.
_SETS = ('set', 'list', 'string')
_NVCC_VARIABLE = re.compile(r'(?:CUDA_NVCC_FLAGS|CMAKE_CUDA_FLAGS|\w*NVCC\w*)(?:_\w+)?$')
_CUDA_COMMANDS = re.compile(r'cuda_(?:add_library|add_executable|compile\w*|wrap_srcs)$')
_CUDA_LANGUAGE = re.compile(r'COMPILE_LANGUAGE:CUDA')


_TORCH_WHY = "gone from PyTorch, thffi's in their place"
# Torch7's TorchConfig.cmake's variables, by which its find_package(Torch)
# is told from libtorch's.
_TORCH7 = re.compile(r'\$\{Torch_INSTALL_(?:INCLUDE|LIB|PREFIX)\}')
_TORCH_LIBRARY_NAME = re.compile(r'^"?(?:lib)?(?:ATen|THC?|THC?NN|THC?S)(?:\.so)?(?:\.\d+)*"?$')
# find_path's and find_library's keywords: what follows the names.
_FIND_KEYWORDS = ('HINTS', 'PATHS', 'PATH_SUFFIXES', 'DOC', 'NO_DEFAULT_PATH', 'REQUIRED',
                  'NO_CACHE', 'NAMES_PER_DIR', 'ENV')


def _find_names(values):
    """The names a find_* command's arguments look for."""
    names = []
    for value in values[1:]:
        if value in _FIND_KEYWORDS:
            break
        if value != 'NAMES':
            names.append(value)
    return names


def _found_from_thffi(name, values):
    """The command setting the variable of a find_path or find_library of
    PyTorch 0.x's headers or libraries to thffi's (find_library: the flags
    of `python -m thffi --libs`, which target_link_libraries takes;
    find_path: the folder of thffi's include folder that holds the header it
    names, toolchain/torch_folder.py's header_folder()), or None where the
    names mix TH's with others' or with headers of different folders; with
    the names."""
    names = _find_names(values)
    if name == 'find_library':
        if names and all(_TORCH_LIBRARY_NAME.match(n) for n in names):
            return 'set(%s ${THFFI_LIBRARIES})' % values[0], names
        return None
    folders = {_torch_folder.header_folder(n) for n in names}
    if name != 'find_path' or len(folders) != 1 or None in folders:
        return None
    folder = folders.pop()
    return 'set(%s "${THFFI_INCLUDE_DIR}%s")' % (values[0], '/' + folder if folder else ''), names


def _nvcc_flag_args(name, values, args):
    """The arguments of a command that nvcc reads as flags."""
    if _CUDA_COMMANDS.match(name):
        return args
    if name in _SETS and any(_NVCC_VARIABLE.match(v) for v in values[:3]):
        return args
    return [a for a, v in zip(args, values) if _CUDA_LANGUAGE.search(v)]


def _arch_edits(text, args):
    """([edit spans], [architecture numbers]) of one command's nvcc
    architecture flags."""
    spans, numbers = [], []
    i = 0
    while i < len(args):
        start, end = args[i]
        value = text[start:end]
        name, _, inline = value.partition('=')
        if value.startswith('"') or ' ' in value:
            for m in _ARCH_FLAG.finditer(value):
                found = _ARCH_NUMBER.findall(m.group(1))
                if found:
                    spans.append((start + m.start(), start + m.end(), True))
                    numbers += found
        elif name in _ARCH_NAMES and (inline or i + 1 < len(args)):
            following = args[i + 1] if not inline else None
            found = _ARCH_NUMBER.findall(inline or text[following[0]:following[1]])
            if found:
                numbers += found
                spans.append((start, end, False))
                if following:
                    spans.append((following[0], following[1], False))
                    i += 1
        i += 1
    return spans, [int(n) for n in numbers]


def _spans(text, args, whole, inside):
    """(start, end, in a string) of the arguments matching whole and of
    the places in quoted strings matching inside."""
    spans = []
    for start, end in args:
        value = text[start:end]
        if whole.match(value):
            spans.append((start, end, False))
        elif value.startswith('"'):
            spans += [(start + m.start(), start + m.end(), True)
                      for m in inside.finditer(value)]
    return spans


def _replace(spans, variable, edits):
    """Puts ${variable} (${variable_STRING} in a string) over the first span
    and deletes the others."""
    for k, (start, end, in_string) in enumerate(sorted(spans)):
        edits.append((start, end, '' if k else
                      '${%s%s}' % (variable, '_STRING' if in_string else '')))


def _apply(text, edits):
    """text with the edits made; a deleted flag goes with the blanks before
    it."""
    for start, end, replacement in sorted(edits, reverse=True):
        if not replacement:
            while start > 0 and text[start - 1] in ' \t':
                start -= 1
        text = text[:start] + replacement + text[end:]
    return text


def _delete(text, start, end, spans):
    """Edits deleting the spans from the command text[start:end]; the whole
    command, with its line, when that leaves it setting a variable to
    itself (`set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS}")`) alone on its line."""
    edits = [(s, e, '') for s, e, _ in spans]
    left = _apply(text[start:end], [(s - start, e - start, r) for s, e, r in edits])
    line_start = text.rfind('\n', 0, start) + 1
    line_end = text.find('\n', end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if (_SELF_SET.match(left) and not text[line_start:start].strip()
            and not text[end:line_end].strip()):
        return [(line_start, line_end, '')]
    return edits


# The Python thffi runs in, found when cmake configures (PATH's, as the
# user's shell has it: a virtual environment's when it is active), or given.
FIND_PYTHON = [
    'if(NOT THFFI_PYTHON)',
    '  find_program(THFFI_PYTHON NAMES python3 python DOC "the Python whose thffi gives TH/THC '
    'and the GPU architectures (-DTHFFI_PYTHON=... for another than PATH\'s)")',
    '  if(NOT THFFI_PYTHON)',
    '    message(FATAL_ERROR "no python3 or python on PATH: configure with '
    '-DTHFFI_PYTHON=<the Python where thffi is installed>")',
    '  endif()',
    'endif()']
# What an earlier port wrote there: the path of the Python that ran it.
_PORTING_PYTHON = re.compile(r'^set\(THFFI_PYTHON "[^"\n]*" CACHE FILEPATH "[^"\n]*"\)\n', re.M)


def _block(options, cuda_libraries=(), include_dir=False):
    """The lines defining THFFI_<variable> and THFFI_<variable>_STRING for
    each option of python -m thffi (and THFFI_INCLUDE_DIRS: the folders of
    the -I flags; with include_dir, THFFI_INCLUDE_DIR: thffi's include
    folder, the first of them), and THFFI_CUDA_<name>_LIBRARY(_STRING) for
    each CUDA library of cuda_libraries."""
    lines = [MARKER + ' (python -m thffi)'] + FIND_PYTHON + [
             'macro(thffi_flags name option)',
             '  execute_process(COMMAND "${THFFI_PYTHON}" -m thffi ${option}',
             '                  RESULT_VARIABLE _thffi_status OUTPUT_VARIABLE ${name}_STRING',
             '                  OUTPUT_STRIP_TRAILING_WHITESPACE)',
             '  if(NOT _thffi_status EQUAL 0)',
             '    message(FATAL_ERROR "${THFFI_PYTHON} -m thffi ${option} failed: install '
             'thffi there, or set THFFI_PYTHON")',
             '  endif()',
             '  separate_arguments(${name} UNIX_COMMAND "${${name}_STRING}")',
             'endmacro()']
    for variable, option in _OPTIONS.items():
        if option in options:
            lines.append('thffi_flags(THFFI_%s %s)' % (variable, option))
    if '--includes' in options:
        lines.append('string(REGEX REPLACE "(^|;)-I" "\\\\1" THFFI_INCLUDE_DIRS '
                     '"${THFFI_INCLUDE_FLAGS}")')
        if include_dir:
            lines.append('list(GET THFFI_INCLUDE_DIRS 0 THFFI_INCLUDE_DIR)')
    if cuda_libraries:
        lines += ['macro(thffi_cuda_library name)',
                  '  execute_process(COMMAND "${THFFI_PYTHON}" -m thffi --cuda-libs ${name}',
                  '                  RESULT_VARIABLE _thffi_status',
                  '                  OUTPUT_VARIABLE THFFI_CUDA_${name}_LIBRARY_STRING',
                  '                  ERROR_VARIABLE _thffi_error OUTPUT_STRIP_TRAILING_WHITESPACE)',
                  '  if(_thffi_status EQUAL 0)',
                  '    separate_arguments(THFFI_CUDA_${name}_LIBRARY UNIX_COMMAND',
                  '                       "${THFFI_CUDA_${name}_LIBRARY_STRING}")',
                  '  else()',
                  '    message(WARNING "${_thffi_error}")',
                  '    set(THFFI_CUDA_${name}_LIBRARY THFFI_CUDA_${name}_LIBRARY-NOTFOUND)',
                  '  endif()',
                  'endmacro()']
        lines += ['thffi_cuda_library(%s)' % name for name in cuda_libraries]
        # Their headers, after the project's own folders: the toolkit's, then
        # pip's wheels' (nvcc looks in the toolkit's alone).
        lines += ['thffi_flags(THFFI_CUDA_INCLUDE_FLAGS --cuda-includes)',
                  'string(REGEX REPLACE "(^|;)-I" "\\\\1" THFFI_CUDA_INCLUDE_DIRS '
                  '"${THFFI_CUDA_INCLUDE_FLAGS}")',
                  'include_directories(AFTER ${THFFI_CUDA_INCLUDE_DIRS})']
    return '\n'.join(lines) + '\n\n'


def rewrite_cmake(text, path, accepted):
    """(new text, [Finding]) for one CMake file.  accepted: the compute
    capabilities of the installed nvcc (toolchain.nvcc.accepted_architectures()), or
    None."""
    findings, edits, options, cuda_libraries = [], [], set(), {}
    include_dir = False  # whether a find_path gets THFFI_INCLUDE_DIR
    versions = []  # reported for a file of the torch build only (not vendored code)
    commands = _commands(text)
    arch_done = set()  # variables given thffi's architectures at top level
    arch_lines, arch_rejected = [], set()

    def line_of(offset):
        return text.count('\n', 0, offset) + 1

    for name, start, end, depth, args in commands:
        values = [text[s:e] for s, e in args]
        if _FINDS_TORCH.match(name) and any(_TORCH_NAME.match(v) for v in values[1:]):
            found = _found_from_thffi(name, values)
            # A block an earlier port wrote defines what it needed then alone.
            needs = 'thffi_flags(THFFI_LIBRARIES' if name == 'find_library' else \
                ' THFFI_INCLUDE_DIR)'
            if found is not None and (MARKER not in text or needs in text):
                edits.append((start, end, found[0]))
                options.add('--libs' if name == 'find_library' else '--includes')
                include_dir = include_dir or name == 'find_path'
                findings.append(Finding(path, line_of(start), '%s(%s) of PyTorch 0.x\'s %s: %s; '
                                        'now %s' % (name, values[0], ' '.join(found[1]),
                                                    _TORCH_WHY, found[0]), True))
                continue
            findings.append(Finding(path, line_of(start), '%s of PyTorch 0.x\'s TH/THC/ATen '
                                    '(gone from PyTorch): use ${THFFI_INCLUDE_DIRS} and '
                                    '${THFFI_LIBRARIES} (python -m thffi --includes, --libs) '
                                    'where its result is used' % name, False))
            continue
        if (name in ('cmake_minimum_required', 'cmake_policy') and len(values) > 1
                and values[0] == 'VERSION' and _BEFORE_3_5.match(values[1])):
            versions.append(Finding(path, line_of(start), '%s(VERSION %s): CMake 4 refuses '
                                    'versions before 3.5; write VERSION %s...3.5, or configure '
                                    'with -DCMAKE_POLICY_VERSION_MINIMUM=3.5'
                                    % (name, values[1], values[1]), False))
        cuda_library = name == 'find_library' and _libraries.find_library_name(
            _find_names(values))
        if cuda_library:
            edits.append((start, end, 'set(%s %s)' % (
                values[0], _libraries.cmake_variable(cuda_library))))
            cuda_libraries[cuda_library] = True
            findings.append(Finding(path, line_of(start), '%s(%s %s): %s; now %s (python -m '
                                    'thffi --cuda-libs %s)' % (
                                        name, values[0], ' '.join(_find_names(values)),
                                        _libraries.FIND_LIBRARY.why,
                                        _libraries.cmake_variable(cuda_library), cuda_library),
                                    True))
            continue
        if name == 'find_package' and values[:1] == ['Torch'] and _TORCH7.search(text):
            findings.append(Finding(path, line_of(start), 'find_package(Torch) of Torch7 (its '
                                    '${Torch_INSTALL_INCLUDE}/TH, ${Torch_INSTALL_LIB}): gone; '
                                    'today it finds libtorch\'s config or nothing: use '
                                    '${THFFI_INCLUDE_DIRS} and ${THFFI_LIBRARIES} (python -m '
                                    'thffi --includes, --libs) where its variables are used',
                                    False))
            continue
        if name == 'cuda_select_nvcc_arch_flags' and values:
            rejected = _rejected(cmake_architectures(values[1:]) or [], accepted)
            if rejected:
                edits.append((start, end, 'set(%s ${THFFI_ARCH_FLAGS})' % values[0]))
                options.add('--arch-flags')
                arch_lines.append(line_of(start))
                arch_rejected |= set(rejected)
            elif cmake_architectures(values[1:]) is None:
                findings.append(Finding(path, line_of(start), '%s(%s): CMake picks the '
                                        'architectures when it runs, which today\'s nvcc may '
                                        'reject; set(%s ${THFFI_ARCH_FLAGS}) gives thffi\'s '
                                        '(python -m thffi --arch-flags)' % (
                                            name, ' '.join(values), values[0]), False))
            continue
        flags = [edit for s, e in _nvcc_flag_args(name, values, args)
                 for edit in flag_edits(text, s, e)]
        if flags:
            edits += [edit[:3] for edit in flags]
            findings.append(Finding(path, line_of(flags[0][0]), 'nvcc flags: %s'
                                    % describe([edit[3] for edit in flags]), True))
        spans, numbers = _arch_edits(text, args)
        rejected = _rejected(numbers, accepted)
        if rejected:
            target = ' '.join(values[:2] if name == 'list' else values[:1])
            if (name, target) in arch_done:
                edits += _delete(text, start, end, spans)
            else:
                _replace(spans, 'THFFI_ARCH_FLAGS', edits)
                options.add('--arch-flags')
            if depth == 0:
                arch_done.add((name, target))
            arch_lines.append(line_of(spans[0][0]))
            arch_rejected |= set(rejected)
        for variable, whole, inside, what in (
                ('THFFI_INCLUDE_DIRS', _TORCH_DIR_ARG, _TORCH_INCLUDE,
                 '$TORCH/lib/include/TH(C): gone from PyTorch'),
                ('THFFI_LIBRARIES', _TORCH_LIB_ARG, _TORCH_LIB_IN_STRING,
                 'libATen/libTH/libTHC: gone from PyTorch')):
            spans = _spans(text, args, whole, inside)
            if variable == 'THFFI_LIBRARIES' and name in _LINKS:
                spans += _spans(text, args, _TORCH_LIB_VARIABLE, re.compile('$^'))
            if not spans:
                continue
            if variable == 'THFFI_INCLUDE_DIRS':
                # -I flags take the flags; folders, the folders.
                flags = [s for s in spans if text[s[0]:s[1]].lstrip('"').startswith('-I')]
                _replace(flags, 'THFFI_INCLUDE_FLAGS', edits)
                _replace([s for s in spans if s not in flags], variable, edits)
                options.add('--includes')
                now = '${THFFI_INCLUDE_%s}' % ('FLAGS' if flags else 'DIRS')
            else:
                _replace(spans, variable, edits)
                options.add('--libs')
                now = '${THFFI_LIBRARIES} (python -m thffi --libs)'
            findings.append(Finding(path, line_of(min(spans)[0]), '%s; now %s' % (what, now),
                                    True))
        libraries = [(start + s, start + e, name, text[start] == '"') for start, end in args
                     for s, e, name in _libraries.cmake_variables_in(text[start:end])]
        for lib_start, lib_end, name, in_string in libraries:
            edits.append((lib_start, lib_end, '${THFFI_CUDA_%s_LIBRARY%s}'
                          % (name, '_STRING' if in_string else '')))
            cuda_libraries[name] = True
        if libraries:
            findings.append(Finding(path, line_of(libraries[0][0]), '%s: FindCUDA looks for '
                                    'lib<name>.so in the toolkit alone, NOTFOUND where pip\'s '
                                    'wheels bring the library; now %s (python -m thffi '
                                    '--cuda-libs: the toolkit\'s or the wheels\', with the '
                                    'rpath)' % (', '.join(text[s:e] for s, e, _, _ in libraries),
                                                ', '.join(_libraries.cmake_variable(n) for n in
                                                          dict.fromkeys(n for _, _, n, _ in
                                                                        libraries))), True))
    if arch_lines:
        findings.append(Finding(path, arch_lines[0], 'nvcc architecture flags%s: %s %s; now '
                                '${THFFI_ARCH_FLAGS} (python -m thffi --arch-flags: '
                                'TORCH_CUDA_ARCH_LIST when set)' % (
                                    ' (lines %s)' % ', '.join(map(str, arch_lines))
                                    if len(arch_lines) > 1 else '',
                                    ', '.join('sm_%d' % n for n in sorted(arch_rejected)),
                                    'rejected by the installed nvcc' if accepted else
                                    'older than sm_%d (no nvcc found to ask)'
                                    % OLDEST_WITHOUT_NVCC), True))
    written = MARKER in text and _PORTING_PYTHON.search(text)
    if written:
        edits.append((written.start(), written.end(), '\n'.join(FIND_PYTHON) + '\n'))
        findings.append(Finding(path, line_of(written.start()), 'THFFI_PYTHON: the path of the '
                                'Python that ran an earlier port (another machine\'s, for '
                                'whoever clones this); now the python3 on PATH when cmake '
                                'configures (-DTHFFI_PYTHON=... for another)', True))
    if edits or findings or MARKER in text:
        findings = versions + findings
    if not edits:
        return text, findings
    new = _apply(text, edits)
    if MARKER not in text and (options or cuda_libraries):
        # After the head commands before the first edit (a blank line
        # between), else before the first command.
        block = _block(options, list(cuda_libraries), include_dir)
        head = [end for name, _, end, depth, _ in commands
                if name in _HEAD and depth == 0 and end <= min(edits)[0]]
        if head:
            at = text.find('\n', head[-1])
            at, block = (len(text) if at < 0 else at + 1), '\n' + block[:-1]
        else:
            # Before the comment lines right above it too: they are about it.
            at = text.rfind('\n', 0, commands[0][1]) + 1
            while at > 0 and text[text.rfind('\n', 0, at - 1) + 1:at].lstrip().startswith('#'):
                at = text.rfind('\n', 0, at - 1) + 1
        new = new[:at] + block + new[at:]
    return new, findings
