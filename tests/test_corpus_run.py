"""tools/corpus_run.py builds and checks the corpus from a folder of checkouts and writes the
records tools/compat_table.py reads: here a repository of ours in the 2018 idiom (a build.py
calling torch.utils.ffi's create_extension, a legacy Function in functions/), committed to a git
checkout in a temporary folder, listed in a list of ours, run at level A with no network."""

import ast
import json
import os
import shutil
import subprocess
import textwrap

import pytest

from demo_support import ROOT
from tools import compat_table, corpus_run

BUILD = textwrap.dedent('''\
    from torch.utils.ffi import create_extension

    ffi = create_extension('_ext.twice', headers=['src/twice.h'], sources=['src/twice.c'],
                           relative_to=__file__, with_cuda=False)

    if __name__ == '__main__':
        ffi.build()
    ''')
HEADER = 'int twice_forward(THFloatTensor *input, THFloatTensor *output);\n'
SOURCE = textwrap.dedent('''\
    #include <TH/TH.h>

    int twice_forward(THFloatTensor *input, THFloatTensor *output)
    {
        THFloatTensor_resizeAs(output, input);
        THFloatTensor_mul(output, input, 2);
        return 1;
    }
    ''')
FUNCTION = textwrap.dedent('''\
    import torch
    from torch.autograd import Function
    from _ext import twice


    class TwiceFunction(Function):
        def forward(self, input):
            output = input.new()
            twice.twice_forward(input, output)
            return output
    ''')
CHECK = textwrap.dedent('''\
    import torch
    from corpus_check import close, extension, imported

    name = extension()
    from functions.twice import TwiceFunction
    imported()
    x = torch.randn(5, 3)
    close(name, TwiceFunction.apply(x) if {wrong} == 0 else x, 2 * x)
    ''')
# A check failing as a wrapper importing a name PyTorch removed fails: the message names the
# file of the installed PyTorch, and the copy's own folder.
LOCATED = textwrap.dedent('''\
    import os
    import torch.nn.modules.loss as loss
    raise ImportError("cannot import name '_assert_no_grad' from 'torch.nn.modules.loss' (%s), "
                      "imported by %s" % (loss.__file__, os.path.abspath('functions/twice.py')))
    ''')
LIST = textwrap.dedent('''\
    [[repository]]
    repo = "us/twice"
    commit = "{commit}"
    steps = ["python build.py", "cd nowhere"]
    notes = "README steps: python build.py."

    [[repository.extension]]
    name = "twice"
    cpu_code = true
    built = ["_ext/twice/_twice*.so"]
    check = "checks/twice.py"

    [[repository.extension]]
    name = "twice_wrong"
    cpu_code = true
    built = ["_ext/twice/_twice*.so"]
    check = "checks/twice_wrong.py"

    [[repository.extension]]
    name = "located"
    cpu_code = true
    built = ["_ext/twice/_twice*.so"]
    check = "checks/located.py"

    [[repository.extension]]
    name = "missing"
    cpu_code = false
    built = ["_ext/missing/*.so"]
    check = "checks/missing.py"
    ''')


def _git(cwd, *args):
    return subprocess.run(['git', '-C', str(cwd), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(scope='module')
def corpus(tmp_path_factory):
    """(list, checkouts) of the one repository of ours."""
    tmp = tmp_path_factory.mktemp('corpus')
    repo = tmp / 'checkouts' / 'us+twice'
    (repo / 'src').mkdir(parents=True)
    (repo / 'functions').mkdir()
    (repo / 'build.py').write_text(BUILD)
    (repo / 'src' / 'twice.h').write_text(HEADER)
    (repo / 'src' / 'twice.c').write_text(SOURCE)
    (repo / 'functions' / '__init__.py').write_text('')
    (repo / 'functions' / 'twice.py').write_text(FUNCTION)
    _git(repo.parent, 'init', '-q', 'us+twice')
    _git(repo, 'add', '.')
    _git(repo, '-c', 'user.name=us', '-c', 'user.email=us@example.org', 'commit', '-qm', 'twice')
    (tmp / 'list' / 'checks').mkdir(parents=True)
    (tmp / 'list' / 'checks' / 'twice.py').write_text(CHECK.format(wrong=0))
    (tmp / 'list' / 'checks' / 'twice_wrong.py').write_text(CHECK.format(wrong=1))
    (tmp / 'list' / 'checks' / 'missing.py').write_text('from _ext import missing\n')
    (tmp / 'list' / 'checks' / 'located.py').write_text(LOCATED)
    (tmp / 'list' / 'repositories.toml').write_text(LIST.format(commit=_git(repo, 'rev-parse',
                                                                            'HEAD')))
    return tmp / 'list' / 'repositories.toml', tmp / 'checkouts'


@pytest.fixture(scope='module')
def results(corpus, tmp_path_factory):
    listed, checkouts = corpus
    results = tmp_path_factory.mktemp('results')
    corpus_run.main([str(checkouts), str(results), '--levels', 'A', '--thffi', ROOT,
                     '--repositories', str(listed)])
    return results


def test_level_a_records_built_imported_and_checked(results):
    with open(results / 'us+twice__twice__A.json') as f:
        rec = json.load(f)
    assert (rec['repo'], rec['level'], rec['built'], rec['imported'], rec['correct']) == (
        'us/twice', 'A', True, True, True)
    assert rec['error'] is None and len(rec['commit']) == 40
    assert rec['notes'] == 'README steps: python build.py.'


def test_a_result_unlike_the_reference_is_recorded_with_its_error(results):
    with open(results / 'us+twice__twice_wrong__A.json') as f:
        rec = json.load(f)
    assert (rec['built'], rec['imported'], rec['correct']) == (True, True, False)
    assert rec['error'].startswith('AssertionError: twice_wrong differs from the PyTorch '
                                   'reference: max relative error')


def test_an_extension_not_built_carries_the_first_failed_step(results):
    with open(results / 'us+twice__missing__A.json') as f:
        rec = json.load(f)
    assert (rec['built'], rec['imported'], rec['correct']) == (False, False, None)
    assert rec['error'] == 'bash: cd: nowhere: No such file or directory'


def test_records_name_no_folder_of_the_machine(results):
    """An error naming the installed PyTorch's file and the checkout's copy says which they
    are, not where this machine keeps them."""
    with open(results / 'us+twice__located__A.json') as f:
        rec = json.load(f)
    assert (rec['built'], rec['imported']) == (True, False)
    assert rec['error'] == ("ImportError: cannot import name '_assert_no_grad' from "
                            "'torch.nn.modules.loss' (<site-packages>/torch/nn/modules/loss.py), "
                            "imported by <checkout>/functions/twice.py")


def test_compat_table_reads_the_records(results):
    run, rows = compat_table.load(str(results))
    assert run['thffi_commit'] and 'torch' in run['machine']
    text = compat_table.render(run, rows)
    assert '| us/twice @ %s | twice | yes | ✓ | not run | not determined | ✓ (1e-4) |' % (
        rows[0][1]['A']['commit'][:7]) in text


def test_a_checkout_at_another_commit_is_refused(corpus, tmp_path):
    listed, checkouts = corpus
    text = listed.read_text().replace('commit = "', 'commit = "0000000', 1)
    other = tmp_path / 'repositories.toml'
    other.write_text(text)
    (tmp_path / 'checks').symlink_to(listed.parent / 'checks')
    with pytest.raises(ValueError, match='is at [0-9a-f]{12}, the list pins 0000000'):
        corpus_run.main([str(checkouts), str(tmp_path / 'out'), '--levels', 'A',
                         '--repositories', str(other)])


def test_fetch_commands_name_the_pinned_commits():
    """The runner never fetches; it prints the user's git commands, submodules included."""
    repos = corpus_run.load_repositories(corpus_run.REPOSITORIES)
    lines = corpus_run.fetch_commands(repos, 'CHECKOUTS')
    assert lines[:2] == [
        'git clone https://github.com/pytorch/extension-ffi CHECKOUTS/pytorch+extension-ffi',
        'git -C CHECKOUTS/pytorch+extension-ffi checkout 931a9eab44b2a84c717a5e913079394c2e85242d']
    sub = corpus_run.fetch_commands([{'repo': 'us/a', 'key': 'us+a', 'commit': 'abc', 'submodule': [
        {'path': 'third/b', 'repo': 'us/b', 'commit': 'def'}]}], 'C')
    assert sub[-2:] == ['git clone https://github.com/us/b C/us+a/third/b',
                        'git -C C/us+a/third/b checkout def']


@pytest.mark.parametrize('text, first', [
    ('gcc -c x.c\nx.c:3:1: error: unknown type name ‘THFoo’\nmake: *** [all] Error 1\n',
     'x.c:3:1: error: unknown type name ‘THFoo’'),
    ('Traceback (most recent call last):\n  File "build.py", line 3\n    raise\n'
     'ValueError: CUDA is not available\n', 'ValueError: CUDA is not available'),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_30'\n",
     "nvcc fatal   : Unsupported gpu architecture 'compute_30'"),
    ('bash: line 1: ./make.sh: Permission denied\n', 'bash: line 1: ./make.sh: Permission denied'),
    ('CMake Error: The following variables are used in this project, but they are set to '
     'NOTFOUND.\nCUDA_curand_LIBRARY (ADVANCED)\n    linked by target "ctc"\n\n-- Done\n',
     'CMake Error: The following variables are used in this project, but they are set to '
     'NOTFOUND. / CUDA_curand_LIBRARY (ADVANCED) / linked by target "ctc"'),
    # setuptools' banner of asterisks around a deprecation notice is not make's `***`.
    ('*' * 80 + '\n        Please avoid running ``setup.py`` directly.\n' + '*' * 80 + '\n'
     "make: *** No rule to make target 'core'.  Stop.\n",
     "make: *** No rule to make target 'core'.  Stop."),
    # git asked for a version stamp in the runner's copy, which has no .git: not the build's.
    ('fatal: not a git repository (or any of the parent directories): .git\n-- Configuring\n'
     '/usr/bin/ld: cannot find -lcusparse: No such file or directory\n',
     '/usr/bin/ld: cannot find -lcusparse: No such file or directory'),
])
def test_the_first_error_of_a_build_output(text, first):
    assert corpus_run.errors(text)[0] == first


def test_a_failing_step_is_the_error_of_the_extensions_it_builds():
    """Where the list says which steps build an extension, another's failure is not its error."""
    failures = {1: ['nvcc fatal   : Unsupported gpu architecture \'compute_61\'',
                    'make: *** [Makefile:12: roi_align] Error 2'], 3: ['bash: cd: x: No such file']}
    assert corpus_run.failures_of({'steps': [0]}, failures) == (True, None, None)
    assert corpus_run.failures_of({'steps': [1, 2]}, failures) == (
        False, "nvcc fatal   : Unsupported gpu architecture 'compute_61'",
        'make: *** [Makefile:12: roi_align] Error 2')
    assert corpus_run.failures_of({}, failures) == (
        False, "nvcc fatal   : Unsupported gpu architecture 'compute_61'",
        'bash: cd: x: No such file')


@pytest.mark.slow  # deselected by default (conftest.py)
def test_a_later_run_replaces_the_repositorys_records_at_its_levels(corpus, results, tmp_path):
    """--only into an earlier run's folder: a record of an extension the list no longer names
    goes with the others of that repository and level; other levels' records stay."""
    listed, checkouts = corpus
    again = tmp_path / 'results'
    shutil.copytree(results, again)
    for name in ('us+twice__renamed__A.json', 'us+twice__twice__B.json'):
        (again / name).write_text('{}')
    corpus_run.main([str(checkouts), str(again), '--levels', 'A', '--thffi', ROOT,
                     '--repositories', str(listed), '--only', 'us+twice'])
    assert sorted(p.name for p in again.glob('*.json')) == [
        'run.json', 'us+twice__located__A.json', 'us+twice__missing__A.json',
        'us+twice__twice__A.json', 'us+twice__twice__B.json', 'us+twice__twice_wrong__A.json']


def test_level_c_with_only_edits_not_made_builds_nothing(tmp_path):
    """An extension whose level-C edit is code still to be written: its record says so, and
    the level copies, ports and builds nothing for it."""
    repo = {'repo': 'us/a', 'key': 'us+a', 'order': 0, 'extension': [
        {'name': 'relu', 'cpu_code': True}, {'name': 'other', 'cpu_code': True}],
        'hand_edit': [{'extension': 'relu', 'file': 'src/relu.c', 'what': 'write it',
                       'why': 'a bug', 'lang': 'C'}]}
    records = corpus_run.run_level(repo, 'C', str(tmp_path / 'no-source'), {'': 'abc'},
                                   str(tmp_path / 'scratch'), ROOT, None)
    assert [(r['extension'], r['checked'], r['error'], r['hand_edits']) for r in records] == [
        ('relu', False, 'hand edit not made here',
         [{'file': 'src/relu.c', 'what': 'write it', 'why': 'a bug', 'lang': 'C'}])]
    assert not (tmp_path / 'scratch').exists()


def test_level_r_runs_the_check_through_thffi_run():
    """At R the repository's wrapper runs as its own scripts would, under thffi run."""
    ext = {'check': '/list/checks/twice.py', 'name': 'twice'}
    assert corpus_run.check_command('/venv/bin/python', ext, 'A') == (
        '/venv/bin/python /list/checks/twice.py twice')
    assert corpus_run.check_command('/venv/bin/python', ext, 'R') == (
        '/venv/bin/python -m thffi run -- /venv/bin/python /list/checks/twice.py twice')


def test_level_r_wraps_each_step_but_cd():
    assert corpus_run.steps_script(['cd lib', 'sh make.sh', "CC=g++ python build.py"], 'R') == [
        'cd lib', "python -m thffi run -- bash -c 'sh make.sh'",
        "python -m thffi run -- bash -c 'CC=g++ python build.py'"]


def test_hand_edits_are_substitutions_made_once(tmp_path):
    """Level C's edits: `old` must occur exactly as often as the list says; an edit without a
    substitution is one not made (code still to be written), left alone."""
    (tmp_path / 'roi.py').write_text('x = features.permute(0, 2, 3, 1)\n')
    log = open(tmp_path / 'log', 'w')
    corpus_run.apply_edits([{'file': 'roi.py', 'what': 'contiguous', 'old': 'permute(0, 2, 3, 1)\n',
                             'new': 'permute(0, 2, 3, 1).contiguous()\n'},
                            {'file': 'kernel.c', 'what': 'write the 3-D kernel'}], str(tmp_path), log)
    assert (tmp_path / 'roi.py').read_text() == 'x = features.permute(0, 2, 3, 1).contiguous()\n'
    with pytest.raises(ValueError, match=r"hand edit of roi.py: 'permute\(0, 2, 3, 1\)\\n' found 0 "
                                         r"times, expected 1"):
        corpus_run.apply_edits([{'file': 'roi.py', 'what': 'again', 'old': 'permute(0, 2, 3, 1)\n',
                                 'new': ''}], str(tmp_path), log)


def test_a_hand_edit_may_set_a_scripts_exec_bit(tmp_path):
    """A script the README runs as ./make.sh, committed without its exec bit: the edit's mode."""
    script = tmp_path / 'make.sh'
    script.write_text('#!/bin/sh\necho built\n')
    script.chmod(0o644)
    log = open(tmp_path / 'log', 'w')
    corpus_run.apply_edits([{'file': 'make.sh', 'what': 'chmod +x make.sh', 'mode': '755'}],
                           str(tmp_path), log)
    assert os.access(script, os.X_OK)
    assert subprocess.run(['./make.sh'], cwd=tmp_path, capture_output=True,
                          text=True).stdout == 'built\n'


def _imported_packages(path):
    with open(path) as f:
        tree = ast.parse(f.read())
    return {alias.name.split('.')[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names} | {
        node.module.split('.')[0] for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level}


def test_the_list_is_complete():
    """Every repository of the list has steps and extensions, each with a check that exists and
    is not named as a package it imports (its folder comes first on sys.path: a check named
    sparseconvnet.py imported itself as sparseconvnet)."""
    repos = corpus_run.load_repositories(corpus_run.REPOSITORIES)
    assert len(repos) == 56  # ../shared/CORPUS.md's table
    for repo in repos:
        assert len(repo['commit']) == 40 and repo['steps'], repo['repo']
        for ext in repo['extension']:
            assert os.path.isfile(ext['check']), (repo['repo'], ext['name'])
            stem = os.path.splitext(os.path.basename(ext['check']))[0]
            assert stem not in _imported_packages(ext['check']), ext['check']
            if ext['check'].endswith('entry_points.py'):
                assert ext['module'] and ext['entry_points'], (repo['repo'], ext['name'])
        for edit in repo.get('hand_edit', []):
            assert edit['extension'] in [e['name'] for e in repo['extension']], repo['repo']
