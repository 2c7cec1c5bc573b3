"""What a build prints: one short line a command by default (thffi's own
objects and flags counted in one word each), the whole commands with
verbose=True or THFFI_VERBOSE=1; the toolkit's deprecations of 2018 code
silenced, the user's own warnings shown."""

import os
import re
import subprocess
import sys
import textwrap

import pytest

from support import ROOT, write_files
from thffi import create_extension, find_cuda_home
from thffi.builder.configure import TH_SOURCES
from thffi.toolchain import warnings as toolchain_warnings

needs_toolkit = pytest.mark.skipif(find_cuda_home() is None,
                                   reason='no CUDA toolkit (its headers) installed')

ROI = {
    'src/roi.h': '''\
        int roi_sum_forward(THFloatTensor *features, THFloatTensor *output);
        int roi_sum_backward(THFloatTensor *grad_output, THFloatTensor *grad_input);
        ''',
    'src/roi.c': '''\
        #include <TH/TH.h>

        int roi_sum_forward(THFloatTensor *features, THFloatTensor *output)
        {
            int unused_count;
            THFloatTensor_resize1d(output, 1);
            THFloatTensor_data(output)[0] = THFloatTensor_sumall(features);
            return 1;
        }
        ''',
    'src/roi_backward.c': '''\
        #include <TH/TH.h>

        int roi_sum_backward(THFloatTensor *grad_output, THFloatTensor *grad_input)
        {
            THFloatTensor_fill(grad_input, THFloatTensor_data(grad_output)[0]);
            return 1;
        }
        ''',
    'build.py': '''\
        import os
        import sys
        from torch.utils.ffi import create_extension

        kwargs = {'verbose': sys.argv[1] == 'True'} if len(sys.argv) > 1 else {}
        ffi = create_extension(
            '_ext.roi',
            headers=['src/roi.h'],
            sources=['src/roi.c', 'src/roi_backward.c'],
            define_macros=[('ROI_SUM', None)],
            relative_to=__file__,
            with_cuda=False,
            **kwargs
        )

        if __name__ == '__main__':
            ffi.build()
        ''',
}


def _build(folder, *args, env=None):
    """A fresh build of the project (the last one removed): its output."""
    subprocess.run(['rm', '-rf', str(folder / '_ext')], check=True)
    full = dict(os.environ, PYTHONPATH=ROOT)
    full.pop('THFFI_VERBOSE', None)
    full.update(env or {})
    out = subprocess.run([sys.executable, '-c', 'from thffi import _hook; _hook.install()\n'
                          'import runpy, sys\nsys.argv[1:] = %r\n'
                          'runpy.run_path("build.py", run_name="__main__")' % list(args)],
                         cwd=folder, env=full, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    return out


def test_a_build_prints_one_short_line_a_command(tmp_path):
    write_files(tmp_path, ROI)
    out = _build(tmp_path)
    lines = out.stdout.splitlines()
    commands = [line for line in lines if not line.startswith('thffi: ')]
    assert [line.split()[:2] for line in commands] == [['gcc', '-c']] * 3 + [['gcc', '-shared']]
    assert {'src/roi.c', '-o', 'roi.o', '-DROI_SUM'} <= set(commands[0].split()), commands
    assert ' <%d thffi objects> -o _roi_' % len(TH_SOURCES) in commands[-1], commands
    assert len(lines) <= 7 and max(map(len, lines)) < 200, out.stdout
    # The user's own warning shows, whole.
    assert re.search(r'roi\.c:5:9: warning: unused variable .unused_count.', out.stderr), \
        out.stderr


@pytest.mark.parametrize('how', ['verbose=True', 'THFFI_VERBOSE=1'])
def test_verbose_prints_the_whole_commands(tmp_path, how):
    write_files(tmp_path, ROI)
    out = (_build(tmp_path, 'True') if how == 'verbose=True'
           else _build(tmp_path, env={'THFFI_VERBOSE': '1'}))
    link = [line for line in out.stdout.splitlines() if ' -shared ' in line]
    assert len(link) == 1 and '--wrap=exit' in link[0] and len(link[0]) > 2000, out.stdout


def test_not_verbose_prints_nothing_but_warnings(tmp_path):
    write_files(tmp_path, ROI)
    out = _build(tmp_path, 'False')
    assert out.stdout == '' and 'unused variable' in out.stderr


@needs_toolkit
def test_the_toolkits_deprecation_of_long4_is_silenced_and_the_users_are_not(tmp_path):
    (tmp_path / 'kernel_sizes.c').write_text(textwrap.dedent('''\
        #include <vector_types.h>

        __attribute__((deprecated("use volume4"))) long volume(long4 size);

        long volume(long4 size) { return size.x * size.y * size.z * size.w; }
        long total(long4 size) { return volume(size); }
        '''))
    command = ['gcc', '-c', 'kernel_sizes.c', '-o', 'kernel_sizes.o', '-Wall',
               '-I', os.path.join(find_cuda_home(), 'include')]
    quiet = ['-D%s' % name for name, _ in toolchain_warnings.QUIET_DEPRECATIONS]
    before = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True).stderr
    after = subprocess.run(command + quiet, cwd=tmp_path, capture_output=True, text=True).stderr
    long4 = re.compile(r'.long4. is deprecated')
    assert long4.search(before), before  # the toolkit's, in the user's code
    assert not long4.search(after), after
    assert re.search(r'.volume. is deprecated: use volume4', after), after  # the user's own
    # A build that uses the toolkit's headers passes the switch.
    write_files(tmp_path, ROI)
    ffi = create_extension('_ext.roi', headers=['src/roi.h'], sources=['src/roi.c'],
                           relative_to=str(tmp_path / 'build.py'), with_cuda=True)
    assert set(toolchain_warnings.QUIET_DEPRECATIONS) <= set(ffi.kwargs['define_macros'])


# 2018 C that today's gcc warns about on every line: the same kinds of
# warning many times over, in the repository's own files.
NOISY_C = '''\
    #include <TH/TH.h>

    int noisy_sum(THFloatTensor *t)
    {
    %s
        return (int)THFloatTensor_sumall(t);
    }
    ''' % ''.join('    int unused_%d = %d;\n' % (i, i) for i in range(40))


def test_a_builds_warnings_one_line_a_kind_and_whole_behind_thffi_verbose(tmp_path):
    write_files(tmp_path, {
        'src/noisy.h': 'int noisy_sum(THFloatTensor *t);\n', 'src/noisy.c': NOISY_C,
        'build.py': '''\
            from torch.utils.ffi import create_extension
            ffi = create_extension('_ext.noisy', headers=['src/noisy.h'],
                                   sources=['src/noisy.c'], extra_compile_args=['-Wall'],
                                   relative_to=__file__, verbose=True)
            if __name__ == '__main__':
                ffi.build()
            '''})
    out = _build(tmp_path)
    warnings = [line for line in out.stderr.splitlines() if ': warning: ' in line]
    assert len(warnings) == 1 and re.search(
        r"noisy\.c:\d+:\d+: warning: unused variable .unused_\d+. \[-Wunused-variable\] "
        r"\(and 39 more like it\)$", warnings[0]), out.stderr
    assert ('thffi: 40 warnings of the compilers, one line a kind (all of them, with their '
            'context: THFFI_VERBOSE=1)') in out.stderr
    whole = _build(tmp_path, env={'THFFI_VERBOSE': '1'})
    assert whole.stderr.count('[-Wunused-variable]') == 40, whole.stderr
