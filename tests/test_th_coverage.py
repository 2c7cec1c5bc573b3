"""tools/th_coverage.py: what thffi provides of the TH/THC API PyTorch 0.3.1
and 0.4.1 declared (tools/th_surface/surface.tsv), against the record of
what it provided (tools/th_surface/provided.txt); and tools/gen_thmath.py's
generated TH math entry points in step with their table."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, 'tools', 'th_coverage.py')
PROVIDED = os.path.join(ROOT, 'tools', 'th_surface', 'provided.txt')


def run(*args):
    return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True)


def test_no_recorded_entry_regresses():
    out = run()
    assert out.returncode == 0, out.stdout + out.stderr
    # Both releases, both libraries, counted.
    for release in ('0.3.1', '0.4.1'):
        for lib in ('TH', 'THC'):
            assert re.search(r'^\| all \| %s \| %s \| \d{4} \| \d+ \|' % (release, lib),
                             out.stdout, re.M), out.stdout


def test_a_lost_entry_fails_by_name(tmp_path):
    record = tmp_path / 'provided.txt'
    with open(PROVIDED) as f:
        kept = f.read()
    # An entry of the surface thffi does not provide, as if it had been.
    record.write_text(kept + 'TH function THFloatTensor_not_a_th_function\n')
    out = run('--provided', str(record))
    assert out.returncode == 1
    assert '1 entries of %s are no longer provided' % record in out.stdout
    assert 'TH function THFloatTensor_not_a_th_function' in out.stdout


def test_generated_entry_points_are_in_step_with_the_table():
    out = subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'gen_thmath.py'),
                          '--check'], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
