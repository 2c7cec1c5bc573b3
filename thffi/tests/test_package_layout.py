"""thffi's folders are its parts (docs/architecture.md): at most eight
modules at the top besides __init__.py, __main__.py and setup.py; no circle
of imports; each part imports only toolchain/ and the parts below it; the
link step reads no build file.  Every import of thffi's own code, at any
depth (function-level ones too), is read with Python's ast."""

import ast
import os

import pytest

THFFI = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Left to right: a part may import the parts after it.
ORDER = ('run', 'builder', 'port', 'toolchain')
# What a part may import besides: runtime/extension_runtime.py, which each
# built package imports, asks thffi's public thffi.legacy by name
# (docs/architecture.md).
ALLOWED = {('thffi.runtime.extension_runtime', 'thffi.legacy')}
# Data at the top that imports nothing and any part may read.
SHARED = {'thffi._version', 'thffi._cache'}


def _modules():
    """{dotted name: path} of thffi's Python modules, tests left out."""
    found = {}
    for folder, dirs, files in os.walk(THFFI):
        dirs[:] = [d for d in dirs if d not in ('tests', '__pycache__', 'build')
                   and not d.endswith('.egg-info')]
        for name in files:
            if name.endswith('.py') and not (folder == THFFI and name == 'setup.py'):
                rel = os.path.relpath(os.path.join(folder, name), os.path.dirname(THFFI))
                dotted = rel[:-3].replace(os.sep, '.')
                found[dotted[:-len('.__init__')] if dotted.endswith('.__init__')
                      else dotted] = os.path.join(folder, name)
    return found


def _imports(modules):
    """{module: {thffi module it imports}}: `from . import x` imports the
    submodule x where there is one, else the package."""
    edges = {}
    for name, path in modules.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        package = name if path.endswith('__init__.py') else name.rpartition('.')[0]
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ''
                if node.level:
                    parent = package
                    for _ in range(node.level - 1):
                        parent = parent.rpartition('.')[0]
                    base = parent + ('.' + node.module if node.module else '')
                subs = {base + '.' + a.name for a in node.names} & modules.keys()
                found |= subs
                if len(subs) < len(node.names) and base in modules:
                    found.add(base)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names} & modules.keys()
        edges[name] = found - {name}
    return edges


def _part(module):
    parts = module.split('.')
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ORDER
                                          + ('runtime',)) else None


def test_at_most_eight_modules_at_the_top():
    for shared in SHARED:
        assert not _imports(_modules())[shared], shared
    top = sorted(f for f in os.listdir(THFFI) if f.endswith('.py')
                 and f not in ('__init__.py', '__main__.py', 'setup.py'))
    assert len(top) <= 8, top


def test_no_circle_of_imports():
    edges = _imports(_modules())
    # Depth-first search for a path back to where it started.
    state = {}

    def visit(module, path):
        state[module] = 'open'
        for target in sorted(edges[module]):
            if state.get(target) == 'open':
                return path[path.index(target):] + [target]
            if target not in state:
                circle = visit(target, path + [target])
                if circle:
                    return circle
        state[module] = 'done'
        return None

    for module in sorted(edges):
        if module not in state:
            circle = visit(module, [module])
            assert circle is None, ' -> '.join(circle)


def test_each_part_imports_only_the_parts_below_it():
    wrong = []
    for module, targets in _imports(_modules()).items():
        mine = _part(module)
        if mine is None:
            continue  # a public face imports any part
        for target in targets:
            theirs = _part(target)
            if theirs == mine or (module, target) in ALLOWED or target in SHARED:
                continue
            below = (theirs in ORDER and mine in ORDER
                     and ORDER.index(theirs) > ORDER.index(mine))
            if not below:
                wrong.append('%s imports %s' % (module, target))
    assert not wrong, wrong


def test_the_link_step_reads_no_build_file():
    """What link needs of build files comes in the plan (configure reads
    them): link.py, and what it imports of the builder, import none of
    port's readers."""
    edges = _imports(_modules())
    reached, todo = set(), ['thffi.builder.link']
    while todo:
        module = todo.pop()
        for target in edges[module]:
            if target.startswith('thffi.builder.') and target not in (
                    'thffi.builder.configure', 'thffi.builder.extension') and target not in reached:
                reached.add(target)
                todo.append(target)
    readers = sorted(m for m in reached | {'thffi.builder.link'}
                     if any(t.startswith('thffi.port') for t in edges[m]))
    assert not readers, readers
    with open(os.path.join(THFFI, 'builder', 'link.py')) as f:
        tree = ast.parse(f.read())
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not used & {'meant_command', 'show_step', 'commands_building'}


@pytest.mark.parametrize('name', ['thffi.builder.compile', 'thffi.builder.configure',
                                  'thffi.builder.install', 'thffi.builder.link'])
def test_a_step_module_is_the_module_by_its_name(name):
    """`thffi.builder.compile` is the step's module, not the function of the
    same name (the face thffi/builder/__init__.py rebinds none of them)."""
    import importlib
    import types
    module = importlib.import_module(name)
    assert isinstance(module, types.ModuleType)
    package = importlib.import_module('thffi.builder')
    assert getattr(package, name.rpartition('.')[2]) is module


def test_the_distribution_installs_every_part():
    """thffi/pyproject.toml lists its packages by name (package-dir maps
    thffi to this folder): each folder of thffi's code is among them."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip('tomli')
    with open(os.path.join(THFFI, 'pyproject.toml'), 'rb') as f:
        listed = set(tomllib.load(f)['tool']['setuptools']['packages'])
    packages = {name for name, path in _modules().items() if path.endswith('__init__.py')}
    assert packages == listed
