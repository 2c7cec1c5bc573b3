"""python -m thffi's commands, called in-process through thffi.__main__.main
(make.sh files run them; the legacy repository's test runs them for real)."""

import pytest

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


def test_usage_and_bad_arguments(tmp_path, capsys):
    assert main([]) == 2
    usage = capsys.readouterr().err
    assert usage.startswith('usage:') and 'python -m thffi port [--write] [PATH]' in usage
    assert main(['--arch-flags', 'x']) == 2
    assert capsys.readouterr().err == 'python -m thffi --arch-flags takes no arguments, got x\n'
    missing = str(tmp_path / 'build.py')
    assert main([missing]) == 2
    assert capsys.readouterr().err == 'python -m thffi %s: no such file\n' % missing
    with pytest.raises(SystemExit) as exited:
        main(['port', str(tmp_path / 'nowhere')])
    assert exited.value.code == 2
    assert 'nowhere does not exist' in capsys.readouterr().err
