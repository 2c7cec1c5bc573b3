"""Several libcst visitors and transformers run as one pass over one tree.

A pass's cost is the walk and the metadata it resolves, not what its
visitors do: python.py runs its rewrites (and, before them, what it must
know of the whole file) as one pass each, with Chain.

libcst finds a visitor's method for a node by name on every node
(`visit_Call`, `leave_Name`, `visit_Call_func`: a getattr and a formatted
string a node and an attribute, for each visitor), and most nodes have
none: on a 200-file repository that lookup took more time than the
rewrites.  Chain looks each up once per node type (and attribute) and
calls only the methods a part defines.  A part that overrides on_visit,
on_leave or the attribute hooks themselves (metadata.Parents) is called
through them, as libcst would."""

import contextlib

import libcst as cst
from libcst.metadata import (ParentNodeProvider, PositionProvider, QualifiedNameProvider,
                             ScopeProvider)

from . import metadata

_GENERIC = {hook: {getattr(cst.CSTVisitor, hook), getattr(cst.CSTTransformer, hook)}
            for hook in ('on_visit', 'on_leave', 'on_visit_attribute', 'on_leave_attribute')}


def _overrides(part, hook):
    return getattr(type(part), hook) not in _GENERIC[hook]


class Chain(cst.CSTTransformer):
    """Visitors and transformers run in one pass over one tree, their
    metadata resolved once: each node is visited by each part in turn and
    left through each in turn, the node one transformer returns handed to
    the next, as if each had run on the one before's output.  A part whose
    visit of a node says not to visit its children is not called for them
    (the others are), and is called when the node is left, as libcst does.
    known: metadata mappings made already ({provider: {node: value}}); the
    others are resolved when a part first asks for them (metadata.Lazy)."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, PositionProvider,
                             ScopeProvider)

    def __init__(self, *parts, known=None):
        super().__init__()
        self.parts = parts
        self.known = known
        self._skipping = [None] * len(parts)  # per part: the node it skips the children of
        self._skips = 0                       # how many parts skip now
        self._handlers = {}                   # (event, node type, attribute): handlers

    @contextlib.contextmanager
    def resolve(self, wrapper):
        self.metadata = metadata.Lazy(wrapper, self.get_inherited_dependencies(), self.known)
        for part in self.parts:
            part.metadata = self.metadata
        try:
            yield
        finally:
            self.metadata = {}
            for part in self.parts:
                part.metadata = {}

    def _lookup(self, event, node_type, attribute):
        """((part index, callable), ...) for an event ('visit' or 'leave') on
        a node type (and attribute): each callable takes what libcst's
        visit_X/leave_X (or visit_X_attribute) method of the part takes."""
        key = (event, node_type, attribute)
        found = self._handlers.get(key)
        if found is not None:
            return found
        hook = 'on_%s%s' % (event, '_attribute' if attribute else '')
        name = '%s_%s%s' % (event, node_type.__name__, '_' + attribute if attribute else '')
        found = []
        for i, part in enumerate(self.parts):
            if not _overrides(part, hook):
                method = getattr(part, name, None)
                if method is not None:
                    found.append((i, method))
            elif attribute:
                found.append((i, lambda node, hook=getattr(part, hook): hook(node, attribute)))
            elif event == 'visit':  # libcst skips the children on any false value
                found.append((i, lambda node, hook=getattr(part, hook): bool(hook(node))))
            else:
                found.append((i, getattr(part, hook)))
        found = self._handlers[key] = tuple(found)
        return found

    def on_visit(self, node):
        skipping = self._skipping
        for i, visit in self._lookup('visit', type(node), None):
            if skipping[i] is None and visit(node) is False:
                skipping[i] = node
                self._skips += 1
        return self._skips < len(skipping)

    def on_visit_attribute(self, node, attribute):
        for i, visit in self._lookup('visit', type(node), attribute):
            if self._skipping[i] is None:
                visit(node)

    def on_leave_attribute(self, original_node, attribute):
        for i, leave in self._lookup('leave', type(original_node), attribute):
            if self._skipping[i] is None:
                leave(original_node)

    def on_leave(self, original_node, updated_node):
        skipping = self._skipping
        if self._skips:
            for i, node in enumerate(skipping):
                if node is original_node:
                    skipping[i] = None  # left: called below, as libcst does
                    self._skips -= 1
        for i, leave in self._lookup('leave', type(original_node), None):
            if skipping[i] is not None:
                continue  # inside a node whose children this part does not visit
            if isinstance(self.parts[i], cst.CSTVisitor):
                leave(original_node)
            elif isinstance(updated_node, cst.CSTNode):
                updated_node = leave(original_node, updated_node)
        return updated_node
