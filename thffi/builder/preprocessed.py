"""C as the preprocessor sees it: the functions the user's C defines for
inlining only (toolchain/cc.py's C99 inline rule), read from gcc -E's
output of each C source, run with the build's own compiler, include
folders, macros and flags, by pycparser.

A text search for the word `inline` misses `#define DEVICE_FUNC inline`
and `#if`-ed out code; the preprocessed translation unit has neither, and
its line markers say which file and line each definition came from.  C99
(6.7.4): a definition is for inlining only when every file-scope
declaration of the function says `inline` and none `extern`.  Under GNU89
inline semantics (-std=gnu89, -fgnu89-inline: gcc then defines
__GNUC_GNU_INLINE__) it is the `extern inline` definition instead.  Where
pycparser cannot read the source (GNU C it lacks: statement expressions,
asm statements...), each file's preprocessed text is searched
(cc.c99_inline_definitions), which still sees through macros."""

import collections
import functools
import os
import re
import subprocess

from pycparser import c_ast, c_parser

from ..toolchain import cc

# kind: 'inline' (C99: thffi's link adds the external definition) or
# 'extern inline' (GNU89: no declaration can make it one).
Definition = collections.namedtuple('Definition', 'name file line kind')

# gcc's flags that write files or name the output: not for a preprocessing run.
_OUTPUT_FLAGS = re.compile(r'-M[MDPG]?D?$|-c$|-o.+|-save-temps\S*')
_WITH_VALUE = ('-MF', '-MT', '-MQ', '-o')
_MARKER = re.compile(r'# (\d+) "((?:\\.|[^"\\])*)"')


def preprocess_command(compiler, args):
    """The command that preprocesses a C source as `compiler` (a list: the
    compile command's words, with its include and macro flags) and `args`
    (its other flags) compile it: less the flags that write files, plus
    cc.PARSER_MACROS, which make gcc's extensions readable by pycparser."""
    kept, skip = [], False
    for arg in list(compiler) + list(args):
        if skip or arg in _WITH_VALUE:
            skip = not skip
            continue
        if not _OUTPUT_FLAGS.fullmatch(arg):
            kept.append(arg)
    return kept + ['-E'] + ['-D%s=%s' % m for m in cc.PARSER_MACROS]


def inline_only(command, source, folder, is_users_file):
    """[Definition] of the functions `source`'s translation unit defines
    for inlining only, in files is_users_file(path) accepts, first
    definition first.  command: preprocess_command()'s; folder: where the
    compile ran (relative include folders start there).  [] when gcc -E
    fails (the compile itself said why)."""
    try:
        out = subprocess.run(command + [source], cwd=folder, capture_output=True, text=True,
                             errors='replace', timeout=120)
        gnu = subprocess.run(command + ['-dM', '-x', 'c', os.devnull], cwd=folder,
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    if out.returncode != 0:
        return []
    found = _definitions(_users_part(out.stdout, lambda path: is_users_file(
        os.path.normpath(os.path.join(folder, path)))), '__GNUC_GNU_INLINE__' in gnu.stdout)
    return [Definition(name, os.path.normpath(os.path.join(folder, path)), line, kind)
            for name, path, line, kind in found]


def _users_part(text, is_users_file):
    """The preprocessed unit `text` with only what the search needs: the
    lines of the user's files (with their line markers), and of the
    others (thffi's, the system's: thousands of declarations) only the
    typedefs, which the parser must know to read the rest."""
    kept, others = [], []
    users = False
    for row in text.split('\n'):
        marker = _MARKER.match(row)
        if marker:
            was, users = users, is_users_file(marker.group(2))
            if users and not was:
                kept += _typedefs('\n'.join(others))
                others = []
            if users:
                kept.append(row)
            continue
        (kept if users else others).append(row)
    return '\n'.join(kept + _typedefs('\n'.join(others)))


def _typedefs(code):
    """The file-scope typedef declarations of the C `code` (preprocessed),
    in order: declarations end at `;` outside brackets, function bodies at
    their closing brace."""
    code = cc.blank_comments_and_strings(code)
    found, start, depth, body = [], 0, 0, False
    for i, ch in enumerate(code):
        if ch in '([{':
            if ch == '{' and depth == 0:
                body = code[start:i].rstrip().endswith(')')
            depth += 1
        elif ch in ')]}':
            depth -= 1
            if ch == '}' and depth == 0 and body:
                start, body = i + 1, False
        elif ch == ';' and depth == 0:
            declaration = code[start:i + 1]
            if re.match(r'\s*typedef\b', declaration):
                found.append(' '.join(declaration.split()))
            start = i + 1
    return found


@functools.lru_cache(maxsize=32)
def _definitions(text, gnu_inline):
    """(name, file, line, kind) of the inline-only definitions of one
    preprocessed translation unit (a failed link asks twice: the message,
    then the rescue)."""
    try:
        unit = c_parser.CParser().parse(text, '<preprocessed>')
    except Exception:  # pycparser raises ParseError and plain errors
        return _text_definitions(text)
    declarations = collections.defaultdict(list)  # name: [file-scope Decl]
    definitions = []
    for node in unit.ext:
        decl = node.decl if isinstance(node, c_ast.FuncDef) else node
        if isinstance(decl, c_ast.Decl) and isinstance(decl.type, c_ast.FuncDecl):
            declarations[decl.name].append(decl)
            if isinstance(node, c_ast.FuncDef):
                definitions.append(decl)
    found = []
    for decl in definitions:
        if 'static' in decl.storage or 'inline' not in decl.funcspec:
            continue
        if gnu_inline:
            only = 'extern' in decl.storage
        else:
            only = all('inline' in d.funcspec and 'extern' not in d.storage
                       for d in declarations[decl.name])
        if only:
            found.append((decl.name, decl.coord.file, decl.coord.line,
                          'extern inline' if gnu_inline else 'inline'))
    return tuple(found)


def _text_definitions(text):
    """_definitions() where pycparser cannot read the unit: each file's
    lines put back at their line numbers (the line markers), searched
    for plain `inline` definitions."""
    files = collections.defaultdict(dict)  # file: {line: text}
    path, line = '<preprocessed>', 1
    for row in text.split('\n'):
        marker = _MARKER.match(row)
        if marker:
            path, line = marker.group(2), int(marker.group(1))
            continue
        files[path][line] = row
        line += 1
    found = []
    for path, rows in files.items():
        text = '\n'.join(rows.get(n, '') for n in range(1, max(rows) + 1))
        found += [(name, path, n, 'inline')
                  for name, n in cc.c99_inline_definitions(text).items()]
    return tuple(found)
