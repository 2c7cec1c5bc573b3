"""python -m thffi's commands, called in-process through thffi.__main__.main
(make.sh files run them; the legacy repository's test runs them for real):
one argparse parser, --help on stdout with status 0 for each command, a
wrong option a usage error on stderr with status 2, and what a command
runs (run's, a build script's) handed on as it was typed."""

import os
import subprocess
import sys

import pytest

from support import ROOT
import thffi.run
from thffi.__main__ import main


def test_arch_flags_follow_torch_cuda_arch_list(monkeypatch, capsys):
    monkeypatch.setenv('TORCH_CUDA_ARCH_LIST', '7.5;9.0+PTX')
    assert main(['--arch-flags']) == 0
    assert capsys.readouterr().out == ('-gencode=arch=compute_75,code=sm_75 '
                                       '-gencode=arch=compute_90,code=sm_90 '
                                       '-gencode=arch=compute_90,code=compute_90\n')
    monkeypatch.setenv('TORCH_CUDA_ARCH_LIST', '3.0 maybe')
    assert main(['--arch-flags']) == 2
    assert capsys.readouterr().err == (
        "python -m thffi --arch-flags: CUDA architecture 'maybe': expected a compute "
        "capability such as 8.6, 9.0a or 12.0+PTX (from TORCH_CUDA_ARCH_LIST)\n")


def _exits(argv, capsys):
    """(exit status, stdout, stderr) of main(argv) ending in SystemExit."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    out, err = capsys.readouterr()
    return exited.value.code, out, err


@pytest.mark.parametrize('argv, usage', [
    (['--help'], 'usage: python -m thffi (--includes | --libs | --cuda-libs NAME'),
    (['-h'], 'usage: python -m thffi (--includes | --libs | --cuda-libs NAME'),
    (['--includes', '--help'], 'usage: python -m thffi (--includes'),
    (['--cuda-libs', 'curand', '-h'], 'usage: python -m thffi (--includes'),
    (['port', '--help'], 'usage: python -m thffi port [-h] [--write] [--from VERSION] '
                         '[--jobs N] [PATH]'),
    (['run', '--help'], 'usage: python -m thffi run [-h] [--] COMMAND [ARGS ...]'),
    (['run', '-h'], 'usage: python -m thffi run [-h] [--] COMMAND [ARGS ...]'),
    (['sanitize', '--help'], 'usage: python -m thffi sanitize [-h] (SCRIPT | -m MODULE | -c CODE)'),
    (['cache', '--help'], 'usage: python -m thffi cache [-h] [--clear] [--max-size SIZE]'),
])
def test_each_command_answers_help_on_stdout_with_status_0(argv, usage, capsys, monkeypatch):
    monkeypatch.setenv('COLUMNS', '100')  # argparse wraps at the terminal's width
    status, out, err = _exits(argv, capsys)
    assert (status, err) == (0, '')
    assert out.startswith(usage), out
    if argv[0].startswith('-'):  # the top's help: every option, every command's usage
        for word in ('--includes', '--libs', '--cuda-libs', '--cuda-includes', '--cuda-home',
                     '--arch-flags', 'python -m thffi port [-h] [--write]',
                     'python -m thffi run [-h] [--] COMMAND', 'python -m thffi sanitize [-h]',
                     'python -m thffi cache [-h]', 'python -m thffi SCRIPT.py [ARGS ...]'):
            assert word in out


@pytest.mark.parametrize('argv, error', [
    ([], 'python -m thffi: error: give an option or a command'),
    (['--bogus'], 'python -m thffi: error: unrecognized arguments: --bogus'),
    (['--includes', '--libs'], 'python -m thffi: error: argument --libs: not allowed with '
                               'argument --includes'),
    (['--includes', 'port'], 'python -m thffi: error: give one option or one command'),
    (['--arch-flags', 'x'], "python -m thffi: error: argument COMMAND: invalid choice: 'x'"),
    (['--cuda-libs'], 'python -m thffi: error: argument --cuda-libs: expected at least one'),
    (['port', '--bogus'], 'python -m thffi port: error: unrecognized arguments: --bogus'),
    (['port', '--jobs', '0'], 'python -m thffi port: error: argument --jobs: must be 1 or '
                              'more, got 0'),
    (['port', 'nowhere-at-all'], 'python -m thffi port: error: nowhere-at-all does not exist'),
    (['run'], 'python -m thffi run: error: no command given'),
    (['run', '--'], 'python -m thffi run: error: no command given'),
    (['run', '-x', 'make'], 'python -m thffi run: error: unrecognized arguments: -x\n'),
    (['sanitize'], 'python -m thffi sanitize: error: no script given'),
    (['sanitize', '-m'], 'python -m thffi sanitize: error: -m takes a module'),
    (['cache', '--max-size', 'lots'], "python -m thffi cache: error: --max-size='lots': "
                                      "expected a size such as 5G"),
])
def test_a_wrong_option_is_a_usage_error_on_stderr_with_status_2(argv, error, capsys):
    status, out, err = _exits(argv, capsys)
    assert (status, out) == (2, '')
    assert err.startswith('usage: python -m thffi') and error in err, err


@pytest.mark.parametrize('argv, command', [
    (['run', 'make', '--help'], ['make', '--help']),
    (['run', '--', 'make', '-j2'], ['make', '-j2']),
    (['run', '--', '--help'], ['--help']),
    (['run', 'cd lib && sh make.sh'], ['cd lib && sh make.sh']),
    (['run', 'make', '--', 'x'], ['make', '--', 'x']),
])
def test_run_hands_on_the_command_after_its_own_options_untouched(argv, command, monkeypatch):
    ran = []
    monkeypatch.setattr(thffi.run, 'main', lambda args: ran.append(args) or 0)
    assert main(argv) == 0
    assert ran == [command]


@pytest.mark.parametrize('argv, python', [
    (['sanitize', 'train.py', '--help'], ['train.py', '--help']),
    (['sanitize', '-m', 'pkg.train', '-x'], ['-m', 'pkg.train', '-x']),
    (['sanitize', '-c', 'import x', 'a'], ['-c', 'import x', 'a']),
])
def test_sanitize_hands_python_its_arguments_as_python_takes_them(argv, python, monkeypatch):
    """A script, -m MODULE or -c CODE, and what follows, as python takes them."""
    import thffi.sanitize
    ran = []
    monkeypatch.setattr(thffi.sanitize, 'main', lambda args: ran.append(args) or 0)
    assert main(argv) == 0
    assert ran == [python]


def test_run_and_a_build_script_get_their_arguments_for_real(tmp_path):
    """A real process: run's command answers its own --help; a build
    script gets --help and the rest as they are."""
    run = subprocess.run([sys.executable, '-m', 'thffi', 'run', 'sh', '-c', 'echo "$@"', 'sh',
                          '--help', '-x'], cwd=str(tmp_path), capture_output=True, text=True,
                         timeout=120)
    assert (run.returncode, run.stdout) == (0, '--help -x\n'), run.stderr
    (tmp_path / 'build.py').write_text('import sys\nprint(sys.argv[1:])\n')
    script = subprocess.run([sys.executable, '-m', 'thffi', 'build.py', '--help', '-x', 'y'],
                            cwd=str(tmp_path), capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=ROOT))
    assert (script.returncode, script.stdout) == (0, "['--help', '-x', 'y']\n"), script.stderr


def test_a_missing_build_script(tmp_path, capsys):
    missing = str(tmp_path / 'build.py')
    assert main([missing, '--help']) == 2
    assert capsys.readouterr().err == 'python -m thffi %s: no such file\n' % missing
