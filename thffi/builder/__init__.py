"""thffi's build, torch.utils.ffi's create_extension: one plan (plan.py)
through four steps, configure -> compile -> link -> install, each a module
of functions over the plan importing only the steps before it
(docs/architecture.md).  extension.py holds what create_extension returns;
this face hands its names on (`thffi.builder.BuildError` is the name 2018
tracebacks and today's errors give)."""

from .extension import BuildError, Extension, INCLUDE_DIR, create_extension, include_dirs, \
    include_flags

__all__ = ['BuildError', 'Extension', 'create_extension', 'include_dirs', 'include_flags',
           'INCLUDE_DIR']
