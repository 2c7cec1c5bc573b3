"""libcst metadata for python.py's passes, at the cost of what they ask.

Resolving a provider costs a walk of the whole tree (positions: the code
written out again), more than the rewrite itself, so:

- Lazy gives each provider's mapping when a pass first asks for it: a file
  in which nothing is reported never has its positions computed;
- qualified names are asked of a node's scope when a pass asks for that
  node's (QualifiedNames): libcst's provider walks the whole tree once
  more to attach a deferred lookup to every node, a walk that cost as much
  as the scopes themselves on a 200-file repository;
- Parents records each node's parent while another pass walks the tree
  anyway (libcst's ParentNodeProvider walks it once more and asks each node
  for its children, the costliest of its providers here); the mapping is
  the same: every node but the module, to the node that holds it."""

import collections.abc

import libcst as cst
from libcst.metadata import QualifiedNameProvider, ScopeProvider


class Lazy(collections.abc.Mapping):
    """{provider: {node: value}} of wrapper's module for the providers given,
    each resolved on the wrapper when first looked up; known: mappings
    already made ({provider: {node: value}}), used as they are."""

    def __init__(self, wrapper, providers, known=None):
        self._wrapper = wrapper
        self._providers = frozenset(providers)
        self._resolved = dict(known or {})

    def __getitem__(self, provider):
        try:
            return self._resolved[provider]
        except KeyError:
            if provider not in self._providers:
                raise
        if provider is QualifiedNameProvider:
            mapping = QualifiedNames(self._scopes())
        else:
            mapping = self._wrapper.resolve(provider)
        self._resolved[provider] = mapping
        return mapping

    def _scopes(self):
        scopes = self._resolved.get(ScopeProvider)
        if scopes is None:
            scopes = self._resolved[ScopeProvider] = self._wrapper.resolve(ScopeProvider)
        return scopes

    def __contains__(self, provider):
        return provider in self._providers

    def __iter__(self):
        return iter(self._providers)

    def __len__(self):
        return len(self._providers)


class Parents(cst.CSTVisitor):
    """Records, as it walks a tree, the parent of each node it visits:
    parents = {node: parent} (ParentNodeProvider's mapping)."""

    def __init__(self):
        super().__init__()
        self.parents = {}
        self._path = []

    def on_visit(self, node):
        if self._path:
            self.parents[node] = self._path[-1]
        self._path.append(node)
        return True

    def on_leave(self, original_node):
        self._path.pop()


class QualifiedNames(collections.abc.Mapping):
    """QualifiedNameProvider's mapping, {node: {QualifiedName}}, from
    ScopeProvider's ({node: scope}): a node's names are its scope's
    get_qualified_names_for(node), as libcst's provider gives them, asked
    when first looked up; a node without a scope has none (set())."""

    def __init__(self, scopes):
        self._scopes = scopes
        self._names = {}

    def __getitem__(self, node):
        try:
            return self._names[node]
        except KeyError:
            pass
        scope = self._scopes[node]  # KeyError: not a node of the tree
        names = self._names[node] = scope.get_qualified_names_for(node) if scope else set()
        return names

    def __iter__(self):
        return iter(self._scopes)

    def __len__(self):
        return len(self._scopes)
