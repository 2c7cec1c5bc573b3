"""C as gcc 5 compiled it (thffi/toolchain/cc.py): C99 inline helpers that
nothing defines out of line, implicit int, K&R definitions, implicit
declarations, and extra_compile_args with flags of one language beside
sources of both.  The projects are ours, in the 2017-2018 idiom."""

import os
import subprocess
import sys
import textwrap

import pytest

from support import ROOT
from thffi.toolchain import cc


def _write(folder, files):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _run(folder, code, env=None):
    """Runs Python code in folder with torch.utils.ffi resolving to thffi
    (the import hook alone), as a build.py of the era ran."""
    full = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    return subprocess.run([sys.executable, '-c', 'from thffi import _hook; _hook.install()\n'
                           + textwrap.dedent(code)], cwd=folder, env=full, capture_output=True,
                          text=True, timeout=300)


BUILD_AND_RUN = 'import runpy\nrunpy.run_path("build.py", run_name="__main__")\n'

# A recursive n-linear interpolation helper, defined plain `inline` in a
# header two sources include: C99 gives it no external definition.
INTERP = {
    'src/lerp.h': '''\
        #ifndef LERP_H
        #define LERP_H
        /* Interpolates data over the 2^n corners of a cell: frac[d] in [0, 1]
           is the position along dimension d, strides in elements. */
        inline float rec_nlinear_interp(int n, const float *data, const long *strides,
                                        const float *frac)
        {
            float s = 0;
            int c;
            for (c = 0; c < 2 && n > 0; c++) {
                float w = c ? frac[0] : 1 - frac[0];
                s += w * rec_nlinear_interp(n - 1, data + c * strides[0], strides + 1,
                                            frac + 1);
            }
            return n > 0 ? s : data[0];
        }
        #endif
        ''',
    'src/interp.h': '''\
        int interp_forward(THFloatTensor *grid, THFloatTensor *frac, THFloatTensor *output);
        int interp_origin(THFloatTensor *grid, THFloatTensor *output);
        ''',
    'src/interp.c': '''\
        #include <TH/TH.h>
        #include "lerp.h"

        int interp_forward(THFloatTensor *grid, THFloatTensor *frac, THFloatTensor *output)
        {
            long strides[8];
            int d, n = THFloatTensor_nDimension(grid);
            for (d = 0; d < n; d++)
                strides[d] = THFloatTensor_stride(grid, d);
            THFloatTensor_resize1d(output, 1);
            THFloatTensor_data(output)[0] = rec_nlinear_interp(
                n, THFloatTensor_data(grid), strides, THFloatTensor_data(frac));
            return 1;
        }
        ''',
    'src/origin.c': '''\
        #include <TH/TH.h>
        #include "lerp.h"

        int interp_origin(THFloatTensor *grid, THFloatTensor *output)
        {
            long strides[8];
            float frac[8] = {0};
            int d, n = THFloatTensor_nDimension(grid);
            for (d = 0; d < n; d++)
                strides[d] = THFloatTensor_stride(grid, d);
            THFloatTensor_resize1d(output, 1);
            THFloatTensor_data(output)[0] = rec_nlinear_interp(
                n, THFloatTensor_data(grid), strides, frac);
            return 1;
        }
        ''',
    'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        this_file = os.path.dirname(os.path.realpath(__file__))
        ffi = create_extension(
            '_ext.interp',
            headers=['src/interp.h'],
            sources=['src/interp.c', 'src/origin.c'],
            relative_to=__file__,
            with_cuda=False)

        if __name__ == '__main__':
            ffi.build()
        ''',
}

CHECK_INTERP = '''
    import itertools
    import torch
    from _ext import interp

    grid = torch.randn(3, 4, 2)[:2, :2, :]
    frac = torch.rand(3)
    out = torch.zeros(1)
    interp.interp_forward(grid.contiguous(), frac, out)
    expected = sum(grid[c] * torch.prod(torch.stack([frac[d] if c[d] else 1 - frac[d]
                                                     for d in range(3)]))
                   for c in itertools.product([0, 1], repeat=3))
    assert torch.allclose(out[0], expected, rtol=1e-5), (out, expected)
    interp.interp_origin(grid.contiguous(), out)
    assert out[0] == grid[0, 0, 0], (out, grid)
    print('ok')
'''


def test_gcc_leaves_the_recursive_inline_helper_undefined(tmp_path):
    """The case is real on this compiler: gcc -std=c99 -O3 (as the legacy
    builder and Python's flags) leaves a call to the helper out of line."""
    _write(tmp_path, INTERP)
    subprocess.run(['gcc', '-std=c99', '-O3', '-fPIC', '-c', 'src/interp.c', '-o', 'interp.o',
                    '-I', os.path.join(ROOT, 'thffi', 'include')], cwd=tmp_path, check=True)
    symbols = subprocess.run(['nm', 'interp.o'], cwd=tmp_path, capture_output=True,
                             text=True).stdout
    assert 'U rec_nlinear_interp' in symbols


@pytest.mark.slow  # deselected by default (conftest.py)
def test_recursive_c99_inline_helper_builds_with_the_hook_and_runs(tmp_path):
    _write(tmp_path, INTERP)
    built = _run(tmp_path, BUILD_AND_RUN)
    assert built.returncode == 0, built.stdout + built.stderr
    warnings = [line for line in built.stderr.splitlines() if 'plain `inline`' in line]
    assert len(warnings) == 1, built.stderr
    assert 'rec_nlinear_interp (src/lerp.h:5)' in warnings[0]
    assert 'src/interp.c' in warnings[0] and 'src/origin.c' not in warnings[0]
    ran = _run(tmp_path, CHECK_INTERP)
    assert ran.returncode == 0 and ran.stdout.strip() == 'ok', ran.stdout + ran.stderr
    again = _run(tmp_path, BUILD_AND_RUN)  # up to date: nothing compiled, nothing said
    assert again.returncode == 0 and 'inline' not in again.stderr, again.stderr


def test_inline_behind_a_macro_is_found_as_the_preprocessor_sees_it(tmp_path):
    files = dict(INTERP)
    files['src/lerp.h'] = files['src/lerp.h'].replace(
        '        #define LERP_H\n', '        #define LERP_H\n        #define DEVICE_FUNC inline\n'
    ).replace('inline float rec_nlinear_interp(', 'DEVICE_FUNC float rec_nlinear_interp(')
    _write(tmp_path, files)
    built = _run(tmp_path, BUILD_AND_RUN)
    assert built.returncode == 0, built.stdout + built.stderr
    assert 'rec_nlinear_interp (src/lerp.h:6)' in built.stderr, built.stderr
    ran = _run(tmp_path, CHECK_INTERP)
    assert ran.returncode == 0 and ran.stdout.strip() == 'ok', ran.stdout + ran.stderr


def test_a_missing_function_that_is_not_inline_still_fails_by_name(tmp_path):
    files = dict(INTERP)
    files['src/origin.c'] = files['src/origin.c'].replace('rec_nlinear_interp(',
                                                          'rec_nlinear_interp_fast(')
    _write(tmp_path, files)
    built = _run(tmp_path, BUILD_AND_RUN)
    assert built.returncode != 0
    assert 'nothing defines this name' in built.stderr, built.stderr
    assert 'rec_nlinear_interp_fast, used in src/origin.c' in built.stderr, built.stderr


@pytest.mark.slow  # deselected by default (conftest.py)
def test_recursive_c99_inline_helper_in_a_package_build(tmp_path):
    """Package mode: setuptools compiles (cffi_modules), thffi's build_ext
    adds the definition the same way."""
    files = dict(INTERP)
    files['build.py'] = files['build.py'].replace("'_ext.interp'", "'interp_pkg._ext.interp'")
    files['build.py'] = files['build.py'].replace('with_cuda=False)',
                                                  'with_cuda=False, package=True)')
    files['setup.py'] = '''\
        from setuptools import setup

        setup(name='interp_pkg', version='0.1', packages=['interp_pkg'],
              setup_requires=['cffi>=1.0.0'], cffi_modules=['build.py:ffi'])
        '''
    files['interp_pkg/__init__.py'] = ''
    _write(tmp_path, files)
    built = subprocess.run([sys.executable, '-m', 'thffi', 'setup.py', 'build_ext', '--inplace'],
                           cwd=tmp_path, env=dict(os.environ, PYTHONPATH=ROOT),
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    assert built.stderr.count('plain `inline`') == 1, built.stderr
    ran = _run(tmp_path, CHECK_INTERP.replace('from _ext import interp',
                                              'from interp_pkg._ext import interp'))
    assert ran.returncode == 0 and ran.stdout.strip() == 'ok', ran.stdout + ran.stderr


# Helpers behind a macro, as code shared by the CPU and CUDA paths wrote
# them: `inline` is not in the text of the definitions, and -O0 (the user's
# flags come after the builder's -O3) inlines no call.
SMOOTH = {
    'src/device.h': """\
        #ifndef DEVICE_H
        #define DEVICE_H
        /* Shared by the CPU code and the kernels: __device__ where nvcc compiles. */
        #ifdef __CUDACC__
        #define DEVICE_FUNC __device__ inline
        #else
        #define DEVICE_FUNC inline
        #endif

        DEVICE_FUNC float clampf(float x, float lo, float hi)
        {
            return x < lo ? lo : (x > hi ? hi : x);
        }

        DEVICE_FUNC float lerpf(float a, float b, float t) { return a + t * (b - a); }

        DEVICE_FUNC float smoothstepf(float e0, float e1, float x)
        {
            float t = clampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
            return lerpf(0.0f, 1.0f, t * t * (3.0f - 2.0f * t));
        }
        #endif
        """,
    'src/smooth.h': """\
        int smooth_forward(THFloatTensor *input, THFloatTensor *output, float e0, float e1);
        """,
    'src/smooth.c': """\
        #include <TH/TH.h>
        #include "device.h"

        int smooth_forward(THFloatTensor *input, THFloatTensor *output, float e0, float e1)
        {
            long i, n = THFloatTensor_nElement(input);
            float *in, *out;
            THArgCheck(THFloatTensor_isContiguous(input), 1, "input must be contiguous");
            THFloatTensor_resizeAs(output, input);
            in = THFloatTensor_data(input);
            out = THFloatTensor_data(output);
            for (i = 0; i < n; i++)
                out[i] = smoothstepf(e0, e1, in[i]);
            return 1;
        }
        """,
    'build.py': """\
        from torch.utils.ffi import create_extension

        ffi = create_extension(
            '_ext.smooth',
            headers=['src/smooth.h'],
            sources=['src/smooth.c'],
            relative_to=__file__,
            extra_compile_args=['-std=c99', '-O0'],
            with_cuda=False)

        if __name__ == '__main__':
            ffi.build()
        """,
}

CHECK_SMOOTH = """
    import torch
    from _ext import smooth

    x = torch.linspace(-1, 2, 31)
    out = torch.zeros(0)
    smooth.smooth_forward(x, out, 0.0, 1.0)
    t = x.clamp(0, 1)
    assert torch.allclose(out, t * t * (3 - 2 * t)), (out, x)
    print('ok')
"""


def test_c99_inline_helpers_behind_a_macro_build_and_run(tmp_path):
    _write(tmp_path, SMOOTH)
    obj = tmp_path / 'smooth.o'
    subprocess.run(['gcc', '-std=c99', '-O0', '-c', 'src/smooth.c', '-o', str(obj), '-I',
                    os.path.join(ROOT, 'thffi', 'include')], cwd=tmp_path, check=True)
    nm = subprocess.run(['nm', str(obj)], capture_output=True, text=True).stdout
    assert 'U smoothstepf' in nm and 'U clampf' not in nm  # the case is real here
    built = _run(tmp_path, BUILD_AND_RUN)
    assert built.returncode == 0, built.stdout + built.stderr
    warnings = [line for line in built.stderr.splitlines() if 'plain `inline`' in line]
    assert len(warnings) == 1, built.stderr
    for name, line in (('clampf', 10), ('lerpf', 15), ('smoothstepf', 17)):
        assert '%s (%s:%d)' % (name, os.path.join('src', 'device.h'), line) in warnings[0], (
            warnings[0])
    ran = _run(tmp_path, CHECK_SMOOTH)
    assert ran.returncode == 0 and ran.stdout.strip() == 'ok', ran.stdout + ran.stderr


def test_a_link_that_still_fails_names_the_inline_only_definition(tmp_path):
    """GNU89 inline semantics (-std=gnu89): the `extern inline` definition
    is the one for inlining only, and no extern declaration makes it an
    external one; a name nothing defines is told apart from it."""
    files = dict(SMOOTH)
    files['src/device.h'] = files['src/device.h'].replace('#define DEVICE_FUNC inline',
                                                          '#define DEVICE_FUNC extern inline')
    files['src/smooth.c'] = files['src/smooth.c'].replace(
        'return 1;', 'return smooth_check(output);').replace(
        '#include "device.h"', '#include "device.h"\nint smooth_check(THFloatTensor *t);')
    files['build.py'] = files['build.py'].replace("'-std=c99'", "'-std=gnu89'")
    _write(tmp_path, files)
    built = _run(tmp_path, BUILD_AND_RUN)
    assert built.returncode != 0
    assert 'no object defines these 2 names the code uses' in built.stderr, built.stderr
    assert ('  smoothstepf, used in src/smooth.c: src/device.h:17 defines it `extern inline`, '
            'which GNU89 inline semantics (-std=gnu89, -fgnu89-inline) keep for inlining only'
            in built.stderr), built.stderr
    assert ('  smooth_check, used in src/smooth.c: no source, extra object or library of the '
            'build defines it' in built.stderr), built.stderr
    assert 'plain `inline`' not in built.stderr, built.stderr


def test_inline_only_definitions_are_read_from_the_preprocessed_source(tmp_path):
    """C99 6.7.4: only a definition all of whose file-scope declarations
    say `inline` and none `extern` is for inlining only; #if-ed out code
    is not compiled; GNU89 semantics swap the roles of `inline` and
    `extern inline`; a source pycparser cannot read (an asm statement)
    is searched as preprocessed text."""
    from thffi.builder import preprocessed as _preprocessed
    _write(tmp_path, {'inl.h': """\
        #define HELPER inline
        HELPER int a(int x) { return x; }
        float b(float x);
        inline float b(float x) { return x; }
        static inline int c(int x) { return x; }
        extern inline int d(int x) { return x; }
        #if 0
        inline int e(int x) { return x; }
        #endif
        """, 'one.c': '#include <stdio.h>\n#include "inl.h"\n',
        'asm.c': '#include "inl.h"\ninline int f(int x) { __asm__ volatile("nop"); return x; }\n'})

    def found(source, *flags):
        command = _preprocessed.preprocess_command(['gcc', '-I', str(tmp_path)], list(flags))
        return [(d.name, os.path.basename(d.file), d.line, d.kind) for d in
                _preprocessed.inline_only(command, source, str(tmp_path),
                                          lambda path: not path.startswith('/usr/'))]

    assert found('one.c', '-std=c99', '-MMD') == [('a', 'inl.h', 2, 'inline')]
    assert found('one.c', '-std=gnu89') == [('d', 'inl.h', 6, 'extern inline')]
    assert ('f', 'asm.c', 2, 'inline') in found('asm.c', '-std=c99')
    assert not list(tmp_path.glob('*.d'))  # -MMD is no flag for gcc -E here


# C that gcc 5 compiled with warnings and gcc 14 refuses: implicit int
# (a static without a type, a function without a return type), K&R
# definitions, a call with no declaration in scope, an int used as a
# pointer, a pointer of another type, `return;` in an int function.
OLD_C = {
    'src/old.h': '''\
        int old_scale(THFloatTensor *input, THFloatTensor *output);
        int old_bytes(THFloatTensor *input);
        ''',
    'src/old.c': '''\
        #include <TH/TH.h>

        static factor = 3;

        twice(x)
            int x;
        {
            return 2 * x;
        }

        float scale_one(v, by)
            float v;
            int by;
        {
            return v * by;
        }

        int old_scale(THFloatTensor *input, THFloatTensor *output)
        {
            float *in, *out;
            long i, n;
            void *unused_tag = 1;
            if (input == NULL)
                return;
            n = THFloatTensor_nElement(input);
            THFloatTensor_resizeAs(output, input);
            in = THFloatTensor_data(input);
            out = THFloatTensor_data(output);
            for (i = 0; i < n; i++)
                out[i] = scale_one(in[i], twice(factor)) + count_offset(i);
            return 1;
        }

        int old_bytes(THFloatTensor *input)
        {
            unsigned char *bytes = THFloatTensor_data(input);
            return bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 128 && bytes[3] == 63;
        }
        ''',
    # defined in another file, declared nowhere: an implicit declaration
    'src/offset.c': '''\
        int count_offset(long i)
        {
            return (int)(i % 2);
        }
        ''',
    'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.old', headers=['src/old.h'],
                               sources=['src/old.c', 'src/offset.c'], relative_to=__file__)

        if __name__ == '__main__':
            ffi.build()
        ''',
}

# gcc 14's defaults, on this gcc: the forms it made errors are errors.
GCC14_ERRORS = ('-Werror=implicit-int -Werror=implicit-function-declaration '
                '-Werror=int-conversion -Werror=incompatible-pointer-types')


@pytest.mark.parametrize('cflags', ['', pytest.param(GCC14_ERRORS, marks=pytest.mark.slow)],
                         ids=['gcc', 'as-gcc-14'])
def test_c_that_gcc_5_accepted_builds_and_runs(tmp_path, cflags):
    _write(tmp_path, OLD_C)
    built = _run(tmp_path, BUILD_AND_RUN, env={'CFLAGS': cflags})
    assert built.returncode == 0, built.stdout + built.stderr
    for warning in ('implicit-int', 'implicit-function-declaration', 'int-conversion',
                    'incompatible-pointer-types'):
        assert '[-W%s]' % warning in built.stderr, (warning, built.stderr)
    ran = _run(tmp_path, '''
        import torch
        from _ext import old
        x = torch.tensor([1.0, 2.0, -0.5])
        out = torch.zeros(0)
        assert old.old_scale(x, out) == 1
        assert out.tolist() == [6.0, 13.0, -3.0], out
        assert old.old_bytes(torch.ones(1)) == 1
        print('ok')
        ''')
    assert ran.returncode == 0 and ran.stdout.strip() == 'ok', ran.stdout + ran.stderr


def test_tolerated_errors_are_those_this_compiler_knows():
    flags = cc.tolerated_errors(('gcc',))
    assert '-Wno-error=implicit-int' in flags
    assert '-Wno-error=implicit-function-declaration' in flags
    version = int(subprocess.run(['gcc', '-dumpversion'], capture_output=True,
                                 text=True).stdout.split('.')[0])
    assert ('-Wno-error=return-mismatch' in flags) == (version >= 14)
    # every flag it returns, the compiler takes
    result = subprocess.run(['gcc', '-x', 'c', '-fsyntax-only', '-'] + flags, input='',
                            capture_output=True, text=True)
    assert result.returncode == 0 and not result.stderr, result.stderr
    assert cc.tolerated_errors(('/nonexistent/cc',)) == []


# One example of each pattern of CXX_ONLY and C_ONLY that gcc 12 knows.
CXX_ONLY_EXAMPLES = ['-std=c++11', '-std=gnu++14', '-fno-rtti', '-fpermissive',
                     '-fno-threadsafe-statics', '-fvisibility-inlines-hidden',
                     '-fno-implicit-templates', '-fno-elide-constructors',
                     '-ftemplate-depth=900', '-fno-operator-names', '-fstrict-enums',
                     '-Wreorder', '-Wno-non-virtual-dtor', '-Woverloaded-virtual', '-Weffc++',
                     '-Wno-sign-promo', '-Wold-style-cast', '-Wno-deprecated-copy',
                     '-Wno-class-memaccess', '-Wno-register', '-Wplacement-new=2']
C_ONLY_EXAMPLES = ['-std=c99', '-std=gnu89', '-std=iso9899:1999', '-fgnu89-inline',
                   '-Wstrict-prototypes', '-Wold-style-definition', '-Wimplicit-int',
                   '-Wdeclaration-after-statement', '-Wbad-function-cast',
                   '-Wnested-externs', '-Wpointer-sign', '-Wc++-compat', '-Wjump-misses-init',
                   '-Wno-discarded-qualifiers', '-Wimplicit-function-declaration']


@pytest.mark.parametrize('flag, ignored_by, kept_by', (
    [(flag, ('gcc', 'x.c', 'c', 'C'), 'c++') for flag in CXX_ONLY_EXAMPLES]
    + [(flag, ('g++', 'x.cpp', 'c++', 'C++'), 'c') for flag in C_ONLY_EXAMPLES]))
def test_one_language_flags_are_those_gcc_ignores_for_the_other(tmp_path, flag, ignored_by,
                                                                 kept_by):
    compiler, source, language, name = ignored_by
    (tmp_path / source).write_text('int x;\n')
    out = subprocess.run([compiler, '-c', source, '-o', 'x.o', flag], cwd=tmp_path,
                         capture_output=True, text=True)
    assert 'but not for %s' % name in out.stderr, out.stderr
    assert cc.for_language(['-O2', flag], language) == (['-O2'], [flag])
    assert cc.for_language(['-O2', flag], kept_by) == (['-O2', flag], [])


def test_flags_for_both_languages_stay_for_both():
    both = ['-O3', '-fPIC', '-Wall', '-fopenmp', '-DX=1', '-I/x', '-fexceptions',
            '-Wimplicit-fallthrough', '-g', '-march=native', '-std']
    assert cc.for_language(both, 'c') == (both, [])
    assert cc.for_language(both, 'c++') == (both, [])


# A C++ binding beside C sources, extra_compile_args for the C++ as 2018
# setups wrote them: each source compiles in its own standard.
MIXED = {
    'src/mixed.h': '''\
        int mixed_c_standard(void);
        int mixed_cxx_standard(void);
        ''',
    'src/mixed_c.c': '''\
        #include <TH/TH.h>
        #if !defined(__STDC_VERSION__) || __STDC_VERSION__ != 199901L
        #error the C sources compile as C99
        #endif
        int mixed_c_standard(void) { return (int)(__STDC_VERSION__ / 100); }
        ''',
    'src/mixed_cxx.cpp': '''\
        #include <TH/TH.h>
        #if __cplusplus != 201103L
        #error extra_compile_args gave -std=c++11
        #endif
        extern "C" int mixed_cxx_standard(void) { return (int)(__cplusplus / 100); }
        ''',
    'build.py': '''\
        from torch.utils.ffi import create_extension

        ffi = create_extension('_ext.mixed', headers=['src/mixed.h'],
                               sources=['src/mixed_c.c', 'src/mixed_cxx.cpp'],
                               extra_compile_args=['-std=c++11', '-fno-rtti'],
                               relative_to=__file__, verbose=True)

        if __name__ == '__main__':
            ffi.build()
        ''',
}


def test_cxx_flags_in_extra_compile_args_reach_only_cxx_sources(tmp_path):
    _write(tmp_path, MIXED)
    built = _run(tmp_path, BUILD_AND_RUN)
    assert built.returncode == 0, built.stdout + built.stderr
    assert 'valid for C++' not in built.stderr and 'not for C' not in built.stderr, \
        built.stderr
    commands = [line for line in built.stdout.splitlines() if ' -c ' in line]
    c_line = [c for c in commands if 'mixed_c.c' in c][0]
    cxx_line = [c for c in commands if 'mixed_cxx.cpp' in c][0]
    assert '-std=c++11' not in c_line and '-fno-rtti' not in c_line and '-std=c99' in c_line
    assert '-std=c++11' in cxx_line and '-std=c99' not in cxx_line
    ran = _run(tmp_path, '''
        from _ext import mixed
        print(mixed.mixed_c_standard(), mixed.mixed_cxx_standard())
        ''')
    assert ran.stdout.split() == ['1999', '2011'], ran.stdout + ran.stderr


def test_c99_inline_definitions_are_told_from_static_and_extern_ones():
    text = '''
        #include "x.h"
        inline float a(float x) { return x; }
        static inline float b(float x) { return x; }
        extern inline float c(float x) { return x; }
        __inline__ double
        d(double x)
        {
            if (x) { return inline_call(x); }
            return 0;
        }
        inline int e(int x);
        /* inline int f(int x) { return x; } */
        int g(void) { return 0; }
        '''
    assert cc.c99_inline_definitions(textwrap.dedent(text)) == {'a': 3, 'd': 7}


def test_port_reports_c99_inline_helpers(tmp_path):
    from thffi.port import port
    _write(tmp_path, INTERP)
    findings = port(str(tmp_path))[1]
    assert [str(f) for f in findings if 'plain `inline`' in f.message] == [
        os.path.join('src', 'lerp.h') + ':5: rec_nlinear_interp() is defined plain `inline`: C99 '
        'gives it no external definition, and gcc 10+ leaves calls to recursive or large '
        'functions out of line (undefined symbol); thffi\'s build compiles its definition once, '
        'saying so; for other builds make it `static inline`']


def test_port_reports_inline_only_where_a_c_compile_sees_it(tmp_path):
    """A 2018 RoIAlign: its kernel header's `inline __device__` helper is
    included by the .cu alone, a C++ helper's by the .cpp alone (both mean
    what they say there); the C sees common.h (through util.h) and the
    header create_extension hands cffi."""
    from thffi.port import port
    _write(tmp_path, {
        'build.py': '''\
            from torch.utils.ffi import create_extension
            ffi = create_extension('_ext.roi_align', headers=['src/roi_align.h'],
                                   sources=['src/roi_align.c'], relative_to=__file__,
                                   extra_objects=['src/roi_align_kernel.cu.o'])
            ffi.build()
            ''',
        'src/roi_align.h': '''\
            inline int roi_align_count(int n) { return n > 0 ? n : 0; }
            int roi_align_forward(int n, THFloatTensor *features, THFloatTensor *output);
            ''',
        'src/roi_align.c': '''\
            #include <TH/TH.h>
            #include "util.h"

            int roi_align_forward(int n, THFloatTensor *features, THFloatTensor *output)
            {
                return clamp_index(n, THFloatTensor_size(features, 0));
            }
            ''',
        'src/util.h': '#include "common.h"\n',
        'src/common.h': '''\
            inline int clamp_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
            ''',
        'src/roi_align_kernel.h': '''\
            inline __device__ float bilinear(const float *data, float y, float x, int w)
            {
                return data[(int)y * w + (int)x];
            }
            ''',
        'src/roi_align_kernel.cu': '#include "roi_align_kernel.h"\n',
        'src/bounds.hpp': 'inline int bound(int i) { return i; }\n',
        'src/bounds.h': 'inline int lower(int i) { return i; }\n',
        'src/bounds.cpp': '#include "bounds.hpp"\n#include "bounds.h"\n',
    })
    findings = port(str(tmp_path))[1]
    assert sorted((f.path, f.line, f.message.split('()')[0]) for f in findings
                  if 'plain `inline`' in f.message) == [
        (os.path.join('src', 'common.h'), 1, 'clamp_index'),
        (os.path.join('src', 'roi_align.h'), 1, 'roi_align_count')]
