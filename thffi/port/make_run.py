"""What `python -m thffi run` does to the compilers a makefile's commands
start, written into the makefile by `port` (one table of rules, two
appliers).  The commands are make's own: `make -n -B --trace` for the
default goal (readers/make.py's traced()), so `$(CXX)`, `$(Q)nvcc`, `@nvcc`
and make's implicit rules (`%.o: %.cpp` with no recipe runs `$(CXX)
$(CXXFLAGS) -c`) are read as make runs them, each tied to the recipe line
it came from, or to make's built-in rule:

- g++ or c++ compiling C++ with no -std that today's default refuses and
  a 2018 default accepts (dialect.py's verdict, as run's): `-std=X` after
  the compiler word of its recipe line; for make's built-in rule,
  `TARGET: CXXFLAGS += -std=X` (make's target-specific variable: that
  target's compile only).
- nvcc compiling CUDA (a .cu, `-x cu`): thffi's cccl_legacy.h included
  first, `$(shell python -m thffi --cccl-legacy)` after nvcc, as run
  includes it (toolchain/nvcc.py's CCCL_LEGACY).
- nvcc compiling a .cpp that fails as it is and compiles as CUDA
  (dialect.as_cuda(): thrust's device headers): `-x cu` after nvcc, and
  cccl_legacy.h with it, as run compiles it.

A recipe line several commands share (a pattern rule) gets a flag where
each of its commands takes it (a standard: where the others compile under
it too); otherwise the flag is reported.  What is written is checked by
asking make again, reading the new text (`make -f -`): a flag make does
not then pass to its command is not written but reported.  Where make
cannot answer, make.py reads the text alone."""

import os

from ..toolchain import nvcc as nvcc_rules
from . import dialect
from .edits import apply_edits
from .readers import make as _read
from .report import Finding

CCCL_LEGACY = '$(shell %s -m thffi --cccl-legacy)'


def _wanted(command, folder, asked, python, cccl=True):
    """[(flag as written, the words make then passes, message)] of run's
    rules for one command make runs.  cccl: whether cccl_legacy.h is to be
    added (not where the makefile already names it)."""
    args = command.args
    if not args:
        return []
    found = []
    standard = dialect.standard_for(args, folder)
    if standard:
        flag = '-std=' + standard[0]
        found.append((flag, [flag], dialect.finding_text(*standard)))
    if args[0] == 'nvcc':
        program, arch = asked.nvcc()
        sources = program and dialect.as_cuda(args, folder, program, arch, asked.accepted)
        if sources:
            found.append(('-x cu', nvcc_rules.AS_CUDA, '%s; now -x cu'
                          % nvcc_rules.as_cuda_line(', '.join(sources))))
        if cccl and (sources or nvcc_rules.compiles_cuda(args)) and \
                not any('cccl_legacy' in a for a in args):
            written = CCCL_LEGACY % python
            found.append((written, ['-include', 'cccl_legacy.h'], '%s; now %s'
                          % (dialect.CCCL_WHY, written)))
    return found


def _passes(args, words):
    """Whether the command's args hold words, in order (a path's last part
    matching for a file, cccl_legacy.h)."""
    for i in range(len(args) - len(words) + 1):
        if all(a == w or w.endswith('.h') and os.path.basename(a) == w
               for a, w in zip(args[i:], words)):
            return True
    return False


def _compiler_word(text, line, program, variables):
    """The end of the word of a recipe line that runs program (as make
    expands the word with the text's variables: `$(Q)nvcc`, `@g++`), else
    of its first word that is a variable make alone knows (`$(CXX)`), or
    None."""
    words = _read.words(text, line.value_start, line.end, comments=False)
    unknown = None
    for start, end in words:
        word = _read.unquoted(text[start:end])
        value = _read.expanded(word, variables).lstrip('@+-').split()
        if value and os.path.basename(value[0]) == os.path.basename(program) or \
                program == 'nvcc' and _read.is_nvcc_word(word, (), variables):
            return end
        if unknown is None and value and value[0].startswith('$') and \
                _read.closing(value[0], 0) == len(value[0]):
            unknown = end
    return unknown


def run_rules(text, path, folder, accepted, python):
    """((edits, lines to append), findings, whether make answered) of run's
    rules for the commands make runs from the makefile (path: as port
    names it; folder: where it lies).  accepted: the installed nvcc's
    architectures."""
    makefile = os.path.join(folder, os.path.basename(path))
    found, _ = _read.traced(makefile)
    if found is None:
        return ([], ''), [], False
    lines = _read.parse_lines(text)
    variables = _read.assigned(text, lines)
    recipe = {text.count('\n', 0, l.start) + 1: l for l in lines
              if l.kind in ('recipe', 'rule') and l.value_start}
    asked = dialect.NvccOnce(accepted)
    groups = {}  # a recipe line's number, or a target of make's built-in rule: its commands
    for rule, target, command in found:
        if rule[0] not in (makefile, '<builtin>'):
            continue
        where = os.path.normpath(os.path.join(folder, command.cwd))
        key = ('built-in', target) if rule[0] == '<builtin>' else rule[1]
        groups.setdefault(key, []).append((target, command, where,
                                           _wanted(command, where, asked, python,
                                                   '--cccl-legacy' not in text)))
    edits, appended, findings, checks = [], [], [], []
    for key, commands in groups.items():
        flags = {}
        for target, command, where, wanted in commands:
            for flag, words, message in wanted:
                flags.setdefault(flag, (words, message, []))[2].append(target)
        for flag, (words, message, targets) in flags.items():
            others = [(c, w) for t, c, w, _ in commands if t not in targets]
            line = 0 if isinstance(key, tuple) else key
            if others and not (flag.startswith('-std=') and all(
                    dialect.accepts_under(c.args, w, flag[5:]) for c, w in others)):
                findings.append(Finding(path, line, '%s; not written: the recipe line also '
                                        'runs %s, which does not take it'
                                        % (message, ' '.join(others[0][0].args)), False))
                continue
            if isinstance(key, tuple):
                if not flag.startswith('-std='):
                    continue
                written = '%s: CXXFLAGS += %s' % (key[1], flag)
                appended.append(written)
                message = "%s (make's built-in rule for %s: `%s`)" % (message, key[1], written)
            else:
                end = recipe.get(key) and _compiler_word(text, recipe[key], commands[0][1].args[0],
                                                          variables)
                if end is None:
                    findings.append(Finding(path, line, '%s; not written: no word of the recipe '
                                            'line runs the compiler' % message, False))
                    continue
                edits.append((end, end, ' ' + flag))
            checks.append((targets, words, Finding(path, line, message, True)))
    if not checks:
        return ([], ''), findings, True
    tail = appended and ('' if text.endswith('\n') else '\n') + '\n'.join(appended) + '\n'
    # make is asked of the text as written, thffi's flag written out: the
    # check is of where make puts it, not of the python the makefile names.
    again, why = _read.traced(makefile, (apply_edits(text, edits) + (tail or '')).replace(
        CCCL_LEGACY % python, '-include cccl_legacy.h'))
    passed = [again is not None and all(any(t == target and _passes(c.args, words)
                                            for _, t, c in again) for target in targets)
              for targets, words, _ in checks]
    # Written whole or not at all: make's second answer was for them together.
    for (_, _, finding), ok in zip(checks, passed):
        findings.append(finding if all(passed) else Finding(
            path, finding.line, '%s; not written: %s' % (
                finding.message, 'make then does not pass it to the command%s' % (
                    why and ' (%s)' % why or '') if not ok else 'another flag was not'), False))
    return ((edits, tail or '') if all(passed) else ([], '')), findings, True
