"""create_extension / build(): paths, incremental builds, the demo's scripts."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

from demo_support import ROOT
from thffi import BuildError, create_extension


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def _run(args, cwd):
    return subprocess.run([sys.executable] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def tiny(tmp_path):
    """A project with one exported function and a private header."""
    _write(tmp_path / 'src' / 'tiny.h', 'int answer(void);\n')
    _write(tmp_path / 'src' / 'value.h', '#define VALUE 42\n')
    _write(tmp_path / 'src' / 'tiny.c', '''
        #include <TH/TH.h>
        #include "value.h"
        int answer(void) { return VALUE; }
        ''')
    return tmp_path


def _ext(project):
    return create_extension('_tiny.lib', headers=['src/tiny.h'], sources=['src/tiny.c'],
                            relative_to=str(project / 'build.py'), verbose=False)


def _call(project, expr):
    out = _run(['-c', 'import _tiny.lib as m; print(%s)' % expr], cwd=project)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _library(project):
    return pathlib.Path(_ext(project).library_path())


def test_unchanged_tree_is_not_recompiled_and_changes_are(tiny):
    assert _ext(tiny).build() is True
    assert _call(tiny, 'm.answer()') == '42'
    stamp = _library(tiny).stat().st_mtime_ns

    assert _ext(tiny).build() is False          # nothing changed
    assert _library(tiny).stat().st_mtime_ns == stamp

    _write(tiny / 'src' / 'tiny.c', '''
        #include <TH/TH.h>
        #include "value.h"
        int answer(void) { return VALUE + 1; }
        ''')
    assert _ext(tiny).build() is True           # a source changed
    assert _call(tiny, 'm.answer()') == '43'

    _write(tiny / 'src' / 'value.h', '#define VALUE 100\n')
    assert _ext(tiny).build() is True           # a header the source includes changed
    assert _call(tiny, 'm.answer()') == '101'

    _write(tiny / 'src' / 'tiny.h', 'int answer(void);\nint twice(int x);\n')
    with open(tiny / 'src' / 'tiny.c', 'a') as f:
        f.write('int twice(int x) { return 2 * x; }\n')
    assert _ext(tiny).build() is True           # the exported header changed
    assert _call(tiny, 'm.twice(21), m.__all__') == "42 ['answer', 'twice']"
    assert _ext(tiny).build() is False


def test_compile_error_keeps_the_previous_library(tiny):
    _ext(tiny).build()
    stamp = _library(tiny).stat().st_mtime_ns
    _write(tiny / 'src' / 'tiny.c', 'int answer(void) { return oops; }\n')
    with pytest.raises(BuildError, match='building _tiny.lib failed'):
        _ext(tiny).build()
    assert _library(tiny).stat().st_mtime_ns == stamp
    assert _call(tiny, 'm.answer()') == '42'
    assert not (tiny / '_tiny' / 'lib' / '.thffi-build').exists()


def test_missing_files_are_named(tiny):
    with pytest.raises(BuildError, match=r'cannot read header .*nope\.h'):
        create_extension('_tiny.lib', headers=['src/nope.h'], sources=['src/tiny.c'],
                         relative_to=str(tiny / 'build.py'))
    with pytest.raises(BuildError, match=r'source file .*nope\.c does not exist'):
        create_extension('_tiny.lib', headers=['src/tiny.h'], sources=['src/nope.c'],
                         relative_to=str(tiny / 'build.py'))


def test_unsupported_prototype_is_rejected_at_configure_time(tiny):
    _write(tiny / 'src' / 'bad.h', 'int takes_struct(struct point p);\n')
    with pytest.raises(ValueError, match=r'takes_struct: parameter 1 \(p\) has unsupported type'):
        create_extension('_tiny.lib', headers=['src/bad.h'], sources=['src/tiny.c'],
                         relative_to=str(tiny / 'build.py'))


def test_kwargs_pass_through(tiny):
    _write(tiny / 'inc' / 'extra.h', '#define EXTRA 5\n')
    _write(tiny / 'src' / 'tiny.c', '''
        #include <TH/TH.h>
        #include "extra.h"
        int answer(void) { return EXTRA * FACTOR; }
        ''')
    ffi = create_extension('_tiny.lib', headers=['src/tiny.h'], sources=['src/tiny.c'],
                           relative_to=str(tiny / 'build.py'), verbose=False,
                           include_dirs=['inc'], define_macros=[('FACTOR', '3')],
                           extra_compile_args=['-Wall'], libraries=['m'])
    assert ffi.build() is True
    assert _call(tiny, 'm.answer()') == '15'


def test_demo_builds_and_runs_from_another_directory(tmp_path):
    project = tmp_path / 'project'
    project.mkdir()
    for name in ('build.py', 'test.py'):
        shutil.copy(os.path.join(ROOT, name), project / name)
    for name in ('src', 'functions', 'modules', 'thffi'):
        shutil.copytree(os.path.join(ROOT, name), project / name,
                        ignore=shutil.ignore_patterns('__pycache__'))
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()

    built = _run([str(project / 'build.py')], cwd=elsewhere)
    assert built.returncode == 0, built.stderr
    assert 'built _ext.my_lib' in built.stdout
    assert list((project / '_ext' / 'my_lib').glob('_my_lib_*.so'))
    assert not (elsewhere / '_ext').exists()

    again = _run([str(project / 'build.py')], cwd=elsewhere)
    assert 'is up to date' in again.stdout

    demo = _run(['test.py'], cwd=project)
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.strip().endswith('gradients match')


@pytest.mark.parametrize('compiler', [['gcc', '-std=c99', '-x', 'c'], ['g++', '-x', 'c++']])
def test_th_header_compiles_as_c99_and_cpp(tmp_path, compiler):
    src = tmp_path / 'use.src'
    src.write_text('#include <TH/TH.h>\n'
                   'int use(THByteTensor *b, THLongTensor *l) {\n'
                   '  THArgCheck(b != NULL, 1, "need %s", "b");\n'
                   '  return (int)THByteTensor_nElement(b) + l->nDimension + (int)l->size[0];\n'
                   '}\n')
    out = subprocess.run(compiler + ['-Wall', '-Wextra', '-Werror', '-c', str(src), '-o',
                                     str(tmp_path / 'use.o'),
                                     '-I' + os.path.join(ROOT, 'thffi', 'include')],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_legacy_headers_parse_with_guards_comments_and_every_type(tmp_path):
    from thffi.builder.headers import parse_header
    from thffi.builder.tensor_types import TENSOR_TYPES
    params = ', '.join('%s *t%d' % (t, i) for i, t in enumerate(TENSOR_TYPES))
    header = textwrap.dedent('''
        #ifndef MY_OPS_H
        #define MY_OPS_H
        /* block comment */ // line comment
        #ifdef __cplusplus
        extern "C" {
        #endif
        int every_type(%s);
        THFloatTensor *returns_tensor(THFloatTensor *in, float scale, long n);
        void no_args(void);
        #ifdef __cplusplus
        }
        #endif
        #endif
        ''' % params)
    every, returns, none = parse_header('my_ops.h', header)
    assert [p.ctype for p in every.params] == ['%s *' % t for t in TENSOR_TYPES]
    assert returns.ret_kind == 'tensor' and [p.kind for p in returns.params] == [
        'tensor', 'float', 'int']
    assert none.params == () and none.ret_kind == 'void'


def test_function_returning_a_tensor_created_in_c(tmp_path):
    _write(tmp_path / 'src' / 'ret.h', '''
        THDoubleTensor *make(int64_t n, double value);
        THDoubleTensor *same(THDoubleTensor *t);
        THDoubleTensor *nothing(void);
        ''')
    _write(tmp_path / 'src' / 'ret.c', '''
        #include <TH/TH.h>
        THDoubleTensor *make(int64_t n, double value) {
          THDoubleTensor *t = THDoubleTensor_newWithSize1d(n);
          THDoubleTensor_fill(t, value);
          return t;
        }
        THDoubleTensor *same(THDoubleTensor *t) { return t; }
        THDoubleTensor *nothing(void) { return NULL; }
        ''')
    create_extension('_ret.lib', headers=['src/ret.h'], sources=['src/ret.c'],
                     relative_to=str(tmp_path / 'build.py'), verbose=False).build()
    check = textwrap.dedent('''
        import torch, _ret.lib as m
        t = m.make(4, 2.5)
        assert torch.equal(t, torch.full((4,), 2.5, dtype=torch.float64)), t
        x = torch.zeros(2, dtype=torch.float64)
        assert m.same(x) is x and m.nothing() is None and m._rt.live_tensors() == 0
        print('ok')
        ''')
    assert _run(['-c', check], cwd=tmp_path).stdout.strip() == 'ok'
