"""Imports that fail because of another file, for `python -m thffi port`'s
report: a file that still imports a removed module or name (torch.legacy,
torch.utils.serialization, torch.utils.trainer, imp, `from scipy.misc
import imread`: the rows of thffi/toolchain/pyremoved.py port reports)
fails as it is imported, and so does every file of the repository that
imports it, directly or through others.  removed.py reports the first;
chained() the others, at their import line, naming the chain.

Modules are found as Python would from the repository's folders: `from .b
import x` beside the file, `import a.b` as a path ending in a/b.py or
a/b/__init__.py (in the importing file's folder first; a name that more
than one file could be is not followed)."""

import ast
import os

from ..toolchain import pyremoved
from .report import Finding


def statements(tree):
    """[(line, level, [module names])] of each import in a file's syntax
    tree: for `from m import x` m.x (a submodule, if there is one) before m.
    What chained() needs of a file, small enough to pass between processes."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, 0, [alias.name]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ''
            names = [(module + '.' if module else '') + a.name for a in node.names
                     if a.name != '*']
            found.append((node.lineno, node.level, names + ([module] if module else [])))
    return found


def removed(statements):
    """(line, what) of the imports among a file's statements that fail
    today: of a removed module, or `from` a module of a removed name, that
    port reports."""
    out = []
    for line, level, names in statements:
        for name in names if not level else ():
            row = pyremoved.find(name) or pyremoved.IMPORTS.get(name)
            if row is not None and row.fix is None:
                out.append((line, '%s (gone since %s)' % (name, row.removed)))
                break
    return out


def _index(paths):
    """{dotted name: [path]} for every dotted suffix of each Python file's
    module name (a/b/c.py: a.b.c, b.c, c; a/b/__init__.py: a.b, b)."""
    index = {}
    for path in paths:
        parts = path[:-len('.py')].split(os.sep)
        if parts[-1] == '__init__':
            parts = parts[:-1]
        for i in range(len(parts)):
            index.setdefault('.'.join(parts[i:]), []).append(path)
    return index


def _resolve(path, name, level, paths, index):
    """The repository file that importing name (relative at level) from
    the file at path loads, or None."""
    if level:
        folder = os.path.dirname(path)
        for _ in range(level - 1):
            folder = os.path.dirname(folder)
        base = os.path.join(folder, *name.split('.'))
        return next((c for c in (base + '.py', os.path.join(base, '__init__.py'))
                     if c in paths), None)
    found = index.get(name, [])
    folder = os.path.dirname(path)
    beside = [p for p in found if os.path.dirname(p) == folder or
              p.endswith('__init__.py') and os.path.dirname(os.path.dirname(p)) == folder]
    found = beside or found
    return found[0] if len(found) == 1 else None


def chained(files):
    """[Finding] for the files among files ({relative path: the statements()
    of its final text}) that import a repository file failing to import
    because of a removed module (directly or through others), at each such
    import."""
    paths = set(files)
    index = _index(paths)
    why = {}      # path -> why importing it fails
    edges = {}    # path -> [(line, imported path)]
    for path, found in files.items():
        gone = removed(found)
        if gone:
            why[path] = '%s:%d imports %s' % (path, gone[0][0], gone[0][1])
        for line, level, names in found:
            target = next((t for t in (_resolve(path, n, level, paths, index) for n in names)
                           if t is not None), None)
            if target is not None and target != path:
                edges.setdefault(path, []).append((line, target))
    learned = True
    while learned:  # until no file learns of a failing import
        learned = False
        for path, imported in sorted(edges.items()):
            failing = next(((line, t) for line, t in imported if t in why), None)
            if path not in why and failing is not None:
                why[path] = '%s:%d imports %s; %s' % (path, failing[0], failing[1],
                                                      why[failing[1]])
                learned = True
    return [Finding(path, line, 'imports %s, which fails to import (%s): so does this file '
                    'until that is ported' % (target, why[target]), False)
            for path, imported in sorted(edges.items())
            for line, target in sorted(set(imported)) if target in why]
