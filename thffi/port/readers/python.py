"""The commands a Python build script (build.py, setup.py) runs, read with
Python's own ast (the builder reads them; libcst, which port/pynvcc.py
rewrites them with, costs 0.35 s more to import): os.system, os.popen and
subprocess.* calls, following the script's assignments (strings, lists, +,
%, .format, ' '.join, .split(), os.path.join/dirname/abspath of __file__,
list.append, os.chdir...).  A string is a command line: its commands are
read as the shell splits it (`cd src; nvcc ...`: readers/shell.py), a `cd`
in it moving the ones after it.  commands(): the nvcc ones; runs(): all
(the scripts a build script runs: route.py)."""

import ast
import os
import re
import shlex

from .command import Command

_RUNS = {'system', 'popen', 'call', 'check_call', 'run', 'Popen', 'check_output',
         'getoutput', 'getstatusoutput', 'spawn'}
_NVCC = re.compile(r'(?:^|[/\\])nvcc(?:\.exe)?$')
_ASSIGNMENT = re.compile(r'\w+=')
# What makes a string more than one command for the shell.
_SEPARATORS = re.compile(r'[;&|\n]')


class _Unknown(str):
    """What the script computes when it runs: '$name' in a command."""


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return '.'.join(reversed(parts))
    return None


_PATH_FUNCTIONS = {
    'os.path.join': lambda *a: os.path.join(*a),
    'os.path.dirname': os.path.dirname,
    'os.path.basename': os.path.basename,
    'os.path.normpath': os.path.normpath,
    # The script's folder is '.' here: its paths stay relative to it.
    'os.path.abspath': lambda p: p,
    'os.path.realpath': lambda p: p,
    'os.path.expanduser': lambda p: p,
    'str': str,
}


class _Script:
    """The values a script's names hold, statement after statement, and the
    nvcc commands it runs."""

    def __init__(self, path, every=False):
        self.path = path
        self.names = {'__file__': './__file__'}
        self.cwd = ''
        self.commands = []
        self.every = every  # every command, or the nvcc ones

    def value(self, node):
        try:
            return self._value(node)
        except Exception:  # anything the script does that this cannot follow
            return _Unknown('$?')

    def _value(self, node):
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, (str, int, float)) else _Unknown('$?')
        if isinstance(node, ast.JoinedStr):
            return ''.join(str(self.value(v.value)) if isinstance(v, ast.FormattedValue)
                           else v.value for v in node.values)
        if isinstance(node, ast.Name):
            return self.names.get(node.id, _Unknown('$' + node.id))
        if isinstance(node, (ast.List, ast.Tuple)):
            out = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    inner = self.value(element.value)
                    out += inner if isinstance(inner, list) else [_Unknown('$?')]
                else:
                    out.append(self.value(element))
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(left, list) or isinstance(right, list):
                return ((left if isinstance(left, list) else [left])
                        + (right if isinstance(right, list) else [right]))
            return str(left) + str(right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            left, right = self.value(node.left), self.value(node.right)
            return left % (tuple(right) if isinstance(right, list) else right)
        if isinstance(node, ast.IfExp):
            return self.value(node.body)
        if isinstance(node, ast.Subscript):
            if _dotted(node.value) == 'os.environ':
                return _Unknown('$%s' % self.value(node.slice))
            return self.value(node.value)[self.value(node.slice)]
        if isinstance(node, ast.Call):
            return self._call(node)
        return _Unknown('$?')

    def _call(self, node):
        args = [self.value(a) for a in node.args]
        name = _dotted(node.func)
        if name in _PATH_FUNCTIONS:
            return _PATH_FUNCTIONS[name](*args)
        if name in ('os.getcwd', 'os.curdir'):
            return '.'
        if name in ('os.environ.get', 'os.getenv'):
            return args[1] if len(args) > 1 else _Unknown('$%s' % args[0])
        if name == 'shlex.split':
            return shlex.split(args[0])
        if isinstance(node.func, ast.Attribute):
            receiver = self.value(node.func.value)
            method = node.func.attr
            if isinstance(receiver, str) and method in ('format', 'join', 'split', 'replace',
                                                        'strip', 'rstrip', 'lstrip'):
                kwargs = {k.arg: self.value(k.value) for k in node.keywords if k.arg}
                return getattr(str, method)(receiver, *args, **kwargs)
        return _Unknown('$%s' % (name or '?'))

    def statements(self, body):
        for statement in body:
            self._runs(statement)
            if isinstance(statement, ast.Assign):
                value = self.value(statement.value)
                for target in statement.targets:
                    if isinstance(target, ast.Name):
                        self.names[target.id] = value
            elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name) \
                    and isinstance(statement.op, ast.Add):
                before = self.names.get(statement.target.id, _Unknown('$?'))
                added = self.value(statement.value)
                self.names[statement.target.id] = (
                    before + (added if isinstance(added, list) else [added])
                    if isinstance(before, list) else str(before) + str(added))
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                self._mutation(statement.value)
            for field in ('body', 'orelse', 'finalbody', 'handlers'):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and not isinstance(statement, ast.ClassDef):
                    self.statements([s for s in inner if isinstance(s, ast.stmt)]
                                    + [s for h in inner if isinstance(h, ast.ExceptHandler)
                                       for s in h.body])

    def _mutation(self, call):
        """list.append/extend/insert on a name; os.chdir."""
        func = call.func
        if _dotted(func) == 'os.chdir' and call.args:
            target = self.value(call.args[0])
            if not isinstance(target, _Unknown):
                self.cwd = os.path.normpath(os.path.join(self.cwd, target))
            return
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            held = self.names.get(func.value.id)
            args = [self.value(a) for a in call.args]
            if isinstance(held, list) and func.attr == 'append' and args:
                held.append(args[0])
            elif isinstance(held, list) and func.attr == 'extend' and args:
                held.extend(args[0] if isinstance(args[0], list) else [args[0]])
            elif isinstance(held, list) and func.attr == 'insert' and len(args) == 2:
                held.insert(args[0], args[1])

    def _runs(self, statement):
        """Records the commands the statement's calls run (not those of the
        statements inside it: they come in their turn)."""
        nested = {id(n) for field in ('body', 'orelse', 'finalbody', 'handlers')
                  for s in getattr(statement, field, None) or () for n in ast.walk(s)}
        for node in ast.walk(statement):
            if id(node) in nested or not isinstance(node, ast.Call):
                continue
            name = _dotted(node.func) or ''
            if name.split('.')[-1] not in _RUNS:
                continue
            given = node.args[0] if node.args else next(
                (k.value for k in node.keywords if k.arg == 'args'), None)
            if given is None:
                continue
            command = self.value(given)
            cwd = next((self.value(k.value) for k in node.keywords if k.arg == 'cwd'), None)
            folder = self.cwd if not isinstance(cwd, str) or isinstance(cwd, _Unknown) else \
                os.path.normpath(os.path.join(self.cwd, cwd))
            lines = _command_lines(command) if isinstance(command, str) else [command]
            for words in lines:
                if not isinstance(words, list) or not words:
                    continue
                words = [str(w) for w in words]
                while len(words) > 1 and _ASSIGNMENT.match(words[0]):  # CUDA_PATH=... nvcc
                    words = words[1:]
                if _NVCC.search(words[0]):
                    self.commands.append(Command(self.path, node.lineno, ['nvcc'] + words[1:],
                                                 folder))
                elif self.every:
                    self.commands.append(Command(self.path, node.lineno, words, folder))
                if words[0] == 'cd' and len(words) > 1 and not re.search(r'[$`~]', words[1]):
                    folder = os.path.normpath(os.path.join(folder, words[1]))


def _command_lines(command):
    """The word lists of the commands of a command line (a string the
    shell runs), one after the other."""
    spans = [(0, len(command))]
    if _SEPARATORS.search(command):
        from .shell import command_spans
        spans = command_spans(command)
    lines = []
    for start, end in spans:
        try:
            lines.append(shlex.split(command[start:end]))
        except ValueError:
            lines.append(command[start:end].split())
    return lines


def runs(path, text, every=True):
    """[Command] of a Python script: the commands its os.system,
    subprocess.* and os.popen calls run, in order (every=False: the nvcc
    ones); paths relative to the script's folder ('.'), what it computes
    when it runs kept as $name."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    script = _Script(path, every)
    script.statements(tree.body)
    return script.commands


def commands(path, text):
    """[Command] of the nvcc commands a Python script runs (runs())."""
    return runs(path, text, every=False)
