"""The names today's Python, NumPy, SciPy and PyTorch removed, given back
to the Pythons `python -m thffi run` starts (its sitecustomize calls
install() with toolchain/pyremoved.py's REMOVED): 2018 code such as
`collections.Iterable`, `np.float`, `from torch._six import
string_classes` or `inspect.getargspec(f)` runs as its README types it.

Each REMOVED row whose `fix` gives an equivalent ('rename', 'value', 'call',
'getargspec') is served by a module `__getattr__` (PEP 562) of the module
that held the name, consulted only for names the module lacks (the
module's own `__getattr__`, NumPy's "was removed" one, is asked after):
nothing a module still has changes, but for the names STUBS lists (a stub
that raises today, torch.symeig): those are taken out of their module once
its top package has loaded, so that the `__getattr__` serves them.  A
method row's old name is put on the class METHOD_CLASSES names for it
(`threading.Thread.isAlive`; torch.Tensor's potrf, a 'method' row: the
function its `new` names, called with the tensor first), where the class
lacks it or STUBS lists it.  A CALLS row makes its module callable
(`torch.fft(x, 2)`, torch.fft being the module of the new FFTs), an
IMPORTS row's import fail saying what to write.  The first use of each
name says on stderr where it was used, what it was and what it now is;
later uses are silent.  A row with no equivalent makes the AttributeError
(or ModuleNotFoundError, for a module) name what to write instead.
Keyword rows are port's only: a call with an old keyword fails as
PyTorch says.

Modules already imported are given their `__getattr__` at install(), the
others when they are imported (a meta path finder wraps their loader); a
module that is gone (torch._six, imp on Python 3.12) is made, empty but for
those names, when a row gives one of its names an equivalent (and so is a
gone package holding it: torch.nn._functions for
torch.nn._functions.rnn.LSTMCell, whose other names fail saying what to
write).

This file is loaded by path (not as part of thffi) and imports only the
standard library, so that every Python pays no more than it at start."""

import builtins
import collections
import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import types

EQUIVALENT = ('rename', 'value', 'call', 'getargspec')
_SAID = set()
_ArgSpec = collections.namedtuple('ArgSpec', 'args varargs keywords defaults')


def _getargspec(func):
    """inspect.getargspec as Python 3.10 had it, over getfullargspec."""
    import inspect
    spec = inspect.getfullargspec(func)
    if spec.kwonlyargs or spec.annotations:
        raise ValueError('Function has keyword-only parameters or annotations, use '
                         'inspect.signature() API which can support them')
    return _ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def _qualified(name):
    """The object a qualified name names: a builtin, a module, or an
    attribute of the longest module prefix that imports."""
    parts = name.split('.')
    if len(parts) == 1 and hasattr(builtins, name):
        return getattr(builtins, name)
    for i in range(len(parts), 0, -1):
        try:
            value = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            value = getattr(value, part)
        return value
    raise ImportError('thffi run: %s does not import here' % name)


def _value(expression):
    """The value of a row's Python expression, the modules it names
    imported."""
    code = compile(expression, '<pyremoved>', 'eval')
    namespace = {}
    for name in code.co_names:
        if not hasattr(builtins, name):
            try:
                namespace[name] = importlib.import_module(name)
            except ImportError:
                pass  # an attribute's name (torch.DoubleTensor), not a module
    return eval(code, namespace)


def equivalent(row, module):
    """What a row gives for its old name, held by `module`."""
    if row.fix == 'rename':
        return _qualified(row.new)
    if row.fix == 'value':
        return _value(row.new)
    if row.fix == 'getargspec':
        return _getargspec
    return eval('lambda value: ' + row.new.format('value', module='module'), {'module': module})


def _where():
    """'file:line: ' of the code that used the name (the first frame that
    is neither this file nor the import system), or ''."""
    frame = sys._getframe(2)
    while frame is not None and (frame.f_code.co_filename == __file__ or
                                 frame.f_code.co_filename.startswith('<frozen')):
        frame = frame.f_back
    if frame is None:
        return ''
    path = frame.f_code.co_filename
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return '%s:%d: ' % (path if relative.startswith('..') else relative, frame.f_lineno)


def _say(row):
    if row.old not in _SAID:
        _SAID.add(row.old)
        sys.stderr.write('thffi run: %s%s is gone since %s%s; thffi run gives %s\n' % (
            _where(), row.old, row.removed, ' (%s)' % row.why if row.why else '', row.new))


def _advice(row):
    return '%s is gone since %s%s; write %s' % (row.old, row.removed,
                                              ' (%s)' % row.why if row.why else '', row.new)


class _Method:
    """A method's old name on its class: the new one, said on first use."""

    def __init__(self, row):
        self.row = row
        self.new = row.new.rpartition('.')[2]

    def __get__(self, instance, owner):
        _say(self.row)
        return getattr(owner if instance is None else instance, self.new)


class _Function:
    """A method given back as the function a 'method' row's new names,
    called with the object first; imported on first use, said then."""

    def __init__(self, row):
        self.row = row
        self.function = None

    def __get__(self, instance, owner):
        if self.function is None:
            self.function = _qualified(self.row.new)
        _say(self.row)
        return self.function if instance is None else types.MethodType(self.function, instance)


class _CallableModule(types.ModuleType):
    """A module that was a function (a CALLS row): calling it calls the
    row's equivalent."""

    def __call__(self, *args, **kwargs):
        row = self.__dict__['_thffi_call']
        _say(row)
        return _qualified(row.new)(*args, **kwargs)


class Table:
    """REMOVED by module: names[module][attribute] -> row (the rows of
    names that module held), modules[module] -> the row of a module itself,
    made: the modules that are made when gone (and the gone packages
    holding them), methods[module] -> [(class name, method name, row)]
    (method_classes: METHOD_CLASSES), stubs[module] -> the names STUBS
    lists there, calls and imports: the rows of CALLS and IMPORTS."""

    def __init__(self, rows, method_classes, stubs=()):
        self.names = collections.defaultdict(dict)
        self.modules = {}
        self.methods = collections.defaultdict(list)
        self.stubs = collections.defaultdict(set)
        self.calls = {row.old[:-2]: row._replace(old=row.old[:-2] + '(...)')
                      for row in rows if row.old.endswith('()')}
        self.imports = {row.old[:-1]: row._replace(old=row.old[:-1])
                        for row in rows if row.old.endswith(':')}
        self.loaded = set()  # the top packages whose import has finished
        for row in rows:
            if row.old.endswith(('=)', '()', ':')):
                continue  # keyword rows are port's; calls and imports: above
            if row.old in method_classes and row.fix in ('rename', 'method'):
                owner = method_classes[row.old]
                module, _, cls = owner.rpartition('.')
                name = row.old.rpartition('.')[2]
                new = (row.new if row.fix == 'method' else
                       owner + '.' + row.new.rpartition('.')[2])
                self.methods[module].append((cls, name, row._replace(
                    old=owner + '.' + name, new=new), row.old in stubs))
            if row.old.startswith(('.', 'self.')):
                continue
            module, _, name = row.old.rpartition('.')
            if module:
                self.names[module][name] = row
                if row.old in stubs:
                    self.stubs[module].add(name)
            if row.fix is None:
                self.modules[row.old] = row
        self.made = {module for module, names in self.names.items()
                     if any(row.fix in EQUIVALENT for row in names.values())}
        # A gone package holding a made module is made too (torch.nn._functions).
        self.made |= {'.'.join(m.split('.')[:i]) for m in list(self.made)
                      for i in range(1, m.count('.') + 1)}

    def removed_module(self, fullname):
        """The row of the removed module fullname is or is in, or None."""
        name = fullname
        while name:
            if name in self.modules and name not in self.names:
                return self.modules[name]
            name = name.rpartition('.')[0]
        return None


def patch(module, table):
    """Gives module what table has for it: the old methods of its classes,
    a __getattr__ serving its names before its own (once); a top package
    whose import has finished, its stubs taken out and its calls made."""
    for cls, name, row, stub in table.methods.get(module.__name__, ()):
        owner = getattr(module, cls, None)
        if owner is not None and (stub or not hasattr(owner, name)):
            setattr(owner, name, _Function(row) if row.fix == 'method' else _Method(row))
    names = table.names.get(module.__name__, {})
    gone = table.modules.get(module.__name__)
    previous = module.__dict__.get('__getattr__')
    if (names or gone) and not getattr(previous, 'thffi_run', False):
        _serve(module, table, names, gone, previous)
    top = module.__name__.partition('.')[0]
    if module.__name__ == top:
        table.loaded.add(top)
        for name in [m for m in table.stubs if m == top or m.startswith(top + '.')]:
            if name in sys.modules:
                _unstub(sys.modules[name], table)
        for name, row in table.calls.items():
            _make_callable(name, row)
    elif top in table.loaded:
        _unstub(module, table)


def _serve(module, table, names, gone, previous):
    values = {}

    def __getattr__(name):
        row = names.get(name)
        if row is not None and row.fix in EQUIVALENT:
            if name not in values:
                values[name] = equivalent(row, module)
            _say(row)
            return values[name]
        if previous is not None:
            return previous(name)
        row = row or gone
        raise AttributeError("module %r has no attribute %r%s" % (
            module.__name__, name, ' (%s)' % _advice(row) if row is not None else ''))
    __getattr__.thffi_run = True
    module.__getattr__ = __getattr__


def _unstub(module, table):
    """The STUBS names of module taken out, for its __getattr__ to serve."""
    for name in table.stubs.get(module.__name__, ()):
        module.__dict__.pop(name, None)


def _make_callable(name, row):
    """The module `name` (once imported) made callable, giving row's
    equivalent."""
    module = sys.modules.get(name)
    if isinstance(module, types.ModuleType) and type(module) is types.ModuleType:
        module._thffi_call = row
        module.__class__ = _CallableModule


class _MadeLoader(importlib.abc.Loader):
    """A module that is gone, made empty but for the names that have an
    equivalent (a package, so that a gone submodule can be made too)."""

    def __init__(self, table):
        self.table = table

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__path__ = []
        patch(module, self.table)


class RemovedNames(importlib.abc.MetaPathFinder):
    """First on sys.meta_path: for the modules of the table, the spec the
    other finders give with a loader that patches; for a gone one that the
    table gives names, a made module; for one gone with no equivalent, a
    ModuleNotFoundError that says what to write."""

    def __init__(self, after_import, table):
        self.after_import = after_import
        self.table = table

    def find_spec(self, fullname, path=None, target=None):
        names = (fullname in self.table.names or fullname in self.table.methods or
                 fullname in self.table.made)
        removed = None if names else self.table.removed_module(fullname)
        removed = removed or self.table.imports.get(fullname)
        if not names and removed is None:
            return None
        spec = self.after_import.patched(
            self, fullname, path, target,
            (lambda module: patch(module, self.table)) if names else None)
        if spec is not None:
            return spec
        if fullname in self.table.made:
            return importlib.machinery.ModuleSpec(fullname, _MadeLoader(self.table),
                                                  is_package=True)
        row = removed or self.table.modules.get(fullname)
        if row is not None:
            raise ModuleNotFoundError('No module named %r (%s)' % (fullname, _advice(row)),
                                      name=fullname)
        return None


def install(after_import, rows, method_classes, stubs=()):
    """Serves the rows (REMOVED, METHOD_CLASSES, STUBS) in this process,
    once (after_import: run's after_import.py, loaded)."""
    if any(type(f).__name__ == 'RemovedNames' for f in sys.meta_path):
        return
    table = Table(rows, method_classes, stubs)
    loaded = set(table.names) | set(table.methods)
    for name in sorted(loaded, key=lambda n: -n.count('.')):  # top packages last
        if name in sys.modules:
            patch(sys.modules[name], table)
    sys.meta_path.insert(0, RemovedNames(after_import, table))
