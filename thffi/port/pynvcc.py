"""nvcc run from Python, the build.py/setup.py side of `python -m thffi port`:
`os.system('nvcc -c ... -arch=sm_50 -std=c++11')`, `subprocess.call("nvcc ...
-arch=sm_52".split())`, `['nvcc', '-c', src, '-o', obj, '-arch=sm_52']`, built
by concatenation, % or .format, usually followed by sys.exit when it fails.

readers/python.py reads those commands with Python's own ast, following
the script's assignments (strings, lists, +, %, .format, ' '.join, .split(),
os.path.join/dirname/abspath of __file__...): what the builder needs to
rebuild an object with the flags of the command that was to write it.

rewrite_nvcc_calls() rewrites them with libcst (imported there: the builder
needs only the reading), in the statements that hold an nvcc command and
those that set what they use:
- nvcc flags today's nvcc rejects or renamed (toolchain/nvcc.py's
  FLAG_RULES) inside the strings; a list element the rules delete goes.
- architecture flags naming one the installed nvcc rejects: in a string,
  `' '.join(nvcc_arch_flags())` (thffi's architectures, asked when the
  script runs: TORCH_CUDA_ARCH_LIST...) joined in where the first of them
  stood, the string parenthesised where an operator or method applies to
  it; in a list, `*nvcc_arch_flags()`; in an f-string, a {...} of it.
  `from thffi import nvcc_arch_flags` is added.
- architectures computed by the script ('-arch=sm_%d' % arch) are
  reported with what to write."""

import re
import warnings

with warnings.catch_warnings():
    # As in python.py: libcst's metadata package warns as it loads.
    warnings.filterwarnings('ignore', 'mypy_extensions.TypedDict', DeprecationWarning)
    import libcst as cst
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from ..toolchain.nvcc import ARCH_NUMBER, ARCH_OPTIONS, OLDEST_WITHOUT_NVCC, describe, \
    flag_edits, rejected
from .readers.shell import command_spans
from .report import Finding

CALL = 'nvcc_arch_flags()'
# A command's first word that runs nvcc.
_NVCC = re.compile(r'(?:\S*[/\\])?nvcc(?:\.exe)?$')
# What stands for a value the script computes (not a string literal) in
# the command line a string expression makes.
_VALUE = '__thffi_value__'
# A first word that names no program: an option, something computed, a file.
_NOT_A_PROGRAM = re.compile(r'-|.*(?:%s|[%%{$]|\.(?:cu|cuh|c|cc|cpp|h|o)$)' % _VALUE)
# A flag and its value inside a string ('-gencode arch=...', '-arch=sm_30').
_ARCH_FLAG = re.compile(r'(?<![\w-])(?:%s)(?:=|[ \t]+)([^\s"\']+)' % '|'.join(ARCH_OPTIONS))
_COMPUTED_ARCH = re.compile(r'(?:sm|compute)_(?:%|\{)')
# Options whose value may be the next list element.
_VALUE_OPTIONS = ('-std', '--std', '-ccbin', '--compiler-bindir')
# Where a string can become `a + b + c` without parentheses.
_BARE = (cst.Arg, cst.Element, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Return, cst.Expr)


def _quote(node):
    """(prefix, quote, body) of a SimpleString's code."""
    code = node.value
    prefix = code[:len(code) - len(code.lstrip('rRuUbBfF'))]
    rest = code[len(prefix):]
    quote = rest[:3] if rest[:3] in ("'''", '"""') else rest[0]
    return prefix, quote, rest[len(quote):-len(quote)]


def _string(prefix, quote, body):
    return cst.SimpleString(prefix + quote + body + quote)


def _tool(command):
    """'nvcc', another program's name (g++, cd), or None where the command
    is a piece whose program is not known (' -arch=sm_52' joined later to
    'nvcc ...', a value the script computes)."""
    words = command.split()
    while len(words) > 1 and re.match(r'\w+=', words[0]):  # CUDA_PATH=... nvcc
        words = words[1:]
    if not words or _NOT_A_PROGRAM.match(words[0]):
        return None
    return 'nvcc' if _NVCC.match(words[0]) else re.split(r'[/\\]', words[0])[-1]


def _runs_nvcc(value):
    """Whether a string, as the shell splits it, runs nvcc."""
    return 'nvcc' in value and any(_tool(value[s:e]) == 'nvcc' for s, e in command_spans(value))


def _pieces(node):
    """The pieces of a string expression (a + b + ..., implicitly joined
    strings, an f-string) in order: (node, its code) of each string
    literal, or the node of each value in between."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) or \
            isinstance(node, cst.ConcatenatedString):
        return _pieces(node.left) + _pieces(node.right)
    if isinstance(node, cst.SimpleString) and 'b' not in _quote(node)[0].lower():
        return [(node, _quote(node)[2])]
    if isinstance(node, cst.FormattedString):
        return [(p, p.value) if isinstance(p, cst.FormattedStringText) else p
                for p in node.parts]
    return [node]


def nvcc_spans(node, found=None):
    """{id(string literal node): [(start, end)]}: where in each string
    literal under node nvcc's rules apply.  Each string expression is read
    as the command line it makes (its values standing as words), split
    where the shell splits it: a command of nvcc, or a piece whose program
    is not known (joined to one elsewhere), takes the rules; another
    program's (`cd src; g++ -std=c++11 ...`) does not."""
    found = {} if found is None else found
    pieces = _pieces(node)
    literals = [p for p in pieces if isinstance(p, tuple)]
    if not literals:
        for child in node.children:
            nvcc_spans(child, found)
        return found
    line, starts = '', []
    for piece in pieces:
        starts.append(len(line))
        line += piece[1] if isinstance(piece, tuple) else _VALUE
    applying = [(s, e) for s, e in command_spans(line) if _tool(line[s:e]) in ('nvcc', None)]
    for piece, start in zip(pieces, starts):
        if not isinstance(piece, tuple):
            nvcc_spans(piece, found)
            continue
        end = start + len(piece[1])
        found[id(piece[0])] = [(max(s, start) - start, min(e, end) - start) for s, e in applying
                               if s < end and start < e]
    return found


def _strip_deleted(body, spans):
    """body with the spans deleted, each with the blanks before it (at the
    string's start, with those after it: '-arch=sm_52 ' goes whole)."""
    for start, end in sorted(spans, reverse=True):
        if start == 0:
            while end < len(body) and body[end] in ' \t':
                end += 1
        while start > 0 and body[start - 1] in ' \t':
            start -= 1
        body = body[:start] + body[end:]
    return body


def _flags(body):
    """(body, [Change]): FLAG_RULES in a string's code."""
    edits = flag_edits(body)
    deleted = [(s, e) for s, e, new, _ in edits if not new]
    for start, end, new, _ in reversed([e for e in edits if e[2]]):
        body = body[:start] + new + body[end:]
    return _strip_deleted(body, deleted) if deleted else body, [e[3] for e in edits]


def _concatenated(nodes):
    """Strings joined implicitly: [(node, whitespace before it or None)]."""
    node = nodes[-1][0]
    for (left, _), (_, space) in zip(reversed(nodes[:-1]), reversed(nodes[1:])):
        node = cst.ConcatenatedString(left, node, whitespace_between=space or
                                      cst.SimpleWhitespace(' '))
    return node


class _Unit:
    """A statement (or an if/while test): the names it sets and reads, and
    whether a string in it starts an nvcc command."""

    def __init__(self, node):
        self.node, self.writes, self.reads, self.runs_nvcc = node, set(), set(), False


class _Units(cst.CSTVisitor):
    def __init__(self):
        super().__init__()
        self.units, self.stack = [], []

    def _open(self, node):
        unit = _Unit(node)
        self.units.append(unit)
        self.stack.append(unit)

    def visit_SimpleStatementLine(self, node):
        self._open(node)

    def leave_SimpleStatementLine(self, node):
        self.stack.pop()

    # `if sp.call(("nvcc ..." % (a, b)).split()) != 0:`: the test is a unit
    # of its own (the body's statements are theirs).
    def visit_If_test(self, node):
        self._open(node.test)

    def leave_If_test(self, node):
        self.stack.pop()

    def visit_While_test(self, node):
        self._open(node.test)

    def leave_While_test(self, node):
        self.stack.pop()

    def visit_Name(self, node):
        if self.stack:
            self.stack[-1].reads.add(node.value)

    def visit_AssignTarget(self, node):
        if self.stack and isinstance(node.target, cst.Name):
            self.stack[-1].writes.add(node.target.value)

    def visit_AugAssign(self, node):
        if self.stack and isinstance(node.target, cst.Name):
            self.stack[-1].writes.add(node.target.value)

    def visit_Call(self, node):
        """x.append(...), x.extend(...): x is set."""
        func = node.func
        if self.stack and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                and func.attr.value in ('append', 'extend', 'insert'):
            self.stack[-1].writes.add(func.value.value)

    def visit_SimpleString(self, node):
        value = node.evaluated_value
        if self.stack and isinstance(value, str) and _runs_nvcc(value):
            self.stack[-1].runs_nvcc = True

    def visit_FormattedStringText(self, node):
        if self.stack and _runs_nvcc(node.value):
            self.stack[-1].runs_nvcc = True


def _nvcc_units(module):
    """The statements holding nvcc commands and those setting the names they
    use, through the names those use."""
    visitor = _Units()
    module.visit(visitor)
    chosen = [u for u in visitor.units if u.runs_nvcc]
    names = set().union(*[u.reads | u.writes for u in chosen])
    grew = True
    while grew:
        grew = False
        for unit in visitor.units:
            if unit not in chosen and unit.writes & names:
                chosen.append(unit)
                names |= unit.reads | unit.writes
                grew = True
    return [u.node for u in chosen]


class _Strings(cst.CSTVisitor):
    """The string nodes under a statement, and the architecture numbers of
    the flags in them where nvcc's rules apply (spans: nvcc_spans())."""

    def __init__(self, spans):
        super().__init__()
        self.nodes, self.numbers, self.spans = [], [], spans

    def visit_SimpleString(self, node):
        self.nodes.append(node)
        self._scan(node, _quote(node)[2])

    def visit_FormattedStringText(self, node):
        self.nodes.append(node)
        self._scan(node, node.value)

    def visit_List(self, node):
        self.nodes.append(node)
        self._list(node)

    def visit_Tuple(self, node):
        self.nodes.append(node)
        self._list(node)

    def _scan(self, node, code):
        for start, end in self.spans.get(id(node), [(0, len(code))]):
            self.numbers += [int(n) for m in _ARCH_FLAG.finditer(code, start, end)
                             for n in ARCH_NUMBER.findall(m.group(1))]

    def _list(self, node):
        """'-gencode', 'arch=compute_30,code=sm_30' as two elements."""
        values = _list_values(node)
        if _other_program(values):
            return
        for value, following in zip(values, values[1:]):
            if value in ARCH_OPTIONS and isinstance(following, str):
                self.numbers += [int(n) for n in ARCH_NUMBER.findall(following)]


def _emptied(node, original):
    """Whether node is a string that was not empty before the rewrite and
    is now."""
    return (isinstance(node, cst.SimpleString) and isinstance(original, cst.SimpleString)
            and not _quote(node)[2] and bool(_quote(original)[2]))


def _list_values(node):
    """The string values of a list's (or tuple's) elements, None for others."""
    return [e.value.evaluated_value if isinstance(e.value, cst.SimpleString) and
            isinstance(e.value.evaluated_value, str) else None for e in node.elements]


def _other_program(values):
    """Whether an argument list (its string values) runs a program other
    than nvcc: ['g++', '-std=c++11', ...]."""
    return bool(values) and values[0] is not None and _tool(values[0]) not in ('nvcc', None)


class _Rewriter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (ParentNodeProvider, PositionProvider)

    def __init__(self, units, accepted, path):
        super().__init__()
        self.path, self.findings, self.uses_call = path, [], False
        self.unit_of, self.rejected, self.done, self.spans = {}, {}, set(), {}
        for index, unit in enumerate(units):
            nvcc_spans(unit, self.spans)
            strings = _Strings(self.spans)
            unit.visit(strings)
            for node in strings.nodes:
                self.unit_of[id(node)] = index
            self.rejected[index] = rejected(strings.numbers, accepted)
        self.accepted = accepted
        self.list_elements = set()

    def _line(self, node):
        return self.get_metadata(PositionProvider, node).start.line

    def _report(self, node, message, fixed=True):
        finding = Finding(self.path, self._line(node), message, fixed)
        if finding not in self.findings:
            self.findings.append(finding)

    def _arch_message(self, unit):
        return ('nvcc architecture flags: %s %s; now %s (from thffi: TORCH_CUDA_ARCH_LIST, '
                'asked when the script runs)' % (
                    ', '.join('sm_%d' % n for n in self.rejected[unit]),
                    'rejected by the installed nvcc' if self.accepted else
                    'older than sm_%d (no nvcc found to ask)' % OLDEST_WITHOUT_NVCC, CALL))

    def _join(self, quote):
        q = '"' if quote.startswith('"') else "'"
        return cst.parse_expression('%s %s.join(%s)' % (q, q, CALL))

    # -- lists: one argument an element -------------------------------------

    def visit_List(self, node):
        self.list_elements |= {id(e.value) for e in node.elements}

    visit_Tuple = visit_List

    def leave_List(self, original, updated):
        return self._elements(original, updated)

    leave_Tuple = leave_List

    def _elements(self, original, updated):
        unit = self.unit_of.get(id(original))
        if unit is None:
            return updated
        elements = list(updated.elements)
        values = _list_values(updated)
        if _other_program(values):  # another compiler's flags are its own
            return updated
        out, changes, arch, i = [], [], False, 0
        while i < len(elements):
            value = values[i]
            following = values[i + 1] if i + 1 < len(values) else None
            name, eq, inline = (value or '').partition('=')
            width = 1 if eq else 2
            if value and name in ARCH_OPTIONS and ARCH_NUMBER.search(inline if eq else
                                                                      following or ''):
                if self.rejected[unit]:
                    arch = True
                    if unit not in self.done:
                        self.done.add(unit)
                        out.append(cst.StarredElement(cst.parse_expression(CALL),
                                                      comma=elements[i + width - 1].comma))
                        self.uses_call = True
                else:
                    out += elements[i:i + width]
                i += width
                continue
            if value and value in _VALUE_OPTIONS and following is not None:
                new, found = _flags(value + ' ' + following)
                if found:
                    changes += found
                    if new:
                        first, second = new.split(' ', 1)
                        out += [self._set(elements[i], first), self._set(elements[i + 1], second)]
                    i += 2
                    continue
            if value:
                new, found = _flags(value)
                changes += found
                if found and not new:
                    i += 1
                    continue
                elements[i] = self._set(elements[i], new) if found else elements[i]
            out.append(elements[i])
            i += 1
        if arch:
            self._report(original, self._arch_message(unit))
        if changes:
            self._report(original, 'nvcc flags: %s' % describe(changes))
        if out and elements and out[-1] is not elements[-1]:
            out[-1] = out[-1].with_changes(comma=elements[-1].comma)
        return updated.with_changes(elements=out)

    @staticmethod
    def _set(element, value):
        prefix, quote, _ = _quote(element.value)
        return element.with_changes(value=_string(prefix, quote, value))

    # -- strings ------------------------------------------------------------

    def _body(self, original, unit, body):
        """(body, replaced): a string's code with its architecture flags
        deleted (the first of the statement's, when rejected, becoming a
        NUL where thffi's are to go) and FLAG_RULES applied, where nvcc's
        rules apply (nvcc_spans()); reported."""
        out, last = [], 0
        for start, end in self.spans.get(id(original), [(0, len(body))]):
            out += [body[last:start], self._command(original, unit, body[start:end])]
            last = end
        return ''.join(out) + body[last:]

    def _command(self, original, unit, body):
        """_body() of the part of a string that is (a piece of) an nvcc
        command."""
        if _COMPUTED_ARCH.search(body):
            self._report(original, 'nvcc architecture computed by the script (%s): not changed; '
                         'today\'s nvcc has nothing older than sm_75: pass the flags of %s '
                         '(from thffi import nvcc_arch_flags) instead' % (body.strip(), CALL),
                         False)
        flags = [m.span() for m in _ARCH_FLAG.finditer(body) if ARCH_NUMBER.search(m.group(1))]
        if flags and self.rejected[unit]:
            if unit not in self.done:  # said once a statement, at its first flag
                self._report(original, self._arch_message(unit))
            first = flags[0] if unit not in self.done else None
            self.done.add(unit)
            for start, end in reversed(flags):
                if (start, end) == first:
                    body = body[:start] + '\0' + body[end:]
                else:
                    body = _strip_deleted(body, [(start, end)])
        body, changes = _flags(body)
        if changes:
            self._report(original, 'nvcc flags: %s' % describe(changes))
        return body

    def leave_BinaryOperation(self, original, updated):
        """A string the rewrite emptied goes from a + b + ... ."""
        if isinstance(updated.operator, cst.Add):
            for side, was, other in ((updated.right, original.right, updated.left),
                                     (updated.left, original.left, updated.right)):
                if _emptied(side, was):
                    return other.with_changes(lpar=updated.lpar, rpar=updated.rpar) \
                        if updated.lpar else other
        return updated

    def leave_SimpleString(self, original, updated):
        unit = self.unit_of.get(id(original))
        parent = self.get_metadata(ParentNodeProvider, original)
        if unit is None or id(original) in self.list_elements or \
                isinstance(parent, cst.ConcatenatedString):  # see leave_ConcatenatedString
            return updated
        prefix, quote, body = _quote(updated)
        if 'b' in prefix.lower():
            return updated
        return self._joined(parent, [(prefix, quote, self._body(original, unit, body))], [])

    def leave_ConcatenatedString(self, original, updated):
        """'nvcc -c %s -arch=sm_52 ' '-O2' (implicitly joined strings, one
        atom): rewritten as a whole, by the outermost."""
        parent = self.get_metadata(ParentNodeProvider, original)
        if isinstance(parent, cst.ConcatenatedString):
            return updated
        parts, spaces, outer = [], [], updated
        while isinstance(updated, cst.ConcatenatedString):
            parts.append((updated.left, original.left))
            spaces.append(updated.whitespace_between)
            updated, original = updated.right, original.right
        parts.append((updated, original))
        pieces = []
        for part, before in parts:
            unit = self.unit_of.get(id(before))
            prefix = _quote(part)[0] if isinstance(part, cst.SimpleString) else 'f'
            if unit is None or 'b' in prefix.lower() or 'f' in prefix.lower():
                pieces.append(part)
            else:
                prefix, quote, body = _quote(part)
                pieces.append((prefix, quote, self._body(before, unit, body)))
        return self._joined(parent, pieces, spaces, outer)

    def _joined(self, parent, pieces, spaces, outer=None):
        """The expression for strings joined implicitly (pieces: nodes, or
        (prefix, quote, body) of SimpleStrings; spaces: the whitespace
        between them; outer: the node they were, whose parentheses stay):
        the same strings, or where a body holds the NUL _body() left, those
        before it + ' '.join(nvcc_arch_flags()) + those after it, in
        parentheses unless its place needs none.  A string the rewrite left
        empty goes."""
        before, after, join = [], [], None
        for k, piece in enumerate(pieces):
            space = spaces[k - 1] if k else None
            if isinstance(piece, tuple) and not piece[2] and len(pieces) > 1:
                continue
            if isinstance(piece, tuple) and '\0' in piece[2]:
                prefix, quote, body = piece
                head, tail = body.split('\0')
                join = self._join(quote)
                before += [(_string(prefix, quote, head), space)] if head else []
                after += [(_string(prefix, quote, tail), None)] if tail else []
                continue
            node = _string(*piece) if isinstance(piece, tuple) else piece
            (after if join else before).append((node, space if (after if join else before)
                                                else None))
        lpar, rpar = (outer.lpar, outer.rpar) if outer is not None else ((), ())
        if join is None:
            return _concatenated(before).with_changes(lpar=lpar, rpar=rpar)
        self.uses_call = True
        parts = ([_concatenated(before)] if before else []) + [join] + (
            [_concatenated(after)] if after else [])
        expression = parts[0]
        for part in parts[1:]:
            expression = cst.BinaryOperation(expression, cst.Add(), part)
        bare = isinstance(parent, _BARE) or len(parts) == 1 or (
            isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add))
        if lpar or not bare:
            return expression.with_changes(lpar=lpar or [cst.LeftParen()],
                                           rpar=rpar or [cst.RightParen()])
        return expression

    def leave_FormattedString(self, original, updated):
        inner = '"' if "'" in updated.start else "'"
        parts = []
        for part, before in zip(updated.parts, original.parts):
            unit = self.unit_of.get(id(before))
            if not isinstance(part, cst.FormattedStringText) or unit is None:
                parts.append(part)
                continue
            body = self._body(before, unit, part.value)
            pieces = body.split('\0')
            for k, piece in enumerate(pieces):
                if k:
                    self.uses_call = True
                    parts.append(cst.FormattedStringExpression(
                        cst.parse_expression('%s %s.join(%s)' % (inner, inner, CALL))))
                if piece:
                    parts.append(cst.FormattedStringText(piece))
        return updated.with_changes(parts=parts)


def rewrite_nvcc_calls(text, path, accepted):
    """(new text, [Finding]) for one Python file that runs nvcc (a file
    that does not, or that libcst cannot parse, comes back unchanged: the
    Python rewriter reports the latter).  accepted: the compute
    capabilities of the installed nvcc, or None."""
    if 'nvcc' not in text:
        return text, []
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return text, []
    units = _nvcc_units(module)
    if not units:
        return text, []
    wrapper = MetadataWrapper(module)
    # The units, as the wrapper's copy of the tree holds them.
    units = _nvcc_units(wrapper.module)
    rewriter = _Rewriter(units, accepted, path)
    tree = wrapper.visit(rewriter)
    if rewriter.uses_call:
        context = CodemodContext(filename=path)
        AddImportsVisitor.add_needed_import(context, 'thffi', 'nvcc_arch_flags')
        tree = AddImportsVisitor(context).transform_module(tree)
    return tree.code, sorted(rewriter.findings, key=lambda f: f.line)
