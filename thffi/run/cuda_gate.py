"""torch.cuda.is_available() in a build, for `python -m thffi run`: in a
process that builds an extension, the question a 2018 build script meant
(`if torch.cuda.is_available(): sources += [...]; with_cuda = True`) is
whether CUDA code can be built here, which thffi's cuda_enabled() answers
(toolchain/cuda_toolkit.py: a CUDA toolkit found, or THFFI_WITH_CUDA), as
port writes it into build scripts (port/gates.py): a machine with nvcc and
no GPU builds the CUDA code.  Everywhere else the answer stays the truth.

What the process runs decides, read with Python's parser, never a file's
name: a process builds when its script calls create_extension (`python
build.py`), or when code that calls create_extension imports
torch.utils.ffi (a build.py that setuptools' cffi_modules runs inside
`python setup.py build_ext`; not the extension's own __init__.py a training
script imports, which calls no create_extension).  In such a process the
calls from the repository's files (under the root) get the build's answer,
the same port gives that file: where a CUDA branch names files that do not
exist, port keeps the gate (gates.check) and so does this, answering the
truth.  Calls from elsewhere (PyTorch's own, other packages') get the
truth.  The first call from each file says on stderr, once, what it
answered and why, when that is not the truth.

Loaded by path by the sitecustomize run/__init__.py writes; imports only
the standard library until a build asks."""

import functools
import os
import sys

_STATE = {}  # root, building (why), answers {file: (value, said)}


def install(after_import, root):
    """Watches the process for a build (see the module's docstring), the
    repository's files being those under root (after_import: run's
    after_import.py, loaded)."""
    _STATE.update(root=os.path.abspath(root), building=None, answers={},
                  after_import=after_import)
    # Asked only for what no other finder finds (torch.utils.ffi: PyTorch
    # has none), before thffi's own hook (thffi/_hook.py) gives it.
    hooks = [i for i, f in enumerate(sys.meta_path) if type(f).__name__ == 'TorchUtilsFfiFinder']
    sys.meta_path.insert(hooks[0] if hooks else len(sys.meta_path), _Watch())
    if sys.argv and sys.argv[0] and os.path.isfile(sys.argv[0]):
        watch_script(os.path.abspath(sys.argv[0]))


def watch_script(path):
    """The script the process runs (python2.py's run_main() names it too):
    a build from the start when it calls create_extension."""
    if _calls_create_extension(path):
        _building(path)


def _calls_create_extension(path):
    """Whether the Python file at path calls create_extension (`ffi =
    create_extension(...)`, `ffi.create_extension(...)`), by its syntax
    tree (a Python 2 file's, once converted as port converts it)."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return False
    if b'create_extension' not in data:
        return False
    import ast
    try:
        tree = ast.parse(data, path)
    except (SyntaxError, ValueError):
        from thffi.port import py2
        try:
            tree = ast.parse(py2.to_python3(data.decode('utf-8'), path, filename=path)[0])
        except (SyntaxError, ValueError):
            return False
    return any(isinstance(node, ast.Call) and (
        isinstance(node.func, ast.Name) and node.func.id == 'create_extension' or
        isinstance(node.func, ast.Attribute) and node.func.attr == 'create_extension')
        for node in ast.walk(tree))


def _building(path):
    if _STATE['building'] is None:
        _STATE['building'] = path
        if 'torch.cuda' in sys.modules:
            _patch(sys.modules['torch.cuda'])
        else:
            sys.meta_path.insert(0, _PatchCuda())


class _Watch:
    """A meta path finder that finds nothing: at the first import of
    torch.utils.ffi it asks whether the importer builds."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == 'torch.utils.ffi' and _STATE['building'] is None:
            frame = sys._getframe(1)
            while frame is not None and (frame.f_code.co_filename.startswith('<frozen') or
                                         frame.f_code.co_filename == __file__):
                frame = frame.f_back
            if frame is not None and _calls_create_extension(frame.f_code.co_filename):
                _building(frame.f_code.co_filename)
        return None


class _PatchCuda:
    """A meta path finder for torch.cuda in a process that builds: found as
    the other finders find it, given the build's is_available() once it ran
    (after_import.py)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'torch.cuda':
            return None
        sys.meta_path.remove(self)
        return _STATE['after_import'].patched(self, fullname, path, target, _patch)


def _patch(cuda):
    """torch.cuda.is_available, the build's answer for the repository's
    files (see the module's docstring), once."""
    truth = cuda.is_available
    if getattr(truth, '_thffi_run', False):
        return

    @functools.wraps(truth)
    def is_available():
        caller = os.path.abspath(sys._getframe(1).f_code.co_filename)
        if os.path.commonpath([caller, _STATE['root']]) != _STATE['root']:
            return truth()
        if caller not in _STATE['answers']:
            _STATE['answers'][caller] = _answer(caller, truth(), sys._getframe(1).f_lineno)
        value, said = _STATE['answers'][caller]
        if said:
            sys.stderr.write('thffi run: %s\n' % said)
            _STATE['answers'][caller] = value, None
        return value

    is_available._thffi_run = True
    cuda.is_available = is_available


def _answer(path, truth, line):
    """(the answer for the file at path, what to say of it or None)."""
    from thffi.toolchain import cuda_toolkit
    where = '%s:%d' % (os.path.relpath(path, _STATE['root']), line)
    try:
        enabled = cuda_toolkit.cuda_enabled()
    except ValueError as exc:  # a THFFI_WITH_CUDA that is no answer
        return truth, '%s: torch.cuda.is_available() answers the truth (%s): %s' % (
            where, truth, exc)
    if enabled == truth:
        return truth, None
    kept = _kept_gates(path)
    if kept:
        return truth, ('%s: torch.cuda.is_available() answers the truth (%s), as port keeps '
                       'this gate: %s' % (where, truth, kept[0].message))
    why = ('a CUDA toolkit is found (%s): building CUDA code needs that, not a GPU'
           % cuda_toolkit.find_cuda_home() if enabled else
           'no CUDA toolkit is found to build CUDA code with, GPU or not')
    return enabled, ('%s: torch.cuda.is_available() answers %s in this build: %s (port writes '
                     'cuda_enabled() here; %s=%d says otherwise); elsewhere it answers the '
                     'truth' % (where, enabled, why, cuda_toolkit.ENV_SWITCH, not enabled))


def _kept_gates(path):
    """port's findings on the build script at path whose CUDA branches name
    files that do not exist (gates.check): empty when port rewrites its
    gates, as it does a script that reads none."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, QualifiedNameProvider
    from thffi.port import gates, py2
    with open(path, encoding='utf-8') as f:
        source = py2.to_python3(f.read(), path, filename=path)[0]
    try:
        wrapper = MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
    except cst.ParserSyntaxError:
        return []
    names = wrapper.resolve(QualifiedNameProvider)
    assigns = []

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node):
            assigns.append(node)

    def qualified(node):
        found = names.get(node, ())
        return {q.name for q in (found() if callable(found) else found)}  # resolved lazily

    wrapper.module.visit(Assigns())
    gate_names = {t.target.value for node in assigns if isinstance(node.value, cst.Call) and
                  'torch.cuda.is_available' in qualified(node.value.func)
                  for t in node.targets if isinstance(t.target, cst.Name)}
    return gates.check(wrapper, path, path, (), gate_names)
