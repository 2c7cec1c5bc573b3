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


def test_an_entry_left_out_needs_a_reason():
    sys.path.insert(0, os.path.join(ROOT, 'tools'))
    import th_coverage
    entries = [{'lib': 'TH', 'kind': 'function', 'name': 'THFile_readFloat',
                'header': 'TH/THFile.h', 'releases': '0.3.1,0.4.1'},
               {'lib': 'TH', 'kind': 'function', 'name': 'THFloatTensor_madeUp',
                'header': 'TH/generic/THTensorMadeUp.h', 'releases': '0.4.1'},
               {'lib': 'TH', 'kind': 'function', 'name': 'THFloatBlas_gemm',
                'header': 'TH/generic/THBlas.h', 'releases': '0.4.1'}]
    status = {th_coverage.key(e): e['name'] == 'THFloatBlas_gemm' for e in entries}
    rows, unexplained = th_coverage.left_out(entries, status, th_coverage.read_reasons())
    assert [e['name'] for e in unexplained] == ['THFloatTensor_madeUp']
    (row, count), = rows
    assert row['what'].startswith('`THFile`') and count == {'0.3.1': 1, '0.4.1': 1}
    assert '- `THFile`, `THDiskFile`, `THMemoryFile` (0.3.1: 1, 0.4.1: 1): ' in \
        th_coverage.render_out(rows)


def test_the_builders_table_of_left_out_names_is_in_step_with_the_record():
    """thffi/toolchain/th_left_out.tsv (the names the link check points to
    not_supported.md) is what --doc writes from the recorded status."""
    sys.path.insert(0, os.path.join(ROOT, 'tools'))
    import th_coverage
    entries = th_coverage.read_surface()
    recorded = th_coverage.read_provided()
    status = {th_coverage.key(e): th_coverage.key(e) in recorded for e in entries}
    with open(th_coverage.LEFT_OUT_TABLE) as f:
        assert f.read() == th_coverage.left_out_table(entries, status, th_coverage.read_reasons())
    from thffi.toolchain import th_left_out
    assert 'not_supported.md ("integer LAPACK")' in th_left_out.reason('THIntLapack_gesv')
    assert th_left_out.reason('THFloatTensor_resizeAs') is None  # provided
