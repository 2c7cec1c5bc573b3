"""Reads the function prototypes and types of legacy ffi headers.

The headers are the ones users wrote for torch.utils.ffi: plain C prototypes
whose tensor parameters are TH tensor pointers.  As PyTorch 0.4's
create_extension handed them to cffi, they are read as one text, in the
order given, so that a typedef of one header is known in the next.  They
are parsed with pycparser after comments and preprocessor lines are
removed, so include guards and `extern "C"` blocks are tolerated.  Their
struct, union, enum and typedef declarations are also declared to the
module's ffi (as 0.4's cdef declared them), in the forms cffi itself takes."""

import copy
import dataclasses
import keyword
import re
from dataclasses import dataclass

import cffi
from pycparser import c_ast, c_generator, c_parser

from .tensor_types import OPAQUE_TYPES, SCALAR_TYPES, TENSOR_TYPES


class HeaderError(ValueError):
    """A header declares something the wrapper cannot call."""


@dataclass(frozen=True)
class Param:
    name: str    # a Python identifier, unique within the function
    kind: str    # 'tensor', 'int', 'uint', 'float' or 'pointer'
    ctype: str   # the C type as declared, e.g. 'THFloatTensor *', 'int', 'Mode'
    # The same type in names cffi knows without the header (typedefs and
    # enums resolved: 'Mode' is 'int'), for the run time's range checks
    # and string conversions.
    cffi_type: str


@dataclass(frozen=True)
class Function:
    name: str
    ret_kind: str   # 'void', 'int', 'uint', 'float', 'tensor' or 'pointer'
    ret_ctype: str
    params: tuple
    prototype: str  # as declared, for docstrings and messages
    header: str
    # For ret_kind 'pointer': the type the module's ffi gives the result
    # (ret_ctype where the headers' declarations make cffi know it).
    ret_cffi: str = 'void *'
    # Declared with `...` after its params: called with extra arguments as
    # cffi called variadic functions (codegen.py, the variadic part).
    variadic: bool = False


# Names a header may use without declaring them: what <stdint.h>,
# <stddef.h>, <wchar.h>, <uchar.h> and TH's headers declared for it.
# pycparser only needs to know they are types; _classify maps them.
_PRELUDE = ''.join(
    'typedef int %s;\n' % t for t in
    ('int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t',
     'uint32_t', 'uint64_t', 'size_t', 'ssize_t', 'ptrdiff_t', 'intptr_t',
     'uintptr_t', 'bool', 'wchar_t', 'char16_t', 'char32_t') + OPAQUE_TYPES
) + ''.join('typedef struct %s %s;\n' % (t, t) for t in TENSOR_TYPES)

_GEN = c_generator.CGenerator()
_OWN_NAMES = re.compile(r'_thffi_|THFFI|THCFFI')
# Python names the generated wrapper uses for its own locals.
_RESERVED = re.compile(r'_.*|ok|r')


def _blank(match):
    """What replaces a comment or a preprocessor line: its line breaks, so
    that the lines after it keep their numbers."""
    return ' ' + '\n' * match.group(0).count('\n')


def _strip(text):
    text = re.sub(r'/\*.*?\*/', _blank, text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', _blank, text, flags=re.M)
    # extern "C" { ... } : drop the wrapper and its closing brace.
    while True:
        m = re.search(r'extern\s*"C"\s*\{', text)
        if not m:
            break
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[i], 0)
            i += 1
        text = text[:m.start()] + text[m.end():i - 1] + text[i:]
    return re.sub(r'extern\s*"C"', '', text)


def _type_text(node):
    """The C spelling of a declarator's type, without its name."""
    return _GEN.visit(c_ast.Typename(None, [], None, _unnamed(node))).strip()


def _unnamed(node):
    if isinstance(node, c_ast.TypeDecl):
        return c_ast.TypeDecl(None, node.quals, node.align, node.type)
    if isinstance(node, c_ast.PtrDecl):
        return c_ast.PtrDecl(node.quals, _unnamed(node.type))
    if isinstance(node, c_ast.ArrayDecl):
        return c_ast.ArrayDecl(_unnamed(node.type), node.dim, node.dim_quals)
    return node


def _classify(node, typedefs):
    """(kind, ctype, cffi_type) of a parameter or return type (see Param),
    or None if unsupported.  typedefs: the header's own, {name: type node}."""
    if isinstance(node, c_ast.TypeDecl) and isinstance(node.type, c_ast.Enum):
        return 'int', _type_text(node), 'int'  # C enums are ints
    if isinstance(node, c_ast.TypeDecl) and isinstance(node.type, c_ast.IdentifierType):
        spelled = ' '.join(node.type.names)
        if spelled == 'void':
            return 'void', 'void', 'void'
        if spelled in SCALAR_TYPES:
            return SCALAR_TYPES[spelled], spelled, spelled
        if spelled in typedefs:
            resolved = _classify(typedefs[spelled], typedefs)
            if resolved is None or resolved[0] == 'tensor':
                return resolved
            return resolved[0], spelled, resolved[2]
        return None
    if isinstance(node, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        inner = node.type
        if (isinstance(node, c_ast.PtrDecl) and isinstance(inner, c_ast.TypeDecl)
                and isinstance(inner.type, c_ast.IdentifierType)
                and len(inner.type.names) == 1 and inner.type.names[0] in TENSOR_TYPES):
            return 'tensor', inner.type.names[0] + ' *', inner.type.names[0] + ' *'
        if isinstance(inner, c_ast.FuncDecl):
            return None
        spelled = _type_text(c_ast.PtrDecl([], inner))
        return 'pointer', spelled, spelled
    return None


def parse_header(path, text):
    """The functions a header declares, in order."""
    return read_header(path, text)[0]


def read_header(path, text):
    """(functions, constants) of one header (see read_headers)."""
    return read_headers([(path, text)])[:2]


def read_headers(headers):
    """(functions, constants, declarations) of headers, [(path, text)],
    read as one text in their order: the functions they declare, the
    names of their enum constants (cffi's lib had them), and their type
    declarations as the cdef text cffi takes (_cffi_declarations).
    Errors name the headers' own lines."""
    source = _PRELUDE + ''.join('#line 1 "%s"\n%s\n' % (_c_string_body(path), _strip(text))
                                for path, text in headers)
    try:
        ast = c_parser.CParser().parse(source)
    except Exception as exc:  # pycparser raises ParseError and plain errors
        # pycparser's message begins with the file and line it stopped at.
        path = next((p for p, _ in headers if str(exc).startswith(p + ':')), headers[-1][0])
        raise HeaderError('%s: cannot parse header: %s' % (path, exc)) from None
    typedefs, functions, constants, types = {}, [], [], []
    for decl in ast.ext[len(_PRELUDE.splitlines()):]:
        if isinstance(decl, c_ast.Typedef):
            typedefs[decl.name] = decl.type
            types.append(decl)
        elif isinstance(decl, c_ast.Decl) and isinstance(decl.type, c_ast.FuncDecl):
            functions.append(_function(decl.coord.file, decl, typedefs))
        elif isinstance(decl, c_ast.Decl) and isinstance(decl.type, _TAGGED):
            types.append(decl)
        enums = _Enums()
        enums.visit(decl)
        constants += enums.names
    ffi, declarations = _cffi_declarations(types)
    return [_typed_return(ffi, fn) for fn in functions], constants, declarations


def _c_string_body(text):
    return text.replace('\\', '\\\\').replace('"', '\\"')


_TAGGED = (c_ast.Struct, c_ast.Union, c_ast.Enum)
# What cffi must know of thffi's types for the headers' declarations to
# name them: opaque (the C compiler has their definitions).
CFFI_OPAQUE = ''.join('typedef struct %s %s;\n' % (t, t) for t in TENSOR_TYPES) + (
    'typedef struct THCState THCState;\ntypedef struct CUstream_st *cudaStream_t;\n')
# A member standing for cffi's "...": the rest of a struct's fields, or an
# enum's values, as the C compiler has them.
_PARTIAL = '__thffi_partial__'


def _cffi_declarations(types):
    """(ffi, text): a cffi FFI that knows thffi's opaque types and the
    declarations of `types` (the headers' type declaration nodes) that cffi
    takes, and those declarations as cdef text.  cffi's own parser is the
    judge: a struct or union it refuses in full is declared with the fields
    it takes (an array sized by a macro as `[...]`) and cffi's "...;" for
    the rest, whose layout cffi asks the C compiler for; an enum with a value it
    cannot compute, with its names and "...", their values from the
    compiler; a declaration taken in neither form is left out, as is one
    naming a type left out."""
    taken = []

    def takes(text):
        try:
            cffi.FFI().cdef(CFFI_OPAQUE + ''.join(taken) + text)
        except (cffi.CDefError, cffi.FFIError):
            return False
        return True

    for node in types:
        full = _GEN.visit(node) + ';\n'
        if takes(full):
            taken.append(full)
            continue
        partial = _partial(node, takes)
        if partial is not None:
            taken.append(partial)
    ffi = cffi.FFI()
    ffi.cdef(CFFI_OPAQUE + ''.join(taken))
    return ffi, ''.join(taken)


def _partial(node, takes):
    """The cdef text of a struct, union or enum declaration in cffi's
    partial form, as much of it as takes(text) accepts, or None."""
    node = copy.deepcopy(node)
    tagged = node.type.type if isinstance(node, c_ast.Typedef) else node.type
    rest = c_ast.Decl(_PARTIAL, [], [], [], [], c_ast.TypeDecl(
        _PARTIAL, [], None, c_ast.IdentifierType(['int'])), None, None)

    def text():
        return _GEN.visit(node).replace('int %s;' % _PARTIAL, '...;').replace(
            _PARTIAL, '...') + ';\n'

    if isinstance(tagged, (c_ast.Struct, c_ast.Union)) and tagged.decls:
        fields, tagged.decls = tagged.decls, [rest]
        for field in fields:
            tagged.decls.insert(-1, field)
            if not takes(text()) and isinstance(field.type, c_ast.ArrayDecl):
                field.type.dim = c_ast.ID('...')  # its length from the compiler
            if not takes(text()):
                tagged.decls.remove(field)
    elif isinstance(tagged, c_ast.Enum) and tagged.values:
        tagged.values.enumerators = [c_ast.Enumerator(e.name, None)
                                     for e in tagged.values.enumerators]
        tagged.values.enumerators.append(c_ast.Enumerator(_PARTIAL, None))
    else:
        return None
    return text() if takes(text()) else None


def _typed_return(ffi, fn):
    """fn, its pointer result typed where ffi knows the type."""
    if fn.ret_kind != 'pointer':
        return fn
    try:
        ffi.typeof(fn.ret_ctype)
    except cffi.VerificationMissing:
        pass  # a partial struct: known, its layout from the compiler
    except (cffi.CDefError, cffi.FFIError):
        return fn
    return dataclasses.replace(fn, ret_cffi=fn.ret_ctype)


class _Enums(c_ast.NodeVisitor):
    """The enumerators of the enums a declaration defines."""

    def __init__(self):
        self.names = []

    def visit_Enumerator(self, node):
        self.names.append(node.name)


def _function(path, decl, typedefs):
    if _OWN_NAMES.match(decl.name):
        # The generated module's own C and Python names begin so: the
        # user's can then never collide with them (codegen.py).
        raise HeaderError('%s: %s: names beginning _thffi_ or THFFI are thffi\'s own; '
                          'rename the function' % (path, decl.name))
    fdecl = decl.type
    prototype = _GEN.visit(decl).strip()
    ret = _classify(fdecl.type, typedefs)
    if ret is None:
        raise HeaderError('%s: %s: return type %s is not supported (use void, an '
                          'integer, an enum, a floating type, a TH tensor or a plain pointer)'
                          % (path, decl.name, _type_text(fdecl.type)))
    params = []
    args = fdecl.args.params if fdecl.args else []
    variadic = bool(args) and isinstance(args[-1], c_ast.EllipsisParam)
    for i, p in enumerate(args[:-1] if variadic else args):
        kind = _classify(p.type, typedefs)
        if kind and kind[0] == 'void' and len(args) == 1 and not p.name:
            break  # f(void)
        if kind is None or kind[0] == 'void':
            raise HeaderError('%s: %s: parameter %d (%s) has unsupported type %s'
                              % (path, decl.name, i + 1, p.name or 'unnamed',
                                 _type_text(p.type)))
        params.append(Param(_py_name(p.name, i, params), *kind))
    return Function(decl.name, ret[0], ret[1], tuple(params), prototype, path,
                    variadic=variadic)


def _py_name(name, i, earlier):
    taken = {p.name for p in earlier}
    if (not name or keyword.iskeyword(name) or _RESERVED.fullmatch(name)
            or name in taken):
        name = 'arg%d' % (i + 1)
    return name
