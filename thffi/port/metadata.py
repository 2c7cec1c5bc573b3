"""libcst metadata for python.py's passes, at the cost of what they ask.

Resolving a provider costs a walk of the whole tree (positions: the code
written out again), more than the rewrite itself, so:

- Lazy gives each provider's mapping when a pass first asks for it: a file
  in which nothing is reported never has its positions computed;
- Parents records each node's parent while another pass walks the tree
  anyway (libcst's ParentNodeProvider walks it once more and asks each node
  for its children, the costliest of its providers here); the mapping is
  the same: every node but the module, to the node that holds it."""

import collections.abc

import libcst as cst


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
        mapping = self._resolved[provider] = self._wrapper.resolve(provider)
        return mapping

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
