"""Legacy C/CUDA compiles as it was written (thffi/tests/legacy_c/src, written in
the 2017-2018 idiom): the include layout torch.utils.ffi had and what TH's
headers brought with them, PyTorch 0.3's and 0.4's THC API, 0.4's tensor
punning in C++ and under nvcc, `python -m thffi --includes` in a make.sh
line, empty tensors being contiguous; and about thffi's own objects: the
files their messages name, their cache key, and what verbose prints."""

import contextlib
import importlib
import io
import os
import re
import shutil
import subprocess
import sys

import pytest
import torch

import thffi
from support import TESTS, ROOT
from thffi import builder, create_extension
from thffi.builder import configure as _configure, jobs as _jobs, own_objects as _own_objects

SRC = os.path.join(TESTS, 'legacy_c', 'src')
THFFI_DIR = os.path.dirname(os.path.abspath(thffi.__file__))
CUDA_HOME = thffi.find_cuda_home()
needs_toolkit = pytest.mark.skipif(CUDA_HOME is None, reason='needs a CUDA toolkit (nvcc)')
GPU = torch.cuda.is_available() and CUDA_HOME is not None
ENV = dict(os.environ, PYTHONPATH=ROOT)
# The one of thffi's sources that the copy compiles: a plain source, whose
# __FILE__ the compiler fills in with its path (generic files are named by
# TH_GENERIC_FILE); test_errors_raised_by_cached_objects_name_this_thffis_files
# reads one of its messages.
_COMPILED_IN_THE_COPY = 'THGeneral.c'


def _shell(line, cwd):
    """Runs a make.sh line with bash, where `python` is this interpreter."""
    out = subprocess.run(['bash', '-c', line.replace('python ', '"%s" ' % sys.executable)],
                         cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, line + '\n' + out.stdout + out.stderr
    return out


def _import(folder, name):
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


@pytest.fixture(scope='module')
def cache_filled_elsewhere(tmp_path_factory):
    """(folder, stdout): a fresh object cache filled by a copy of thffi that
    is deleted afterwards, as a first checkout in a temporary folder leaves
    the user's cache; and what that build printed with verbose=False."""
    tmp = tmp_path_factory.mktemp('elsewhere')
    copy = tmp / 'copy'
    shutil.copytree(THFFI_DIR, copy / 'thffi', ignore=shutil.ignore_patterns('__pycache__'))
    (tmp / 'one.h').write_text('int one(void);\n')
    (tmp / 'one.c').write_text('#include "TH.h"\nint one(void) { return 1; }\n')
    # The copy compiles THGeneral.c; the other objects (seconds of -O3) come
    # from the user's cache when it has them, as a cache key does not depend
    # on where thffi lies.
    probe = create_extension('_one.lib', headers=[str(tmp / 'one.h')],
                             sources=[str(tmp / 'one.c')], relative_to=str(tmp / 'build.py'))
    for src, obj, command, _ in probe.jobs:
        entry = _own_objects.cache_entry(command, obj).folder
        if os.path.basename(src) != _COMPILED_IN_THE_COPY and os.path.isdir(entry):
            shutil.copytree(entry, tmp / 'cache' / 'objects' / os.path.basename(entry))
    script = ('import sys, thffi\n'
              'assert thffi.__file__.startswith(sys.argv[1]), thffi.__file__\n'
              "thffi.create_extension('_one.lib', headers=['one.h'], sources=['one.c'],\n"
              "                       relative_to='build.py', verbose=False).build()\n")
    out = subprocess.run([sys.executable, '-c', script, str(copy)], cwd=tmp,
                         env=dict(os.environ, PYTHONPATH=str(copy),
                                  THFFI_CACHE_DIR=str(tmp / 'cache')),
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    shutil.rmtree(copy)
    return tmp / 'cache', out.stdout


@pytest.fixture(scope='module')
def legacy_cpu(tmp_path_factory, cache_filled_elsewhere):
    """(module, what its build printed): thffi/tests/legacy_c's CPU code built
    with verbose=True from the cache another thffi filled."""
    out = tmp_path_factory.mktemp('legacy_cpu')
    log = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(log):
        mp.setenv('THFFI_CACHE_DIR', str(cache_filled_elsewhere[0]))
        create_extension('_legacy_cpu.lib', headers=[os.path.join(SRC, 'legacy.h')],
                         sources=[os.path.join(SRC, 'legacy.c'),
                                  os.path.join(SRC, 'legacy_cxx.cpp')],
                         relative_to=str(out / 'build.py'), verbose=True).build()
    return _import(out, '_legacy_cpu.lib'), log.getvalue()


@pytest.fixture(scope='module')
def legacy_cuda(tmp_path_factory):
    """thffi/tests/legacy_c's CUDA code: the kernel compiled by a make.sh line
    with `python -m thffi --includes`, linked with C and C++ THC code."""
    if CUDA_HOME is None:
        pytest.skip('needs a CUDA toolkit (nvcc)')
    out = tmp_path_factory.mktemp('legacy_cuda')
    kernel = out / 'legacy_kernel.cu.o'
    _shell('%s -c -o %s legacy_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_75 '
           '$(python -m thffi --includes)' % (os.path.join(CUDA_HOME, 'bin', 'nvcc'), kernel),
           cwd=os.path.join(SRC, 'cuda'))
    create_extension('_legacy_gpu.lib', headers=[os.path.join(SRC, 'legacy_cuda.h')],
                     sources=[os.path.join(SRC, 'legacy_cuda.c'),
                              os.path.join(SRC, 'legacy_cuda_cxx.cpp')],
                     extra_objects=[str(kernel)], with_cuda=True,
                     relative_to=str(out / 'build.py'), verbose=False).build()
    return _import(out, '_legacy_gpu.lib')


# -- the include layout, and what TH's headers brought -------------------

def test_math_string_and_float_h_come_with_th_h(legacy_cpu):
    m, _ = legacy_cpu
    x = torch.tensor([-3.7, -0.5, 0.0, 0.5, 2.9, 1e30])
    out = torch.empty(0)
    assert m.legacy_soft_threshold(out, x, 2.0) == 1
    assert torch.equal(out, x.trunc().clamp(-2, 2))
    m.legacy_soft_threshold(out, x, -1.0)  # FLT_MAX: no cap
    assert torch.equal(out, x.trunc())


def test_printf_comes_with_th_h(legacy_cpu, capfd):
    m, _ = legacy_cpu
    m.legacy_describe(torch.zeros(2, 3))
    assert capfd.readouterr().out == 'legacy_describe: 2-D tensor of 6 elements\n'


def _search_dirs(compiler):
    """The folders `compiler` searches for <...> includes."""
    out = subprocess.run([compiler, '-E', '-v', '-'], input='', capture_output=True,
                         text=True, timeout=60).stderr
    block = out.split('#include <...> search starts here:')[1].split('End of search list.')[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_no_header_of_ours_shadows_a_system_header():
    system = _search_dirs('gcc') + _search_dirs('g++') + _jobs.python_includes() + (
        [os.path.join(CUDA_HOME, 'include')] if CUDA_HOME else [])
    ours = {os.path.relpath(os.path.join(root, f), top)
            for top in builder.include_dirs() for root, _, files in os.walk(top)
            for f in files}
    assert {'TH.h', 'THC.h', 'THCGeneral.h', 'THCTensor.h', 'TH/TH.h'} <= ours
    assert [(name, d) for name in sorted(ours) for d in system
            if os.path.isfile(os.path.join(d, name))] == []


def test_users_generic_file_is_found_through_th_generic_file(tmp_path):
    # Our include folders hold generic/ folders too; the user's own
    # generic/foo.c, on their include path, is still the one included.
    (tmp_path / 'generic').mkdir()
    (tmp_path / 'generic' / 'foo.c').write_text(
        '#ifndef TH_GENERIC_FILE\n#define TH_GENERIC_FILE "generic/foo.c"\n#else\n'
        'int TH_CONCAT_2(foo_, Real)(THTensor *t) { return (int)THTensor_(nElement)(t); }\n'
        '#endif\n')
    (tmp_path / 'foo.c').write_text('#include <TH.h>\n#define TH_GENERIC_FILE "generic/foo.c"\n'
                                    '#include "THGenerateAllTypes.h"\n'
                                    'int both(void) { return foo_Float(0) + foo_Long(0); }\n')
    _shell('gcc -std=c99 -Werror -fsyntax-only foo.c -I. $(python -m thffi --includes)',
           cwd=tmp_path)


@needs_toolkit
def test_gcc_compiles_thc_c_with_the_includes_flags():
    # legacy_cuda.c includes <THC.h>: gcc needs the CUDA headers as well.
    _shell('gcc -std=c99 -fsyntax-only legacy_cuda.c $(python -m thffi --includes)', cwd=SRC)


# -- both API generations ---------------------------------------------------

def test_cxx_passes_a_long_tensor_to_float_tensor_functions(legacy_cpu):
    m, _ = legacy_cpu
    idx = torch.zeros(3, 4, dtype=torch.int64)
    assert m.legacy_punned_size(idx, 1) == 4
    assert m.legacy_punned_contiguous(idx) == 1
    assert m.legacy_punned_contiguous(idx.t()) == 0


def _declarations(path):
    """(name, parameters) of each TH_API function a header declares."""
    with open(path) as f:
        text = re.sub(r'/\*.*?\*/|//[^\n]*', ' ', f.read(), flags=re.S)
    for decl in text.split(';'):
        if 'TH_API' not in decl:
            continue
        decl = re.sub(r'\bTH_(NORETURN|FORMAT\([^)]*\))', ' ', decl.split('TH_API', 1)[1])
        m = re.search(r'(\w+(?:\(\w+\))?)\s*\(([^()]*)\)\s*$', decl)
        if m:
            yield m.group(1), m.group(2)


def test_every_function_taking_a_tensor_is_punnable_in_cxx():
    # THFFI_PUN after each declaration (TH/THGeneral.h explains it): the
    # rule for functions added to the TH/THC headers.
    missing = []
    for root, _, files in os.walk(thffi.INCLUDE_DIR):
        for name in files:
            path = os.path.join(root, name)
            with open(path) as f:
                punned = set(re.findall(r'THFFI_PUN\((\w+(?:\(\w+\))?)\);', f.read()))
            for fn, params in _declarations(path):
                takes = re.search(r'\b(THFFI_[TS]|TH\w*(Tensor|Storage))\s*\*', params)
                if takes and '...' not in params and fn not in punned:
                    missing.append('%s: %s' % (os.path.relpath(path, thffi.INCLUDE_DIR), fn))
    assert missing == []


def test_c_beside_cxx_may_still_pun_tensor_types(legacy_cpu):
    # C punning (0.4) is a warning in C, which GCC 14 makes an error unless
    # told otherwise; legacy.c is built beside legacy_cxx.cpp.
    _, log = legacy_cpu
    line = re.search(r'^\S+ .* -c %s .*$' % re.escape(os.path.join(SRC, 'legacy.c')), log, re.M)
    assert '-Wno-error=incompatible-pointer-types' in line.group(0).split()


def test_thc_code_of_both_generations_compiles_and_links(legacy_cuda):
    # The C, C++ and nvcc code each call THCudaMalloc both ways and pun
    # tensor types; importing resolved every symbol (RTLD_NOW).
    assert callable(legacy_cuda.legacy_cuda_scale_c)
    with pytest.raises(TypeError, match=r'legacy_cuda_scale_cu\(\): argument 1 \(output\): '
                                        r'expected THCudaTensor'):
        legacy_cuda.legacy_cuda_scale_cu(torch.zeros(1), torch.zeros(1), 1.0)


@pytest.mark.skipif(not GPU, reason='needs a CUDA GPU (the CUDA code is compiled and linked '
                                    'without one)')
def test_thc_code_of_both_generations_runs(legacy_cuda):
    x = torch.randn(3000, device='cuda')
    for fn in (legacy_cuda.legacy_cuda_scale_c, legacy_cuda.legacy_cuda_scale_cxx,
               legacy_cuda.legacy_cuda_scale_cu):
        out = torch.empty(0, device='cuda')
        assert fn(out, x, 2.5) == 1
        torch.testing.assert_close(out, x * 2.5)
    assert legacy_cuda.legacy_cuda_punned(torch.zeros(7, 2, device='cuda'),
                                          torch.zeros(3, dtype=torch.int64,
                                                      device='cuda')) == 71


# -- empty tensors are contiguous -----------------------------------------

def _nms_reference(dets, order, threshold):
    keep, dropped = [], set()
    for i, a in enumerate(order.tolist()):
        if a in dropped:
            continue
        keep.append(a)
        for b in order.tolist()[i + 1:]:
            p, q = dets[a], dets[b]
            w = max(0.0, min(p[2], q[2]) - max(p[0], q[0]) + 1)
            h = max(0.0, min(p[3], q[3]) - max(p[1], q[1]) + 1)
            area = lambda r: (r[2] - r[0] + 1) * (r[3] - r[1] + 1)
            if w * h / (area(p) + area(q) - w * h) >= threshold:
                dropped.add(b)
    return keep


@pytest.mark.parametrize('n', [0, 1, 9])
def test_nms_sorting_scores_of_any_number_of_boxes(legacy_cpu, n):
    m, _ = legacy_cpu
    g = torch.Generator().manual_seed(n)
    xy = torch.rand(n, 2, generator=g) * 20
    dets = torch.cat([xy, xy + 8 + torch.rand(n, 2, generator=g) * 8,
                      torch.rand(n, 1, generator=g)], 1)
    order = dets[:, 4].sort(0, descending=True)[1]
    if n == 0:
        assert order.stride() == (5,)  # what THLongTensor_isContiguous refused
    keep = torch.empty(0, dtype=torch.int64)
    assert m.legacy_cpu_nms(keep, dets, order, 0.3) == len(keep)
    assert keep.tolist() == _nms_reference(dets.tolist(), order, 0.3)


@pytest.mark.parametrize('view', [lambda t: t[:, 1], lambda t: t.t()[2:2],
                                  lambda t: t.unsqueeze(2).expand(0, 5, 3)])
def test_empty_tensors_are_contiguous_whatever_their_strides(th_test, view):
    t = view(torch.empty(0, 5))
    assert t.numel() == 0 and t.is_contiguous()
    assert th_test.is_contiguous(t) == 1


# -- thffi's own objects: messages, cache key, verbose ------------------------

@pytest.mark.parametrize('call, source', [
    # THArgCheck in generic code (its file named by TH_GENERIC_FILE)
    (lambda m: m.legacy_punned_size(torch.zeros(3, dtype=torch.int64), 4),
     'generic/THTensorMeta.c'),
    # THError of a resize torch refused, in a plain source compiled by the
    # deleted copy of thffi (_COMPILED_IN_THE_COPY)
    (lambda m: m.legacy_workspace(torch.empty(0), 1 << 62), 'THGeneral.c'),
])
def test_errors_raised_by_cached_objects_name_this_thffis_files(legacy_cpu, call, source):
    m, _ = legacy_cpu
    with pytest.raises(RuntimeError) as err:
        call(m)
    path, line = re.search(r' at (\S+):(\d+)$', str(err.value)).groups()
    assert path == os.path.join(THFFI_DIR, 'csrc', source)
    with open(path) as f:
        assert re.search(r'\bTH(Error|ArgCheck)\b', f.read().splitlines()[int(line) - 1])


def test_own_objects_cache_key_ignores_the_users_include_dirs_and_macros(tmp_path):
    with_cuda = CUDA_HOME is not None
    headers = [os.path.join(SRC, 'legacy.h')]
    sources = [os.path.join(SRC, 'legacy.c')] + (
        [os.path.join(SRC, 'cuda', 'legacy_kernel.cu')] if with_cuda else [])

    def jobs(**kwargs):
        ext = create_extension('_k.lib', headers=headers, sources=sources,
                               relative_to=str(tmp_path / 'build.py'), with_cuda=with_cuda,
                               **kwargs)
        own = [_own_objects.cache_entry(command, obj).folder
               for _, obj, command, cached in ext.jobs if cached]
        return own, [command for _, _, command, cached in ext.jobs if not cached]

    own, user = jobs()
    own_more, user_more = jobs(include_dirs=[str(tmp_path)], define_macros=[('LEGACY', '2')])
    # with CUDA also THC's objects, and THCxx.cpp for the .cu's C++ host code
    assert len(own) == len(_configure.TH_SOURCES) + (
        len(_configure.THC_SOURCES) + len(_configure.CXX_GUARD) if with_cuda else 0)
    assert own_more == own
    if with_cuda:  # the user's .cu gets the old layout and the user's flags
        assert '-I' + os.path.join(thffi.INCLUDE_DIR, 'THC') in user[0]
        assert {'-I%s' % tmp_path, '-DLEGACY=2'} <= set(user_more[0]) - set(user[0])


def test_verbose_prints_the_users_commands_and_one_line_for_thffis_objects(legacy_cpu):
    _, log = legacy_cpu
    assert os.path.join(THFFI_DIR, 'csrc') not in log
    line = re.search(r'^thffi: its own TH code: (?:(\d+) compiled in [\d.]+ s, )?'
                     r'(?:(\d+) prebuilt \(.*\), )?(\d+) objects from the cache \(.*\)$',
                     log, re.M)
    assert line, log
    assert sum(int(n or 0) for n in line.groups()) == (len(_configure.TH_SOURCES)
                                                       + len(_configure.CXX_GUARD))
    # cffi's compiles (with the old include layout) and its link (with libm)
    for name in ('legacy.c', 'legacy_cxx.cpp'):
        line = re.search(r'^\S+ .* -c %s .*$' % re.escape(os.path.join(SRC, name)), log, re.M)
        assert line and '-I' + os.path.join(thffi.INCLUDE_DIR, 'TH') in line.group(0), name
    assert re.search(r'^\S+ .* -shared .* -lm\b', log, re.M)


def test_not_verbose_prints_nothing(cache_filled_elsewhere):
    assert cache_filled_elsewhere[1] == ''
