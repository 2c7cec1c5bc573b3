"""Lists PyTorch 0.3.1's and 0.4.1's Python API: every module, function,
class, method and keyword argument, read from each release's own sources
with Python's ast.  Writes tools/py_surface/surface.tsv.

    python tools/py_surface/extract.py GIT_DIR
    python tools/py_surface/extract.py --folder 0.4.1=FOLDER ...   (a tree laid out as the
                                                                  releases were: torch/...)

GIT_DIR is a git directory of pytorch/pytorch holding the commits of
SOURCES, the release tags (a fork's snapshot has them).  Nothing of PyTorch's is committed: only the names
and signatures this script derives.

What is a name of the API (each listed once, under its shortest public
path, the others in `aliases`):
- a module: each file of torch/ (torch/lib/, the build's own tools, left out);
- what a module defines at its top (def, class, an assigned constant) or
  takes from another torch module (`from .functional import *`, the
  module's `__all__` where it lists one), its name public (no leading '_')
  or in PRIVATE (private names 2018 code imported);
- what the C library gave, as the release documented it: torch.<f> from
  `add_docstr(torch.f, doc)` / `add_docstr(torch._C.f, doc)` in
  _torch_docs.py, the tensor methods from `add_docstr_all('m', doc)` in
  _tensor_docs.py (torch.Tensor.m) and _storage_docs.py
  (torch.FloatStorage.m), torch.nn.functional's `f = _add_docstr(torch.f,
  doc)`; the signature is the doc's first lines (`potrf(a, upper=True,
  out=None) -> Tensor`, each overload);
- a public class's public methods, with their signatures (0.3.1's
  _TensorBase and 0.4.1's Tensor are torch.Tensor; 0.3.1's Variable is
  torch.autograd.Variable);
- a keyword argument: each parameter with a default of a function, a
  method or a class's __init__, as `owner(name=)`."""

import argparse
import ast
import collections
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'surface.tsv')
RELEASES = ('0.3.1', '0.4.1')
COLUMNS = ('name', 'kind', 'releases', 'aliases') + tuple('signature ' + r for r in RELEASES)

# release: (commit, what the commit is): the release tags, as
# tools/th_surface/extract.py reads them (the snapshot of the fork
# KabirKwatra/pytorch holds both).
SOURCES = {
    '0.3.1': ('2b4748011b5881583567bb166801ca6625f2fdda', 'the release tag v0.3.1, 2018-02-09'),
    '0.4.1': ('a24163a95edb193ff7b06e98cd69bf7cfd4c0d2f', 'the release tag v0.4.1, 2018-07-25'),
}

# Private names 2017-2018 code imported (read in the corpus and the issue):
# listed with what they hold.  A package here stands for everything in it.
PRIVATE = ('torch.nn.modules.loss._assert_no_grad', 'torch.nn._functions',
           'torch.nn.modules.utils._single', 'torch.nn.modules.utils._pair',
           'torch.nn.modules.utils._triple', 'torch.nn.modules.utils._quadruple',
           'torch.nn.modules.conv._ConvNd', 'torch.nn.modules.batchnorm._BatchNorm',
           'torch.nn.modules.loss._Loss', 'torch.nn.modules.loss._WeightedLoss',
           'torch.utils.data.dataloader._use_shared_memory',
           'torch.utils.data.dataloader._DataLoaderIter', 'torch._six',
           'torch._utils._rebuild_tensor', 'torch._utils._rebuild_tensor_v2',
           'torch.utils.ffi._wrap_function')
# Folders of torch/ that are not the Python API.
SKIPPED = ('torch/lib/', 'torch/csrc/')
# Classes whose methods 2018 code called on objects under another name.
CLASS_NAMES = {'torch.tensor._TensorBase': 'torch.Tensor', 'torch.tensor.Tensor': 'torch.Tensor',
               'torch.autograd.variable.Variable': 'torch.autograd.Variable'}
# The documentation files of what the C library gave, and where each put it.
C_DOCS = {'torch._torch_docs': 'torch', 'torch._tensor_docs': 'torch.Tensor',
          'torch._storage_docs': 'torch.FloatStorage'}

Entry = collections.namedtuple('Entry', 'name kind releases aliases signatures')


# -- the sources ---------------------------------------------------------------

class GitTree:
    """The files of torch/ at a commit of a git directory."""

    def __init__(self, git_dir, commit):
        self.git_dir, self.commit = git_dir, commit

    def _git(self, *args, data=None):
        return subprocess.run(['git', '--git-dir', self.git_dir] + list(args), input=data,
                              capture_output=True, check=True).stdout

    def read_all(self):
        """{path: text} of torch/'s Python files."""
        names = [n for n in self._git('ls-tree', '-r', '--name-only', self.commit,
                                      'torch').decode().splitlines()
                 if n.endswith('.py') and not n.startswith(SKIPPED)]
        batch = self._git('cat-file', '--batch', data=''.join(
            '%s:%s\n' % (self.commit, n) for n in names).encode())
        texts, offset = {}, 0
        for name in names:
            header_end = batch.index(b'\n', offset)
            size = int(batch[offset:header_end].split()[2])
            texts[name] = batch[header_end + 1:header_end + 1 + size].decode('utf-8', 'replace')
            offset = header_end + 1 + size + 1
        return texts


class FolderTree:
    """The files of torch/ in a folder laid out as the release was."""

    def __init__(self, folder):
        self.folder = folder

    def read_all(self):
        texts = {}
        for folder, dirs, files in os.walk(os.path.join(self.folder, 'torch')):
            dirs.sort()
            for name in sorted(files):
                path = os.path.relpath(os.path.join(folder, name), self.folder)
                path = path.replace(os.sep, '/')
                if name.endswith('.py') and not path.startswith(SKIPPED):
                    with open(os.path.join(folder, name), encoding='utf-8') as f:
                        texts[path] = f.read()
        return texts


# -- one module ------------------------------------------------------------------

def module_name(path):
    """torch/nn/modules/loss.py -> torch.nn.modules.loss; a package's
    __init__.py is the package."""
    parts = path[:-len('.py')].split('/')
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


def _private_listed(qualified):
    return any(qualified == p or qualified.startswith(p + '.') for p in PRIVATE)


def is_public(qualified):
    """Whether a qualified name is the API's: no component private, or it
    is (or is in) a PRIVATE name."""
    return _private_listed(qualified) or not any(
        p.startswith('_') for p in qualified.split('.'))


def _param(arg, default):
    return arg.arg + ('=' + ast.unparse(default) if default is not None else '')


def signature(node, method=False):
    """The parameters of a def as a string: `a, b=1, *args, c=None,
    **kwargs`; self (or cls) left out of a method's."""
    args = node.args
    positional = list(args.posonlyargs) + list(args.args)
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params = [_param(a, d) for a, d in zip(positional, defaults)]
    static = any(isinstance(d, ast.Name) and d.id == 'staticmethod'
                 for d in node.decorator_list)
    if method and not static and params:
        params = params[1:]
    if args.vararg:
        params.append('*' + args.vararg.arg)
    elif args.kwonlyargs:
        params.append('*')
    params += [_param(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg:
        params.append('**' + args.kwarg.arg)
    return ', '.join(params)


def doc_signature(name, doc):
    """The signatures a documentation string opens with (`potrf(a,
    upper=True, out=None) -> Tensor`, one line per overload), their
    parameters joined by ' | ', or ''."""
    found = []
    for line in doc.strip().splitlines():
        match = re.match(r'^\s*(?:\.\. function:: )?(?:[\w.]+\.)?%s\(' % re.escape(name), line)
        params = _parenthesized(line, match.end()) if match else None
        if params is not None:
            found.append(params.strip())
        elif found or line.strip():
            break
    return ' | '.join(found)


def _parenthesized(line, start):
    """The text from start to the parenthesis that closes the one before
    it, or None."""
    depth = 1
    for i in range(start, len(line)):
        depth += {'(': 1, '[': 1, ')': -1, ']': -1}.get(line[i], 0)
        if depth == 0:
            return line[start:i]
    return None


def _string(node):
    """The text of a string constant, or of `"...".format(...)`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == 'format'):
        return _string(node.func.value)
    return None


def _dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return inner and inner + '.' + node.attr
    return None


def _literal_names(node):
    """The strings of a list/tuple literal (or a sum of them), or None."""
    if isinstance(node, (ast.List, ast.Tuple)):
        names = [_string(e) for e in node.elts]
        return names if all(isinstance(n, str) for n in names) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal_names(node.left), _literal_names(node.right)
        return left + right if left is not None and right is not None else None
    return None


class Module:
    """What one file defines and imports: defs {name: (kind, signature,
    methods {name: signature})}, imports [(module, name or '*', local)],
    all (its __all__, or None), documented {qualified: signature} (what
    the C library gave, from its documentation calls)."""

    def __init__(self, name, path, text):
        self.name, self.path = name, path
        self.package = name if path.endswith('__init__.py') else name.rpartition('.')[0]
        self.defs, self.imports, self.all, self.documented = {}, [], None, {}
        # Python 3.6's grammar: 0.3.1 and 0.4.1 named arguments `async`.
        tree = ast.parse(text, path, feature_version=(3, 6))
        for node in tree.body:
            self._top(node)
        self._documentation(tree)

    def _resolve(self, node):
        """The absolute module name of an ImportFrom."""
        if not node.level:
            return node.module or ''
        base = self.package
        for _ in range(node.level - 1):
            base = base.rpartition('.')[0]
        return base + ('.' + node.module if node.module else '')

    def _top(self, node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.defs[node.name] = ('function', signature(node), {})
        elif isinstance(node, ast.ClassDef):
            methods, init = {}, None
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if item.name == '__init__':
                        init = signature(item, method=True)
                    elif not item.name.startswith('_'):
                        methods[item.name] = signature(item, method=True)
            self.defs[node.name] = ('class', init or '', methods)
        elif isinstance(node, ast.ImportFrom):
            module = self._resolve(node)
            for alias in node.names:
                self.imports.append((module, alias.name, alias.asname or alias.name))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not isinstance(target, ast.Name):
                    continue
                if target.id == '__all__':
                    self.all = _literal_names(node.value)
                    continue
                self._assigned(target.id, node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                node.target.id == '__all__' and self.all is not None:
            more = _literal_names(node.value)
            if more is not None:
                self.all += more
        elif isinstance(node, (ast.If, ast.Try)):
            # Definitions under `if sys.version_info...` / try-except are defined.
            for child in node.body + getattr(node, 'orelse', []) + [
                    s for h in getattr(node, 'handlers', []) for s in h.body]:
                self._top(child)

    def _assigned(self, name, value):
        """name = value at the top: a documented C function (`conv2d =
        _add_docstr(torch.conv2d, doc)`), an alias of a def, or a constant."""
        if isinstance(value, ast.Call) and (_dotted(value.func) or '').endswith('add_docstr') \
                and len(value.args) == 2:
            doc = _string(value.args[1])
            source = _dotted(value.args[0]) or name
            self.defs[name] = ('function', doc_signature(source.rpartition('.')[2], doc or ''),
                               {})
        elif isinstance(value, ast.Name) and value.id in self.defs:
            self.defs.setdefault(name, self.defs[value.id])
        elif isinstance(value, (ast.Constant, ast.Dict, ast.List, ast.Tuple, ast.Set,
                                ast.BinOp, ast.UnaryOp, ast.Call)):
            self.defs.setdefault(name, ('attribute', '', {}))

    def _documentation(self, tree):
        base = C_DOCS.get(self.name)
        if base is None:
            return
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and len(node.args) >= 2):
                continue
            func = _dotted(node.func)
            doc = _string(node.args[1])
            if doc is None:
                continue
            if func == 'add_docstr_all':
                name = _string(node.args[0])
            elif func == 'add_docstr':
                target = _dotted(node.args[0]) or ''
                if not target.startswith(('torch.', 'torch._C.')):
                    continue
                name = target.rpartition('.')[2]
            else:
                continue
            if name and not name.startswith('_'):
                self.documented[base + '.' + name] = doc_signature(name, doc)


# -- one release -------------------------------------------------------------------

def read_release(texts):
    """{qualified name: (kind, signature, where)} and {qualified: [aliases]}
    of one release's API (texts: {path: text})."""
    modules = {}
    for path, text in sorted(texts.items()):
        name = module_name(path)
        try:
            modules[name] = Module(name, path, text)
        except SyntaxError as exc:  # Python 2 only: reported, not guessed
            sys.stderr.write('%s: not Python 3 (%s); left out\n' % (path, exc))
    namespaces = _namespaces(modules)
    objects = {}   # (defining module, name) -> [public qualified names]
    for module, names in namespaces.items():
        for local, origin in names.items():
            qualified = module + '.' + local
            if is_public(qualified) and is_public(module):
                objects.setdefault(origin, []).append(qualified)
            elif _private_listed(qualified):
                objects.setdefault(origin, []).append(qualified)
    api, aliases = {}, {}
    for name in modules:
        if is_public(name):
            api[name] = ('module', '', name)
    for (where, local), paths in objects.items():
        kind, sig, methods = modules[where].defs[local]
        main = min(paths, key=lambda p: (p.count('.'), p))
        main = CLASS_NAMES.get(where + '.' + local, main)
        api[main] = (kind, sig, where)
        aliases[main] = sorted(set(paths) - {main})
        for method, msig in methods.items():
            api[main + '.' + method] = ('method', msig, where)
    for (where, local) in [(w, n) for w in modules for n in modules[w].defs]:
        qualified = CLASS_NAMES.get(where + '.' + local)
        if qualified and qualified not in api:  # a class reached by no public path
            kind, sig, methods = modules[where].defs[local]
            api[qualified] = (kind, sig, where)
            for method, msig in methods.items():
                api[qualified + '.' + method] = ('method', msig, where)
    for module in modules.values():
        for qualified, sig in module.documented.items():
            kind = 'function' if qualified.count('.') == 1 else 'method'
            if qualified not in api or not api[qualified][1]:
                api[qualified] = (kind, sig, module.name)
    return api, aliases


def _namespaces(modules):
    """{module: {local name: (defining module, name)}} with what each
    module defines and, a package (or a module naming it in __all__),
    takes from other torch modules (`from .x import *` through x's __all__
    or public names), to a fixed point.  What a plain module imports is
    its implementation (0.3.1's autograd/variable.py took every autograd
    Function class with a `from ._functions import *`)."""
    spaces = {name: {local: (name, local) for local in m.defs} for name, m in modules.items()}
    changed = True
    while changed:
        changed = False
        for name, module in modules.items():
            package = module.path.endswith('__init__.py')
            for source, imported, local in module.imports:
                if source not in modules or not source.startswith('torch'):
                    continue
                if imported == '*':
                    exported = modules[source].all
                    names = exported if exported is not None else [
                        n for n in spaces[source] if not n.startswith('_')]
                    pairs = [(n, n) for n in names if n in spaces[source]]
                else:
                    pairs = [(imported, local)] if imported in spaces[source] else []
                for imported_name, local_name in pairs:
                    if not package and local_name not in (module.all or ()):
                        continue
                    if local_name not in spaces[name]:
                        spaces[name][local_name] = spaces[source][imported_name]
                        changed = True
    return spaces


def keywords(name, kind, sig):
    """The keyword arguments (parameters with a default) of an entry's
    signature, as `name(keyword=)` names."""
    if kind not in ('function', 'method', 'class'):
        return []
    found = []
    for overload in sig.split(' | '):
        for param in _split_params(overload):
            key = param.split('=', 1)[0].strip()
            if '=' in param and key.isidentifier() and key not in found:
                found.append(key)
    return ['%s(%s=)' % (name, k) for k in found]


def _split_params(sig):
    """The parameters of a signature, split at top-level commas."""
    params, depth, current = [], 0, ''
    for char in sig:
        if char in '([{':
            depth += 1
        elif char in ')]}':
            depth -= 1
        if char == ',' and depth == 0:
            params.append(current.strip())
            current = ''
        else:
            current += char
    if current.strip():
        params.append(current.strip())
    return params


def surface(trees):
    """[Entry] of the releases' trees ({release: tree}), by name."""
    entries = {}
    for release, tree in trees.items():
        api, aliases = read_release(tree.read_all())
        for name, (kind, sig, _) in api.items():
            entry = entries.setdefault(name, {'kind': kind, 'releases': [], 'aliases': set(),
                                              'signatures': {}})
            entry['releases'].append(release)
            entry['aliases'] |= set(aliases.get(name, ()))
            entry['signatures'][release] = sig
            for keyword in keywords(name, kind, sig):
                kw = entries.setdefault(keyword, {'kind': 'keyword', 'releases': [],
                                                  'aliases': set(), 'signatures': {}})
                if release not in kw['releases']:
                    kw['releases'].append(release)
    return [Entry(name, e['kind'], tuple(e['releases']), tuple(sorted(e['aliases'])),
                  e['signatures']) for name, e in sorted(entries.items())]


def write(entries, out):
    with open(out, 'w', newline='') as f:
        f.write('# PyTorch %s Python API: tools/py_surface/extract.py; sources:\n'
                % ' and '.join(RELEASES))
        for release in RELEASES:
            f.write('# %s: %s (%s)\n' % (release, SOURCES[release][0], SOURCES[release][1]))
        writer = csv.writer(f, delimiter='\t', lineterminator='\n')
        writer.writerow(COLUMNS)
        for e in entries:
            writer.writerow([e.name, e.kind, ','.join(e.releases), ' '.join(e.aliases)] +
                            [e.signatures.get(r, '') for r in RELEASES])


def read(path=OUT):
    """[Entry] of a surface.tsv."""
    with open(path, newline='') as f:
        rows = csv.DictReader((line for line in f if not line.startswith('#')),
                              delimiter='\t')
        return [Entry(r['name'], r['kind'], tuple(r['releases'].split(',')),
                      tuple(r['aliases'].split()),
                      {rel: r['signature ' + rel] for rel in RELEASES if r['signature ' + rel]})
                for r in rows]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('git_dir', nargs='?', help='a git directory holding SOURCES')
    parser.add_argument('--folder', action='append', default=[], metavar='RELEASE=FOLDER',
                        help='read a release from a folder instead')
    parser.add_argument('--out', default=OUT)
    args = parser.parse_args(argv)
    trees = {}
    for item in args.folder:
        release, _, folder = item.partition('=')
        trees[release] = FolderTree(folder)
    if args.git_dir:
        for release in RELEASES:
            trees.setdefault(release, GitTree(args.git_dir, SOURCES[release][0]))
    if not trees:
        parser.error('give GIT_DIR or --folder RELEASE=FOLDER')
    entries = surface(trees)
    write(entries, args.out)
    counts = collections.Counter(e.kind for e in entries)
    print('%d names (%s) -> %s' % (len(entries), ', '.join(
        '%d %s' % (n, k) for k, n in sorted(counts.items())), args.out))


if __name__ == '__main__':
    main()
