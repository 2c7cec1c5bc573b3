"""The commands of a CMake file (CMakeLists.txt, *.cmake), read by
pygments' CMake lexer into commands and their arguments (an argument's
span includes its quotes): port/cmake.py rewrites them argument by
argument.  CMake's nvcc commands are FindCUDA's and CMake's own, made when
it generates the build: no command here writes an object the builder
links."""

from pygments.lexers import CMakeLexer
from pygments.token import Comment, Punctuation, Whitespace

_BLOCK_OPENS = ('if', 'foreach', 'while', 'function', 'macro')
_BLOCK_CLOSES = ('endif', 'endforeach', 'endwhile', 'endfunction', 'endmacro')


def commands(text):
    """The commands of a CMake file, in order: (name, start, end, depth,
    [(start, end) of each argument]); depth: how many if/foreach/function
    blocks hold it."""
    commands, depth = [], 0
    tokens = iter(CMakeLexer().get_tokens_unprocessed(text))
    for pos, kind, value in tokens:
        if kind in Whitespace or kind in Comment or kind in Punctuation:
            continue
        name, start, args, arg, level = value, pos, [], None, 0
        for pos, kind, value in tokens:
            if kind in Punctuation and value in '()':
                if arg:
                    args.append(arg)
                    arg = None
                level += 1 if value == '(' else -1
                if level == 0:
                    break
            elif kind in Whitespace or kind in Comment:
                if arg:
                    args.append(arg)
                    arg = None
            else:
                arg = (arg[0] if arg else pos, pos + len(value))
        lowered = name.lower()
        depth -= lowered in _BLOCK_CLOSES
        commands.append((lowered, start, pos + 1, depth, args))
        depth += lowered in _BLOCK_OPENS
    return commands
