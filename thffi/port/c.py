"""The C side of `python -m thffi port`: C, C++ and CUDA sources are read
(only warp.py rewrites them); what legacy code commonly gets wrong is
reported.

- exit() / abort(): thffi ends the wrapped call with a RuntimeError when
  they run on the thread that made it or on a thread it started during the
  call (OpenMP, pthreads, std::thread), but _exit() still ends the process,
  and what the C allocated before them is not freed.
- A function that reads tensor memory (`_data(`, `->storage->data`) with no
  shape or layout check in it (THArgCheck, THAssert, nDimension,
  isContiguous, isSameSizeAs, size, stride): its loops index as if every
  tensor had the shape and contiguous layout it expects.  One that checks
  shapes but never reads a stride or asks for contiguity (_stride,
  ->stride[], _isContiguous, newContiguous) is reported too: it reads a
  non-contiguous view (permute, t(), narrow, a slice) in the wrong order.
  layouts() gives, per function, whether it reads memory and checks layout,
  for port's report of views passed to it from Python (layout.py).
- A function defined plain `inline` (toolchain/cc.py) where a C compile
  sees it (inline_findings(): a .c file, a header a .c file includes, at
  any depth, or one create_extension hands cffi's C module; not a header
  only CUDA or C++ includes, where `inline __device__` is what it means):
  C99 gives it no external definition, and today's gcc leaves calls to
  recursive and large ones out of line; thffi's build adds the definition,
  other builds fail to link.
- A CUDA name today's toolkit lacks (toolchain/cuda_api.py: texture
  references, cudaThreadSynchronize, cuSPARSE's legacy API...), once per
  name and file: the release that removed it and what replaces it.

These are heuristics over the text (comments and strings removed), not a
C parser: a check made in a helper function is not seen."""

import re

from ..toolchain import cuda_api, legacy_headers
from ..toolchain.cc import blank_comments_and_strings, c99_inline_definitions
from .report import Finding

_EXIT = re.compile(r'(?<![\w.>])(exit|abort|_exit)\s*\(')
_READS_MEMORY = re.compile(r'_data\s*\(|->storage->data\b|\bstorage->data\b')
_CHECK = re.compile(r'THArgCheck|THAssert|THError|nDimension|isContiguous|newContiguous'
                    r'|isSameSizeAs|_size\s*\(|->size\s*\[|_stride\s*\(|->stride\s*\[')
# What says the code knows the layout: strides read, contiguity asked or made.
# Sizes are not: a (4, 3) transpose has the sizes of a contiguous (4, 3).
_LAYOUT = re.compile(r'_stride\s*\(|->stride\s*\[|\bstrides?\s*\[|[iI]sContiguous'
                     r'|newContiguous|_contiguous\s*\(')
_KEYWORDS = ('if', 'for', 'while', 'switch', 'catch', 'sizeof', 'defined')
# An #include and the header it names.
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)
_CUDA_NAME = re.compile(r'(?<![\w.>])((?:cuda|cusparse|texture|surface)\w*)\s*[(<]')
_FUNCTION_HEAD = re.compile(r'(\w+)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*$')


def _functions(code):
    """(name, start, end) of each function definition: a brace block after a
    parameter list, outside other functions (extern "C" and namespace
    blocks are looked into)."""
    stack = []  # per open brace: (name, start) of a function, or None
    for i, ch in enumerate(code):
        if ch == '{':
            function = None
            if not any(stack):
                head = _FUNCTION_HEAD.search(code, max(0, i - 2000), i)
                if head and head.group(1) not in _KEYWORDS:
                    function = (head.group(1), i)
            stack.append(function)
        elif ch == '}' and stack:
            function = stack.pop()
            if function:
                yield function[0], function[1], i + 1


def scan_c(text, path):
    """[Finding] for one C/C++/CUDA source."""
    code = blank_comments_and_strings(text)
    findings = []
    for match in _EXIT.finditer(code):
        call = match.group(1)
        what = ('%s() ends the Python process' % call if call == '_exit' else
                '%s() becomes a RuntimeError on the thread of the wrapped call and on the '
                'threads it starts during the call (elsewhere it ends the Python process), '
                'and what the C allocated before it is not freed' % call)
        findings.append(Finding(path, code.count('\n', 0, match.start()) + 1,
                                '%s: report the error with THError/THArgCheck (a RuntimeError '
                                'in Python) or return an error code' % what, False))
    for name, start, end in _functions(code):
        body = code[start:end]
        if not _READS_MEMORY.search(body) or _LAYOUT.search(body):
            continue
        if not _CHECK.search(body):
            message = ('%s() indexes tensor memory without checking shapes or layout (no '
                       'THArgCheck, sizes, strides or isContiguous): input of another shape, '
                       'or a non-contiguous view, is read out of bounds or in the wrong order')
        else:
            message = ('%s() indexes tensor memory without checking its layout (no _stride, '
                       'isContiguous or newContiguous; sizes say nothing of it): a '
                       'non-contiguous view (permute, t(), narrow, a slice) is read in the '
                       'wrong order; take a contiguous copy (THFloatTensor_newContiguous, '
                       'THCudaTensor_newContiguous) or check isContiguous')
        findings.append(Finding(path, code.count('\n', 0, start) + 1, message % name, False))
    for match in _INCLUDE.finditer(text):
        # not in a comment: the # is still there where comments are blanked
        described = code[text.index('#', match.start())] == '#' and \
            legacy_headers.describe(match.group(1))
        if described:  # the build will refuse it: the compiler cannot find it
            findings.append(Finding(path, text.count('\n', 0, match.start()) + 1,
                                    described, False))
    seen = set()
    for match in _CUDA_NAME.finditer(code):
        name = match.group(1)
        described = name not in seen and cuda_api.describe_all([name])
        if described:
            seen.add(name)
            findings.append(Finding(path, code.count('\n', 0, match.start()) + 1,
                                    described[0], False))
    return sorted(findings, key=lambda f: f.line)


def inline_findings(texts, ffi_headers=()):
    """[Finding] for the functions defined plain `inline` in the files a C
    compile sees (texts: {relative path: text} of the sources read): the
    .c files, the headers they include, at any depth (compiled.py's
    include graph), and ffi_headers (those create_extension hands cffi,
    whose module is C), with the headers those include."""
    from .compiled import with_includes
    seen = with_includes(texts, [p for p in texts if p.endswith('.c')]
                         + [p for p in ffi_headers if p in texts])
    return [Finding(path, line, '%s() is defined plain `inline`: C99 gives it no external '
                    'definition, and gcc 10+ leaves calls to recursive or large functions out '
                    'of line (undefined symbol); thffi\'s build compiles its definition once, '
                    'saying so; for other builds make it `static inline`' % name, False)
            for path in sorted(seen) if path.endswith(('.c', '.h'))
            for name, line in c99_inline_definitions(texts[path]).items()]


def layouts(text):
    """{function name: whether it checks layout} for the functions of one
    C/C++/CUDA source that read tensor memory."""
    code = blank_comments_and_strings(text)
    return {name: bool(_LAYOUT.search(code[start:end])) for name, start, end in _functions(code)
            if _READS_MEMORY.search(code[start:end])}
