"""A build script's CUDA gate, checked before `port` rewrites it.

`port` makes a build script's `torch.cuda.is_available()` thffi's
cuda_enabled(), so that a CUDA toolkit, not a GPU, turns the CUDA branch on
(python.py).  That turns the branch on on machines where it never ran: when
it names a file that was never committed (`sources += ['src/x_cuda.c']`), a
build that worked with the hook alone fails after `port`.  So the gates of a
build script are rewritten only when every file its CUDA branches name
exists; otherwise all of them are kept (one decision for the script: a kept
`if` beside a rewritten `with_cuda=` would build CPU sources as CUDA) and
the missing files are reported with their lines.

A branch is the body of an `if` whose test calls torch.cuda.is_available()
or reads a name assigned its result (its `else` for `if not ...`), or the
statements after `assert torch.cuda.is_available()` in its block.  The
files it names are what it adds to the headers, sources and extra_objects
of create_extension: assignments (=, +=, .append, .extend) in the branch to
the names the script's create_extension calls pass for those, and those
arguments of a create_extension call in the branch.  Their values are read
as Python evaluates them, as far as the script says: string literals, lists
and tuples, +, str.format and %, os.path's join, dirname, abspath, realpath,
basename and normpath, __file__, glob.glob, sorted/list/tuple, a list
comprehension over a known list, and the names the script assigned such
values before (in order, as it runs).  Paths are relative to the build
script's folder; a glob pattern exists when it matches; an object the
repository's build files make with nvcc (Repository.built_by_nvcc) exists
once they ran, and one whose .cu lies beside it is compiled by thffi's
build (docs/porting/rebuilt_objects.md).  A
value that cannot be read so keeps the gates too, reported as such: what
it names cannot be shown to exist."""

import glob
import os

import libcst as cst
from libcst.metadata import PositionProvider, QualifiedNameProvider

from .report import Finding

_GATE = 'torch.cuda.is_available'
_FILE_ARGUMENTS = {'headers': 1, 'sources': 2, 'extra_objects': None}  # keyword: position
_PATH_FUNCTIONS = {'os.path.' + n: getattr(os.path, n)
                   for n in ('join', 'dirname', 'abspath', 'realpath', 'basename', 'normpath')}
_LIST_FUNCTIONS = {'builtins.sorted': sorted, 'builtins.list': list, 'builtins.tuple': tuple}


class _Unknown(Exception):
    """A value the script does not say (a call, a name assigned elsewhere...)."""


class _Glob(str):
    """A glob pattern from glob.glob(): names every file it matches."""


def check(wrapper, path, filename, built_by_nvcc, gate_names):
    """[Finding] for the CUDA branches of a build script (a libcst
    MetadataWrapper of it) that name files which do not exist, or that
    cannot be read: empty when its gates may be rewritten.  path is for
    the report, filename the script on disk (None: not on disk, so a branch
    naming files cannot be checked), built_by_nvcc the file names the
    repository's nvcc commands write, gate_names the names the script
    assigns torch.cuda.is_available()."""
    return _Checker(wrapper, path, filename, built_by_nvcc, gate_names).run()


class _Checker:
    def __init__(self, wrapper, path, filename, built_by_nvcc, gate_names):
        self.module = wrapper.module
        self.names = wrapper.resolve(QualifiedNameProvider)
        self.positions = wrapper.resolve(PositionProvider)
        self.path = path
        self.file = os.path.abspath(filename) if filename else None
        self.folder = os.path.dirname(self.file) if self.file else None
        self.built_by_nvcc = set(built_by_nvcc)
        self.gate_names = set(gate_names)
        self.file_names = set()  # names create_extension is given for files
        self.gate_lines = []  # of its torch.cuda.is_available() calls
        self.findings = []

    def run(self):
        self.module.visit(_Calls(self))
        self._block(self.module.body, {})
        if not self.findings:
            return []
        lines = sorted(set(self.gate_lines))
        kept = ', '.join(map(str, lines))
        return [Finding(self.path, line, '%s; so torch.cuda.is_available() is kept (line%s %s): '
                        'cuda_enabled() would take the branch wherever a CUDA toolkit exists, '
                        'GPU or not, and the build would fail there; commit what is missing '
                        '(or take it out of the branch), then write cuda_enabled()'
                        % (text, 's' if len(lines) > 1 else '', kept), False)
                for line, text in self.findings]

    def _line(self, node):
        position = self.positions[node]
        return (position() if callable(position) else position).start.line

    def qualified(self, node):
        names = self.names.get(node, ())
        if callable(names):  # libcst resolves this provider lazily
            names = names()
        return {q.name for q in names}

    def is_gate(self, test):
        """1 for a test that is a gate, -1 for `not gate`, 0 otherwise."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return -self.is_gate(test.expression)
        if isinstance(test, cst.Name) and test.value in self.gate_names:
            return 1
        if isinstance(test, cst.Call) and _GATE in self.qualified(test.func):
            return 1
        if isinstance(test, cst.BooleanOperation):
            return 1 if self.is_gate(test.left) or self.is_gate(test.right) else 0
        return 0

    # -- running the script's statements, as far as it says -------------------

    def _block(self, statements, env):
        for i, statement in enumerate(statements):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assert) and self.is_gate(small.test) > 0:
                        self._branch(small, statements[i + 1:], env)
                    self._simple(small, env)
            elif isinstance(statement, cst.If) and self.is_gate(statement.test):
                if self.is_gate(statement.test) > 0:
                    taken = _statements(statement.body)
                elif isinstance(statement.orelse, cst.Else):
                    taken = _statements(statement.orelse.body)
                else:
                    taken = [statement.orelse] if statement.orelse else []
                self._branch(statement, taken, env)
                _forget(statement, env)
            else:
                # Gates inside (a function, a loop, another if) are checked
                # with what is known on entry; afterwards what it assigns is
                # not known.
                for body in _bodies(statement):
                    self._block(body, dict(env))
                _forget(statement, env)

    def _simple(self, small, env):
        """Updates env for one small statement; returns the expression it
        adds to a name create_extension takes files from, or None."""
        if isinstance(small, cst.Assign):
            try:
                value = self.value(small.value, env)
            except _Unknown:
                value = _Unknown
            added = None
            for target in small.targets:
                if isinstance(target.target, cst.Name):
                    name = target.target.value
                    if value is _Unknown:
                        env.pop(name, None)
                    else:
                        env[name] = value
                    if name in self.file_names:
                        added = small.value
                elif isinstance(target.target, (cst.Tuple, cst.List)) and all(
                        isinstance(e.value, cst.Name) for e in target.target.elements) and \
                        isinstance(value, (list, tuple)) and \
                        len(value) == len(target.target.elements):
                    for element, item in zip(target.target.elements, value):  # a, b = x, y
                        env[element.value.value] = item
                        if element.value.value in self.file_names:
                            added = small.value
                else:
                    _forget(target, env)
            return added
        if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            name = small.target.value
            try:
                env[name] = env[name] + self.value(small.value, env)
            except (_Unknown, KeyError, TypeError):
                env.pop(name, None)
            return small.value if name in self.file_names else None
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if (isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)
                    and call.func.attr.value in ('append', 'extend') and len(call.args) == 1):
                name = call.func.value.value
                try:
                    item = self.value(call.args[0].value, env)
                    env[name] = env[name] + ([item] if call.func.attr.value == 'append'
                                             else list(item))
                except (_Unknown, KeyError, TypeError):
                    env.pop(name, None)
                return call.args[0].value if name in self.file_names else None
        return None

    def _branch(self, gate, statements, env):
        """Checks the files one CUDA branch names, running it on a copy of env."""
        named = {}  # resolved path -> (as written, line); (None, line): not read
        self._run_branch(statements, dict(env), named)
        missing = [(written, line) for written, line in named.values()
                   if written is not None and not self._exists(written)]
        unread = sorted({line for written, line in named.values() if written is None})
        if missing:
            self.findings.append((self._line(gate), 'the CUDA branch names files that do '
                                  'not exist: %s' % ', '.join('%s (line %d)' % m
                                                              for m in missing)))
        if unread:
            self.findings.append((self._line(gate), 'the CUDA branch names files that cannot '
                                  'be shown to exist (line%s %s: %s)' % (
                                      's' if len(unread) > 1 else '',
                                      ', '.join(map(str, unread)),
                                      'the script does not spell them out' if self.folder
                                      else 'the script is not on disk')))

    def _run_branch(self, statements, env, named):
        for statement in statements:
            if not isinstance(statement, cst.SimpleStatementLine):
                for body in _bodies(statement):
                    self._run_branch(body, env, named)
                _forget(statement, env)
                continue
            for small in statement.body:
                for call in _create_extension_calls(small, self):
                    for arg in _file_arguments(call):
                        self._add(arg.value, env, self._line(arg), named)
                before = dict(env)
                added = self._simple(small, env)
                if added is not None:
                    self._add(added, before, self._line(small), named)

    def _add(self, node, env, line, named):
        """Adds the files node names to named."""
        try:
            if self.folder is None:
                raise _Unknown
            value = self.value(node, env)
        except _Unknown:
            named.setdefault(('?', line), (None, line))
            return
        for written in _files(value):
            key = written if isinstance(written, _Glob) else os.path.realpath(
                os.path.join(self.folder, written))
            named.setdefault(key, (written, line))

    def _exists(self, written):
        resolved = os.path.join(self.folder, written)
        if isinstance(written, _Glob):
            return bool(glob.glob(resolved, recursive=True))
        return (os.path.exists(resolved) or os.path.basename(written) in self.built_by_nvcc
                or _compiled_by_the_build(resolved))

    # -- values --------------------------------------------------------------

    def value(self, node, env):
        """node's value as Python computes it, from what the script says; else _Unknown."""
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = node.evaluated_value
            if isinstance(value, str):
                return value
            raise _Unknown
        if isinstance(node, (cst.Integer, cst.Float)):
            return node.evaluated_value
        if isinstance(node, cst.Name):
            if node.value in ('True', 'False', 'None'):
                return {'True': True, 'False': False, 'None': None}[node.value]
            if node.value == '__file__' and self.file:
                return self.file
            if node.value in env:
                return env[node.value]
            raise _Unknown
        if isinstance(node, (cst.List, cst.Tuple)):
            items = []
            for element in node.elements:
                if isinstance(element, cst.StarredElement):
                    items += list(self.value(element.value, env))
                else:
                    items.append(self.value(element.value, env))
            return items if isinstance(node, cst.List) else tuple(items)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator,
                                                                (cst.Add, cst.Modulo)):
            left, right = self.value(node.left, env), self.value(node.right, env)
            if isinstance(node.operator, cst.Modulo) and not isinstance(left, str):
                raise _Unknown
            try:
                return left + right if isinstance(node.operator, cst.Add) else left % right
            except (TypeError, ValueError):
                raise _Unknown
        if isinstance(node, cst.ListComp):
            return self._comprehension(node, env)
        if isinstance(node, cst.Call) and not any(a.keyword or a.star for a in node.args) and \
                isinstance(node.func, cst.Attribute) and node.func.attr.value == 'format':
            template = self.value(node.func.value, env)
            if isinstance(template, str):
                try:
                    return template.format(*[self.value(a.value, env) for a in node.args])
                except (IndexError, KeyError, ValueError):
                    raise _Unknown
        if isinstance(node, cst.Call) and not any(a.keyword or a.star for a in node.args):
            names = self.qualified(node.func)
            args = [self.value(a.value, env) for a in node.args]
            for name in names:
                if name == 'glob.glob' and len(args) == 1 and isinstance(args[0], str):
                    return [_Glob(args[0])]
                function = _PATH_FUNCTIONS.get(name) or _LIST_FUNCTIONS.get(name)
                if function is not None:
                    try:
                        return function(*args)
                    except TypeError:
                        raise _Unknown
        raise _Unknown

    def _comprehension(self, node, env):
        loop = node.for_in
        if (loop.inner_for_in is not None or loop.ifs or loop.asynchronous
                or not isinstance(loop.target, cst.Name)):
            raise _Unknown
        iterable = self.value(loop.iter, env)
        if not isinstance(iterable, (list, tuple)):
            raise _Unknown
        if any(isinstance(item, _Glob) for item in iterable):
            raise _Unknown  # what a pattern matches is not a value here
        return [self.value(node.elt, dict(env, **{loop.target.value: item}))
                for item in iterable]


class _Calls(cst.CSTVisitor):
    """Finds the names the script's create_extension calls take files from,
    and the lines of its gates."""

    def __init__(self, checker):
        super().__init__()
        self.checker = checker

    def visit_Call(self, node):
        if _GATE in self.checker.qualified(node.func):
            self.checker.gate_lines.append(self.checker._line(node))
        if _is_create_extension(node, self.checker):
            for arg in _file_arguments(node):
                arg.value.visit(_Names(self.checker.file_names))


class _Names(cst.CSTVisitor):
    def __init__(self, into):
        super().__init__()
        self.into = into

    def visit_Name(self, node):
        self.into.add(node.value)


def _is_create_extension(call, checker):
    return any(n.endswith('create_extension') for n in checker.qualified(call.func)) or (
        isinstance(call.func, cst.Name) and call.func.value == 'create_extension') or (
        isinstance(call.func, cst.Attribute) and call.func.attr.value == 'create_extension')


def _file_arguments(call):
    """The Args of a create_extension call that give it files."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    found = [a for a in call.args if a.keyword is not None and a.keyword.value in
             _FILE_ARGUMENTS]
    found += [positional[p] for p in (1, 2) if p < len(positional)]
    return found


def _create_extension_calls(node, checker):
    found = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call):
            if _is_create_extension(call, checker):
                found.append(call)

    node.visit(Calls())
    return found


def _statements(suite):
    """The statements of a block; a one-line block (`if x: a = 1`) as one line."""
    if isinstance(suite, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body=suite.body)]
    return list(suite.body)


def _bodies(statement):
    """The blocks of statements inside a compound statement (an elif: a
    block of that if)."""
    blocks = []
    for part in (getattr(statement, 'body', None), getattr(statement, 'orelse', None),
                 getattr(statement, 'finalbody', None)):
        if isinstance(part, cst.If):
            blocks.append([part])
        elif isinstance(part, (cst.Else, cst.Finally)):
            blocks.append(_statements(part.body))
        elif isinstance(part, cst.BaseSuite):
            blocks.append(_statements(part))
    for handler in getattr(statement, 'handlers', ()):
        blocks.append(_statements(handler.body))
    return blocks


def _compiled_by_the_build(obj):
    """Whether thffi's build compiles a missing object of extra_objects
    itself: when its .cu lies beside it, x.cu for x.cu.o or x.o, else the
    one x_*.cu (the builder's rule: docs/porting/rebuilt_objects.md)."""
    for suffix in ('.cu.o', '.o'):
        if obj.endswith(suffix):
            stem = obj[:-len(suffix)]
            return os.path.isfile(stem + '.cu') or len(glob.glob(glob.escape(stem) +
                                                                 '_*.cu')) == 1
    return False


def _files(value):
    """The file names in a value: its strings, through lists and tuples."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [f for item in value for f in _files(item)]
    return []


def _forget(node, env):
    """Drops from env every name node assigns (its value is not known after it)."""
    names = set()

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, target):
            target.target.visit(_Names(names))

        def visit_AugAssign(self, assign):
            assign.target.visit(_Names(names))

        def visit_AnnAssign(self, assign):
            assign.target.visit(_Names(names))

        def visit_For(self, loop):
            loop.target.visit(_Names(names))

        def visit_Call(self, call):  # x.append(...), x.extend(...)
            if isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name):
                names.add(call.func.value.value)

    node.visit(Targets())
    for name in names:
        env.pop(name, None)
