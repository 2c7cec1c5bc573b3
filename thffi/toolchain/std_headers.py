"""Standard C++ headers that 2018's compilers included for the code: g++ 5
and 6's libstdc++ headers included others (<algorithm> brought <limits>,
<vector> and <iostream> brought <string>...), and code that named
std::numeric_limits or std::string with only those included compiled;
g++ 11 and later include less, and the same code fails.

The compiler's verdict decides, not the text: a compile that fails saying
a std name is missing is compiled again with the header that declares it
included first (`-include limits`), and the build says so once.  The
header is the one the compiler names itself where it does (g++'s "note:
'std::string' is defined in header '<string>'; did you forget to
'#include <string>'?"), else this table's for the name its error gives
(g++ "'numeric_limits' is not a member of 'std'", nvcc's front end
'namespace "std" has no member "string"', clang "no member named
'string' in namespace 'std'"; g++ 12 names no header for numeric_limits).
The builder (builder/configure.py's _by_verdict, builder/compile.py for
.cu sources) and `thffi run` (run/shims.py) retry so; port writes the
#include into the C++ source where the compiler's verdict is the same
(port/std_headers.py).

HEADERS: a std name -> the header that declares it, for the errors that
name no header.  Which of libstdc++ 5's headers brought which others in is
no concern here: the retry is the compiler's verdict."""

import re

HEADERS = {
    'numeric_limits': 'limits', 'string': 'string', 'to_string': 'string',
    'ostringstream': 'sstream', 'istringstream': 'sstream', 'stringstream': 'sstream',
    'runtime_error': 'stdexcept', 'invalid_argument': 'stdexcept',
    'out_of_range': 'stdexcept', 'unique_ptr': 'memory', 'shared_ptr': 'memory',
    'function': 'functional', 'accumulate': 'numeric', 'iota': 'numeric',
}
WHY = ('2018\'s standard headers, g++ 5 and 6\'s, included such headers through others; '
       'today\'s do not')

_Q = '[\'\u2018\u2019"`]'  # the quotes of the C locale and of UTF-8 ones
_NAMED = re.compile(r'note: %sstd::(\w+)%s is defined in header %s<([\w./]+)>%s' % ((_Q,) * 4))
_MISSING = re.compile(r'error: (?:%s(\w+)%s is not a member of %sstd%s'
                      r'|namespace "std" has no member "(\w+)"'
                      r'|no (?:member|template) named %s(\w+)%s in namespace %sstd%s)'
                      % ((_Q,) * 8))


def forgotten(output):
    """[(header, std name)] of the headers a failed C++ compile's messages
    (bytes or str) say it needs, in the order first said."""
    if isinstance(output, bytes):
        output = output.decode('utf-8', 'replace')
    found = {}
    for name, header in _NAMED.findall(output):
        found.setdefault(header, name)
    for match in _MISSING.finditer(output):
        name = next(g for g in match.groups() if g)
        if name in HEADERS:
            found.setdefault(HEADERS[name], name)
    return list(found.items())


def retried(output, attempt):
    """(found, error, output) of a compile that failed with `output`,
    compiled again by attempt(flags) -> (error, output) (error falsy where
    it compiled) with the headers its messages name included first, a
    round for each new one named: the headers included ([] where the
    messages name none), the last error (True where there was no retry)
    and output."""
    found, error = [], True
    while True:
        new = [f for f in forgotten(output) if f not in found]
        if not new:
            return found, error, output
        found += new
        error, output = attempt(include_flags(h for h, _ in found))
        if not error:
            return found, error, output


def include_flags(headers):
    """The flags that include each of headers first."""
    return [flag for header in headers for flag in ('-include', header)]


def line(source, found):
    """The one line a build says when it compiled `source` with the headers
    `found` (forgotten()'s) included."""
    return '%s: compiled with %s included first: it names %s without including %s (%s)' % (
        source, ', '.join('<%s>' % h for h, _ in found),
        ', '.join('std::' + n for _, n in found),
        'it' if len(found) == 1 else 'them', WHY)
