"""tools/gpu_check.sh, the one command that proves the CUDA path on a GPU,
run here the way it runs without one (CUDA_VISIBLE_DEVICES='' hides any GPU
from torch, so this test is the same on a GPU machine): every step says it
is skipped and why, the summary and OUTDIR keep their limits, and it takes
seconds.  Its parsing of pytest's closing line and its cutting of logs to
the file limits are checked by sourcing it (sourced, it only defines)."""

import os
import subprocess
import sys
import time

from demo_support import ROOT

SCRIPT = os.path.join(ROOT, 'tools', 'gpu_check.sh')
ENV = dict(os.environ, CUDA_VISIBLE_DEVICES='', PYTHON=sys.executable)


def test_without_a_gpu_each_step_says_it_is_skipped(tmp_path):
    out = tmp_path / 'out'
    started = time.monotonic()
    ran = subprocess.run(['bash', SCRIPT, str(out)], cwd=tmp_path, env=ENV, capture_output=True,
                         text=True, timeout=120)
    took = time.monotonic() - started
    assert ran.returncode == 0, ran.stdout + ran.stderr
    summary = (out / 'summary.txt').read_text()
    assert ran.stdout == summary
    lines = summary.splitlines()
    for step in ['step 1 build and test.py', 'step 1c legacy cuSPARSE',
                 'step 2 torchvision comparisons',
                 'step 3 compute-sanitizer', 'step 4 benchmark GPU rows', 'step 1 test suite']:
        (line,) = [x for x in lines if x.startswith(step + ':')]
        assert line.startswith(step + ': skipped (no CUDA GPU visible to torch'), line
    assert 'device: none visible to torch' in lines
    assert any(x.startswith('nvidia-smi: ') for x in lines)
    assert any(x.startswith('python %s' % sys.version.split()[0]) for x in lines)
    assert lines[-1] == 'verdict: ok (every step that ran succeeded)'
    assert [p.name for p in out.iterdir()] == ['summary.txt']  # nothing built, no logs
    assert 'files: 1 under %s (limit 8' % out in summary
    assert took < 30, took  # no build, no suite


def source_and_run(tmp_path, commands):
    """Runs bash commands after sourcing the script, OUTDIR=tmp_path/out."""
    (tmp_path / 'out').mkdir(exist_ok=True)
    ran = subprocess.run(['bash', '-c', 'source "$SCRIPT"; OUTDIR=%s; %s'
                          % (tmp_path / 'out', commands)],
                         env=dict(ENV, SCRIPT=SCRIPT), capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout


def test_pytest_counts_reads_pytests_closing_line(tmp_path):
    (tmp_path / 'test_sample.py').write_text(
        'import pytest\n'
        'def test_pass(): pass\n'
        'def test_pass_too(): pass\n'
        'def test_fail(): assert False\n'
        'def test_skip(): pytest.skip("no")\n'
        '@pytest.fixture\n'
        'def broken(): raise RuntimeError\n'
        'def test_error(broken): pass\n')
    log = tmp_path / 'sample.log'
    with open(log, 'w') as f:
        subprocess.run([sys.executable, '-m', 'pytest', '-v', '-rfEs', '-p', 'no:cacheprovider',
                        str(tmp_path / 'test_sample.py')], cwd=tmp_path, stdout=f,
                       stderr=subprocess.STDOUT, timeout=120)
    assert source_and_run(tmp_path, 'pytest_counts %s' % log) == \
        '2 passed, 1 failed, 1 skipped, 1 errors\n'
    (tmp_path / 'empty.log').write_text('ImportError while loading conftest\n')
    assert source_and_run(tmp_path, 'pytest_counts %s' % (tmp_path / 'empty.log')) == \
        'no result\n'


def test_logs_are_gzipped_and_cut_to_the_limits(tmp_path):
    out = tmp_path / 'out'
    out.mkdir()
    (out / 'build.log').write_text('built\n' * 1000)               # small: gzipped whole
    (out / 'suite.log').write_bytes(os.urandom(300000).hex().encode())  # 600 kB, incompressible
    # limits lowered so that small files cross them
    stdout = source_and_run(tmp_path, 'CUT_BYTES=400000; MAX_BYTES=100000; finish; '
                                      'echo "FAILED=$FAILED"')
    assert sorted(p.name for p in out.iterdir()) == ['build.log.gz', 'suite.log.gz',
                                                     'summary.txt']
    assert 'note: suite.log cut to its first and last 200000 bytes' in stdout
    assert 'note: suite.log.gz cut to its first 100000 bytes' in stdout
    assert os.path.getsize(out / 'suite.log.gz') == 100000
    assert 'files: 3 under %s (limit 8' % out in stdout
    assert 'FAILED=0' in stdout
    unzipped = subprocess.run(['gzip', '-dc', str(out / 'build.log.gz')], capture_output=True,
                              text=True, check=True).stdout
    assert unzipped == 'built\n' * 1000


def test_missing_packages_are_requirements_txts_less_torch_and_xdist(tmp_path):
    """The packages the GPU run needs come from requirements.txt (a package
    added there is asked for there too); torch is probed apart, and pytest-xdist
    is not needed (the suite there runs in one process)."""
    root = tmp_path / 'root'
    root.mkdir()
    (root / 'requirements.txt').write_text(
        '# a comment\ntorch==2.13.0\ncffi>=1.17\nno_such_module_here>=1.0\npytest-xdist>=3.0\n'
        'numpy\nanother_missing_one[extra]  # why\n')
    found = source_and_run(tmp_path, 'ROOT=%s; PATH=%s:$PATH; missing_packages'
                           % (root, os.path.dirname(sys.executable)))
    assert found == 'no_such_module_here another_missing_one\n'
