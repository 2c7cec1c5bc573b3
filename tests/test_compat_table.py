"""tools/compat_table.py renders docs/compatibility.md from a folder of corpus records: here a
synthetic folder of ours (two repositories, three extensions, both levels)."""

import json
import os
import subprocess

import pytest

from tools import compat_table

RUN = {'date': '2026-11-24T17:28Z', 'machine': 'x86_64, 2 cores, torch 2.13.0+cpu, no GPU',
       'thffi_commit': 'abc1234', 'elapsed_s': 419}


def record(repo, ext, level, built, imported, correct, error=None, **more):
    rec = dict(repo=repo, key=repo.split('/')[1], commit='f9d984d27b48a067b29792932bcb5321a39c1f09',
               extension=ext, cpu_code=True, level=level, built=built, imported=imported,
               correct=correct, error=error, hand_edits=[], notes='', order=0, ext_order=0)
    rec.update(more)
    return rec


def write(folder, records, run=RUN):
    (folder / 'run.json').write_text(json.dumps(run))
    for rec in records:
        name = '%s__%s__%s.json' % (rec['key'], rec['extension'], rec['level'])
        (folder / name).write_text(json.dumps(rec))


EDIT = {'file': 'src/generic/kernel.c', 'what': 'include THCGenerateFloatType.h alone',
        'why': 'no single-type generator', 'lang': 'C'}


@pytest.fixture
def results(tmp_path):
    write(tmp_path, [
        record('us/roi', 'roi_pool', 'A', True, True, False,
               'RuntimeError: Legacy autograd function with non-static forward method is deprecated.'),
        record('us/roi', 'roi_pool', 'B', True, True, True),
        record('us/roi', 'nms', 'A', False, False, None, "nvcc fatal   : Unsupported gpu architecture 'compute_30'",
               cpu_code=False, ext_order=1, stopped_by='BuildError: extra_objects: nms.cu.o does not exist'),
        record('us/roi', 'nms', 'B', True, True, None, cpu_code=False, ext_order=1),
        record('us/roi', 'corr', 'A', True, True, False, 'AssertionError: entry points missing: corr_cuda',
               cpu_code=False, ext_order=2),
        record('us/roi', 'corr', 'B', True, True, None, cpu_code=False, ext_order=2),
        record('us/scatter', 'ffi', 'A', True, True, True, order=1, notes='Built by setup.py install.'),
        record('us/scatter', 'ffi', 'B', False, False, None, 'nvcc fatal : A single input file is required',
               order=1, hand_edits=[EDIT], commit=None),
    ])
    return tmp_path


def test_table_rows_cells_and_header(results):
    run, rows = compat_table.load(str(results))
    text = compat_table.render(run, rows)
    assert 'Run of 2026-11-24T17:28Z on x86_64, 2 cores, torch 2.13.0+cpu, no GPU; thffi abc1234; the run took 7 min.' in text
    assert '4 extensions in 2 repositories: 1 work with the `torch.utils.ffi` hook alone, 3 after' in text
    lines = [l for l in text.splitlines() if l.startswith('| us/')]
    assert lines == [
        '| us/roi @ f9d984d | roi_pool | yes | ✗ run | ✓ | none | ✓ (1e-4) |',
        '| us/roi @ f9d984d | nms | no | ✗ build | ✓ | none | — (CUDA only: built, imported, entry points) |',
        '| us/roi @ f9d984d | corr | no | ✗ entry points | ✓ | none | — (CUDA only: built, imported, entry points) |',
        '| us/scatter @ f9d984d | ffi | yes | ✓ | ✗ build | 1 (C): see below | ✓ (1e-4) |',
    ]


def test_what_failed_and_why(results):
    run, rows = compat_table.load(str(results))
    text = compat_table.render(run, rows)
    why = text[text.index('## What failed and why'):]
    assert ("- `nms`, hook alone: ✗ build — `nvcc fatal   : Unsupported gpu architecture 'compute_30'`; "
            "then `BuildError: extra_objects: nms.cu.o does not exist`") in why
    assert '- `ffi`, after port: ✗ build — `nvcc fatal : A single input file is required`' in why
    assert 'Built by setup.py install.' in why
    assert ('| ffi | src/generic/kernel.c | include THCGenerateFloatType.h alone '
            '| no single-type generator | C | not tried |') in why
    assert why.index('### us/roi') < why.index('### us/scatter')


def test_commit_from_the_checkout(results, tmp_path_factory):
    checkouts = tmp_path_factory.mktemp('checkouts')
    repo = checkouts / 'B' / 'scatter'
    repo.mkdir(parents=True)
    git = ['git', '-C', str(repo), '-c', 'user.name=t', '-c', 'user.email=t@t']
    subprocess.run(git + ['init', '-q'], check=True)
    subprocess.run(git + ['commit', '-q', '--allow-empty', '-m', 'x'], check=True)
    sha = subprocess.run(git + ['rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip()
    run, rows = compat_table.load(str(results), str(checkouts))
    assert dict(rows)[('us/scatter', 'ffi')]['B']['commit'] == sha


def test_main_writes_the_page_and_refuses_an_empty_folder(results, tmp_path_factory):
    out = tmp_path_factory.mktemp('out') / 'compatibility.md'
    compat_table.main([str(results), '--out', str(out)])
    assert out.read_text().startswith('# Compatibility')
    empty = tmp_path_factory.mktemp('empty')
    (empty / 'run.json').write_text(json.dumps(RUN))
    with pytest.raises(SystemExit, match='no records'):
        compat_table.main([str(empty), '--out', str(out)])


def test_a_record_with_a_bad_level_is_refused(results):
    write(results, [record('us/roi', 'roi_pool', 'D', True, True, True)])
    with pytest.raises(ValueError, match="level must be A, R, B or C, not 'D'"):
        compat_table.load(str(results))


def test_hand_edits_made_at_level_c_say_what_they_gave(tmp_path):
    """Level C: the edits made in a third copy after port, then the same build and check; an
    edit that is code still to be written is listed as not made."""
    wrong = 'AssertionError: RoI pooling forward differs from the PyTorch reference'
    permute = dict(EDIT, lang='Python', what='add .contiguous()')
    kernel = dict(EDIT, what='write the 3-D CPU kernel')
    write(tmp_path, [
        record('us/roi', 'roi_pool', 'A', True, True, False, wrong),
        record('us/roi', 'roi_pool', 'B', True, True, False, wrong),
        record('us/roi', 'roi_pool', 'C', True, True, True, hand_edits=[permute]),
        record('us/roi', 'roi_3d', 'B', True, True, False, 'TypeError: takes 7 positional arguments',
               ext_order=1),
        record('us/roi', 'roi_3d', 'C', False, False, None, 'hand edit not made here',
               ext_order=1, hand_edits=[kernel], checked=False),
        record('us/roi', 'nms', 'B', True, True, False, wrong, ext_order=2),
        record('us/roi', 'nms', 'C', True, True, False, wrong, ext_order=2, hand_edits=[permute]),
    ])
    run, rows = compat_table.load(str(tmp_path))
    text = compat_table.render(run, rows)
    lines = [l for l in text.splitlines() if l.startswith('| us/')]
    assert lines == [
        '| us/roi @ f9d984d | roi_pool | yes | ✗ run | ✗ run | 1 (Python), then ✓: see below | ✗ differs or raises |',
        '| us/roi @ f9d984d | roi_3d | yes | not run | ✗ run | 1 (C), not made here: see below | ✗ differs or raises |',
        '| us/roi @ f9d984d | nms | yes | not run | ✗ run | 1 (Python), then ✗ run: see below | ✗ differs or raises |',
    ]
    assert ('0 work with the `torch.utils.ffi` hook alone, 0 after `python -m thffi port`, with no '
            'file edited by hand; 1 more after `port` and the hand edits listed below.') in text
    why = text[text.index('## What failed and why'):]
    assert '| roi_pool | src/generic/kernel.c | add .contiguous() | no single-type generator | Python | ✓ built, imported, matches |' in why
    assert '| roi_3d | src/generic/kernel.c | write the 3-D CPU kernel | no single-type generator | C | not made here |' in why
    assert '| nms | src/generic/kernel.c | add .contiguous() | no single-type generator | Python | ✗ run — `%s` |' % wrong in why



def test_level_r_has_a_column_only_where_it_ran(tmp_path):
    """Level R (the steps through `thffi run`) is skipped where thffi has no `run`: no column,
    and not a failure; where it ran, its own column and count."""
    skipped = 'skipped: the thffi at this root has no `python -m thffi run`'
    write(tmp_path, [
        record('us/roi', 'nms', 'A', False, False, None, "nvcc fatal   : Unsupported gpu architecture 'compute_61'"),
        record('us/roi', 'nms', 'R', False, False, None, skipped, skipped=skipped),
        record('us/roi', 'nms', 'B', True, True, True),
    ])
    text = compat_table.render(*compat_table.load(str(tmp_path)))
    assert '| us/roi @ f9d984d | nms | yes | ✗ build | ✓ | none | ✓ (1e-4) |' in text
    assert 'thffi run' not in text
    write(tmp_path, [record('us/roi', 'nms', 'R', True, True, True)])
    text = compat_table.render(*compat_table.load(str(tmp_path)))
    assert '| hook alone (A) | `thffi run` (R) | after `port` (B) |' in text
    assert '| us/roi @ f9d984d | nms | yes | ✗ build | ✓ | ✓ | none | ✓ (1e-4) |' in text
    assert '0 work with the `torch.utils.ffi` hook alone, 1 with its steps run through `python -m thffi run`, 1 after' in text


def test_the_runs_copy_of_a_repository_is_named_checkout():
    """An error quoting the machine's path of the run's copy names it <checkout>."""
    rec = {'level': 'A', 'key': 'us+roi'}
    text = 'CUDA_curand_LIBRARY linked by target "t" in directory /tmp/scratch/A/us+roi/src; ' \
           'see /tmp/scratch/A/us+roi'
    assert compat_table.in_checkout(text, rec) == (
        'CUDA_curand_LIBRARY linked by target "t" in directory <checkout>/src; see <checkout>')
    assert compat_table.in_checkout('/tmp/scratch/B/us+roi/x', rec) == '/tmp/scratch/B/us+roi/x'
