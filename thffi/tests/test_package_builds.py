"""Package builds of 2018 from a fresh checkout: a setup.py with
`packages=find_packages()` and `cffi_modules=['build.py:ffi']`, whose
build.py calls create_extension(package=True).  find_packages() runs
before setup() loads build.py, so the package build.py writes (_ext/ffi
with its __init__.py) must reach the installation all the same, in the
first run; and the library setuptools links is checked for names nothing
defines, as thffi's own builds are.  And the same out of package mode
(package=False), through cffi_modules and ffi.distutils_extension()."""

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

from support import ROOT

# A binding in the shape of the 2018 scatter/spline packages: typed C
# functions behind the generated package, picked by tensor type in Python.
PROJECT = {
    'setup.py': '''
        from os import path as osp

        from setuptools import setup, find_packages

        setup(
            name='th_axpy',
            version='0.1.0',
            description='a + alpha * b, in TH',
            install_requires=['cffi'],
            setup_requires=['cffi'],
            packages=find_packages(exclude=['build']),
            ext_package='',
            cffi_modules=[osp.join(osp.dirname(__file__), 'build.py:ffi')],
        )
        ''',
    'build.py': '''
        from torch.utils.ffi import create_extension

        headers = ['th_axpy/src/axpy.h']
        sources = ['th_axpy/src/axpy.c']

        ffi = create_extension(
            name='th_axpy._ext.ffi',
            package=True,
            headers=headers,
            sources=sources,
            extra_compile_args=['-std=c99'],
            relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
    'th_axpy/src/axpy.h': '''
        void axpy_Float(THFloatTensor *output, THFloatTensor *a, THFloatTensor *b, float alpha);
        void axpy_Double(THDoubleTensor *output, THDoubleTensor *a, THDoubleTensor *b,
                         double alpha);
        ''',
    'th_axpy/src/axpy.c': '''
        #include <TH/TH.h>

        #define AXPY(TYPE, real)                                                      \\
        void axpy_##TYPE(TH##TYPE##Tensor *output, TH##TYPE##Tensor *a,               \\
                         TH##TYPE##Tensor *b, real alpha) {                           \\
          THArgCheck(TH##TYPE##Tensor_nElement(a) == TH##TYPE##Tensor_nElement(b), 3, \\
                     "a and b must have as many elements");                           \\
          TH##TYPE##Tensor_resizeAs(output, a);                                       \\
          real *out = TH##TYPE##Tensor_data(output);                                  \\
          real *x = TH##TYPE##Tensor_data(a), *y = TH##TYPE##Tensor_data(b);          \\
          ptrdiff_t i, n = TH##TYPE##Tensor_nElement(a);                              \\
          for (i = 0; i < n; i++) out[i] = x[i] + alpha * y[i];                       \\
        }

        AXPY(Float, float)
        AXPY(Double, double)
        ''',
    'th_axpy/__init__.py': '''
        from .axpy import axpy

        __all__ = ['axpy']
        ''',
    'th_axpy/axpy.py': '''
        import torch
        from ._ext import ffi


        def axpy(a, b, alpha=1):
            typename = torch.typename(a).split('.')[-1].replace('Tensor', '')
            output = a.new()
            func = getattr(ffi, 'axpy_{}'.format(typename))
            func(output, a.contiguous(), b.contiguous(), alpha)
            return output
        ''',
}

CHECK = '''
import torch
import th_axpy
for dtype in (torch.float32, torch.float64):
    a, b = torch.randn(3, 4, dtype=dtype), torch.randn(3, 4, dtype=dtype)
    out = th_axpy.axpy(a, b, 2.5)
    assert out.dtype == dtype and torch.allclose(out, a + 2.5 * b), (out, a + 2.5 * b)
print(th_axpy.__file__)
'''


@pytest.fixture
def project(tmp_path):
    """A fresh checkout of the project, and the environment its setup runs
    in: torch.utils.ffi resolves to thffi, as with the .pth pip installs."""
    source = tmp_path / 'th_axpy-src'
    for name, text in PROJECT.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(textwrap.dedent(text).lstrip())
    hook = tmp_path / 'hook'
    hook.mkdir()
    (hook / 'sitecustomize.py').write_text('from thffi import _hook\n_hook.install()\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hook), ROOT]))
    return source, env


def _run(command, cwd, env):
    out = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=300)
    return out.returncode, out.stdout + out.stderr


def _imports_and_matches(folder, env, tmp_path):
    """Runs CHECK with `folder` first on the path; returns the package's file."""
    env = dict(env, PYTHONPATH=os.pathsep.join([str(folder), env['PYTHONPATH']]))
    rc, out = _run([sys.executable, '-c', CHECK], tmp_path, env)
    assert rc == 0, out
    return out.strip().splitlines()[-1]


@pytest.mark.parametrize('how, package', [('setup.py install', True),
                                          pytest.param('pip install', True, marks=pytest.mark.slow),
                                          ('setup.py install', False), ('pip install', False)])
def test_the_first_install_from_a_fresh_checkout_is_complete(project, tmp_path, how, package):
    """At package=False setuptools links the cffi module top-level (_ffi),
    and the wrappers' package (th_axpy._ext.ffi) is installed all the same."""
    source, env = project
    if not package:
        build = source / 'build.py'
        build.write_text(build.read_text().replace('package=True', 'package=False'))
    if how == 'pip install':
        site = tmp_path / 'site'
        rc, out = _run([sys.executable, '-m', 'pip', 'install', '-q', '--no-build-isolation',
                        '--no-deps', '--no-index', '--target', str(site), '.'], source, env)
    else:
        rc, out = _run([sys.executable, 'setup.py', 'install', '--prefix',
                        str(tmp_path / 'prefix')], source, env)
        site = next((tmp_path / 'prefix').glob('lib/python*/site-packages'))
    assert rc == 0, out
    installed = site / 'th_axpy' / '_ext' / 'ffi'
    names = sorted(p.name for p in installed.iterdir())
    # The runtime the build wrote beside the wrappers goes too (a package
    # installed without it takes the installed thffi's: the package_data test).
    assert '__init__.py' in names and '_thffi_runtime.py' in names, names
    assert (site / 'th_axpy' / '_ext' / '__init__.py').is_file()
    # Built for this interpreter (the module uses CPython's full API), not
    # as a stable-ABI library other versions would load.
    libraries = names if package else sorted(p.name for p in site.iterdir())
    assert [n for n in libraries if n.endswith('.so')] == [
        '_ffi' + sysconfig.get_config_var('EXT_SUFFIX')], libraries
    shutil.rmtree(source)  # nothing may come from the checkout
    assert _imports_and_matches(site, env, tmp_path).startswith(str(site))
    if not package:  # the cffi module alone carries the header's functions, as 0.4's did
        rc, out = _run([sys.executable, '-c', 'import _ffi; print(sorted(dir(_ffi.lib)))'],
                       tmp_path, dict(env, PYTHONPATH=os.pathsep.join([str(site),
                                                                       env['PYTHONPATH']])))
        assert (rc, out) == (0, "['axpy_Double', 'axpy_Float']\n"), out


def test_build_ext_inplace_checks_the_library_setuptools_links(project, tmp_path):
    source, env = project
    rc, out = _run([sys.executable, 'setup.py', 'build_ext', '--inplace'], source, env)
    assert rc == 0, out
    assert _imports_and_matches(source, env, tmp_path) == str(source / 'th_axpy' / '__init__.py')
    library = next((source / 'th_axpy' / '_ext' / 'ffi').glob('_ffi*.so'))
    good = library.read_bytes()
    # A TH function that never existed compiles (an implicit declaration)
    # and links; the check names it instead of the import failing later.
    c = source / 'th_axpy' / 'src' / 'axpy.c'
    c.write_text(c.read_text().replace('real *out = ', 'TH##TYPE##Tensor_fancyFill(output, 0); '
                                                     'real *out = '))
    rc, out = _run([sys.executable, 'setup.py', 'build_ext', '--inplace'], source, env)
    assert rc != 0, out
    assert ('error: building th_axpy._ext.ffi failed: nothing defines these 2 names the code '
            'uses') in out, out
    assert ('THFloatTensor_fancyFill, used in th_axpy/src/axpy.c: thffi does not provide this '
            'TH/THC function') in out, out
    assert 'Traceback' not in out, out
    # The previous library stays in place.
    assert library.read_bytes() == good


# The other 2018 route through setuptools: build.py's create_extension left
# at package=False, the module setuptools builds top-level (`_fill`), the
# package 0.4 wrote when create_extension was called (_ext/fill) importing it.
FILL = {
    'setup.py': '''
        from setuptools import setup

        setup(name='th_fill', version='0.1', setup_requires=['cffi'],
              cffi_modules=['build.py:ffi'])
        ''',
    'build.py': '''
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.fill', headers=['src/fill.h'], sources=['src/fill.c'],
                               relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
    'src/fill.h': 'int fill_forward(THFloatTensor *output, float value);\n',
    'src/fill.c': '''
        #include <TH/TH.h>

        int fill_forward(THFloatTensor *output, float value)
        {
          THFloatTensor_fill(output, value);
          return 1;
        }
        ''',
}


@pytest.mark.parametrize('route', ['cffi_modules', 'distutils_extension'])
def test_setuptools_builds_an_extension_out_of_package_mode(tmp_path, route):
    source = tmp_path / 'th_fill'
    for name, text in FILL.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(textwrap.dedent(text).lstrip())
    if route == 'distutils_extension':
        (source / 'setup.py').write_text(textwrap.dedent('''\
            from setuptools import setup
            from build import ffi

            setup(name='th_fill', version='0.1', ext_modules=[ffi.distutils_extension()])
            '''))
    hook = tmp_path / 'hook'
    hook.mkdir()
    (hook / 'sitecustomize.py').write_text('from thffi import _hook\n_hook.install()\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hook), ROOT]))
    rc, out = _run([sys.executable, 'setup.py', 'build_ext', '--inplace'], source, env)
    assert rc == 0, out
    assert list(source.glob('_fill*.so')), out  # top-level, where setuptools puts it
    rc, out = _run([sys.executable, '-c', textwrap.dedent('''\
        import torch
        import _fill
        from _ext import fill
        t = torch.zeros(2, 3)
        assert fill.fill_forward(t, 2.5) == 1
        print(t.sum().item(), fill.__file__)
        ''')], source, env)
    assert rc == 0, out
    assert out.split() == ['15.0', str(source / '_ext' / 'fill' / '__init__.py')]
    # The cffi module alone carries the header's functions, as 0.4's did.
    rc, out = _run([sys.executable, '-c', 'import torch, _fill; t = torch.zeros(4); '
                    'print(_fill.lib.fill_forward(t, 1.5), t.sum().item(), dir(_fill.lib))'],
                   source, env)
    assert (rc, out) == (0, "1 6.0 ['fill_forward']\n"), out


# A setup.py of 2018 listing by hand the two files 0.4's build wrote into
# the package (its __init__.py and the library), after `python build.py`.
LISTED = {
    'setup.py': '''
        from setuptools import setup

        setup(name='p', version='0.1', packages=['p'],
              package_data={'p': ['ext/__init__.py', 'ext/_ext.so']})
        ''',
    'p/__init__.py': '',
    'p/build.py': '''
        from torch.utils.ffi import create_extension

        ffi = create_extension('ext', headers=['src/fill.h'], sources=['src/fill.c'],
                               relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
    'p/src/fill.h': FILL['src/fill.h'],
    'p/src/fill.c': FILL['src/fill.c'],
}


def test_package_data_listing_the_two_files_0_4_wrote_imports(tmp_path):
    source = tmp_path / 'p-src'
    for name, text in LISTED.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(textwrap.dedent(text).lstrip())
    hook = tmp_path / 'hook'
    hook.mkdir()
    (hook / 'sitecustomize.py').write_text('from thffi import _hook\n_hook.install()\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hook), ROOT]))
    rc, out = _run([sys.executable, os.path.join('p', 'build.py')], source, env)
    assert rc == 0, out
    site = tmp_path / 'site'
    rc, out = _run([sys.executable, '-m', 'pip', 'install', '-q', '--no-build-isolation',
                    '--no-deps', '--no-index', '--target', str(site), '.'], source, env)
    assert rc == 0, out
    assert sorted(p.name for p in (site / 'p' / 'ext').glob('*.*')) == ['__init__.py', '_ext.so']
    shutil.rmtree(source)  # nothing may come from the checkout
    rc, out = _run([sys.executable, '-c', 'import torch, p.ext; t = torch.zeros(3); '
                    'print(p.ext.fill_forward(t, 2.0), t.tolist())'], tmp_path,
                   dict(env, PYTHONPATH=os.pathsep.join([str(site), env['PYTHONPATH']])))
    assert (rc, out) == (0, '1 [2.0, 2.0, 2.0]\n'), out
