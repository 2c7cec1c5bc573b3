"""The Python side of `python -m thffi port`: rewrites legacy (PyTorch
0.3/0.4) Python with libcst, which keeps comments and formatting.

- torch.utils.ffi: `from torch.utils.ffi import X`, `import torch.utils.ffi
  [as Y]`, `from torch.utils import ffi` and `torch.utils.ffi.X` become thffi.
- Build scripts (files that use torch.utils.ffi): `torch.cuda.is_available()`
  becomes thffi's cuda_enabled(): a CUDA toolkit, not a GPU, decides; an
  `import torch` left unused then goes.  Not where a CUDA branch names files
  that do not exist (gates.py): those are reported.
- Legacy autograd Functions (forward/backward instance methods): the
  `Function` import of the file (or the base written as torch.autograd.Function)
  becomes thffi.legacy.Function; call sites stay.
- `torch.range(a, b[, step])`: `torch.arange` with the same values and dtype.
- `Variable(x[, requires_grad])`: x.detach()[.requires_grad_(...)], as
  today's Variable; x itself only when it is a fresh tensor (a factory call).
- `x.data[0]`: `x.item()` where the value is used as a Python number
  (print, formatting, float/int/round/abs/str/min/max and math.*,
  arithmetic or comparison with anything, negation, augmented assignment),
  and in any use where x is known to be 0-d (a reduction without dim, a
  loss: F.*_loss, a loss module or `criterion` called, or a name assigned
  only those); other uses are reported.

Before these, a Python 2 file (pyversion.py decides, file by file) is
converted to Python 3 (py2.py, fissix);
after them the Python, NumPy, SciPy and PyTorch names that today's
releases removed are rewritten or reported (removed.py), views handed to
ffi extensions are reported (layout.py), `t.data` handed to them becomes t
(data_to_c.py), and continuation lines a rewrite moved are aligned again
(align.py).

Every rewrite applies to code that no longer has the legacy form, so a
second run changes nothing."""

import ast
import math
import os
import re
import warnings
from dataclasses import dataclass, field

with warnings.catch_warnings():
    # libcst 1.0's metadata package warns, as it loads, that its use of
    # mypy_extensions.TypedDict is deprecated: libcst's affair, not the user's.
    warnings.filterwarnings('ignore', 'mypy_extensions.TypedDict', DeprecationWarning)
    import libcst as cst
    import libcst.matchers as m
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    from libcst.metadata import (MetadataWrapper, ParentNodeProvider, PositionProvider,
                                 QualifiedNameProvider, ScopeProvider)

from . import gates, layout, metadata, pyversion, triggers, unused_imports
from .chain import Chain
from .data_to_c import DataArguments
from .align import realign
from .behaviours import FUNCTION_CLASSES, VARIABLE_CLASSES, Behaviours, fix_async
from .py2 import future, implicit_imports, to_python3
from .removed import Removed
from .report import Finding
from .version import DEFAULT as DEFAULT_VERSION

_NUMBER_BUILTINS = {'builtins.' + n for n in ('print', 'float', 'int', 'round', 'abs', 'str',
                                                'min', 'max')}
# Calls that make a tensor of their own (torch.<name>, torch.cuda.<name>, x.<name>).
_FACTORIES = {'randn', 'rand', 'randint', 'randperm', 'zeros', 'ones', 'empty', 'full', 'eye',
              'linspace', 'logspace', 'arange', 'tensor', 'Tensor', 'from_numpy', 'zeros_like',
              'ones_like', 'rand_like', 'randn_like', 'empty_like', 'full_like', 'FloatTensor',
              'DoubleTensor', 'HalfTensor', 'LongTensor', 'IntTensor', 'ShortTensor',
              'CharTensor', 'ByteTensor'}
_NEW_METHODS = {'new', 'new_zeros', 'new_ones', 'new_empty', 'new_full', 'new_tensor'}
# Methods and torch functions that, without a dim, reduce to a 0-d tensor.
_REDUCTIONS = ('sum', 'mean', 'prod', 'max', 'min', 'norm', 'std', 'var', 'median', 'dot',
               'trace')
_TORCH_REDUCTIONS = {'torch.' + n for n in _REDUCTIONS}
_LOSS_FUNCTIONS = ('cross_entropy', 'binary_cross_entropy', 'binary_cross_entropy_with_logits',
                   'kl_div', 'poisson_nll_loss')


def _is_loss_function(name):
    """torch.nn.functional's losses: F.*_loss, cross_entropy and the like."""
    prefix = 'torch.nn.functional.'
    return name.startswith(prefix) and (name.endswith('_loss') or
                                        name[len(prefix):] in _LOSS_FUNCTIONS)


def _is_loss_module(name):
    return name.startswith('torch.nn.') and name.endswith('Loss')


def _unreduced(call):
    """A call with reduction='none', reduce=False or keepdim=True: not 0-d."""
    for arg in call.args:
        key = arg.keyword.value if arg.keyword else None
        if (key == 'reduction' and isinstance(arg.value, cst.SimpleString)
                and arg.value.evaluated_value == 'none'
                or key == 'reduce' and m.matches(arg.value, m.Name('False'))
                or key == 'keepdim' and m.matches(arg.value, m.Name('True'))):
            return True
    return False


_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo,
               cst.Power)
_AUG_ARITHMETIC = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign,
                   cst.FloorDivideAssign, cst.ModuloAssign, cst.PowerAssign)
# Expressions that take `.attr` or `+ 1` without parentheses.
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.List, cst.Tuple, cst.Dict,
          cst.Set)
_TORCH_UTILS_FFI = m.Attribute(value=m.Attribute(value=m.Name('torch'), attr=m.Name('utils')),
                               attr=m.Name('ffi'))
_STRING = m.SimpleString() | m.ConcatenatedString() | m.FormattedString()
_RANGE_BY_HAND = ('torch.range(...) not changed: %s; write torch.arange(start, end + 1, '
                  'step, dtype=torch.get_default_dtype()) (end - 1 for a negative step; '
                  'the same values when they are whole numbers)')
@dataclass(frozen=True)
class Repository:
    """What port knows of the whole repository as it rewrites one file."""
    built_by_nvcc: frozenset = frozenset()  # file names the shell scripts' nvcc builds
    built: frozenset = frozenset()          # absolute paths of the modules the build creates
    extensions: tuple = ()                  # their dotted names (create_extension's)
    c_layouts: dict = field(default_factory=dict)  # C function -> (file, checks layout)
    top_level: dict = None                  # {absolute path: how it runs} of the modules
                                            # whose imports stay (running.py); None: not known
    python2_folders: frozenset = frozenset()  # absolute folders holding a Python 2 module
    python3_packages: frozenset = frozenset()  # the top-level packages (folders) holding
                                            # a module asking for Python 3's imports


# What the legacy torch.utils.ffi build wrote as an extension's __init__.py
# (with or without the branch for non-callable symbols); $lib: the cffi module.
_GENERATED = ('from torch.utils.ffi import _wrap_function\n'
              'from .$lib import lib as _lib, ffi as _ffi\n'
              '__all__ = []\n'
              'def _import_symbols(locals):\n'
              '    for symbol in dir(_lib):\n'
              '        fn = getattr(_lib, symbol)\n'
              '%s'
              '        __all__.append(symbol)\n'
              '_import_symbols(locals())\n')
_GENERATED_BODIES = ('        locals[symbol] = _wrap_function(fn, _ffi)\n',
                     '        if callable(fn):\n'
                     '            locals[symbol] = _wrap_function(fn, _ffi)\n'
                     '        else:\n'
                     '            locals[symbol] = fn\n')
_GENERATED_LIB = re.compile(r'^from \.(\w+) import lib as _lib, ffi as _ffi\s*$', re.M)


def is_legacy_generated(source):
    """Whether source is exactly an __init__.py the legacy torch.utils.ffi
    build generated (compared as syntax trees: formatting and comments
    aside).  A hand-written __init__.py that imports _wrap_function is not."""
    lib = _GENERATED_LIB.search(source)
    if lib is None:
        return False
    try:
        tree = ast.dump(ast.parse(source))
    except SyntaxError:
        return False
    return any(tree == ast.dump(ast.parse((_GENERATED % body).replace('$lib', lib.group(1))))
               for body in _GENERATED_BODIES)


def rewrite_python(source, path, version=DEFAULT_VERSION, built_by_nvcc=(), filename=None,
                   repository=None):
    """(new source, [Finding]) for one file's text; path is for the report,
    version the PyTorch it was written for (see version.py), built_by_nvcc
    the file names the repository's shell scripts build with nvcc (a build
    script's CUDA branch linking something else is reported); filename the
    file on disk (where py2.py looks for sibling modules); repository what
    port knows of the rest (Repository; built_by_nvcc is its first field).
    A Python 2 file is converted first; one that cannot be, one that parses
    as neither Python (or any file libcst cannot parse) is returned
    unchanged with a finding saying so."""
    repository = repository or Repository(built_by_nvcc=frozenset(built_by_nvcc))
    original = source
    source, rows = fix_async(source)
    findings = [Finding(path, row, 'async=: a SyntaxError since Python 3.7; now '
                        'non_blocking=', True) for row in rows]
    before = source
    # A package's module that Python 2 ran with its implicit relative
    # imports, whatever its own syntax (run/python2.py alike).
    implicit = bool(filename) and implicit_imports(filename, source, repository.python2_folders,
                                                   repository.python3_packages)
    source, found, verdict = to_python3(source, path, filename, repository.built,
                                        repository.top_level, implicit=implicit)
    findings += found
    python2 = verdict.kind == pyversion.PYTHON2
    if verdict.kind == pyversion.NEITHER:
        return original, found  # says where it does not parse
    if not triggers.wanted(source, version, python2, repository.extensions):
        return source, findings  # nothing to rewrite or report: no need to parse
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        if python2:
            return source, findings  # to_python3's finding says why
        return source, findings + [Finding(path, exc.raw_line, 'not changed: libcst cannot '
                                           'parse it (%s)' % exc.message, False)]
    # One tree (parsed here: the wrapper need not copy it), its metadata
    # resolved once, when first asked for (metadata.py): what the rewrite
    # needs to know of the whole file first, and the nodes' parents, in one
    # pass, then every rewrite in one pass.
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    analysis, parents = _Analysis(), metadata.Parents()
    wrapper.visit(Chain(analysis, parents))
    context = CodemodContext(filename=path)
    views = layout.Views(repository.extensions)
    behaviours = Behaviours(path, version)
    removed = Removed(context, path, python2, future(source, 'division'),
                      integer_tensor=behaviours.integer_tensor)
    # A build script's gates stay where a CUDA branch names missing files (gates.py).
    kept = gates.check(wrapper, path, filename, repository.built_by_nvcc,
                       analysis.gate_names) if analysis.build_script and analysis.gates else []
    findings += kept
    rewriter = _Rewriter(context, analysis, path, repository.built_by_nvcc, bool(kept))
    data = DataArguments(path, repository.extensions)
    tree = wrapper.visit(Chain(views, data, removed, behaviours, rewriter,
                               known={ParentNodeProvider: parents.parents}))
    findings += layout.report(views.calls, path, repository.c_layouts)
    findings += behaviours.findings + data.findings
    if (rewriter.unbound_torch or behaviours.needs_torch) and _uses_name(tree, 'torch') and \
            not _binds_torch(tree):
        AddImportsVisitor.add_needed_import(context, 'torch')
    if context.scratch.get(AddImportsVisitor.CONTEXT_KEY):
        tree = AddImportsVisitor(context).transform_module(tree)
    imported = None
    if unused_imports.scheduled(context):
        tree, imported = unused_imports.remove(tree, context)
    removed.confirm(imported)
    findings += removed.findings
    new = tree.code if tree.code != source else source
    return (realign(before, new) if new != before else new,
            sorted(findings + rewriter.findings, key=lambda f: f.line))


class _Strings(cst.CSTVisitor):
    """Collects the string literals in a tree, into a list."""

    def __init__(self, into):
        super().__init__()
        self.into = into

    def visit_SimpleString(self, node):
        self.into.append(node.evaluated_value)


def _literal_value(node):
    """The value of an int or float literal (maybe negated), else None."""
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        sign = -1 if isinstance(node.operator, cst.Minus) else 1
        node = node.expression
    if isinstance(node, (cst.Integer, cst.Float)):
        return sign * node.evaluated_value
    return None


def _literal(value):
    node = cst.Integer(str(abs(value))) if isinstance(value, int) else cst.Float(repr(abs(value)))
    return cst.UnaryOperation(cst.Minus(), node) if value < 0 else node


def _parens(node):
    """node, parenthesized unless it is an atom (or already in parentheses)."""
    if isinstance(node, _ATOMS) or node.lpar:
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _spaced(operator):
    return operator(whitespace_before=cst.SimpleWhitespace(' '),
                    whitespace_after=cst.SimpleWhitespace(' '))


def _method(value, name, args=()):
    return cst.Call(func=cst.Attribute(value=_parens(value), attr=cst.Name(name)),
                    args=list(args))


def _detached(node):
    """Whether node is x.detach()."""
    return m.matches(node, m.Call(func=m.Attribute(attr=m.Name('detach')), args=[]))


def _uses_name(tree, name):
    found = []

    class Uses(cst.CSTVisitor):
        def visit_Import(self, node):
            return False

        def visit_ImportFrom(self, node):
            return False

        def visit_Name(self, node):
            if node.value == name:
                found.append(node)

    tree.visit(Uses())
    return bool(found)


def _binds_torch(tree):
    bound = []

    class Binds(cst.CSTVisitor):
        def visit_ImportAlias(self, node):
            if node.asname is None and cst.helpers.get_full_name_for_node(
                    node.name).split('.')[0] == 'torch':
                bound.append(node)

    tree.visit(Binds())
    return bool(bound)


class _Analysis(cst.CSTVisitor):
    """What the rewrite needs to know of the whole file first: whether it
    is a build script, its legacy and modern Function classes, and the
    imports that bind the name Function."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self):
        super().__init__()
        self.build_script = False
        self.from_ffi_import = False       # `from torch.utils.ffi import ...`
        self.legacy_classes = {}           # ClassDef -> the Arg of its Function base
        self.modern_bases = set()          # local names of modern Functions' bases
        self.function_imports = set()      # local names the Function import binds
        self.gates = False                 # calls torch.cuda.is_available()
        self.loss_modules = set()          # code of names assigned a loss module
        self.gate_names = set()            # names assigned torch.cuda.is_available()

    def visit_Assign(self, node):
        value = node.value
        if isinstance(value, cst.Call) and 'torch.cuda.is_available' in {
                q.name for q in self.get_metadata(QualifiedNameProvider, value.func, ())}:
            self.gate_names |= {t.target.value for t in node.targets
                                if isinstance(t.target, cst.Name)}
        if isinstance(value, cst.Call) and not _unreduced(value) and any(
                _is_loss_module(q.name) for q in self.get_metadata(QualifiedNameProvider,
                                                                   value.func, ())):
            self.loss_modules |= {cst.Module(body=[]).code_for_node(t.target)
                                  for t in node.targets}

    def visit_ImportFrom(self, node):
        module = cst.helpers.get_full_name_for_node(node.module) if node.module else ''
        if module == 'torch.utils.ffi' or module == 'torch.utils' and not isinstance(
                node.names, cst.ImportStar) and any(
                    a.name.value == 'ffi' for a in node.names):
            self.build_script = True
            self.from_ffi_import |= module == 'torch.utils.ffi'
        if module in ('torch.autograd', 'torch.autograd.function') and not isinstance(
                node.names, cst.ImportStar):
            for alias in node.names:
                if alias.name.value == 'Function':
                    local = alias.asname.name.value if alias.asname else 'Function'
                    self.function_imports.add(local)

    def visit_Attribute(self, node):
        if m.matches(node, _TORCH_UTILS_FFI):
            self.build_script = True

    def visit_Call(self, node):
        names = {q.name for q in self.get_metadata(QualifiedNameProvider, node.func, ())}
        self.gates |= 'torch.cuda.is_available' in names

    def visit_ClassDef(self, node):
        for base in node.bases:
            if base.keyword is not None:
                continue
            names = {q.name for q in self.get_metadata(QualifiedNameProvider, base.value, ())}
            if not names & FUNCTION_CLASSES:
                continue
            if _is_legacy(node):
                self.legacy_classes[node] = base
            elif isinstance(base.value, cst.Name):
                self.modern_bases.add(base.value.value)


def _is_legacy(classdef):
    """A Function subclass whose forward or backward is an instance method."""
    methods = [s for s in classdef.body.body if isinstance(s, cst.FunctionDef)
               and s.name.value in ('forward', 'backward')]
    return any(not any(m.matches(d.decorator, m.Name('staticmethod') | m.Name('classmethod'))
                       for d in f.decorators) for f in methods)


class _Rewriter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, PositionProvider,
                             ScopeProvider)

    def __init__(self, context, analysis, path, built_by_nvcc, keep_gates=False):
        super().__init__()
        self.keep_gates = keep_gates  # gates.check found a branch naming missing files
        self.built_by_nvcc = set(built_by_nvcc)
        self.context = context
        self.analysis = analysis
        self.path = path
        self.findings = []
        self.unbound_torch = False  # `import torch.utils.ffi` also bound `torch`
        a = analysis
        # Local names of Function whose import is rewritten: every class on
        # them is legacy.  Legacy classes on other bases get a base of their own.
        self.legacy_names = {
            name for name in a.function_imports if name not in a.modern_bases
            and any(m.matches(b.value, m.Name(name)) for b in a.legacy_classes.values())}

    def _line(self, node):
        return self.get_metadata(PositionProvider, node).start.line

    def _report(self, node, message, fixed=True):
        self.findings.append(Finding(self.path, self._line(node), message, fixed))

    def _qualified(self, node):
        return {q.name for q in self.get_metadata(QualifiedNameProvider, node, ())}

    # -- torch.utils.ffi ----------------------------------------------------

    def leave_Attribute(self, original_node, updated_node):
        if m.matches(original_node, _TORCH_UTILS_FFI):
            return cst.Name('thffi')
        return updated_node

    def leave_ImportFrom(self, original_node, updated_node):
        module = (cst.helpers.get_full_name_for_node(original_node.module)
                  if original_node.module else '')
        if module == 'torch.utils.ffi':
            self._report(original_node, 'torch.utils.ffi import: now thffi')
            if not isinstance(original_node.names, cst.ImportStar) and any(
                    a.name.value == '_wrap_function' for a in original_node.names):
                self._wrap_function(original_node)
            # updated_node.module is thffi already (leave_Attribute).
            if self.analysis.from_ffi_import and self._has_gates() and not any(
                    a.name.value == 'cuda_enabled' for a in updated_node.names):
                names = list(updated_node.names)
                names[-1] = names[-1].with_changes(comma=cst.Comma(
                    whitespace_after=cst.SimpleWhitespace(' ')))
                return updated_node.with_changes(names=names + [
                    cst.ImportAlias(cst.Name('cuda_enabled'))])
        return updated_node

    def _wrap_function(self, node):
        """torch.utils.ffi._wrap_function wrapped a cffi function for
        torch tensors; thffi's build writes those wrappers into the built
        package, and thffi's _wrap_function calls through.  Used, the
        import becomes thffi's; unused (a hand-written __init__.py that
        imports the built package), it goes."""
        alias = next(a for a in node.names if a.name.value == '_wrap_function')
        local = alias.asname.name.value if alias.asname else '_wrap_function'
        scope = self.get_metadata(ScopeProvider, node, None)
        used = scope is not None and any(
            assignment.references for assignment in scope.assignments[local])
        if used:
            self._report(node, '_wrap_function: now thffi\'s, which calls the function it is '
                         'given as it is: thffi\'s build wrote the package\'s functions taking '
                         'tensors already')
            return
        unused_imports.schedule(self.context, 'thffi', '_wrap_function',
                                    None if local == '_wrap_function' else local)
        self._report(node, '_wrap_function import (unused): removed; thffi\'s build writes the '
                     'wrappers into the built package')

    def leave_Import(self, original_node, updated_node):
        for alias in original_node.names:
            if m.matches(alias.name, _TORCH_UTILS_FFI):
                self._report(original_node, 'import torch.utils.ffi: now thffi')
                self.unbound_torch |= alias.asname is None
        return updated_node

    def leave_SimpleStatementLine(self, original_node, updated_node):
        """Import statements that become two: `from torch.utils import
        ffi, x` and `from torch.autograd import Function, x`."""
        out = []
        for original, updated in zip(original_node.body, updated_node.body):
            out += self._split_import(original, updated)
        if len(out) == len(updated_node.body):
            return updated_node.with_changes(body=out)
        lines = [updated_node.with_changes(body=[s]) for s in out[:1]]
        lines += [cst.SimpleStatementLine(body=[s]) for s in out[1:]]
        return cst.FlattenSentinel(lines)

    def _split_import(self, original, updated):
        if not isinstance(original, cst.ImportFrom) or isinstance(original.names,
                                                                  cst.ImportStar):
            return [updated]
        module = cst.helpers.get_full_name_for_node(original.module) if original.module else ''
        if module == 'torch.utils':
            moved = [a for a in updated.names if a.name.value == 'ffi']
            new = [cst.Import(names=[cst.ImportAlias(
                name=cst.Name('thffi'),
                asname=a.asname or cst.AsName(name=cst.Name('ffi')))]) for a in moved]
            if moved:
                self._report(original, 'from torch.utils import ffi: now thffi')
        elif module in ('torch.autograd', 'torch.autograd.function'):
            moved = [a for a in updated.names if a.name.value == 'Function' and (
                a.asname.name.value if a.asname else 'Function') in self.legacy_names]
            new = [cst.ImportFrom(module=cst.parse_expression('thffi.legacy'), names=[
                a.with_changes(comma=cst.MaybeSentinel.DEFAULT)]) for a in moved]
            if moved:
                self._report(original, 'Function import: now thffi.legacy.Function, the base '
                             'of legacy Functions (their call sites stay)')
        else:
            return [updated]
        kept = [a for a in updated.names if a not in moved]
        if not kept:
            return new
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return [updated.with_changes(names=kept)] + new

    # -- build scripts: CUDA decided by a toolkit, not a GPU ------------------

    def _has_gates(self):
        return self.analysis.build_script and self.analysis.gates and not self.keep_gates

    def visit_If(self, node):
        """A build script's CUDA branch that links objects or libraries built
        apart, but by the scripts' nvcc (a library from CMake, a CPU-only
        third-party one): after port it is taken wherever a CUDA toolkit
        exists, not only with a GPU, so those must be built there too."""
        test = node.test
        if not self._has_gates() or not (
                isinstance(test, cst.Name) and test.value in self.analysis.gate_names
                or isinstance(test, cst.Call) and 'torch.cuda.is_available' in
                self._qualified(test.func)):
            return
        apart = []

        class BuiltApart(cst.CSTVisitor):
            def visit_Assign(self, assign):
                return self._linked(assign.targets[0].target, assign.value)

            def visit_AugAssign(self, assign):
                return self._linked(assign.target, assign.value)

            def _linked(self, target, value):
                code = cst.Module(body=[]).code_for_node(target)
                if any(word in code for word in ('extra_objects', 'libraries', 'objects')):
                    strings = []
                    value.visit(_Strings(strings))
                    apart.extend(s for s in strings if s not in apart)
                return False

        for statement in node.body.body:
            statement.visit(BuiltApart())
        # What make.sh's nvcc builds exists wherever a toolkit does.
        apart = [a for a in apart if os.path.basename(a) not in self.built_by_nvcc]
        if apart:
            self._report(node, 'the CUDA branch links what the scripts build apart (%s): '
                         'with cuda_enabled() it is taken wherever a CUDA toolkit exists, GPU or '
                         'not, so build those with CUDA there too (before this script), or '
                         'build with THFFI_WITH_CUDA=0' % ', '.join(apart), fixed=False)

    def leave_Call(self, original_node, updated_node):
        names = self._qualified(original_node.func)
        if 'torch.cuda.is_available' in names and self._has_gates():
            self._report(original_node, 'torch.cuda.is_available() in a build script: now '
                         'thffi\'s cuda_enabled(), true when a CUDA toolkit is found (a build '
                         'machine needs no GPU; THFFI_WITH_CUDA=0/1 decides instead)')
            # A build script often imported torch for this alone; thffi
            # builds without it (and without its import time).
            unused_imports.schedule(self.context, 'torch')
            # The call's parentheses stay: in `assert(torch.cuda.is_available())`
            # they are all that parts the keyword from its test.
            if self.analysis.from_ffi_import:
                return cst.Call(func=cst.Name('cuda_enabled'), lpar=updated_node.lpar,
                                rpar=updated_node.rpar)
            AddImportsVisitor.add_needed_import(self.context, 'thffi')
            return cst.Call(func=cst.parse_expression('thffi.cuda_enabled'),
                            lpar=updated_node.lpar, rpar=updated_node.rpar)
        if 'torch.range' in names:
            return self._arange(original_node, updated_node)
        if names & VARIABLE_CLASSES:
            return self._variable(original_node, updated_node)
        return updated_node

    # -- legacy Functions ----------------------------------------------------

    def leave_ClassDef(self, original_node, updated_node):
        base = self.analysis.legacy_classes.get(original_node)
        if base is None:
            return updated_node
        name = original_node.name.value
        if isinstance(base.value, cst.Name) and base.value.value in self.legacy_names:
            return updated_node  # the import is rewritten
        if isinstance(base.value, cst.Name):
            new_base = cst.Name('LegacyFunction')
            AddImportsVisitor.add_needed_import(self.context, 'thffi.legacy', 'Function',
                                                'LegacyFunction')
        else:
            new_base = cst.parse_expression('thffi.legacy.Function')
            AddImportsVisitor.add_needed_import(self.context, 'thffi.legacy')
        self._report(original_node, '%s is a legacy Function: now based on '
                     'thffi.legacy.Function (its call sites stay)' % name)
        bases = [b.with_changes(value=new_base) if b.value.deep_equals(base.value) else b
                 for b in updated_node.bases]
        return updated_node.with_changes(bases=bases)

    # -- torch.range -----------------------------------------------------------

    def _arange(self, original, call):
        positional = [a for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
        if (not isinstance(call.func, cst.Attribute) or any(a.star for a in call.args)
                or len(positional) not in (2, 3)
                or 'step' in keywords and len(positional) == 3
                or {'start', 'end'} & set(keywords)):
            self._report(original, _RANGE_BY_HAND % 'its arguments are not (start, end[, '
                         'step])', fixed=False)
            return call
        start, end = positional[0].value, positional[1].value
        step_arg = positional[2] if len(positional) == 3 else keywords.pop('step', None)
        step = step_arg.value if step_arg is not None else cst.Integer('1')
        values = [_literal_value(v) for v in (start, end, step)]
        if None not in values:
            a, b, s = values
            if s == 0 or (b - a) / s < 0:
                self._report(original, 'torch.range(...) not changed: it is empty or an '
                             'error (step 0 or of the wrong sign)', fixed=False)
                return call
            # torch.range's count, as ATen computes it (in double); arange
            # gives ceil((end - start) / step) values: end half a step past
            # the last value gives as many.
            count = int((b - a) / s + 1)
            if all(isinstance(v, int) for v in values):
                new_end = _literal(a + count * s)
            else:
                end_value = a + (count - 0.5) * s
                short = float('%.12g' % end_value)
                new_end = _literal(short if math.ceil((short - a) / s) == count else end_value)
        elif _literal_value(step) is None:
            self._report(original, _RANGE_BY_HAND % 'its step is not a number literal',
                         fixed=False)
            return call
        elif isinstance(_literal_value(end), int):
            new_end = _literal(_literal_value(end) + (1 if _literal_value(step) > 0 else -1))
        elif _literal_value(step) > 0 and m.matches(
                end, m.BinaryOperation(operator=m.Subtract(), right=m.Integer('1'))):
            new_end = end.left  # torch.range(0, n - 1) -> torch.arange(0, n)
        else:
            # Past end by less than a step: the same values when they are
            # whole numbers, as in torch.range(0, n - 1) or (1, n, 2).
            new_end = cst.BinaryOperation(
                left=_parens(end), operator=_spaced(cst.Add if _literal_value(step) > 0
                                                    else cst.Subtract),
                right=cst.Integer('1'))
        torch = call.func.value
        args = [positional[0], positional[1].with_changes(value=new_end)]
        if _literal_value(step) != 1:
            args.append(cst.Arg(value=step))
        args += [a for a in call.args if a.keyword is not None and a.keyword.value != 'step']
        if 'dtype' not in keywords:
            args.append(cst.Arg(keyword=cst.Name('dtype'), value=cst.Call(
                func=cst.Attribute(value=torch, attr=cst.Name('get_default_dtype'))),
                equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(''),
                                      whitespace_after=cst.SimpleWhitespace(''))))
        args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args]
        self._report(original, 'torch.range(start, end): now torch.arange with the same '
                     'values (end included) and dtype')
        return call.with_changes(func=call.func.with_changes(attr=cst.Name('arange')),
                                 args=args)

    # -- Variable ------------------------------------------------------------

    def _variable(self, original, call):
        args, originals = {}, {}
        for i, (arg, before) in enumerate(zip(call.args, original.args)):
            if arg.star:
                break
            key = arg.keyword.value if arg.keyword else ('data', 'requires_grad',
                                                          'volatile')[min(i, 2)]
            args[key], originals[key] = arg.value, before.value
        else:
            if 'data' in args and set(args) <= {'data', 'requires_grad', 'volatile'}:
                return self._unwrap_variable(original, call, args, originals['data'])
        self._report(original, 'Variable(...) not changed: write x.detach() (and '
                     '.requires_grad_() for requires_grad=True)', fixed=False)
        return call

    def _fresh(self, node):
        """Whether node makes a new tensor that no graph and no other name
        holds: a factory (torch.zeros, torch.FloatTensor, x.new...), or
        x.data."""
        if m.matches(node, m.Attribute(attr=m.Name('data'))):
            return True
        if not isinstance(node, cst.Call):
            return False
        if m.matches(node.func, m.Attribute(attr=m.Name())) and \
                node.func.attr.value in _NEW_METHODS:
            return True
        return any(q.startswith(('torch.', 'torch.cuda.')) and q.rsplit('.', 1)[1] in _FACTORIES
                   for q in self._qualified(node.func))

    def _detached_next(self, call):
        """Whether call's value is detached at once: call.detach()."""
        attribute = self._parent(call)
        return (isinstance(attribute, cst.Attribute) and attribute.attr.value == 'detach'
                and isinstance(self._parent(attribute), cst.Call))

    def _unwrap_variable(self, original, call, args, data_before):
        """Variable(x) is a new tensor on x's memory that requires no grad
        (unless requires_grad=True) and has no graph, whatever x is: today
        x.detach() (then .requires_grad_(flag)); a fresh tensor is that
        already.  Never x itself, so `x = Variable(x)` leaves no `x = x`."""
        func = original.func
        local = func.value if isinstance(func, cst.Name) else None
        if local is not None:
            for module in ('torch.autograd', 'torch.autograd.variable'):
                unused_imports.schedule(
                    self.context, module, 'Variable', None if local == 'Variable' else local)
        data = args['data']
        volatile = args.get('volatile')
        if volatile is not None and not m.matches(volatile, m.Name('False')):
            self._report(original, 'Variable(..., volatile=...) dropped: volatile has no '
                         'effect today; run inference under `with torch.no_grad():`',
                         fixed=False)
        flag = args.get('requires_grad')
        # x.detach() already, or detached next (Variable(x).detach(), which
        # requires no grad whatever the flag): no second detach().
        detached_next = self._detached_next(original)
        fresh = self._fresh(data_before) or _detached(data_before) or detached_next
        if not fresh:
            data = _method(data, 'detach')
        if flag is None or m.matches(flag, m.Name('False')) or detached_next:
            self._report(original, 'Variable(x): now x%s' % ('' if fresh else '.detach()'))
            return data.with_changes(lpar=call.lpar, rpar=call.rpar) if call.lpar else data
        flag_args = [] if m.matches(flag, m.Name('True')) else [cst.Arg(value=flag)]
        self._report(original, 'Variable(x, requires_grad=...): now x%s.requires_grad_(...)'
                     % ('' if fresh else '.detach()'))
        return _method(data, 'requires_grad_', flag_args)

    # -- x.data[0] -------------------------------------------------------------

    def leave_Subscript(self, original_node, updated_node):
        if not m.matches(original_node, m.Subscript(
                value=m.Attribute(attr=m.Name('data')),
                slice=[m.SubscriptElement(slice=m.Index(value=m.Integer('0')))])):
            return updated_node
        receiver = cst.Module(body=[]).code_for_node(original_node.value.value)
        if not self._is_target(original_node):
            why = ('%s is a 0-d tensor' % receiver if self._zero_dim(original_node.value.value)
                   else 'used as a number' if self._used_as_number(original_node) else None)
            if why:
                self._report(original_node, '%s.data[0] (%s): now %s.item() (a 0-d tensor has '
                             'no element 0)' % (receiver, why, receiver))
                return cst.Call(func=cst.Attribute(value=_parens(updated_node.value.value),
                                                   attr=cst.Name('item')),
                                lpar=updated_node.lpar, rpar=updated_node.rpar)
        self._report(original_node, '%s.data[0] not changed: if %s is a 0-d tensor (a loss, '
                     'a sum), write %s.item(); if it has a first dimension, %s[0].detach()'
                     % (receiver, receiver, receiver, receiver), fixed=False)
        return updated_node

    def _parent(self, node):
        return self.get_metadata(ParentNodeProvider, node)

    def _is_target(self, node):
        parent = self._parent(node)
        return (isinstance(parent, (cst.AssignTarget, cst.Del)) or
                isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is node)

    def _used_as_number(self, node):
        """Whether the value is used where 0.3 code had a Python number:
        formatting, a number builtin or math function, arithmetic or
        comparison (with anything), augmented assignment, negation."""
        parent = self._parent(node)
        if isinstance(parent, (cst.FormattedStringExpression, cst.UnaryOperation)):
            return True
        if isinstance(parent, cst.Arg) and not parent.star:
            call = self._parent(parent)
            names = self._qualified(call.func)
            if parent.keyword is None and (names & _NUMBER_BUILTINS or any(
                    n.startswith('math.') for n in names)):
                return True
            return m.matches(call.func, m.Attribute(value=_STRING, attr=m.Name('format')))
        if isinstance(parent, cst.Element):
            parent = self._parent(parent)
            if not isinstance(parent, cst.Tuple):
                return False
            node, parent = parent, self._parent(parent)
            return (isinstance(parent, cst.BinaryOperation) and parent.right is node
                    and isinstance(parent.operator, cst.Modulo) and m.matches(parent.left,
                                                                              _STRING))
        if isinstance(parent, cst.BinaryOperation):
            return isinstance(parent.operator, _ARITHMETIC)
        if isinstance(parent, (cst.ComparisonTarget, cst.Comparison)):
            return True
        if isinstance(parent, cst.AugAssign):
            return isinstance(parent.operator, _AUG_ARITHMETIC)
        return False

    def _zero_dim(self, node, depth=0):
        """Whether node is known to be a 0-d tensor: a reduction without a
        dim, a loss (F.*_loss and friends, a loss module or a `criterion`
        called), or a name that its scope assigns only such values."""
        if depth > 4:
            return False
        if isinstance(node, cst.Call):
            if any(a.keyword is not None and a.keyword.value in ('dim', 'axis')
                   for a in node.args) or _unreduced(node):
                return False
            positional = [a for a in node.args if a.keyword is None]
            names = self._qualified(node.func)
            if isinstance(node.func, cst.Attribute) and not names & _TORCH_REDUCTIONS:
                name = node.func.attr.value
                if name in _REDUCTIONS and len(positional) <= (1 if name in ('norm', 'dot')
                                                               else 0):
                    return True
            if names & _TORCH_REDUCTIONS:
                return len(positional) <= (2 if names & {'torch.norm', 'torch.dot'} else 1)
            if any(_is_loss_function(n) for n in names):
                return True
            callee = node.func
            if isinstance(callee, cst.Call):  # nn.MSELoss()(a, b)
                return any(_is_loss_module(n) for n in self._qualified(callee.func)) and \
                    not _unreduced(callee)
            code = cst.Module(body=[]).code_for_node(callee)
            return code in self.analysis.loss_modules or 'criterion' in code.lower()
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITHMETIC):
            sides = (node.left, node.right)
            return all(_literal_value(n) is not None or self._zero_dim(n, depth + 1)
                       for n in sides) and not all(_literal_value(n) is not None
                                                   for n in sides)
        if isinstance(node, cst.Name):
            assigned = self._assigned_values(node)
            return bool(assigned) and all(v is not None and self._zero_dim(v, depth + 1)
                                          for v in assigned)
        return False

    def _assigned_values(self, name):
        """The values the scope of name assigns it (None for an assignment
        that is not `name = value` or `name op= value`)."""
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None:
            return []
        values = []
        for assignment in scope.assignments[name.value]:
            target = getattr(assignment, 'node', None)
            parent = target is not None and self._parent(target)
            if isinstance(parent, cst.AssignTarget):
                values.append(self._parent(parent).value)
            elif isinstance(parent, cst.AugAssign) and parent.target is target:
                continue  # keeps what the other assignments make it
            else:
                values.append(None)
        return values

    def _is_number(self, node):
        """A number literal, or a name that its scope assigns a number literal
        (`total = 0` before `total += loss.data[0]`)."""
        if _literal_value(node) is not None:
            return True
        if not isinstance(node, cst.Name):
            return False
        scope = self.get_metadata(ScopeProvider, node, None)
        if scope is None:
            return False
        for assignment in scope.assignments[node.value]:
            target = getattr(assignment, 'node', None)
            parent = target is not None and self._parent(target)
            if isinstance(parent, cst.AssignTarget) and _literal_value(
                    self._parent(parent).value) is not None:
                return True
        return False

