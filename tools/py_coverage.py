"""What today's PyTorch lacks of PyTorch 0.3.1's and 0.4.1's Python API, and
what thffi does with each name it lacks.

tools/py_surface/surface.tsv lists the API (tools/py_surface/extract.py made
it from the releases' own sources).  A name is lacking today when
- a module: it does not import as a module;
- a function, class, method or constant: its module or owner lacks it, it
  is a module now (torch.fft), or it is a stub that raises (its body, read
  with Python's ast, one `raise` other than NotImplementedError, or one
  `return` of such a stub: torch.symeig, torch.Tensor.symeig);
- a keyword argument `owner(name=)`: its owner is lacking, or takes no
  parameter of that name (a Python callable's signature; a builtin's: the
  signatures its documentation opens with and PyTorch's argument parser
  lists when called with an unknown keyword).  An owner taking **kwargs,
  or a builtin whose signature neither tells, is `unverified`.
torch.autograd.Variable's methods are looked for on torch.Tensor (what
Variable(x) gives today).

Each lacking name has a row of thffi/toolchain/pyremoved.py's REMOVED: its
own (a tensor method: the `.name` row whose METHOD_CLASSES class is
torch.Tensor; a keyword: the `owner(name=)` row), else its owner's or its
module's (pyremoved.find).  What happens to it:
- given back: `python -m thffi run` gives it: measured, the lacking names
  being looked for again by a Python that `thffi run` starts;
- rewritten: `port` rewrites its uses (the row's fix is one port applies);
- named: no equivalent; `thffi run`'s error and port's report name what
  to write (the row's new).

    python tools/py_coverage.py           the table; exit 1 when a lacking name has
                                          no row, or what thffi run gives is not
                                          what the rows say
    python tools/py_coverage.py --list    also each lacking name: status, what
                                          becomes of it, its row
    python tools/py_coverage.py --doc     also rewrite the table in docs/py_coverage.md
"""

import argparse
import ast
import collections
import importlib
import inspect
import os
import re
import subprocess
import sys
import textwrap
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, 'py_surface'))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import extract  # noqa: E402

DOC = os.path.join(ROOT, 'docs', 'py_coverage.md')
_BEGIN, _END = '<!-- py_coverage: begin -->', '<!-- py_coverage: end -->'
# Names whose objects today are another's (0.3.1's Variable(x) is a Tensor).
LOOKED_FOR_ON = {'torch.autograd.Variable': 'torch.Tensor'}
# The fixes of REMOVED rows that port applies (port/removed.py).
REWRITTEN = ('rename', 'value', 'call', 'getargspec', 'method')
# What becomes of a lacking name, in the table's order.
FATES = ('given back', 'rewritten', 'named', 'no row')


# -- today's PyTorch ------------------------------------------------------------

def _resolve(name, module=False):
    """The object a qualified name names here (a module's attribute before
    a submodule of that name: torch.autograd.gradcheck is the function), or
    raises LookupError."""
    for old, new in LOOKED_FOR_ON.items():
        if name.startswith(old + '.'):
            name = new + name[len(old):]
    if module:
        try:
            return importlib.import_module(name)
        except Exception as exc:  # ImportError, or a module that fails as it loads
            raise LookupError(name) from exc
    try:
        return _walk(name.split('.'))
    except LookupError:
        pass
    parts = name.split('.')  # a module's attribute, the module hidden by a name
    for i in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module('.'.join(parts[:i]))
        except Exception:
            continue
        try:
            for part in parts[i:]:
                value = getattr(value, part)
        except Exception as exc:
            raise LookupError(name) from exc
        return value
    raise LookupError(name)


def _walk(parts):
    """The object of getattr from the top module down, importing a
    submodule not imported yet."""
    value = importlib.import_module(parts[0])
    name = '.'.join(parts)
    for i, part in enumerate(parts[1:], 1):
        if not hasattr(value, part) and inspect.ismodule(value):
            try:  # a submodule not imported yet
                importlib.import_module('.'.join(parts[:i + 1]))
            except Exception:
                pass
        try:
            value = getattr(value, part)
        except Exception as exc:
            raise LookupError(name) from exc
    return value


def _body(function):
    """The statements of a Python function's def (its docstring and
    imports left out), or None."""
    try:
        source = textwrap.dedent(inspect.getsource(function))
        node = ast.parse(source).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    return [s for s in node.body if not isinstance(s, (ast.Import, ast.ImportFrom)) and not (
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]


def is_stub(value, depth=0):
    """Whether value is a function whose whole body raises (not
    NotImplementedError, an abstract method's), or returns what such a
    stub returns (torch.Tensor.symeig calls torch._linalg_utils._symeig)."""
    function = getattr(value, '__func__', value)
    if depth > 2 or not inspect.isfunction(function):
        return False
    body = _body(function)
    if not body or len(body) != 1:
        return False
    statement = body[0]
    if isinstance(statement, ast.Raise):
        raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return not (isinstance(raised, ast.Name) and raised.id == 'NotImplementedError')
    if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Call) and \
            isinstance(statement.value.func, ast.Name):
        called = statement.value.func.id
        target = function.__globals__.get(called)
        if target is None:  # imported inside the function
            for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(function)))):
                if isinstance(node, ast.ImportFrom) and any(
                        (a.asname or a.name) == called for a in node.names):
                    name = next(a.name for a in node.names if (a.asname or a.name) == called)
                    try:
                        module = importlib.import_module(
                            '.' * node.level + (node.module or ''),
                            function.__module__.rpartition('.')[0] if node.level else None)
                    except ImportError:
                        return False
                    target = getattr(module, name, None)
        return target is not None and is_stub(target, depth + 1)
    return False


def _signature_names(text, name):
    """The parameter names of the signatures `name(...)` that open lines
    of text."""
    found = set()
    for line in text.splitlines():
        match = re.match(r'^\s*(?:\.\. function:: )?(?:[\w.]+\.)?%s\(' % re.escape(name), line)
        params = match and extract._parenthesized(line, match.end())
        for param in extract._split_params(params or ''):
            found.add(param.split('=', 1)[0].split(':', 1)[0].strip().lstrip('*'))
    return found


def _parser_names(value):
    """The parameter names PyTorch's argument parser lists for a builtin
    called with an unknown keyword (nothing runs: the call is refused)."""
    args = ()
    if type(value).__name__ == 'method_descriptor':
        import torch
        args = (torch.empty(0),)
    try:
        value(*args, thffi_probe=None)
    except TypeError as exc:
        message = str(exc)
    except Exception:
        return set()
    else:
        return set()
    found = set()
    for params in re.findall(r'^ \* \((.*)\)$', message, re.M) + re.findall(
            r'but expected \((.*)\)$', message, re.M):
        for param in extract._split_params(params):
            found.add(param.split('=', 1)[0].split()[-1] if param.split('=', 1)[0].split()
                      else '')
    return found


def keyword_status(owner, keyword):
    """'present', 'missing' or 'unverified': whether the callable owner
    takes the keyword today."""
    target = owner
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        if keyword in signature.parameters:
            return 'present'
        if any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values()):
            return 'unverified'
        return 'missing'
    name = getattr(owner, '__name__', '')
    documented = _signature_names(getattr(owner, '__doc__', None) or '', name)
    if keyword in documented:
        return 'present'
    parsed = _parser_names(owner) if callable(owner) else set()
    if keyword in parsed:
        return 'present'
    return 'missing' if documented or parsed else 'unverified'


def status(name, kind):
    """Today's state of one name of the surface here: 'present', 'missing',
    'stub' or (a keyword whose owner's signature cannot be told)
    'unverified'."""
    if kind == 'keyword':
        owner, keyword = re.match(r'^(.*)\((\w+)=\)$', name).groups()
        owner_kind = 'class' if owner.rpartition('.')[2][:1].isupper() else 'function'
        state = status(owner, owner_kind)
        if state != 'present':
            return state
        return keyword_status(_resolve(owner), keyword)
    try:
        value = _resolve(name, module=kind == 'module')
    except LookupError:
        if name.startswith('torch.cuda.') and not _cuda_built():
            return 'unverified'  # a CPU build's torch.cuda has stand-in classes
        return 'missing'
    if inspect.ismodule(value) and kind in ('function', 'class', 'method') and \
            not callable(value):
        return 'missing'  # torch.fft: a function of 0.4.1, a module today
    return 'stub' if is_stub(value) else 'present'


def _cuda_built():
    import torch
    return torch.backends.cuda.is_built()


def statuses(names):
    """{name: status} of [(name, kind)], warnings of the modules imported
    silenced."""
    result = {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for name, kind in names:
            result[name] = status(name, kind)
    return result


# -- what thffi does with a lacking name ------------------------------------------

def row_for(name, kind):
    """The REMOVED row that covers a lacking name, or None."""
    from thffi.toolchain import pyremoved
    classes = list(LOOKED_FOR_ON.items()) + [('torch.Tensor', 'torch.Tensor')]
    if kind == 'keyword':
        owner, keyword = name[:-2].split('(')
        parent, _, method = owner.rpartition('.')
        for old, new in classes:
            if parent == old and pyremoved.METHOD_CLASSES.get(
                    '.%s(%s=)' % (method, keyword)) == new:
                return pyremoved.KEYWORDS[('.' + method, keyword)]
        return pyremoved.KEYWORDS.get((owner, keyword)) or row_for(owner, 'function')
    for old, new in classes:
        if name.startswith(old + '.') and name.count('.') == old.count('.') + 1:
            method = name.rpartition('.')[2]
            row = pyremoved.METHODS.get(method)
            if row is not None and pyremoved.METHOD_CLASSES.get(row.old) == new:
                return row
    if name in pyremoved.CALLS and kind in ('function', 'class'):
        return pyremoved.CALLS[name]
    if name in pyremoved.IMPORTS and kind == 'module':
        return pyremoved.IMPORTS[name]
    return pyremoved.find(name)


def under_thffi_run(lacking, kinds):
    """{name: status} of the lacking names, looked for by a Python that
    `python -m thffi run` starts (so with what it gives back)."""
    text = ''.join('%s\t%s\n' % (n, kinds[n]) for n in lacking)
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', sys.executable,
                          os.path.abspath(__file__), '--resolve'], input=text,
                         capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                             [ROOT] + [p for p in [os.environ.get('PYTHONPATH')] if p])))
    if out.returncode != 0:
        raise RuntimeError('thffi run failed:\n' + out.stderr[-4000:])
    return dict(line.split('\t') for line in out.stdout.splitlines() if '\t' in line)


def fate(row, given):
    if given:  # torch.utils.ffi's names: thffi's hook (port's python.py writes thffi)
        return 'given back'
    if row is None:
        return 'no row'
    return 'rewritten' if row.fix in REWRITTEN else 'named'


def measure(entries):
    """[(entry, today's status, row, fate)] of every entry lacking today,
    and {status: count} of all."""
    kinds = {e.name: e.kind for e in entries}
    today = statuses([(e.name, e.kind) for e in entries])
    lacking = [e for e in entries if today[e.name] in ('missing', 'stub')]
    after = under_thffi_run([e.name for e in lacking], kinds) if lacking else {}
    rows = [(e, today[e.name], row_for(e.name, e.kind)) for e in lacking]
    return ([(e, state, row, fate(row, after.get(e.name) == 'present'))
             for e, state, row in rows], collections.Counter(today.values()))


def check(measured):
    """What contradicts the table: a lacking name without a row; a row with
    an equivalent (or one that is given back) whose name thffi run does not
    give back."""
    from thffi.toolchain import pyremoved
    equivalent = {'rename', 'value', 'call', 'getargspec', 'method'}
    problems = []
    for e, state, row, what in measured:
        if what == 'given back':
            continue
        if row is None:
            problems.append('%s (%s, %s today): no row of REMOVED' % (e.name, e.kind, state))
        elif (row.fix in equivalent and e.kind != 'keyword' and
              (row.old == e.name or row.old in pyremoved.METHOD_CLASSES)):
            problems.append('%s: its row (%s, %s) has an equivalent, but thffi run does not '
                            'give it back' % (e.name, row.old, row.fix))
    return problems


# -- the table -----------------------------------------------------------------------

def report(entries, measured, counts):
    lines = ['| release | names | lacking today | given back (thffi run) | rewritten (port) '
             '| named (what to write) | no row |', '|---|---:|---:|---:|---:|---:|---:|']
    for release in extract.RELEASES:
        names = sum(release in e.releases for e in entries)
        mine = [m for m in measured if release in m[0].releases]
        fates = collections.Counter(m[3] for m in mine)
        lines.append('| %s | %d | %d | %d | %d | %d | %d |' % (
            release, names, len(mine), *[fates[f] for f in FATES]))
    by_kind = collections.OrderedDict()
    for e, state, row, what in measured:
        by_kind.setdefault(e.kind, collections.Counter())[what] += 1
    kinds = collections.Counter(e.kind for e in entries)
    lines += ['', '| kind | names | lacking today | given back | rewritten | named | no row |',
              '|---|---:|---:|---:|---:|---:|---:|']
    for kind in sorted(kinds):
        fates = by_kind.get(kind, collections.Counter())
        lines.append('| %s | %d | %d | %d | %d | %d | %d |' % (
            kind, kinds[kind], sum(fates.values()), *[fates[f] for f in FATES]))
    covering = collections.Counter((row.old, what) for e, state, row, what in measured
                                   if row is not None)
    lines += ['', '| the row that covers them (the most names) | becomes | lacking names |',
              '|---|---|---:|']
    for (old, what), count in covering.most_common(12):
        lines.append('| `%s` | %s | %d |' % (old, what, count))
    stubs = sum(1 for m in measured if m[1] == 'stub')
    lines += ['', '%d of the lacking names are stubs that raise today; %d keyword arguments '
              'could not be told (an owner taking **kwargs, or a builtin without a signature).'
              % (stubs, counts.get('unverified', 0))]
    return '\n'.join(lines) + '\n'


def write_doc(text, path=DOC, begin=_BEGIN, end=_END):
    """Puts text between the page's begin and end markers."""
    with open(path) as f:
        doc = f.read()
    start, stop = doc.index(begin) + len(begin), doc.index(end)
    with open(path, 'w') as f:
        f.write(doc[:start] + '\n' + text + doc[stop:])


def resolve_main():
    """--resolve: the status of each `name<TAB>kind` line of stdin."""
    names = [tuple(line.rstrip('\n').split('\t')) for line in sys.stdin if '\t' in line]
    for name, state in statuses(names).items():
        print('%s\t%s' % (name, state))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--surface', default=extract.OUT)
    parser.add_argument('--list', action='store_true', help='each lacking name too')
    parser.add_argument('--doc', action='store_true', help='rewrite docs/py_coverage.md')
    parser.add_argument('--resolve', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.resolve:
        return resolve_main()
    entries = extract.read(args.surface)
    measured, counts = measure(entries)
    text = report(entries, measured, counts)
    sys.stdout.write(text)
    if args.list:
        for e, state, row, what in measured:
            print('%s\t%s\t%s\t%s\t%s' % (e.name, e.kind, state, what,
                                          row.old if row is not None else '-'))
    if args.doc:
        write_doc(text)
    problems = check(measured)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
