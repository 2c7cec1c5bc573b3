"""Package mode's hand-off to setuptools (create_extension(package=True)),
and out of package mode's when setup() runs build.py (cffi_modules).

In package mode setuptools compiles and links the cffi module, from
build.py's ffi (`cffi_modules=['build.py:ffi']`, or
`ext_modules=[ffi.distutils_extension()]`); thffi has written the
package's Python files (__init__.py, _thffi_runtime.py) by then.  Three
things setuptools would not do by itself:

- install those files.  A 2018 setup.py computes `packages=find_packages()`
  before setup() runs build.py (cffi_modules), so in a fresh checkout the
  packages build.py writes (pkg._ext, pkg._ext.my_lib) are not listed and
  only the library is installed: the package then imports as an empty
  namespace package, without its functions.
- leave the source tree alone.  Its _ext/my_lib is `python build.py`'s,
  which loads a library of another name: a package build written there
  breaks it.  So the package is staged in the project's build folder
  (build/thffi/package/), which setup() installs it from (package_dir);
  `pip install -e` puts the library there too.  `setup.py build_ext
  --inplace` alone still writes the source tree, as torch.utils.ffi did.
- check the library it links for names nothing defines (link.py).

When build.py runs inside setup() (cffi's cffi_modules handler runs it,
handing it no reference to the setup), `adopt` finds that setup's
Distribution on the call stack, adds and stages the packages and has its
build_ext check the library.  With `ffi.distutils_extension()` build.py
runs before setup(), which then finds the packages written in the source
tree itself (find_packages() after create_extension) and links unchecked;
so does a setup() that lists no packages, which discovers them when a
command runs."""

import inspect
import os
import shutil
import sys

from .configure import BuildError
from .install import make_package_dirs
from .link import check_symbols, with_inline_definitions


def running_distribution():
    """The setuptools Distribution whose setup() runs this code (it is a
    local variable of a caller: cffi's handler's `dist`), or None."""
    dist = sys.modules.get('setuptools.dist')
    if dist is None:
        return None
    frame = inspect.currentframe()
    while frame is not None:
        for value in frame.f_locals.values():
            if isinstance(value, dist.Distribution):
                return value
        frame = frame.f_back
    return None


def adopt(plan, kwargs):
    """Makes the setup() running build.py, if any, install the package
    the plan (in package mode) writes and check its library, linked with
    kwargs.  Returns the folder the package's Python files go to: the
    staged package, or the source tree's (plan.target_dir)."""
    dist = running_distribution()
    # Without packages or py_modules setuptools discovers the packages when
    # a command runs, in the source tree: listing some would stop that.
    if dist is None or (dist.packages is None and dist.py_modules is None):
        staged = None
        make_package_dirs(plan.base, plan.name)
    else:
        staged = _stage(plan, dist)
    if dist is not None:
        dist.cmdclass['build_ext'] = _checking_build_ext(
            dist.cmdclass.get('build_ext') or _setuptools_build_ext(), plan, kwargs, staged)
    return staged or plan.target_dir


def _stage(plan, dist):
    """Creates the package's folders in the build folder, adds its packages
    to dist's and has dist install them from there: the extension's own
    package, and those above it the project lacks (no __init__.py).
    Returns the extension's folder there."""
    parts = plan.name.split('.')
    # The package of build.py's folder, when create_extension names it
    # (package='extension_ffi': the module is extension_ffi._ext.my_lib._my_lib).
    outer = plan.module_name.split('.')[:-1 - len(parts)]
    root = os.path.join(plan.base, 'build', 'thffi', 'package')
    shutil.rmtree(os.path.join(root, *parts), ignore_errors=True)
    make_package_dirs(root, plan.name)
    dist.packages = list(dist.packages or [])
    dist.package_dir = dict(dist.package_dir or {})
    for i in range(len(parts)):
        package = '.'.join(outer + parts[:i + 1])
        if package not in dist.packages:
            dist.packages.append(package)
        if i < len(parts) - 1 and os.path.isfile(
                os.path.join(plan.base, *parts[:i + 1], '__init__.py')):
            continue
        # Relative: setuptools takes package_dir from setup.py's folder.
        dist.package_dir[package] = os.path.relpath(os.path.join(root, *parts[:i + 1]))
    return os.path.join(root, *parts)


def adopt_wrappers(plan):
    """Out of package mode (setuptools links the cffi module top-level,
    `_fill`), makes the setup() running build.py, if any, install the
    wrappers' package: the folder the plan wrote (_ext/fill, or
    pkg/_ext/fill: its path under setup.py's folder), as 0.4's
    create_extension wrote it before setup() ran the build."""
    dist = running_distribution()
    if dist is None:
        return
    name = wrappers_name(plan, dist)
    parts = name.split('.') if name else []
    # Without packages or py_modules setuptools discovers the packages when
    # a command runs, after build.py wrote them: listing some would stop that.
    if parts and (dist.packages is not None or dist.py_modules is not None):
        dist.packages = list(dist.packages or [])
        dist.packages += [p for p in ('.'.join(parts[:i + 1]) for i in range(len(parts)))
                          if p not in dist.packages]


def wrappers_name(plan, dist=None):
    """The dotted name of the wrappers' package out of package mode (the
    path of the plan's folder under setup.py's: `_ext.fill`,
    `pkg._ext.fill`), or None where that folder is not under it."""
    dist = dist or running_distribution()
    setup = dist.script_name if dist is not None and dist.script_name else 'setup.py'
    relative = os.path.relpath(plan.target_dir, os.path.dirname(os.path.abspath(setup)))
    return None if relative.startswith(os.pardir) else relative.replace(os.sep, '.')


def _setuptools_build_ext():
    from setuptools.command.build_ext import build_ext
    return build_ext


def _checking_build_ext(base, plan, kwargs, staged):
    """A build_ext command class (subclassing `base`) that checks the
    library it links for the plan as thffi's own builds are checked.
    When the check fails the new library is removed, or the previous one
    put back, before setuptools installs it or copies it in place
    (build_ext --inplace keeps the previous one in the source tree).
    staged: the folder of the package staged by _stage, or None."""
    # Imported here: distutils is there once setuptools is (Python 3.12).
    from distutils.errors import DistutilsError

    class _SetupBuildError(BuildError, DistutilsError):
        """A BuildError that setup() reports as it does its own errors (one
        line, `error: ...`), not as a traceback."""

    class build_ext(base):
        def finalize_options(self):
            super().finalize_options()
            # ext_package='' (2018's setup.py files) is no package: the
            # module is pkg._ext.my_lib._my_lib, not .pkg._ext..., whose
            # in-place copy would miss the staged package's folder.
            if self.package == '':
                self.package = None

        def run(self):
            super().run()
            # `setup.py build_ext --inplace` (not pip's editable install,
            # which keeps the library where it stages the package) builds
            # the package in the source tree, as torch.utils.ffi did.
            if staged and self.inplace and not getattr(self, 'editable_mode', False):
                make_package_dirs(plan.base, plan.name)
                for name in os.listdir(staged):
                    if os.path.isfile(os.path.join(staged, name)):
                        shutil.copy2(os.path.join(staged, name), plan.target_dir)

        def _compiled(self, ext):
            """{object: source} of ext's compiles (absolute sources)."""
            objects = self.compiler.object_filenames(ext.sources, output_dir=self.build_temp)
            return dict(zip(objects, [os.path.abspath(s) for s in ext.sources]))

        def _relink(self, ext, sources):
            ext.sources = sources
            super().build_extension(ext)

        def build_extension(self, ext):
            if ext.name != plan.module_name:
                return super().build_extension(ext)
            path = self.get_ext_fullpath(ext.name)
            previous = path + '.thffi-previous'
            if os.path.isfile(path):
                shutil.copy2(path, previous)
            try:
                super().build_extension(ext)
                try:
                    check_symbols(plan, path, kwargs, self._compiled(ext))
                except BuildError:
                    # C99 inline functions nothing defines: compiled once more
                    # with their definition, as thffi's own builds do.
                    original = ext.sources
                    try:
                        instead = with_inline_definitions(
                            plan, path, kwargs, lambda sources: self._relink(
                                ext, original[:1] + [os.path.relpath(s) for s in sources]),
                            os.getcwd())
                        if instead is None:
                            raise
                        check_symbols(plan, path, kwargs, {
                            o: instead.get(s, s) for o, s in self._compiled(ext).items()})
                    finally:
                        ext.sources = original
            except BuildError as exc:
                if os.path.isfile(previous):
                    os.replace(previous, path)
                elif os.path.isfile(path):
                    os.remove(path)
                raise _SetupBuildError(str(exc)) from None
            finally:
                if os.path.isfile(previous):
                    os.remove(previous)

    return build_ext
