"""C as gcc 5 compiled it, and the C and C++ compilers' flags.

torch.utils.ffi compiled the user's C sources with `-std=c99` and the gcc
of 2018 (gcc 5 on Ubuntu 16.04), which accepted with a warning much that
today's gcc refuses.  DIALECT_RULES lists each form: the builder compiles
it as gcc 5 did (a `-Wno-error=` flag where the compiler knows the warning,
tolerated_errors(); C99 inline definitions by the builder's link step) and
`port` reports the forms it can see in the text.

setuptools hands one extra_compile_args list to every source of an
extension; legacy build scripts put C++ flags there (`-std=c++11`) beside C
sources, and the legacy builder put `-std=c99` beside C++ ones.  CXX_ONLY
and C_ONLY list the flags gcc takes for one language only (for the other it
prints `command-line option '-std=c++11' is valid for C++/ObjC++ but not for
C` and ignores them); for_language() keeps a source's own."""

import collections
import functools
import re
import subprocess

# old: the 2018 form; new: how thffi compiles it (or what to write
# instead); why: what today's compiler does with it; release: the gcc
# release that changed it; warning: the gcc warning that reports the form,
# turned into an error by that release (None: not a warning).
Rule = collections.namedtuple('Rule', 'old new why release warning')
DIALECT_RULES = [
    Rule('a call to a function with no declaration in scope (C89\'s implicit `int f()`)',
         '-Wno-error=implicit-function-declaration: a warning, as before',
         'an error since gcc 14 (C99 removed implicit declarations)', 'gcc 14',
         'implicit-function-declaration'),
    Rule('a declaration without a type (`static count = 0;`, `f(x) {...}`, `register i;`, '
         'K&R parameters left undeclared)',
         '-Wno-error=implicit-int: int, with a warning, as before',
         'an error since gcc 14 (C99 removed implicit int)', 'gcc 14', 'implicit-int'),
    Rule('an integer used as a pointer or a pointer as an integer without a cast',
         '-Wno-error=int-conversion: converted, with a warning, as before',
         'an error since gcc 14', 'gcc 14', 'int-conversion'),
    Rule('a pointer passed for a pointer of another type (THFloatTensor * for '
         'THDoubleTensor *)',
         '-Wno-error=incompatible-pointer-types: converted, with a warning, as before',
         'an error since gcc 14', 'gcc 14', 'incompatible-pointer-types'),
    Rule('`return;` in a function returning a value, `return x;` in a void one',
         '-Wno-error=return-mismatch: a warning, as before',
         'an error since gcc 14', 'gcc 14', 'return-mismatch'),
    Rule('a declaration naming parameters without types (`int f(a, b);`)',
         '-Wno-error=declaration-missing-parameter-type: a warning, as before',
         'an error since gcc 14', 'gcc 14', 'declaration-missing-parameter-type'),
    Rule('K&R definitions (`int f(a) int a; {...}`), `int f();` called with arguments, '
         '`bool`/`true`/`false` defined by the code',
         '-std=c99, as torch.utils.ffi passed it',
         'gcc 15 compiles C as C23 by default, where `()` means `(void)`, old-style '
         'definitions are gone and bool is a keyword', 'gcc 15', None),
    Rule('a function defined plain `inline` (not static) in a header or source, with no '
         'external definition anywhere (C99 inline: the definition is for inlining only)',
         'its external definition compiled once, from the first source that includes it '
         '(an `extern` declaration after the source), saying so',
         'gcc 5 inlined every call to the ones the repositories used; gcc 12 leaves calls '
         'to recursive and large ones out of line (gcc 10 retuned inlining), so the '
         'library needs a definition nothing provides', 'gcc 10', None),
]

# C++ as 2018's g++ compiled it by default, newest first: g++ 6 to 10 as
# gnu++14, g++ 5 (Ubuntu 16.04's) as gnu++98.  g++ 11 and later default to
# gnu++17, which refuses some of what they took (`static const float gap =
# 0.25;` in a class: a GNU extension of gnu++98; `register`; dynamic
# exception specifications).  A C++ source given no -std that today's
# default refuses is compiled with the first of these the compiler accepts
# it under, saying so: the compiler's verdict decides, not the text.
OLD_CXX_DEFAULTS = [('gnu++14', "g++ 6 to 10's default"), ('gnu++98', "g++ 5's default")]
CXX_SUFFIXES = ('.cpp', '.cc', '.cxx', '.c++', '.C', '.cp', '.CPP')
_STD = re.compile(r'--?std(?:=|$)')


def names_a_standard(args):
    """Whether a compiler's arguments choose a language standard."""
    return any(_STD.match(arg) for arg in args)


def old_default_line(source, standard, why):
    """The one line a build says when it compiled `source` as 2018's g++."""
    return ('%s: compiled as %s (%s): today\'s g++ refuses it under its default standard'
            % (source, standard, why))


# A call with no declaration in scope of a function thffi defines (a TH
# function, from a file that includes no TH header): C compiles it as a
# call of `int f()`, each float argument passed as a double and the result
# read as an int, so the call computes garbage (THFloatBlas_dot returned 3
# for 6) where gcc 5 and today's gcc only warn.  The build fails on it,
# naming what to include.  gcc: "x.c:5:10: warning: implicit declaration
# of function 'f'"; clang: "... call to undeclared function 'f'".
_IMPLICIT_CALL = re.compile(r"^(.+?):(\d+):\d+: (?:warning|error): (?:implicit declaration of "
                            r"function|call to undeclared function) .(\w+).", re.M)
IMPLICIT_CALL_WHY = ('with no declaration in scope, C calls it as `int %s()`: float arguments '
                     'passed as double, the result read as an int, so it computes garbage')
IMPLICIT_CALL_FIX = '#include <TH/TH.h> (or <THC/THC.h>), which declares it'


def implicit_calls(output):
    """[(file, line, name)] of the calls of undeclared functions a C
    compiler's output reports, once each."""
    return list(dict.fromkeys((f, int(n), name) for f, n, name in _IMPLICIT_CALL.findall(output)))


# Macros that make gcc -E's output of today's glibc and gcc headers, and of
# the user's GNU C, readable by pycparser (C99 and some C11), for finding
# the C99 inline definitions above as the preprocessor sees them
# (builder/preprocessed.py): gcc's extensions that only decorate a declaration go,
# its own spellings of C keywords become the keywords, and its builtin
# types become a standard type of no importance to the search.
PARSER_MACROS = [('__attribute__(x)', ''), ('__extension__', ''), ('__asm__(x)', ''),
                 ('__asm(x)', ''), ('__restrict', ''), ('__restrict__', ''),
                 ('__inline', 'inline'), ('__inline__', 'inline'), ('__volatile__', 'volatile'),
                 ('__const', 'const'), ('__signed__', 'signed'),
                 ('__builtin_va_list', 'int'), ('__builtin_va_arg(v,t)', '(*(t *)0)'),
                 ('__builtin_offsetof', 'offsetof'), ('__typeof__(x)', 'int'),
                 ('__int128', 'long'), ('__float128', 'double'), ('_Float128', 'double'),
                 ('_Float64', 'double'), ('_Float32', 'float'), ('_Float64x', 'double'),
                 ('_Float32x', 'double')]

# Flags gcc takes for one language only (regular expressions matching one
# argument whole; -W forms also with no- and error=).
_CXX_WARNINGS = ('reorder', 'non-virtual-dtor', 'overloaded-virtual', 'effc\\+\\+',
                 'ctor-dtor-privacy', 'old-style-cast', 'sign-promo', 'deprecated-copy',
                 'class-memaccess', 'catch-value', 'pessimizing-move', 'redundant-move',
                 'register', 'noexcept', 'zero-as-null-pointer-constant', 'useless-cast',
                 'delete-non-virtual-dtor', 'virtual-move-assign', 'terminate',
                 'conversion-null', 'invalid-offsetof', 'placement-new(?:=\\d)?',
                 'subobject-linkage', 'literal-suffix')
_C_WARNINGS = ('strict-prototypes', 'missing-prototypes', 'old-style-definition',
               'old-style-declaration', 'implicit', 'implicit-int',
               'implicit-function-declaration', 'declaration-after-statement',
               'bad-function-cast', 'nested-externs', 'missing-parameter-type', 'pointer-sign',
               'pointer-to-int-cast', 'incompatible-pointer-types', 'int-conversion',
               'return-mismatch', 'declaration-missing-parameter-type', 'c\\+\\+-compat',
               'traditional', 'traditional-conversion', 'jump-misses-init', 'override-init',
               'discarded-qualifiers', 'discarded-array-qualifiers', 'designated-init',
               'unsuffixed-float-constants', 'enum-int-mismatch')
CXX_ONLY = [r'--?std=(?:c|gnu)\+\+\w+', r'-f(?:no-)?rtti', '-fpermissive',
            r'-f(?:no-)?threadsafe-statics', '-fvisibility-inlines-hidden',
            r'-fno-implicit(?:-inline)?-templates', '-fno-elide-constructors',
            r'-ftemplate-depth=\d+', '-fno-operator-names',
            '-fstrict-enums', '-fno-gnu-keywords', '-nostdinc\\+\\+',
            r'-W(?:no-)?(?:error=)?(?:%s)' % '|'.join(_CXX_WARNINGS)]
C_ONLY = [r'--?std=(?:c|gnu|iso9899:)(?!\+\+)[\w:]+', '-fgnu89-inline',
          r'-W(?:no-)?(?:error=)?(?:%s)' % '|'.join(_C_WARNINGS)]
_CXX_ONLY = re.compile('|'.join('(?:%s)' % p for p in CXX_ONLY))
_C_ONLY = re.compile('|'.join('(?:%s)' % p for p in C_ONLY))


def for_language(args, language):
    """(kept, dropped): the arguments of `args` for a source in `language`
    ('c' or 'c++'), less the flags only the other language takes."""
    other = _C_ONLY if language == 'c++' else _CXX_ONLY
    kept, dropped = [], []
    for arg in args:
        (dropped if other.fullmatch(arg) else kept).append(arg)
    return kept, dropped


# gcc: "'-Wno-error=return-mismatch': no option '-Wreturn-mismatch'";
# clang: "unknown warning option '-Wno-error=return-mismatch'".
_UNKNOWN_WARNING = re.compile(r"no option .-W([\w+-]+)|unknown warning option .-W(?:no-)?"
                              r"(?:error=)?([\w+-]+)")


@functools.lru_cache(maxsize=None)
def tolerated_errors(compiler):
    """The `-Wno-error=<warning>` flags of DIALECT_RULES that the C compiler
    `compiler` (a tuple: the command line that compiles C, CC's words)
    knows: gcc 12 has no -Wreturn-mismatch and refuses a flag naming it;
    gcc 14 needs it.  One run of the compiler on empty input; [] when it
    cannot be run."""
    flags = ['-Wno-error=%s' % rule.warning for rule in DIALECT_RULES if rule.warning]
    command = list(compiler) + ['-x', 'c', '-fsyntax-only', '-']
    try:
        out = subprocess.run(command + flags, input='', capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    unknown = {a or b for a, b in _UNKNOWN_WARNING.findall(out.stderr)}
    kept = [f for f in flags if f[len('-Wno-error='):] not in unknown]
    if out.returncode != 0 and not unknown:
        return []  # refused for a reason this cannot tell apart: add nothing
    return kept


# A comment, or a string or char literal (C, C++, CUDA).
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                               re.S)


def _blank(match):
    """The match with everything but newlines turned into spaces, so that
    offsets and line numbers stay."""
    return re.sub(r'[^\n]', ' ', match.group(0))


def blank_comments_and_strings(text):
    """text with its comments and string and char literals blanked."""
    return COMMENT_OR_STRING.sub(_blank, text)


_DEFINITION_HEAD = re.compile(r'\b(\w+)\s*\(')
_BODY = re.compile(r'\s*\{')
_INLINE = re.compile(r'\b(?:inline|__inline__|__inline)\b')
_STATIC_OR_EXTERN = re.compile(r'\b(?:static|extern)\b')


def c99_inline_definitions(text):
    """{name: line} of the functions `text` (C) defines plain `inline` at
    file scope: C99 inline definitions, which give no external definition
    (`static inline` and `extern inline` ones are not listed)."""
    code = blank_comments_and_strings(text)
    found, depth, checked = {}, 0, 0
    for match in _DEFINITION_HEAD.finditer(code):
        depth += code.count('{', checked, match.start()) - code.count('}', checked,
                                                                       match.start())
        checked = match.start()
        if depth:
            continue
        close, level = match.end() - 1, 0
        for close in range(match.end() - 1, len(code)):
            level += {'(': 1, ')': -1}.get(code[close], 0)
            if level == 0:
                break
        if not _BODY.match(code, close + 1):
            continue
        # the specifiers: back to the end of the previous declaration, less
        # preprocessor lines (`#include "x.h"` before `inline float f(...)`)
        head = code[max(code.rfind(c, 0, match.start()) for c in ';{}') + 1:match.start()]
        head = '\n'.join(line for line in head.split('\n') if not line.lstrip().startswith('#'))
        if _INLINE.search(head) and not _STATIC_OR_EXTERN.search(head):
            found.setdefault(match.group(1), code.count('\n', 0, match.start()) + 1)
    return found
